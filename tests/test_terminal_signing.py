"""Signed terminal requests (egm.terminal_link.signing, TERMINAL-CONTRACT.md): the canonical form,
signing, verification and its refusals, the catalogue signature, and the key files."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from egm.rom.signing import generate_key_pair
from egm.terminal_link.signing import (
    HEADER_ID,
    HEADER_NONCE,
    HEADER_SIGNATURE,
    HEADER_TIMESTAMP,
    RomError,
    SignatureRefused,
    canonical_request,
    load_private_key,
    load_public_key,
    sign_catalogue,
    sign_request,
    verify_catalogue,
    verify_request,
)

NOW = 1_800_000_000
PATH = "/api/v1/terminal/rounds"
BODY = b'{"request_id":"T1-m-1-start","game_number":1}'


@pytest.fixture(scope="module")
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def signed(key: Ed25519PrivateKey, **kw: object) -> dict[str, str]:
    args = {"terminal_id": "T1", "method": "POST", "path": PATH, "body": BODY, "now": NOW,
            "nonce": "n" * 24} | kw
    return sign_request(key, **args)  # type: ignore[arg-type]


def refusal(key: Ed25519PrivateKey, headers: dict[str, str], *, method: str = "POST", path: str = PATH,
            body: bytes = BODY, now: int = NOW) -> SignatureRefused:
    with pytest.raises(SignatureRefused) as caught:
        verify_request(key.public_key(), headers, method, path, body, now)
    return caught.value


def test_canonical_form_is_the_contracts_five_lines() -> None:
    digest = hashlib.sha256(BODY).hexdigest()
    assert canonical_request("post", PATH + "?a=1", 17, "abc", BODY) == \
        f"POST\n{PATH}?a=1\n17\nabc\n{digest}".encode()
    empty = hashlib.sha256(b"").hexdigest()
    assert canonical_request("GET", "/x", 1, "n", b"").endswith(empty.encode())


def test_a_signed_request_verifies_and_names_its_terminal(key: Ed25519PrivateKey) -> None:
    headers = signed(key)
    assert set(headers) == {HEADER_ID, HEADER_TIMESTAMP, HEADER_NONCE, HEADER_SIGNATURE}
    assert headers[HEADER_TIMESTAMP] == str(NOW)
    raw = base64.urlsafe_b64decode(headers[HEADER_SIGNATURE] + "==")
    key.public_key().verify(raw, canonical_request("POST", PATH, NOW, "n" * 24, BODY))  # raises if not
    assert "=" not in headers[HEADER_SIGNATURE]
    lower = {name.lower(): value for name, value in headers.items()}  # HTTP header names: any case
    assert verify_request(key.public_key(), lower, "POST", PATH, BODY, NOW + 60) == ("T1", NOW, "n" * 24)


def test_a_fresh_nonce_each_time(key: Ed25519PrivateKey) -> None:
    first = sign_request(key, "T1", "GET", "/m", b"", NOW)[HEADER_NONCE]
    second = sign_request(key, "T1", "GET", "/m", b"", NOW)[HEADER_NONCE]
    assert first != second and 16 <= len(first) <= 64


@pytest.mark.parametrize("missing", [HEADER_ID, HEADER_TIMESTAMP, HEADER_NONCE, HEADER_SIGNATURE])
def test_a_missing_header_is_unsigned(key: Ed25519PrivateKey, missing: str) -> None:
    headers = signed(key)
    del headers[missing]
    refused = refusal(key, headers)
    assert refused.code == "unsigned" and missing in str(refused)


def test_forgeries_are_bad_signatures(key: Ed25519PrivateKey) -> None:
    other = Ed25519PrivateKey.generate()
    assert refusal(key, signed(other)).code == "bad_signature"  # another key
    assert refusal(key, signed(key), body=BODY + b" ").code == "bad_signature"  # tampered body
    assert refusal(key, signed(key), path=PATH + "/x").code == "bad_signature"  # tampered path
    assert refusal(key, signed(key), method="PUT").code == "bad_signature"  # another method
    moved = signed(key) | {HEADER_TIMESTAMP: str(NOW + 1)}  # the time changed after signing
    assert refusal(key, moved, now=NOW + 1).code == "bad_signature"
    renonced = signed(key) | {HEADER_NONCE: "m" * 24}  # a replay under a new nonce
    assert refusal(key, renonced).code == "bad_signature"


@pytest.mark.parametrize(("header", "value"), [
    (HEADER_NONCE, "short"), (HEADER_NONCE, "x" * 65), (HEADER_NONCE, "bad nonce with spaces!!"),
    (HEADER_TIMESTAMP, "12.5"), (HEADER_TIMESTAMP, "-5"), (HEADER_ID, "a b"), (HEADER_ID, ""),
    (HEADER_SIGNATURE, "AAAA"), (HEADER_SIGNATURE, "+" * 86),
])
def test_malformed_headers_are_refused_with_a_sentence(key: Ed25519PrivateKey, header: str,
                                                       value: str) -> None:
    refused = refusal(key, signed(key) | {header: value})
    assert refused.code == "bad_signature" and header in str(refused)


def test_the_window_is_sixty_seconds_either_way(key: Ed25519PrivateKey) -> None:
    headers = signed(key)
    for now in (NOW - 60, NOW + 60):
        assert verify_request(key.public_key(), headers, "POST", PATH, BODY, now)[1] == NOW
    for now in (NOW - 61, NOW + 61):
        refused = refusal(key, headers, now=now)
        assert refused.code == "stale_request" and "60 s" in str(refused)


def test_the_catalogue_signature(key: Ed25519PrivateKey) -> None:
    games = [{"id": "dragon-poker", "paytable_sha256": "ab" * 32, "bets_credits": [1, 2]}]
    kid, signature = sign_catalogue(key, games)
    assert len(kid) == 16
    assert verify_catalogue(key.public_key(), [{"bets_credits": [1, 2], "paytable_sha256": "ab" * 32,
                                                "id": "dragon-poker"}], signature)  # key order: no matter
    assert not verify_catalogue(key.public_key(), [games[0] | {"bets_credits": [1, 2, 5]}], signature)
    assert not verify_catalogue(Ed25519PrivateKey.generate().public_key(), games, signature)
    assert not verify_catalogue(key.public_key(), games, "not base64!")


def test_key_files_from_the_rom_keygen(tmp_path: Path) -> None:
    generate_key_pair(tmp_path / "t1")
    private = load_private_key(tmp_path / "t1.key")
    public = load_public_key(tmp_path / "t1.pub")
    pem = (tmp_path / "t1.pub").read_text()
    assert load_public_key(pem) == public == load_public_key(pem.encode()) == private.public_key()
    headers = sign_request(private, "T1", "GET", "/m", b"", NOW)
    assert verify_request(public, headers, "GET", "/m", b"", NOW)[0] == "T1"


def test_unusable_key_files_are_refused_with_a_sentence(tmp_path: Path) -> None:
    with pytest.raises(RomError, match="cannot read the public key"):
        load_public_key(tmp_path / "absent.pub")
    (tmp_path / "junk.pub").write_text("hello")
    with pytest.raises(RomError, match="not a PEM public key"):
        load_public_key(tmp_path / "junk.pub")
    generate_key_pair(tmp_path / "locked", b"a long enough passphrase")
    with pytest.raises(RomError, match="encrypted"):  # never asks on a terminal: a cabinet is unattended
        load_private_key(tmp_path / "locked.key")

"""Signed terminal requests (issue 30, TERMINAL-CONTRACT.md): a cabinet signs every request it sends
the game server with its Ed25519 key, and the server verifies it. Also the catalogue's signature.

The canonical form of a request is five lines, UTF-8, no final newline:

    METHOD
    /path?query          (exactly as sent)
    timestamp            (unix seconds, the X-Terminal-Timestamp header)
    nonce                (the X-Terminal-Nonce header)
    sha256(body) in hex  (of the empty string for a GET)

The signature is base64url without padding. The terminal id is not in the canonical form: it names
the key that must verify it, so another id means another key. A nonce is 16 to 64 URL-safe characters;
the server refuses one it has already seen within the window (its nonce table, not this module).

Keys are the ROM's Ed25519 PEM files (egm.rom.signing): `egm rom keygen --out PREFIX` writes a pair.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from egm.rom import signing as rom_signing
from egm.rom.signing import RomError, generate_key_pair, key_id

__all__ = [
    "HEADER_ID", "HEADER_NONCE", "HEADER_SIGNATURE", "HEADER_TIMESTAMP", "WINDOW_S", "RomError",
    "SignatureRefused", "SignedHeaders", "canonical_catalogue", "canonical_request", "generate_key_pair",
    "key_id", "load_private_key", "load_public_key", "read_headers", "sign_catalogue", "sign_request",
    "verify_catalogue", "verify_request",
]

HEADER_ID = "X-Terminal-Id"
HEADER_TIMESTAMP = "X-Terminal-Timestamp"
HEADER_NONCE = "X-Terminal-Nonce"
HEADER_SIGNATURE = "X-Terminal-Signature"
HEADERS = (HEADER_ID, HEADER_TIMESTAMP, HEADER_NONCE, HEADER_SIGNATURE)
WINDOW_S = 60  # a request is accepted this many seconds either side of the server's clock

TERMINAL_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")
TIMESTAMP = re.compile(r"[0-9]{1,12}")
SIGNATURE_B64 = re.compile(r"[A-Za-z0-9_-]{86}")  # 64 bytes, base64url without padding


class SignatureRefused(Exception):
    """A terminal request refused: `code` is the contract's (unsigned, bad_signature, stale_request,
    replayed); the message is the sentence."""

    def __init__(self, sentence: str, code: str = "bad_signature") -> None:
        super().__init__(sentence)
        self.code = code


@dataclass(frozen=True)
class SignedHeaders:
    """The four terminal headers, checked for shape (not yet for the signature)."""

    terminal_id: str
    timestamp: int
    nonce: str
    signature: bytes


def canonical_request(method: str, path: str, timestamp: int, nonce: str, body: bytes) -> bytes:
    return f"{method.upper()}\n{path}\n{timestamp}\n{nonce}\n{hashlib.sha256(body).hexdigest()}".encode()


def sign_request(private_key: Ed25519PrivateKey, terminal_id: str, method: str, path: str, body: bytes,
                 now: float, nonce: str | None = None) -> dict[str, str]:
    """The four headers of a signed request (a fresh nonce when none is given)."""
    nonce = secrets.token_urlsafe(18) if nonce is None else nonce
    timestamp = int(now)
    signature = private_key.sign(canonical_request(method, path, timestamp, nonce, body))
    return {HEADER_ID: terminal_id, HEADER_TIMESTAMP: str(timestamp), HEADER_NONCE: nonce,
            HEADER_SIGNATURE: _b64(signature)}


def read_headers(headers: Mapping[str, str]) -> SignedHeaders:
    """The terminal headers of a request; SignatureRefused (unsigned) when one is missing, and
    (bad_signature) when one is malformed. Header names are case-insensitive."""
    given = {name.lower(): value for name, value in headers.items()}
    missing = [name for name in HEADERS if name.lower() not in given]
    if missing:
        raise SignatureRefused(f"This request is not signed (no {', '.join(missing)} header); a terminal "
                               "signs every request with its key.", "unsigned")
    terminal_id, stamp, nonce, signature = (given[name.lower()] for name in HEADERS)
    if not TERMINAL_ID.fullmatch(terminal_id):
        raise SignatureRefused(f"{HEADER_ID} must be 1 to 64 letters, digits, dots, dashes or underscores.")
    if not TIMESTAMP.fullmatch(stamp):
        raise SignatureRefused(f"{HEADER_TIMESTAMP} must be the time in whole unix seconds.")
    if not NONCE.fullmatch(nonce):
        raise SignatureRefused(f"{HEADER_NONCE} must be 16 to 64 URL-safe characters (A-Z a-z 0-9 - _).")
    raw = _unb64(signature)
    if raw is None:
        raise SignatureRefused(f"{HEADER_SIGNATURE} must be an Ed25519 signature in base64url without "
                               "padding (86 characters).")
    return SignedHeaders(terminal_id, int(stamp), nonce, raw)


def verify_request(public_key: Ed25519PublicKey, headers: Mapping[str, str] | SignedHeaders, method: str,
                   path: str, body: bytes, now: float, window_s: int = WINDOW_S) -> tuple[str, int, str]:
    """(terminal_id, timestamp, nonce) of a request whose signature verifies with `public_key` and whose
    timestamp is within `window_s` of `now`; else SignatureRefused. The nonce's freshness is the
    caller's to check (the server's nonce table)."""
    signed = headers if isinstance(headers, SignedHeaders) else read_headers(headers)
    message = canonical_request(method, path, signed.timestamp, signed.nonce, body)
    try:
        public_key.verify(signed.signature, message)
    except InvalidSignature:
        raise SignatureRefused(f"The signature does not verify with the key of terminal "
                               f"'{signed.terminal_id}' for this method, path, time, nonce and body; "
                               "nothing was done.") from None
    if abs(now - signed.timestamp) > window_s:
        raise SignatureRefused(f"This request was signed at {signed.timestamp}, more than {window_s} s from "
                               f"the server's clock ({int(now)}); check the terminal's clock and send it "
                               "again, newly signed.", "stale_request")
    return signed.terminal_id, signed.timestamp, signed.nonce


# --- the catalogue's signature (the server's catalogue key) ---------------------------------------------
def canonical_catalogue(games: list[dict[str, Any]]) -> bytes:
    return json.dumps(games, sort_keys=True, separators=(",", ":")).encode()


def sign_catalogue(private_key: Ed25519PrivateKey, games: list[dict[str, Any]]) -> tuple[str, str]:
    """(key id, base64url signature) of the catalogue's games."""
    return key_id(private_key.public_key()), _b64(private_key.sign(canonical_catalogue(games)))


def verify_catalogue(public_key: Ed25519PublicKey, games: list[dict[str, Any]], signature: str) -> bool:
    raw = _unb64(signature)
    if raw is None:
        return False
    try:
        public_key.verify(raw, canonical_catalogue(games))
    except InvalidSignature:
        return False
    return True


# --- keys: the ROM's Ed25519 PEM files ---------------------------------------------------------------------
def load_private_key(path: Path | str) -> Ed25519PrivateKey:
    """A terminal's private key (unencrypted: a cabinet starts unattended); RomError with a sentence."""
    return rom_signing.load_private_key(Path(path), interactive=False)


def load_public_key(path_or_pem: Path | str | bytes) -> Ed25519PublicKey:
    """A public key from a PEM file's path, or from the PEM text itself (as the server stores it)."""
    if isinstance(path_or_pem, bytes) or (isinstance(path_or_pem, str) and "-----BEGIN" in path_or_pem):
        data = path_or_pem if isinstance(path_or_pem, bytes) else path_or_pem.encode()
        return rom_signing.public_key_from_pem(data, "the public key")
    path = Path(path_or_pem)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RomError(f"{path}: cannot read the public key ({exc.strerror}); check the path") from exc
    return rom_signing.public_key_from_pem(data, str(path))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes | None:
    if not SIGNATURE_B64.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "==")
    except binascii.Error:
        return None

"""Ed25519 keys and signatures for the ROM: key files, key ids, signature files.

Key files are PEM: the public key as SubjectPublicKeyInfo, the private key as PKCS#8, unencrypted
for the development key and encrypted with a passphrase (BestAvailableEncryption) for a production
key; the passphrase comes from a file, an environment variable or the terminal (`passphrase_from`).
A key id is the first 16 hex digits of the SHA-256 of the raw 32-byte public key. A signature file
holds the 64-byte signature as 128 hex digits and a newline.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

SIGNATURE_BYTES = 64

# The key id of keys/dev-ed25519.pub. It is part of the signed firmware (not read from keys/), so a
# kiosk cannot be talked out of refusing the development key by swapping a file.
DEVELOPMENT_KEY_ID = "28ca15449cefa0d0"


class RomError(Exception):
    """A ROM file, key or signature is unusable. The message names the file and what to do."""


def key_id(public_key: Ed25519PublicKey) -> str:
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_public_key(path: Path) -> Ed25519PublicKey:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RomError(f"{path}: cannot read the trusted public key ({exc.strerror}); check [rom] "
                       "trusted_keys in the cabinet config") from exc
    return public_key_from_pem(data, str(path))


def public_key_from_pem(data: bytes, source: str) -> Ed25519PublicKey:
    """The Ed25519 public key in PEM `data`; RomError naming `source` (a file, or what the text is)."""
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError as exc:
        raise RomError(f"{source}: not a PEM public key; use a .pub file written by "
                       "'egm rom keygen'") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise RomError(f"{source}: not an Ed25519 public key; use a .pub file written by 'egm rom keygen'")
    return key


def load_trusted_keys(paths: list[Path]) -> dict[str, Ed25519PublicKey]:
    """The trusted public keys by key id; raises RomError on an unreadable key file."""
    keys = {}
    for path in paths:
        key = load_public_key(path)
        keys[key_id(key)] = key
    return keys


MIN_PASSPHRASE = 12  # characters; a production key guards every cabinet that trusts it


def passphrase_from(file: Path | None = None, env: str | None = None, *, prompt: str = "",
                    confirm: bool = False) -> bytes:
    """A passphrase from `file` (its first line), the environment variable `env`, or else asked on
    the terminal (twice when `confirm`: a new key). RomError if it is unreadable or too short."""
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8").splitlines()[0] if file.stat().st_size else ""
        except OSError as exc:
            raise RomError(f"{file}: cannot read the passphrase file ({exc.strerror})") from exc
    elif env is not None:
        if env not in os.environ:
            raise RomError(f"the environment variable {env} holding the passphrase is not set")
        text = os.environ[env]
    else:
        text = getpass.getpass(prompt or "Passphrase: ")
        if confirm and getpass.getpass("Again: ") != text:
            raise RomError("the two passphrases differ; nothing was written")
    if confirm and len(text) < MIN_PASSPHRASE:
        raise RomError(f"the passphrase is {len(text)} characters; a production key needs at least "
                       f"{MIN_PASSPHRASE}")
    return text.encode("utf-8")


def load_private_key(path: Path, passphrase: bytes | None = None, *,
                     interactive: bool = True) -> Ed25519PrivateKey:
    """The private key in `path`; an encrypted (production) key needs its passphrase, asked on the
    terminal when not given (refused when not `interactive`: a machine that starts unattended)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RomError(f"{path}: cannot read the private key ({exc.strerror}); check --key") from exc
    try:
        try:
            key = serialization.load_pem_private_key(data, password=passphrase)
        except TypeError:  # encrypted but no passphrase given (or one given for a plain key)
            if passphrase is not None:
                key = serialization.load_pem_private_key(data, password=None)
            elif not interactive:
                raise RomError(f"{path}: the private key is encrypted and no passphrase can be "
                               "asked here; use an unencrypted key ('egm rom keygen' without "
                               "--passphrase)") from None
            else:
                asked = passphrase_from(prompt=f"Passphrase for {path}: ")
                key = serialization.load_pem_private_key(data, password=asked)
    except ValueError as exc:
        raise RomError(f"{path}: not a PEM private key, or wrong passphrase; use a .key file written "
                       "by 'egm rom keygen'") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise RomError(f"{path}: not an Ed25519 private key; use a .key file written by 'egm rom keygen'")
    return key


def generate_key_pair(prefix: Path, passphrase: bytes | None = None) -> str:
    """Write PREFIX.key (owner-only; encrypted with `passphrase` when given) and PREFIX.pub; return
    the key id. Never overwrites a key."""
    key_path, pub_path = prefix.with_name(prefix.name + ".key"), prefix.with_name(prefix.name + ".pub")
    for path in (key_path, pub_path):
        if path.exists():
            raise RomError(f"{path}: already exists; choose another --out prefix (keys are never "
                           "overwritten)")
    private = Ed25519PrivateKey.generate()
    encryption = (serialization.BestAvailableEncryption(passphrase) if passphrase
                  else serialization.NoEncryption())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    public = private.public_key()
    try:
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # owner-only from birth
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        pub_path.write_bytes(public.public_bytes(serialization.Encoding.PEM,
                                                 serialization.PublicFormat.SubjectPublicKeyInfo))
    except OSError as exc:
        raise RomError(f"{exc.filename}: cannot write the key ({exc.strerror}); check the --out "
                       "directory") from exc
    return key_id(public)


def sign_file(path: Path, key_path: Path, passphrase: bytes | None = None) -> tuple[Path, str]:
    """Write a detached signature of `path` to `path`.sig; return its path and the key id."""
    private = load_private_key(key_path, passphrase)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RomError(f"{path}: cannot read the file to sign ({exc.strerror}); check the path") from exc
    sig_path = detached_signature_path(path)
    write_signature(sig_path, private.sign(data))
    return sig_path, key_id(private.public_key())


def detached_signature_path(path: Path) -> Path:
    return path.with_name(path.name + ".sig")


def write_signature(path: Path, signature: bytes) -> None:
    path.write_text(signature.hex() + "\n", encoding="ascii")


def read_signature(path: Path) -> bytes:
    """The signature in a signature file; RomError if missing, not hex, or truncated.

    The format is strict (lower- or upper-case hex, one optional final newline): the file is
    machine-written, and any other byte in it is damage.
    """
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError as exc:
        raise RomError(f"{path}: signature file missing; sign with 'egm rom sign --key PATH'") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RomError(f"{path}: signature file unreadable ({exc}); sign again") from exc
    digits = text.removesuffix("\n")
    if not re.fullmatch(r"[0-9a-fA-F]*", digits):
        raise RomError(f"{path}: signature is not hexadecimal digits; sign again")
    if len(digits) != 2 * SIGNATURE_BYTES:
        raise RomError(f"{path}: signature is {len(digits) / 2:g} bytes ({len(digits)} hex digits), "
                       f"expected {SIGNATURE_BYTES} (truncated or damaged); sign again")
    return bytes.fromhex(digits)


def signature_valid(public_key: Ed25519PublicKey, signature: bytes, data: bytes) -> bool:
    try:
        public_key.verify(signature, data)
    except InvalidSignature:
        return False
    return True

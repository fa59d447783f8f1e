"""The seal: the wager memory's committed generation, kept a second time in a file of its own.

The seal names the memory (its random memory id) and holds the generation of the last committed
transaction, and a standing RAM error when a commit failed half-way. It is written after copy A
and before copy B of each transaction (the commit point, see `egm.memory.store`), and checked at
every boot: copies older than the seal (an old snapshot restored, a WAL file lost) or of another
memory are never adopted.

Layout: two slots of SLOT_SIZE bytes; write number n goes to slot n % 2 with one pwrite and one
fsync, so a write torn by a power cut leaves the other slot (the previous seal) intact. A slot is
a 2-byte length, a JSON payload, zero padding and an HMAC-SHA256 over all of that.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

SEAL_FILE = "seal"
SLOT_SIZE = 512
MAC_SIZE = 32
SEAL_KEY = hashlib.sha256(b"EGM wager memory seal, schema 2").digest()


class SealDamaged(Exception):
    """The seal file exists but neither slot holds a valid seal."""


@dataclass(frozen=True)
class Seal:
    memory_id: str
    generation: int
    write: int  # how many times the seal was written: the newer slot wins
    ram_error: str = ""

    def advanced(self, **changes: object) -> Seal:
        return replace(self, write=self.write + 1, **changes)  # type: ignore[arg-type]


def _encode(seal: Seal) -> bytes:
    body_size = SLOT_SIZE - MAC_SIZE
    message = seal.ram_error
    while True:  # a long RAM-error sentence is shortened to fit the slot, never the seal itself
        payload = json.dumps(asdict(replace(seal, ram_error=message)), sort_keys=True).encode()
        if len(payload) + 2 <= body_size:
            break
        message = message[: len(message) // 2]
    body = (len(payload).to_bytes(2, "big") + payload).ljust(body_size, b"\0")
    return body + hmac.new(SEAL_KEY, body, hashlib.sha256).digest()


def _decode(slot: bytes) -> Seal | None:
    if len(slot) != SLOT_SIZE:
        return None
    body, mac = slot[:-MAC_SIZE], slot[-MAC_SIZE:]
    if not hmac.compare_digest(mac, hmac.new(SEAL_KEY, body, hashlib.sha256).digest()):
        return None
    size = int.from_bytes(body[:2], "big")
    try:
        data = json.loads(body[2 : 2 + size])
        return Seal(
            str(data["memory_id"]), int(data["generation"]), int(data["write"]), str(data["ram_error"])
        )
    except (ValueError, KeyError, TypeError):
        return None


def read_seal(directory: Path) -> Seal | None:
    """The newest valid seal, or None when the directory has no seal file.

    Raises SealDamaged when the file is there but holds no valid slot, and OSError when unreadable.
    """
    path = directory / SEAL_FILE
    if not path.exists():
        return None
    data = path.read_bytes()
    seals = [s for s in (_decode(data[i * SLOT_SIZE : (i + 1) * SLOT_SIZE]) for i in (0, 1)) if s]
    if not seals:
        raise SealDamaged(f"the seal ({path}) is damaged: neither of its slots is valid")
    return max(seals, key=lambda s: s.write)


class SealWriter:
    """The seal file held open by the memory's one writer."""

    def __init__(self, directory: Path) -> None:
        path = directory / SEAL_FILE
        created = not path.exists()
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if created:
            fsync_directory(directory)

    def write(self, seal: Seal) -> None:
        """Write the seal to slot `write % 2` and make it durable (one fsync)."""
        os.pwrite(self._fd, _encode(seal), (seal.write % 2) * SLOT_SIZE)
        os.fsync(self._fd)

    def close(self) -> None:
        os.close(self._fd)


def fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

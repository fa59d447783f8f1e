"""Passwords: argon2id at OWASP's minimum cost (m=19 MiB, t=2, p=1); about 120 ms per verify here."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.low_level import Type

HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1, hash_len=32, salt_len=16,
                        type=Type.ID)
# Verified against when the login is unknown, so an unknown login costs what a wrong password does.
_DECOY = HASHER.hash("no such player: a decoy password")


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify_password(stored_hash: str | None, password: str) -> bool:
    try:
        return HASHER.verify(stored_hash or _DECOY, password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False

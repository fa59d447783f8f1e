"""The cabinet's random number generator: NIST SP 800-90A CTR_DRBG, AES-256, no derivation function.

`CtrDrbg` is the mechanism exactly as the standard defines it (Instantiate, Reseed, Generate, Update),
built on the AES block cipher from `cryptography`. `Rng` is the stream every game draws from:

* Bytes come from `CtrDrbg.generate` in requests of BLOCK_BYTES (the standard's maximum of 2^19 bits)
  and are consumed in order. So the stream is the same whether bytes are drawn one at a time by the
  reference engine or in bulk by the lab's compiled kernel: that is what makes the two bit-identical.
* `randbelow(n)` reads a 32-bit little-endian word and rejects words at or above the largest multiple
  of n up to 2^32 (unbiased rejection sampling), then returns word % n.
* `shuffle(items)` is Fisher-Yates from the top: for i = len-1 down to 1, swap items[i] with
  items[randbelow(i + 1)].

In play the DRBG is seeded from the OS (`Rng.from_os`) and reseeded from the OS when the standard's
reseed interval runs out. An explicit seed (`Rng.from_seed`) gives deterministic replay for recall,
tests and the lab; its reseeds draw from a deterministic entropy chain so replay stays exact.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, MutableSequence
from typing import TypeVar

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

KEY_BYTES = 32
BLOCK = 16
SEED_BYTES = KEY_BYTES + BLOCK  # seedlen = 384 bits
RESEED_INTERVAL = 2**48  # SP 800-90A Table 3, CTR_DRBG: maximum number of requests between reseeds
MAX_REQUEST_BYTES = 2**16  # 2^19 bits per request
BLOCK_BYTES = MAX_REQUEST_BYTES
_ZEROS = memoryview(bytes(MAX_REQUEST_BYTES))  # CTR keystream = AES-CTR of zeros (read-only)

T = TypeVar("T")


class ReseedRequired(Exception):
    pass


def _xor(a: bytes, b: bytes) -> bytes:
    if len(a) != len(b):
        raise ValueError("xor of byte strings of different lengths")
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


class CtrDrbg:
    """CTR_DRBG (AES-256, no derivation function, no prediction resistance), SP 800-90A 10.2.1."""

    def __init__(self, entropy_input: bytes, personalization: bytes = b"") -> None:
        if len(entropy_input) != SEED_BYTES:
            raise ValueError(f"entropy input must be {SEED_BYTES} bytes (seedlen) without a df")
        if len(personalization) > SEED_BYTES:
            raise ValueError(f"personalization string longer than {SEED_BYTES} bytes")
        self._key = bytes(KEY_BYTES)
        self._v = bytes(BLOCK)
        self._update(_xor(entropy_input, personalization.ljust(SEED_BYTES, b"\0")))
        self.reseed_counter = 1

    def _keystream(self, nbytes: int) -> bytes:
        """AES_K(V+1) || AES_K(V+2) || ... : CTR mode over the whole 128-bit V, then V advances."""
        counter = (int.from_bytes(self._v, "big") + 1) % 2**128
        blocks = -(-nbytes // BLOCK)
        enc = Cipher(algorithms.AES(self._key), modes.CTR(counter.to_bytes(BLOCK, "big"))).encryptor()
        out = enc.update(_ZEROS[: blocks * BLOCK])
        self._v = ((counter + blocks - 1) % 2**128).to_bytes(BLOCK, "big")
        return out if len(out) == nbytes else out[:nbytes]

    def _update(self, provided_data: bytes) -> None:
        temp = _xor(self._keystream(SEED_BYTES), provided_data)
        self._key, self._v = temp[:KEY_BYTES], temp[KEY_BYTES:]

    def reseed(self, entropy_input: bytes, additional_input: bytes = b"") -> None:
        if len(entropy_input) != SEED_BYTES or len(additional_input) > SEED_BYTES:
            raise ValueError("reseed needs seedlen bytes of entropy and at most seedlen of input")
        self._update(_xor(entropy_input, additional_input.ljust(SEED_BYTES, b"\0")))
        self.reseed_counter = 1

    def generate(self, nbytes: int, additional_input: bytes = b"") -> bytes:
        if not 0 < nbytes <= MAX_REQUEST_BYTES:
            raise ValueError(f"a request is 1 to {MAX_REQUEST_BYTES} bytes")
        if self.reseed_counter > RESEED_INTERVAL:
            raise ReseedRequired("the DRBG needs a reseed before it may generate again")
        additional = additional_input.ljust(SEED_BYTES, b"\0") if additional_input else bytes(SEED_BYTES)
        if additional_input:
            self._update(additional)
        out = self._keystream(nbytes)
        self._update(additional)
        self.reseed_counter += 1
        return out


def seed_entropy(seed: int, label: str = "") -> bytes:
    """The 48-byte entropy input for an explicit seed (replay, tests, lab)."""
    if seed < 0:
        raise ValueError("a seed is a non-negative whole number")
    return hashlib.sha384(f"EGM-DRBG-SEED:{seed}:{label}".encode()).digest()


def derive_seed(seed: int, *labels: object) -> int:
    """A child seed, e.g. for lab chunk k: derive_seed(run_seed, "chunk", k). 63 bits."""
    digest = hashlib.sha256(("/".join([str(seed), *map(str, labels)])).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Rng:
    """The random stream games draw from (see the module doc for the exact consumption rules)."""

    def __init__(self, drbg: CtrDrbg, entropy_source: Callable[[], bytes]) -> None:
        self._drbg = drbg
        self._entropy_source = entropy_source
        self._buffer = b""
        self._pos = 0
        self.bytes_drawn = 0

    @classmethod
    def from_os(cls) -> Rng:
        def fresh() -> bytes:
            return os.urandom(SEED_BYTES)

        return cls(CtrDrbg(fresh(), b"EGM cabinet"), fresh)

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        chain = iter(range(1, 2**63))

        def deterministic() -> bytes:
            return seed_entropy(seed, f"reseed-{next(chain)}")

        return cls(CtrDrbg(seed_entropy(seed)), deterministic)

    def _next_block(self) -> bytes:
        try:
            return self._drbg.generate(BLOCK_BYTES)
        except ReseedRequired:
            self._drbg.reseed(self._entropy_source())
            return self._drbg.generate(BLOCK_BYTES)

    def read(self, nbytes: int) -> bytes:
        """The next nbytes of the stream (a large read costs time in proportion to its size)."""
        if nbytes < 0:
            raise ValueError(f"cannot read {nbytes} bytes: the count must not be negative")
        end = self._pos + nbytes
        if end <= len(self._buffer):  # the common small read, from the current block
            self.bytes_drawn += nbytes
            out = self._buffer[self._pos : end]
            self._pos = end
            return out
        out = bytearray(nbytes)
        self.readinto(out)
        return bytes(out)

    def readinto(self, buffer: bytearray | memoryview) -> None:
        """Fill a writable buffer with the next len(buffer) bytes of the stream, copying once (the lab
        reads millions of words this way)."""
        view = memoryview(buffer).cast("B")
        self.bytes_drawn += len(view)
        done = 0
        while done < len(view):
            if self._pos == len(self._buffer):
                self._buffer = self._next_block()
                self._pos = 0
            take = min(len(view) - done, len(self._buffer) - self._pos)
            view[done : done + take] = memoryview(self._buffer)[self._pos : self._pos + take]
            self._pos += take
            done += take

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), 0 < n <= 2^32, by rejection sampling.

        >>> r = Rng.from_seed(1); all(0 <= r.randbelow(6) < 6 for _ in range(100))
        True
        """
        if not 0 < n <= 2**32:
            raise ValueError("randbelow needs 0 < n <= 2^32")
        limit = (2**32 // n) * n
        while True:
            word = int.from_bytes(self.read(4), "little")
            if word < limit:
                return word % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def seeded_rng(seed: int) -> Callable[[int], Rng]:
    """Deterministic replay: game number n draws from its own stream, derived from the seed."""
    return lambda number: Rng.from_seed(derive_seed(seed, "game", number))


def os_rng() -> Callable[[int], Rng]:
    """Play: every game draws from one CTR_DRBG seeded from the OS.

    `Rng` is not thread-safe, so each thread keeps its own DRBG (the cabinet has one thread, so one
    DRBG; the game server's worker threads one each). A forked process (a second server worker)
    seeds a fresh one rather than repeat its parent's stream.
    """
    local = threading.local()

    def rng_for_game(number: int) -> Rng:
        if getattr(local, "pid", None) != os.getpid():
            local.rng, local.pid = Rng.from_os(), os.getpid()
        return local.rng

    return rng_for_game

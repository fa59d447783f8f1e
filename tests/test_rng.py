"""The DRBG against NIST CAVP answers and an independent construction; the stream, ranges and shuffles."""

from __future__ import annotations

import itertools
import os
import random
import threading
from collections import Counter
from collections.abc import Iterable

import numpy as np
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from egm.rng import (
    BLOCK_BYTES,
    MAX_REQUEST_BYTES,
    RESEED_INTERVAL,
    SEED_BYTES,
    CtrDrbg,
    ReseedRequired,
    Rng,
    derive_seed,
    os_rng,
    seed_entropy,
    seeded_rng,
)

# NIST CAVP (CAVS 14.3) drbgvectors_no_reseed/CTR_DRBG.rsp, [AES-256 no df], [PredictionResistance = False],
# [EntropyInputLen = 384], [NonceLen = 0], [AdditionalInputLen = 0], [ReturnedBitsLen = 512].
# [PersonalizationStringLen = 0] COUNT 0, 1, 2, 14 and [PersonalizationStringLen = 384] COUNT 0, as
# (EntropyInput, PersonalizationString, ReturnedBits): Instantiate, Generate, Generate; the second output.
CAVP_NO_RESEED = [
    ("df5d73faa468649edda33b5cca79b0b05600419ccb7a879ddfec9db32ee494e5531b51de16a30f769262474c73bec010", "",
     "d1c07cd95af8a7f11012c84ce48bb8cb87189e99d40fccb1771c619bdf82ab22"
     "80b1dc2f2581f39164f7ac0c510494b3a43c41b7db17514c87b107ae793e01c5"),  # COUNT 0
    ("3b6fb634d35bb386927374f991c1cbc9fafba3a43c432dc411b7b2fa96cfcce8d305e135ff9bc460dbc7ba3990bf8060", "",
     "083a836fe1cde053164555529409337dc4fec6844594fdf15083ba9d1001eb94"
     "5c3b96a1bcee3990e1e51f85c80e9f4e04de34e57b640f6cae8ed68e99624712"),  # COUNT 1
    ("0217a8acf2f8e2c4ab7bdcd5a694bca28d038018869dcbe2160d1ce0b4c78ead5592efed98662f2dff87f32f4835c677", "",
     "aa36779726f52875312507fb084744d4d7f3f9468a5b246ccde316d2ab91879c"
     "2e29f5a0938a3bcd722bb718d01bbfc35831c9e64f5b6410ae908d3061f76c84"),  # COUNT 2
    ("b7f7e4e68356b2ac2c2c0075c0ef5ec6f5a6f225a18db00830261a95765771eba739a7cf8a1126c58994c43b2d28024a", "",
     "a15e8cc437a600a51dcfb778afa23d577d0e56b004f56eeb286e6c949d982bdb"
     "9353cbc63d33d7d397ceb4fea51a6df0b4d6d4cd32b9065bc4110d790c610e44"),  # COUNT 14
    ("22a89ee0e37b54ea636863d9fed10821f1952a428488d528eceb9d2ec69d573ec6216216fb3e8f72a148a5ada9d620b1",
     "953c10badcbcd45fb4e5475826477fc137ac96a49ad5005fb14bdaf6468ae7f46c5d0de22d304afc67989615adc2e983",
     "f7fab6a6fcf445f0a0434b2aa0c610bdef5489ecd95414634623add18a9f888b"
     "ca6be151312d1b9e8f83bd0acad6234d3bccc11b63a40d6fbff448f67db0b91f"),  # personalized, COUNT 0
]

# drbgvectors_pr_false/CTR_DRBG.rsp, [AES-256 no df], lengths as above, PersonalizationStringLen 0,
# COUNT 0: Instantiate, Reseed(EntropyInputReseed), Generate, Generate; the second output.
CAVP_RESEED = (
    "e4bc23c5089a19d86f4119cb3fa08c0a4991e0a1def17e101e4c14d9c323460a7c2fb58e0b086c6c57b55f56cae25bad",
    "fd85a836bba85019881e8c6bad23c9061adc75477659acaea8e4a01dfe07a1832dad1c136f59d70f8653a5dc118663d6",
    "b2cb8905c05e5950ca31895096be29ea3d5a3b82b269495554eb80fe07de43e1"
    "93b9e7c3ece73b80e062b1c1f68202fbb1c52a040ea2478864295282234aaada",
)

# Chi-square critical values at 99.9% (fixed seeds, so each test is deterministic; the margin is wide).
CHI2_999 = {5: 20.515, 12: 32.909, 23: 49.728, 51: 87.968}


@pytest.mark.parametrize(("entropy", "personalization", "returned"), CAVP_NO_RESEED)
def test_cavp_no_reseed_vectors(entropy: str, personalization: str, returned: str) -> None:
    drbg = CtrDrbg(bytes.fromhex(entropy), bytes.fromhex(personalization))
    drbg.generate(64)
    assert drbg.generate(64).hex() == returned


def test_cavp_reseed_vector() -> None:
    entropy, reseed_entropy, returned = CAVP_RESEED
    drbg = CtrDrbg(bytes.fromhex(entropy))
    drbg.reseed(bytes.fromhex(reseed_entropy))
    drbg.generate(64)
    assert drbg.generate(64).hex() == returned


class EcbCtrDrbg:
    """SP 800-90A 10.2.1 written out block by block on AES-256-ECB: an independent construction."""

    def __init__(self, entropy: bytes, personalization: bytes = b"") -> None:
        self.key, self.v = bytes(32), bytes(16)
        self.update(self.xor(entropy, personalization.ljust(48, b"\0")))

    @staticmethod
    def xor(a: bytes, b: bytes) -> bytes:
        return bytes(x ^ y for x, y in zip(a, b, strict=True))

    def block(self) -> bytes:
        self.v = ((int.from_bytes(self.v, "big") + 1) % 2**128).to_bytes(16, "big")
        encryptor = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor()
        return encryptor.update(self.v) + encryptor.finalize()

    def update(self, provided: bytes) -> None:
        temp = b"".join(self.block() for _ in range(3))
        temp = self.xor(temp, provided)
        self.key, self.v = temp[:32], temp[32:]

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        self.update(self.xor(entropy, additional.ljust(48, b"\0")))

    def generate(self, nbytes: int, additional: bytes = b"") -> bytes:
        padded = additional.ljust(48, b"\0")
        if additional:
            self.update(padded)
        out = b""
        while len(out) < nbytes:
            out += self.block()
        self.update(padded)
        return out[:nbytes]


def test_agrees_with_an_independent_ecb_construction() -> None:
    rng = random.Random(90)
    for trial in range(40):
        entropy = rng.randbytes(48)
        personalization = rng.randbytes(rng.choice([0, 1, 20, 48]))
        ours, reference = CtrDrbg(entropy, personalization), EcbCtrDrbg(entropy, personalization)
        for _ in range(6):
            if rng.random() < 0.2:
                fresh, extra = rng.randbytes(48), rng.randbytes(rng.choice([0, 5, 48]))
                ours.reseed(fresh, extra)
                reference.reseed(fresh, extra)
            nbytes = rng.choice([1, 15, 16, 17, 64, 1000, 4099])
            additional = rng.randbytes(rng.choice([0, 1, 32, 48]))
            assert ours.generate(nbytes, additional) == reference.generate(nbytes, additional), trial


def test_counter_wraps_round_the_whole_128_bit_block() -> None:
    entropy = bytes(range(48))
    ours, reference = CtrDrbg(entropy), EcbCtrDrbg(entropy)
    # Choose the first Update's output so that V = 2^128 - 2: the keystream then crosses the wrap.
    for drbg in (ours, reference):
        drbg.reseed(bytes(48))
    forced_v = (2**128 - 2).to_bytes(16, "big")
    reference.v, ours._v = forced_v, forced_v
    assert ours.generate(64) == reference.generate(64)


def test_bad_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="48 bytes"):
        CtrDrbg(bytes(47))
    with pytest.raises(ValueError, match="personalization"):
        CtrDrbg(bytes(48), bytes(49))
    drbg = CtrDrbg(bytes(48))
    for nbytes in (0, MAX_REQUEST_BYTES + 1):
        with pytest.raises(ValueError, match="request"):
            drbg.generate(nbytes)
    with pytest.raises(ValueError, match="reseed"):
        drbg.reseed(bytes(48), bytes(49))
    with pytest.raises(ValueError, match="negative"):
        Rng.from_seed(1).read(-1)
    with pytest.raises(ValueError, match="seed"):
        seed_entropy(-1)


def test_reseed_interval_is_enforced_and_the_stream_reseeds_itself() -> None:
    drbg = CtrDrbg(seed_entropy(3))
    drbg.reseed_counter = RESEED_INTERVAL + 1
    with pytest.raises(ReseedRequired):
        drbg.generate(16)

    def fresh() -> bytes:
        return seed_entropy(3, "fresh")

    exhausted = CtrDrbg(seed_entropy(3))
    exhausted.reseed_counter = RESEED_INTERVAL + 1
    stream = Rng(exhausted, fresh)
    expected = CtrDrbg(seed_entropy(3))
    expected.reseed(fresh())
    assert stream.read(100) == expected.generate(BLOCK_BYTES)[:100]
    assert exhausted.reseed_counter == 2


def test_the_same_seed_gives_the_same_stream() -> None:
    assert Rng.from_seed(11).read(5000) == Rng.from_seed(11).read(5000)
    assert Rng.from_seed(11).read(64) != Rng.from_seed(12).read(64)
    assert Rng.from_os().read(32) != Rng.from_os().read(32)
    assert derive_seed(7, "chunk", 3) == derive_seed(7, "chunk", 3) != derive_seed(7, "chunk", 4)
    assert 0 <= derive_seed(7, "chunk", 3) < 2**63


def test_bulk_reads_equal_byte_by_byte_draws_across_block_boundaries() -> None:
    sizes = [1, 3, 4, 65530, 10, 70000, 65536, 1, 200_000, 7]
    bulk = Rng.from_seed(21)
    single = Rng.from_seed(21)
    for n in sizes:
        assert bulk.read(n) == b"".join(single.read(1) for _ in range(n))
    assert bulk.bytes_drawn == single.bytes_drawn == sum(sizes)
    # The stream is the DRBG's output in requests of BLOCK_BYTES, consumed in order.
    drbg = CtrDrbg(seed_entropy(21))
    assert Rng.from_seed(21).read(3 * BLOCK_BYTES) == b"".join(drbg.generate(BLOCK_BYTES) for _ in range(3))


def test_readinto_fills_buffers_with_the_same_stream_as_read() -> None:
    sizes = [5, 65531, 4, 131_072, 9]
    into = Rng.from_seed(22)
    reads = Rng.from_seed(22)
    for n in sizes:
        buffer = bytearray(n)
        into.readinto(buffer)
        assert bytes(buffer) == reads.read(n)
    words = np.empty(1000, np.dtype("<u4"))  # the lab's kernel reads 32-bit words this way
    into.readinto(words)
    assert words.tobytes() == reads.read(4000)
    assert into.bytes_drawn == reads.bytes_drawn == sum(sizes) + 4000


def test_randbelow_words_come_from_the_stream_in_order() -> None:
    words = Rng.from_seed(8)
    raw = Rng.from_seed(8).read(4 * 1000)
    assert [words.randbelow(2**32) for _ in range(1000)] == [
        int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]


class ScriptedRng(Rng):
    """A stream that hands out chosen 32-bit words, to test the rejection rule exactly."""

    def __init__(self, words: Iterable[int]) -> None:
        self.words = iter(words)
        self.words_read = 0

    def read(self, nbytes: int) -> bytes:
        assert nbytes == 4
        self.words_read += 1
        return next(self.words).to_bytes(4, "little")


@pytest.mark.parametrize(("n", "words", "result", "words_read"), [
    (3, [2**32 - 1, 5], 2, 2),  # limit = 4294967295: the top word is rejected
    (3, [2**32 - 2], (2**32 - 2) % 3, 1),
    (2**31 + 1, [2**31 + 1, 2**32 - 1, 2**31], 2**31, 3),  # half the words are rejected
    (2**31 + 1, [2**31 + 1 - 1], 2**31, 1),
    (2**32, [2**32 - 1], 2**32 - 1, 1),  # nothing to reject
    (1, [12345], 0, 1),
    (52, [(2**32 // 52) * 52, (2**32 // 52) * 52 - 1], ((2**32 // 52) * 52 - 1) % 52, 2),
])
def test_randbelow_rejection_rule(n: int, words: list[int], result: int, words_read: int) -> None:
    stream = ScriptedRng(words)
    assert stream.randbelow(n) == result
    assert stream.words_read == words_read


@pytest.mark.parametrize("n", [0, 2**32 + 1, -3])
def test_randbelow_refuses_an_empty_or_too_wide_range(n: int) -> None:
    with pytest.raises(ValueError, match="randbelow"):
        Rng.from_seed(1).randbelow(n)


def chi_square(counts: Counter[int], cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(cells))


@pytest.mark.parametrize(("n", "draws"), [(6, 60_000), (13, 65_000), (52, 104_000)])
def test_randbelow_is_uniform(n: int, draws: int) -> None:
    rng = Rng.from_seed(1000 + n)
    counts = Counter(rng.randbelow(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    assert chi_square(counts, n, draws) < CHI2_999[n - 1]


def test_fisher_yates_gives_all_24_orders_of_4_items_equally_often() -> None:
    rng = Rng.from_seed(24)
    orders = list(itertools.permutations(range(4)))
    counts: Counter[int] = Counter()
    for _ in range(48_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        counts[orders.index(tuple(items))] += 1
    assert len(counts) == 24
    assert chi_square(counts, 24, 48_000) < CHI2_999[23]


def test_shuffle_is_fisher_yates_from_the_top() -> None:
    deck = list(range(54))
    Rng.from_seed(5).shuffle(deck)
    draws = Rng.from_seed(5)
    expected = list(range(54))
    for i in range(53, 0, -1):
        j = draws.randbelow(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected and sorted(deck) == list(range(54))


def test_seed_bytes_constant_is_seedlen() -> None:
    assert SEED_BYTES == 48 and len(seed_entropy(0)) == SEED_BYTES


def test_seeded_rng_gives_each_game_number_its_own_repeatable_stream() -> None:
    rng_for_game = seeded_rng(7)
    first = rng_for_game(1).read(32)
    assert rng_for_game(1).read(32) == first == Rng.from_seed(derive_seed(7, "game", 1)).read(32)
    assert rng_for_game(2).read(32) != first


def test_os_rng_keeps_one_drbg_per_thread() -> None:
    """Rng is not thread-safe: two threads (the game server's workers) never share one."""
    rng_for_game = os_rng()
    mine = rng_for_game(1)
    assert rng_for_game(2) is mine  # one thread: one DRBG serves every game, as on the cabinet
    theirs: list[Rng] = []
    worker = threading.Thread(target=lambda: theirs.extend([rng_for_game(3), rng_for_game(4)]))
    worker.start()
    worker.join()
    assert theirs[0] is theirs[1] and theirs[0] is not mine
    assert theirs[0].read(48) != mine.read(48)


def test_os_rng_seeds_a_fresh_drbg_in_a_forked_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked worker must not repeat its parent's stream: a new process id gets its own DRBG."""
    rng_for_game = os_rng()
    parent = rng_for_game(1)
    monkeypatch.setattr(os, "getpid", lambda: -1)
    child = rng_for_game(2)
    assert child is not parent and child.read(48) != parent.read(48)

"""The lab's RNG battery: statistical tests of the cabinet's DRBG stream, each passed at a confidence.

Every test gives a p-value: the probability that a perfect generator shows a statistic at least this
extreme. A test passes when p >= 1 - confidence (0.01 at the jurisdictions' 99%).

* chi-square: the 256 byte values are equally frequent (255 degrees of freedom).
* runs: Wald-Wolfowitz runs test on the bit stream (the number of runs of equal bits; normal z).
* serial correlation: lag-1 correlation of successive bytes (z = r * sqrt(n)).
* gap: Knuth's gap test; a byte below 64 (p = 1/4) is a mark, and the gaps between marks are
  geometric; classes 0..19 and 20 or more, chi-square with 20 degrees of freedom.
* poker: hands of 5 hex digits (nibbles); the number of distinct digits follows Stirling numbers of
  the second kind; classes {1,2}, 3, 4, 5, chi-square with 3 degrees of freedom.
* card positions: the cabinet's own shuffle (`Rng.shuffle`, Fisher-Yates) of the 54-card deck, many
  times; a 54 x 54 table of (card, position) counts against n/54 each, chi-square with 53^2 degrees
  of freedom (each row and column total is fixed).

The byte tests read the stream `Rng.read` gives; the shuffles use a second stream derived from the
seed, so both halves are reproducible for a given seed.

The statistics and p-values come from SciPy: `scipy.stats.chisquare` (chi-square, gap, poker),
`scipy.stats.chi2_contingency` (card positions) and the normal tail (runs, serial correlation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2_contingency, chisquare

from egm.cards import DECK_SIZE
from egm.lab.stats import normal_two_sided_p
from egm.rng import BLOCK_BYTES, Rng

MIN_BYTES = 10_000
GENERATOR = "CTR_DRBG (AES-256)"  # the cabinet's generator, egm/rng.py


@dataclass(frozen=True)
class TestResult:
    name: str
    statistic: float
    detail: str  # degrees of freedom or the distribution used
    p_value: float
    passed: bool

    def to_dict(self) -> dict[str, object]:
        return {"test": self.name, "statistic": self.statistic, "detail": self.detail,
                "p_value": self.p_value, "passed": self.passed}


def read_bytes(rng: Rng, nbytes: int) -> bytes:
    """`nbytes` of the stream, read in DRBG-request-sized pieces (cheap for the Rng's buffer)."""
    pieces = [rng.read(BLOCK_BYTES) for _ in range(nbytes // BLOCK_BYTES)]
    if nbytes % BLOCK_BYTES:
        pieces.append(rng.read(nbytes % BLOCK_BYTES))
    return b"".join(pieces)


def _chi_square(observed: np.ndarray, expected: np.ndarray) -> tuple[float, str, float]:
    """Pearson's chi-square of counts against expected counts (k - 1 degrees of freedom)."""
    result = chisquare(observed, expected)
    return float(result.statistic), f"df {observed.size - 1}", float(result.pvalue)


def chi_square_bytes(data: np.ndarray) -> tuple[float, str, float]:
    counts = np.bincount(data, minlength=256).astype(np.float64)
    return _chi_square(counts, np.full(256, data.size / 256))


def runs_bits(data: np.ndarray) -> tuple[float, str, float]:
    bits = np.unpackbits(data)
    n = bits.size
    ones = int(bits.sum())
    zeros = n - ones
    runs = 1 + int(np.count_nonzero(bits[1:] != bits[:-1]))
    mean = 2.0 * ones * zeros / n + 1.0
    variance = (mean - 1.0) * (mean - 2.0) / (n - 1.0)
    z = (runs - mean) / math.sqrt(variance)
    return z, "normal z", normal_two_sided_p(z)


def serial_correlation(data: np.ndarray) -> tuple[float, str, float]:
    x = data.astype(np.float64)
    r = float(np.corrcoef(x[:-1], x[1:])[0, 1])
    return r, "normal z = r sqrt(n)", normal_two_sided_p(r * math.sqrt(x.size))


def gap(data: np.ndarray, mark_below: int = 64, classes: int = 20) -> tuple[float, str, float]:
    p = mark_below / 256
    marks = np.flatnonzero(data < mark_below)
    gaps = np.diff(marks) - 1
    observed = np.bincount(np.minimum(gaps, classes), minlength=classes + 1).astype(np.float64)
    probabilities = np.array([p * (1 - p) ** r for r in range(classes)] + [(1 - p) ** classes])
    return _chi_square(observed, probabilities * gaps.size)


def _stirling2(n: int, k: int) -> int:
    return sum((-1) ** i * math.comb(k, i) * (k - i) ** n for i in range(k + 1)) // math.factorial(k)


def poker(data: np.ndarray, hand: int = 5, digits: int = 16) -> tuple[float, str, float]:
    nibbles = np.stack([data >> 4, data & 15], axis=1).ravel()
    hands = np.sort(nibbles[: nibbles.size // hand * hand].reshape(-1, hand), axis=1)
    distinct = 1 + np.count_nonzero(np.diff(hands, axis=1), axis=1)
    counts = np.bincount(distinct, minlength=hand + 1)[1:].astype(np.float64)
    probabilities = np.array([
        _stirling2(hand, r) * math.perm(digits, r) / digits**hand for r in range(1, hand + 1)
    ])
    observed = np.concatenate([[counts[0] + counts[1]], counts[2:]])
    expected = np.concatenate([[probabilities[0] + probabilities[1]], probabilities[2:]]) * hands.shape[0]
    return _chi_square(observed, expected)


def card_positions(rng: Rng, shuffles: int) -> tuple[float, str, float]:
    counts = np.zeros((DECK_SIZE, DECK_SIZE), dtype=np.int64)
    positions = np.arange(DECK_SIZE)
    for _ in range(shuffles):
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        counts[deck, positions] += 1
    # every row and column totals `shuffles`, so the expected count of each cell is shuffles / 54
    result = chi2_contingency(counts, correction=False)
    return float(result.statistic), f"df {result.dof}", float(result.pvalue)


def run_battery(byte_rng: Rng, shuffle_rng: Rng, nbytes: int, shuffles: int,
                confidence: float) -> list[TestResult]:
    """Run every test; `nbytes` of `byte_rng` feed the byte tests, `shuffle_rng` the shuffles."""
    if nbytes < MIN_BYTES:
        raise ValueError(f"the battery needs at least {MIN_BYTES} bytes; ask for more with --bytes")
    if shuffles < DECK_SIZE * 5:
        raise ValueError(f"the card-position test needs at least {DECK_SIZE * 5} shuffles (5 per cell)")
    data = np.frombuffer(read_bytes(byte_rng, nbytes), dtype=np.uint8)
    alpha = 1.0 - confidence
    tests = [
        ("chi-square (bytes)", chi_square_bytes(data)),
        ("runs (bits)", runs_bits(data)),
        ("serial correlation (bytes, lag 1)", serial_correlation(data)),
        ("gap (bytes < 64)", gap(data)),
        ("poker (5 hex digits)", poker(data)),
        (f"card positions ({shuffles} shuffles)", card_positions(shuffle_rng, shuffles)),
    ]
    return [TestResult(name, stat, detail, p, p >= alpha) for name, (stat, detail, p) in tests]

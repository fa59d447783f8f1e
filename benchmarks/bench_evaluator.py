"""Evaluator speed: ns per hand, reference (5 cards, best of 13) and compiled (best of 13 and of 8).

    python benchmarks/bench_evaluator.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from egm.cards import DECK
from egm.lab.fast_eval import best5_many
from egm.poker import best_hand, evaluate


def report(label: str, start: float, hands: int) -> None:
    print(f"{label:34} {(time.perf_counter() - start) * 1e9 / hands:12,.1f} ns per hand ({hands:,} hands)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands for the reference 5-card run")
    args = parser.parse_args()
    rng = random.Random(2026)

    fives = [rng.sample(DECK, 5) for _ in range(args.hands)]
    start = time.perf_counter()
    for hand in fives:
        evaluate(hand)
    report("reference evaluate, 5 cards:", start, len(fives))

    thirteens = [rng.sample(DECK, 13) for _ in range(max(args.hands // 50, 1))]
    start = time.perf_counter()
    for hand in thirteens:
        best_hand(hand, 5)
    report("reference best_hand, 13 cards:", start, len(thirteens))

    for size in (13, 8):
        masks = np.array([sum(1 << c.index for c in rng.sample(DECK, size)) for _ in range(args.hands * 5)],
                         np.int64)
        best5_many(masks[:10])  # compile (or load from the cache) before timing
        start = time.perf_counter()
        best5_many(masks)
        report(f"compiled best5_mask, {size} cards:", start, len(masks))

if __name__ == "__main__":
    main()

"""Evaluator speed: ns per hand, reference (5 cards, best of 13) and compiled (best of 13 and of 8).

    python benchmarks/bench_evaluator.py [--hands N] [--repeats R]

Each figure is the fastest of R timed runs (the machine is shared; the minimum is the least disturbed).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from egm.cards import DECK
from egm.lab.fast_eval import CARD_BITS, best5_many
from egm.poker import best_hand, evaluate


def report(label: str, run: Callable[[], object], hands: int, repeats: int) -> None:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    print(f"{label:34} {min(times) * 1e9 / hands:12,.1f} ns per hand ({hands:,} hands, best of {repeats})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands for the reference 5-card run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure")
    args = parser.parse_args()
    rng = random.Random(2026)

    fives = [rng.sample(DECK, 5) for _ in range(args.hands)]
    report("reference evaluate, 5 cards:", lambda: [evaluate(h) for h in fives], len(fives), args.repeats)

    thirteens = [rng.sample(DECK, 13) for _ in range(max(args.hands // 50, 1))]
    report("reference best_hand, 13 cards:", lambda: [best_hand(h, 5) for h in thirteens], len(thirteens),
           args.repeats)

    for size in (13, 8):
        masks = np.array([sum(1 << int(CARD_BITS[c.index]) for c in rng.sample(DECK, size))
                          for _ in range(args.hands * 5)], np.int64)
        best5_many(masks[:10])  # compile (or load from the cache) before timing
        report(f"compiled best5_mask, {size} cards:", lambda masks=masks: best5_many(masks), len(masks),
               args.repeats)


if __name__ == "__main__":
    main()

"""Prism Words: how much stronger the best-available strategy is than the reference, paired deal by deal.

    python tools/prism_strength.py [--games N] [--seed S] [--workers K] [--strategy NAME]

Plays N deals twice with the shipped pay table, heads-up: once with the customer's seat on the
reference (`prism-greedy/1`), once on the lab's best-available strategy (or `--strategy`), the
machine opponent unchanged. Deal i is `Rng.from_seed(derive_seed(S, "prism-strength", i))`, the same
for both, so a difference is the strategy's alone. Prints the mean paired difference per game in
units of the bet and in points of RTP (units / stake units), and in margin points, each with its 95%
interval (mean +- 1.96 x the paired differences' standard deviation / sqrt N); how many deals
differed; and each strategy's games a CPU-second.

The shipped pay table is loaded through the ROM (a signed copy, as the benchmark does).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_prism_words import signed_paytable  # noqa: E402
from egm.games.prism_words.game import PrismWords  # noqa: E402
from egm.games.prism_words.lab import PrismWordsLab  # noqa: E402
from egm.rng import Rng, derive_seed  # noqa: E402
from egm.rom import PayTable  # noqa: E402

Z95 = 1.959964


def play(args: tuple[PayTable, str, int, list[int]]) -> tuple[list[tuple[int, int]], float]:
    """(units, margin) of each deal with the customer's seat on `strategy`, and the CPU seconds."""
    paytable, strategy, seed, deals = args
    lab = PrismWordsLab()
    game = PrismWords(paytable)
    customer = lab.customer_strategy(paytable, strategy, seed)
    wager = game.default_wager(1)
    start = time.process_time()
    results = []
    for deal in deals:
        round_ = game.new_round(wager, Rng.from_seed(derive_seed(seed, "prism-strength", deal)), {})
        while not round_.finished:
            choice = round_.game.strategy(round_.table) if customer is None else customer(round_.table)
            round_.decide(round_.decision_for(choice))
        results.append((round_.outcome().win_credits // wager.bet_credits, round_.margin))
    return results, time.process_time() - start


def run(paytable: PayTable, strategy: str, seed: int, games: int, workers: int
        ) -> tuple[list[tuple[int, int]], float]:
    parts = [list(range(games))[w::workers] for w in range(workers)]
    results: list[tuple[int, int]] = [(0, 0)] * games
    cpu = 0.0
    with ProcessPoolExecutor(workers) as pool:
        jobs = [(paytable, strategy, seed, part) for part in parts]
        for part, (found, seconds) in zip(parts, pool.map(play, jobs), strict=True):
            for deal, result in zip(part, found, strict=True):
                results[deal] = result
            cpu += seconds
    return results, cpu


def interval(diffs: list[int]) -> tuple[float, float]:
    """The mean and the 95% half-width of paired differences."""
    mean = statistics.fmean(diffs)
    return mean, Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))


def main() -> None:
    lab = PrismWordsLab()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="paired deals (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--strategy", default=lab.best_strategy,
                        help=f"the customer's strategy to compare (default {lab.best_strategy})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paytable = signed_paytable(Path(tmp))
        stake = paytable.rules.stake_units  # type: ignore[attr-defined]
        reference, ref_cpu = run(paytable, lab.reference_strategy, args.seed, args.games, args.workers)
        best, best_cpu = run(paytable, args.strategy, args.seed, args.games, args.workers)
    units = [b[0] - r[0] for b, r in zip(best, reference, strict=True)]
    margins = [b[1] - r[1] for b, r in zip(best, reference, strict=True)]
    mean, half = interval(units)
    m_mean, m_half = interval(margins)
    print(f"{args.strategy} vs {lab.reference_strategy}, {args.games} paired heads-up deals "
          f"(seed {args.seed}):")
    print(f"  pay: {mean:+.3f} units a game, 95% interval [{mean - half:+.3f}, {mean + half:+.3f}]; "
          f"RTP {100 * mean / stake:+.3f} points [{100 * (mean - half) / stake:+.3f}, "
          f"{100 * (mean + half) / stake:+.3f}]")
    print(f"  margin: {m_mean:+.2f} points a game, "
          f"95% interval [{m_mean - m_half:+.2f}, {m_mean + m_half:+.2f}]")
    print(f"  deals that differ: {sum(u != 0 or m != 0 for u, m in zip(units, margins, strict=True))} "
          f"(pay higher in {sum(u > 0 for u in units)}, lower in {sum(u < 0 for u in units)})")
    print(f"  speed: {lab.reference_strategy} {args.games / ref_cpu:.1f} games a CPU-second, "
          f"{args.strategy} {args.games / best_cpu:.1f} (measured on a shared machine)")


if __name__ == "__main__":
    main()

"""Property: simulation speed, sigma, the time a certification needs, and machine decision times.

    python benchmarks/bench_property.py [--games N] [--workers K] [--decision-games M]

Prints, at the reference strategy on the shipped pay table:
* games/s of the lab's chunks on K worker processes (default 2) and per worker;
* sigma (standard deviation of the return per unit stake) and the RTP with its 95% interval;
* the games a 95% half-width of 0.2 RTP points needs, n = (1.96 sigma / 0.002)^2, and the wall time
  that takes at the measured rate (the issue's budget: 10 minutes on 2 cores);
* the machine opponents' decision times on the cabinet (each strategy call: buy, bid, jail, the
  building and mortgage dealings before a throw), p50 and p99 in milliseconds, and the customer's
  wait from a decision to the next one (machine turns included).
Figures are wall-clock: say how busy the machine was when you quote them.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from egm.config import PROJECT_ROOT
from egm.games.property.game import PropertyGame
from egm.games.property.lab import PropertyLab
from egm.games.property.strategy import MACHINE_STRATEGY
from egm.lab.stats import Z95, Tally, merge_in_order, summarize
from egm.rng import Rng, derive_seed
from egm.rom import load_paytable

PAYTABLE = PROJECT_ROOT / "paytables" / "property.toml"
CHUNK = 1_000
HALF_WIDTH = 0.002


def chunk(seed: int, games: int) -> Tally:
    return PropertyLab().run_chunk(load_paytable(PAYTABLE), MACHINE_STRATEGY, seed, games)


class Timed:
    """A strategy whose every call is timed (the machine's decisions on the cabinet)."""

    def __init__(self, strategy: Any, times: list[float]) -> None:
        self._strategy = strategy
        self._times = times
        self.name = strategy.name

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._strategy, name)

        def timed(*args: Any) -> Any:
            start = time.perf_counter()
            result = method(*args)
            self._times.append(time.perf_counter() - start)
            return result

        return timed


def decision_times(games: int) -> tuple[list[float], list[float]]:
    game = PropertyGame(load_paytable(PAYTABLE))
    machine: list[float] = []
    game.strategy = Timed(game.strategy, machine)  # type: ignore[assignment]
    waits: list[float] = []
    rng = Rng.from_seed(2)
    for _ in range(games):
        round_ = game.new_round(game.default_wager(1), rng, {})
        while not round_.finished:
            decision = round_.reference_decision()
            start = time.perf_counter()
            round_.decide(decision)
            waits.append(time.perf_counter() - start)
    return machine, waits


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="reference games (default 20,000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--decision-games", type=int, default=200, help="games timed for decisions")
    args = parser.parse_args()
    seeds = [(derive_seed(1, "chunk", k), min(CHUNK, args.games - start))
             for k, start in enumerate(range(0, args.games, CHUNK))]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        tallies = list(pool.map(chunk, *zip(*seeds, strict=True)))
    elapsed = time.perf_counter() - start
    tally = merge_in_order(tallies)
    summary = summarize(tally)
    rate = tally.games / elapsed
    needed = math.ceil((Z95 * summary.sigma / HALF_WIDTH) ** 2)
    print(f"reference {MACHINE_STRATEGY}: {tally.games:,} games in {elapsed:.1f} s on {args.workers} "
          f"workers: {rate:,.0f} games/s ({rate / args.workers:,.0f} per worker)")
    print(f"RTP {float(summary.rtp):.4%}, 95% interval {summary.ci95[0]:.4%} to {summary.ci95[1]:.4%}, "
          f"sigma {summary.sigma:.4f}")
    print(f"+-0.2 points needs n = (1.96 x {summary.sigma:.4f} / 0.002)^2 = {needed:,} games: "
          f"{needed / rate:,.0f} s at this rate on {args.workers} workers (budget 600 s)")
    machine, waits = decision_times(args.decision_games)
    print(f"machine decisions ({len(machine):,}): p50 {1000 * statistics.median(machine):.3f} ms, "
          f"p99 {1000 * percentile(machine, 0.99):.3f} ms, max {1000 * max(machine):.3f} ms")
    print(f"customer decision to the next one, machine turns included ({len(waits):,}): "
          f"p50 {1000 * statistics.median(waits):.3f} ms, p99 {1000 * percentile(waits, 0.99):.3f} ms")


if __name__ == "__main__":
    main()

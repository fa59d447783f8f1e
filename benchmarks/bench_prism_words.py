"""Prism Words speed: the lexicon's DAWG, the machine's move time and the certification's pace.

    python benchmarks/bench_prism_words.py [--games N] [--move-games M] [--workers K] [--seed S]

Prints:
* the lexicon: DAWG build time from the word list (no cache), its peak Python memory while building,
  the flat arrays' size, nodes and edges, and the time to load it from the cache;
* machine moves (the `prism-greedy/1` strategy on the cabinet, every seat of M heads-up games), in
  wall-clock and in CPU time (what the move costs when the process is not waiting for a core):
  p50, p99 and the slowest, in milliseconds;
* the reference simulation through the lab adapter on K worker processes (default 2): games/s
  (wall-clock) and games a CPU-second (the workers' CPU time), RTP, sigma (per unit stake), and the
  time `egm certify` needs for a 95% half-width of 0.2 points of RTP: n = (1.96 sigma / 0.002)^2
  games, at the wall-clock rate and on 2 cores of its own (n / (2 x games a CPU-second)); on a busy
  machine the two differ by the share of the cores the run got.

The shipped pay table is loaded through the ROM (a signed copy, so a stale development manifest does
not matter). Figures are wall-clock: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import math
import resource
import shutil
import tempfile
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.games.prism_words.game import PrismWords
from egm.games.prism_words.lab import PrismWordsLab
from egm.games.prism_words.lexicon import Lexicon, load_lexicon, read_asset, words_of
from egm.games.prism_words.strategy import MACHINE_STRATEGY, machine_move
from egm.lab.runner import plan_chunks
from egm.lab.stats import Tally, summarize
from egm.rng import Rng
from egm.rom import PayTable, load_paytable
from egm.rom.signing import sign_file

PAYTABLE = PROJECT_ROOT / "paytables" / "prism-words.toml"
HALF_WIDTH = 0.002  # 0.2 points of RTP


def signed_paytable(folder: Path) -> PayTable:
    """The shipped pay table and its assets, signed in `folder` and loaded through the ROM."""
    shutil.copytree(PAYTABLE.parent / "assets", folder / "assets")
    copy = folder / PAYTABLE.name
    shutil.copyfile(PAYTABLE, copy)
    sign_file(copy, PROJECT_ROOT / "keys" / "dev-ed25519.key")
    return load_paytable(copy)


def lexicon_figures(paytable: PayTable, folder: Path) -> None:
    rules = paytable.rules
    path = Path(paytable.path).parent / rules.lexicon  # type: ignore[attr-defined]
    words = words_of(read_asset(path, rules.lexicon_sha256))  # type: ignore[attr-defined]
    tracemalloc.start()
    start = time.perf_counter()
    lexicon = Lexicon.from_words(words)
    build = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cache = folder / "cache"
    load_lexicon(path, rules.lexicon_sha256, cache_dir=cache)  # type: ignore[attr-defined]
    start = time.perf_counter()
    load_lexicon(path, rules.lexicon_sha256, cache_dir=cache)  # type: ignore[attr-defined]
    cached = time.perf_counter() - start
    print(f"lexicon: {len(words):,} words -> DAWG of {lexicon.node_count:,} nodes and "
          f"{len(lexicon.target):,} edges, {lexicon.nbytes / 1e6:.2f} MB of flat arrays")
    print(f"lexicon: built in {build:.2f} s (peak {peak / 1e6:.0f} MB of Python objects while building); "
          f"loaded from the cache in {cached * 1000:.0f} ms")


def percentiles(times: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the largest, in milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return ordered[len(ordered) // 2] * 1000, p99 * 1000, ordered[-1] * 1000


def move_figures(paytable: PayTable, games: int) -> None:
    game = PrismWords(paytable)
    wall, cpu = [], []
    for seed in range(games):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        table = round_.table
        while not round_.finished:
            start, start_cpu = time.perf_counter(), time.process_time()
            choice = machine_move(table)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            round_.apply(table.turn, choice)
    for name, times in (("wall-clock", wall), ("CPU time", cpu)):
        p50, p99, top = percentiles(times)
        print(f"machine moves ({MACHINE_STRATEGY}), {name}: {len(times)} moves of {games} games: "
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, slowest {top:.1f} ms")


def chunk(args: tuple[PayTable, int, int]) -> Tally:
    paytable, seed, games = args
    return PrismWordsLab().run_chunk(paytable, MACHINE_STRATEGY, seed, games)


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def certify_figures(paytable: PayTable, games: int, workers: int, seed: int) -> None:
    lab = PrismWordsLab()
    lab.warm_up(paytable)
    chunks = plan_chunks(seed, games, lab.chunk_games(MACHINE_STRATEGY))
    tally = Tally()
    cpu_before = children_cpu_seconds()
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(chunk, [(paytable, 0, 1)] * workers))  # each worker loads the lexicon and compiles
        start = time.perf_counter()
        for part in pool.map(chunk, [(paytable, c.seed, c.games) for c in chunks]):
            tally.merge(part)
        elapsed = time.perf_counter() - start
    cpu = children_cpu_seconds() - cpu_before  # the workers' CPU time (counted once they have ended)
    summary = summarize(tally)
    rate = tally.games / elapsed
    per_core = tally.games / cpu
    needed = (1.959964 * summary.sigma / HALF_WIDTH) ** 2
    print(f"reference simulation: {tally.games} games on {workers} workers in {elapsed:.1f} s wall-clock: "
          f"{rate:.1f} games/s; {cpu:.1f} CPU-seconds: {per_core:.1f} games a CPU-second")
    print(f"RTP {float(summary.rtp):.4f}, 95% interval [{summary.ci95[0]:.4f}, {summary.ci95[1]:.4f}], "
          f"sigma {summary.sigma:.4f}, results {dict(tally.results)}")
    print(f"time to +-0.2 points: n = (1.96 x {summary.sigma:.4f} / 0.002)^2 = {needed:,.0f} games: "
          f"{needed / rate:.0f} s at the wall-clock rate measured here; {needed / (2 * per_core):.0f} s on 2 "
          f"cores of our own (the CPU time it takes, over 2); the target is 600 s")
    print("share of games with the award: " + ", ".join(f"{name} {count / tally.games:.2f}"
                                                       for name, count in sorted(tally.awards.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="reference games for the simulation figures")
    parser.add_argument("--move-games", type=int, default=30, help="games whose machine moves are timed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2: the target)")
    parser.add_argument("--seed", type=int, default=1, help="run seed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paytable = signed_paytable(Path(tmp))
        lexicon_figures(paytable, Path(tmp))
        move_figures(paytable, args.move_games)
        certify_figures(paytable, args.games, args.workers, args.seed)
    print("(wall-clock figures: on a busy machine they are lower bounds of the speed)")


if __name__ == "__main__":
    main()

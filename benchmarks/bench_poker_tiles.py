"""Poker Tiles speed: certification throughput and the machine opponent's move time.

    python benchmarks/bench_poker_tiles.py [--games N] [--workers K] [--move-games M] [--seed S]

Prints, for the shipped pay table loaded through the ROM:
* games/s of the reference strategy through the lab's chunked process pool on K workers (default 2),
  what `egm certify` does; the RTP, its 95% half-width and sigma of that run; the games a 95%
  half-width of 0.1 RTP points needs, n = (1.96 sigma / 0.001)^2, and the time they take at that rate
  (the target: 600 s on 2 cores);
* the machine opponent's move time on the cabinet (one process, every machine turn of M games,
  `PokerTiles.strategy` on the live table): p50, p99 and the largest (the target: p99 <= 150 ms);
* where the time goes: at each of those turns, the CPU time of listing every play of the rack
  (`legal_plays`, what the lookahead and the random player use) and of the machine strategy's
  best-play search (`highest_play`), by the jokers the rack holds.

Wall-clock figures: run it on a quiet machine, and say how busy it was.
"""

from __future__ import annotations

import argparse
import math
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.games.poker_tiles.engine import JOKER
from egm.games.poker_tiles.game import PokerTiles
from egm.games.poker_tiles.lab import PokerTilesLab
from egm.games.poker_tiles.strategy import MACHINE_STRATEGY, leave_table
from egm.games.poker_tiles.table import Table, highest_play, legal_plays
from egm.lab.runner import plan_chunks, run
from egm.lab.stats import Z95, summarize
from egm.rng import Rng
from egm.rom import PayTable, load_paytable
from egm.rom.signing import sign_file

PAYTABLE = PROJECT_ROOT / "paytables" / "poker-tiles.toml"
TARGET_HALF_WIDTH = 0.001
TARGET_SECONDS = 600


def signed_paytable(folder: Path) -> PayTable:
    """The shipped pay table through the ROM (a signed copy, so a stale development manifest does not
    matter)."""
    copy = folder / PAYTABLE.name
    shutil.copyfile(PAYTABLE, copy)
    sign_file(copy, PROJECT_ROOT / "keys" / "dev-ed25519.key")
    return load_paytable(copy)


def certification_rate(paytable: PayTable, games: int, workers: int, seed: int) -> None:
    lab = PokerTilesLab()
    lab.warm_up(paytable)
    chunks = plan_chunks(seed, games, lab.chunk_games(MACHINE_STRATEGY))
    result = run(lab.game_id, paytable, MACHINE_STRATEGY, chunks, workers=workers)
    summary = summarize(result.tally)
    rate = result.games_per_second
    half = (summary.ci95[1] - summary.ci95[0]) / 2
    needed = math.ceil((Z95 * summary.sigma / TARGET_HALF_WIDTH) ** 2)
    print(f"reference {MACHINE_STRATEGY}, {summary.games} games on {workers} workers: {rate:.1f} games/s")
    print(f"  RTP {float(summary.rtp):.4%} +- {half:.4%} (95%), sigma {summary.sigma:.4f} per unit stake")
    print(f"  games for +-0.1 points: (1.96 x {summary.sigma:.4f} / 0.001)^2 = {needed}; "
          f"at {rate:.1f} games/s that is {needed / rate:.0f} s (target {TARGET_SECONDS} s)")


def move_times(paytable: PayTable, games: int, seed: int) -> None:
    game = PokerTiles(paytable)
    wager = game.default_wager(paytable.header.denominations_cents[0])
    rng = Rng.from_seed(seed)
    times = []
    by_jokers: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, 0])
    for _ in range(games):
        round_ = game.new_round(wager, rng, {})
        table = round_.table
        while not round_.finished:
            # time each turn of the strategy on the live table (the machine's, and the customer's
            # reference turn, which is the same computation)
            start = time.perf_counter()
            kind, args = game.strategy(table)
            times.append(time.perf_counter() - start)
            profile_generator(table, by_jokers[table.racks[table.turn].count(JOKER)])
            table.apply(table.turn, kind, args)
    times.sort()

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] * 1000

    print(f"machine move ({len(times)} moves of {games} games, one process): p50 {at(0.5):.2f} ms, "
          f"p99 {at(0.99):.2f} ms, max {times[-1] * 1000:.2f} ms (target p99 <= 150 ms)")
    print("generator CPU time by jokers in the rack: every play listed (generate) / the best-play search")
    print(f"{'jokers':>6} {'turns':>6} {'plays':>7} {'list: mean':>11} {'max':>8} {'search: mean':>13} "
          f"{'max':>8} {'total':>15}")
    for jokers, (turns, full, full_max, best, best_max, plays) in sorted(by_jokers.items()):
        print(f"{jokers:>6} {turns:>6} {plays / turns:>7.0f} {full / turns * 1000:>8.2f} ms "
              f"{full_max * 1000:>5.1f} ms {best / turns * 1000:>10.2f} ms {best_max * 1000:>5.1f} ms "
              f"{full:>6.2f} / {best:.2f} s")


def profile_generator(table: Table, into: list[float]) -> None:
    """CPU time of listing every play of the seat to move and of the best-play search, added to `into`
    (turns, list total, list max, search total, search max, plays listed)."""
    rack = table.racks[table.turn]
    start = time.process_time()
    plays = legal_plays(table.layout, table.face, rack)
    listed = time.process_time() - start
    start = time.process_time()
    highest_play(table.layout, table.face, rack, leave_table(table))
    searched = time.process_time() - start
    into[0] += 1
    into[1] += listed
    into[2] = max(into[2], listed)
    into[3] += searched
    into[4] = max(into[4], searched)
    into[5] += len(plays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games for the throughput run")
    parser.add_argument("--workers", type=int, default=2, help="lab worker processes")
    parser.add_argument("--move-games", type=int, default=100, help="games whose machine moves are timed")
    parser.add_argument("--seed", type=int, default=1, help="run seed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paytable = signed_paytable(Path(folder))
        move_times(paytable, args.move_games, args.seed)
        certification_rate(paytable, args.games, args.workers, args.seed)


if __name__ == "__main__":
    main()

"""Certification speed: games/s of the lab's simulation, DRBG included.

    python benchmarks/bench_certify.py [--games N] [--reference-games M] [--workers K]
    python benchmarks/bench_certify.py --game poker-grid [--games N] [--paytable FILE]
    python benchmarks/bench_certify.py --game poker-tiles [--games N] [--paytable FILE]

Dragon Poker (the default): games/s of the reference engine (the cabinet's `Game`, one process); of
the kernel in one process (one chunk); and of the kernel through the lab's chunked process pool on K
workers (default all cores), which is what `egm certify` does.

Poker Grid: for each strategy (reference, best available, lower bound), games/s on 1 process (one
chunk after a warm-up) and on 2 through the lab's process pool, sigma, and the time to a 95% half-width
of 0.1 RTP points at that sigma and the 2-process rate. Poker Tiles: the same for its reference
strategy (the one the certify run's interval is set by; its lookahead is a short run by design).
Each rate is given twice: by wall clock, and by CPU time (games / CPU seconds per process), which
is what the machine gives when it is not shared; the time to +-0.1 points is worked out from both.
Run it on a quiet machine for wall-clock figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.games.base import play_reference
from egm.games.dragon_poker.game import DEFAULT_PAYTABLE, DragonPoker
from egm.games.dragon_poker.lab import HOUSE_WAY, DragonPokerLab
from egm.games.dragon_poker.lab import kernel as dragon_kernel
from egm.lab.adapters import adapter_for
from egm.lab.certify import needed_games
from egm.lab.runner import plan_chunks, run
from egm.lab.stats import summarize
from egm.rng import Rng
from egm.rom import PayTable, load_paytable
from egm.rom.signing import sign_file


def signed_paytable(folder: Path, source: Path = DEFAULT_PAYTABLE) -> PayTable:
    """A shipped pay table, loaded through the ROM (a signed copy in `folder`, so a stale development
    manifest does not matter)."""
    copy = folder / source.name
    shutil.copyfile(source, copy)
    sign_file(copy, PROJECT_ROOT / "keys" / "dev-ed25519.key")
    return load_paytable(copy)


def reference_rate(paytable: PayTable, games: int) -> float:
    game = DragonPoker(paytable)
    wager = game.default_wager(paytable.header.denominations_cents[0])
    rng = Rng.from_seed(1)
    pools: dict[str, int] = {}
    start = time.perf_counter()
    for _ in range(games):
        pools = dict(play_reference(game.new_round(wager, rng, pools)).pools_cents)
    return games / (time.perf_counter() - start)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def board_game(paytable: PayTable, games: int, reference_only: bool) -> None:
    adapter = adapter_for(paytable.game)
    strategies = [adapter.reference_strategy]
    if not reference_only:
        strategies += [adapter.best_strategy, adapter.lower_strategy]
    print(f"{paytable.game}, pay table {paytable.id}; {games:,} games per strategy on 2 processes "
          f"(the lower bound a quarter of that)")
    print(f"{'strategy':<18} {'1 process':>21} {'2 processes':>21} {'sigma':>7} {'time to +-0.1 points':>24}")
    print(f"{'':<18} {'wall':>10} {'CPU':>10} {'wall':>10} {'CPU':>10} {'':>7} {'wall':>11} {'CPU':>12}")
    for strategy in strategies:
        if strategy is None:
            continue
        count = games if strategy != adapter.lower_strategy else games // 4
        chunk = adapter.chunk_games(strategy)
        adapter.run_chunk(paytable, strategy, 0, 2)  # compile or load the compiled code first
        wall, cpu = time.perf_counter(), time.process_time()
        adapter.run_chunk(paytable, strategy, 1, chunk)
        one_wall, one_cpu = chunk / (time.perf_counter() - wall), chunk / (time.process_time() - cpu)
        before = children_cpu()
        result = run(paytable.game, paytable, strategy, plan_chunks(1, count, chunk), workers=2)
        two_cpu = 2 * result.tally.games / (children_cpu() - before)
        sigma = summarize(result.tally).sigma
        needed = needed_games(sigma)
        print(f"{strategy:<18} {one_wall:>10,.0f} {one_cpu:>10,.0f} {result.games_per_second:>10,.0f} "
              f"{two_cpu:>10,.0f} {sigma:>7.3f} {needed / result.games_per_second / 60:>8,.1f} min "
              f"{needed / two_cpu / 60:>8,.1f} min")
    print("games/s; CPU: games per CPU-second of each process (what 1 or 2 idle cores give); "
          f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


# game: (default games, reference strategy only)
BOARD_GAMES = {"poker-grid": (20_000, False), "poker-tiles": (1_000, True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["dragon-poker", *BOARD_GAMES], default="dragon-poker")
    parser.add_argument("--paytable", type=Path, help="board game pay table (default: the shipped one)")
    parser.add_argument("--games", type=int, help="kernel games (Dragon Poker 2,000,000; Poker Grid 20,000; "
                        "Poker Tiles 1,000)")
    parser.add_argument("--reference-games", type=int, default=2_000, help="reference games (default 2,000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.game in BOARD_GAMES:
        games, reference_only = BOARD_GAMES[args.game]
        with tempfile.TemporaryDirectory() as folder:
            source = args.paytable or PROJECT_ROOT / "paytables" / f"{args.game}.toml"
            board_game(signed_paytable(Path(folder), source), args.games or games, reference_only)
        return
    args.games = args.games or 2_000_000
    with tempfile.TemporaryDirectory() as folder:
        paytable = signed_paytable(Path(folder))
    dragon_kernel.warm_up(paytable.rules)

    ref = reference_rate(paytable, args.reference_games)
    print(f"reference engine (cabinet Game, 1 process):      {ref:>12,.0f} games/s")

    adapter = DragonPokerLab()
    one = adapter.chunk_games(HOUSE_WAY)
    start = time.perf_counter()
    adapter.run_chunk(paytable, HOUSE_WAY, 1, one)
    single = one / (time.perf_counter() - start)
    print(f"kernel, 1 process, DRBG + tally included:        {single:>12,.0f} games/s")

    result = run(paytable.game, paytable, HOUSE_WAY, plan_chunks(1, args.games, one), workers=args.workers)
    print(f"kernel, lab process pool, {args.workers} workers, {args.games:,} games: "
          f"{result.games_per_second:>12,.0f} games/s")
    print(f"speed-up of the pool over the reference engine: {result.games_per_second / ref:,.0f}x")


if __name__ == "__main__":
    main()

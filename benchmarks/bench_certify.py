"""Dragon Poker simulation speed: the plain reference engine vs the compiled kernel, DRBG included.

    python benchmarks/bench_certify.py [--games N] [--reference-games M] [--workers K]

Prints games/s for: the reference engine (the cabinet's `Game`, one process); the kernel in one
process (one chunk); and the kernel through the lab's chunked process pool on K workers (default all
cores), which is what `egm certify` does. Run it on a quiet machine: the figures are wall-clock.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.games.base import play_reference
from egm.games.dragon_poker.game import DEFAULT_PAYTABLE, DragonPoker
from egm.games.dragon_poker.lab import HOUSE_WAY, DragonPokerLab
from egm.games.dragon_poker.lab import kernel as dragon_kernel
from egm.lab.runner import plan_chunks, run
from egm.rng import Rng
from egm.rom import PayTable, load_paytable
from egm.rom.signing import sign_file


def signed_paytable(folder: Path) -> PayTable:
    """The shipped pay table, loaded through the ROM (a signed copy in `folder`, so a stale development
    manifest does not matter)."""
    copy = folder / "dragon-poker.toml"
    shutil.copyfile(DEFAULT_PAYTABLE, copy)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000, help="kernel games (default 2,000,000)")
    parser.add_argument("--reference-games", type=int, default=2_000, help="reference games (default 2,000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
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

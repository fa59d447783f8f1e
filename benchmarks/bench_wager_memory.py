"""Wager-memory speed: autoplay throughput with full persistence, and one transaction's commit latency.

    python benchmarks/bench_wager_memory.py [--games 300] [--commits 2000] [--game dragon-poker]

Prints figures; asserts nothing about time. Each commit is one transaction written to copy A, the
seal and copy B, in that order (WAL, synchronous=FULL: three fsyncs; docs/wager-memory.md, "The commit
rule"). Target: p99 commit latency under 10 ms. The last figure compares one copy's write in WAL mode
with a rollback journal (TRUNCATE), where a committed transaction is always in the main file.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from egm.cabinet import build_cabinet
from egm.cabinet_cli import autoplay
from egm.clock import FakeClock
from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.memory.store import WagerMemory
from egm.rom.manifest import sign_manifest, write_manifest

DEV_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"


def signed_config(workdir: Path):
    """The default cabinet config, pointing at a freshly signed manifest of the current tree."""
    manifest = workdir / "manifest.json"
    write_manifest(manifest, PROJECT_ROOT)
    sign_manifest(manifest, DEV_KEY)
    base = load_cabinet_config()
    public_key = str(DEV_KEY.with_suffix(".pub"))
    rom = base.rom.model_copy(update={"manifest": str(manifest), "trusted_keys": [public_key]})
    return base.model_copy(update={"rom": rom})


def bench_autoplay(workdir: Path, game: str, games: int) -> None:
    config = signed_config(workdir)
    cabinet = build_cabinet(config, workdir / "nvram", game_ids=[game], seed=1)
    started = time.perf_counter()
    report, code = autoplay(cabinet, game, games, 10000)
    elapsed = time.perf_counter() - started
    assert code == 0, report
    print(
        f"autoplay {game}: {games} games in {elapsed:.2f} s = {games / elapsed:.1f} games/s "
        f"(boot, ROM self-test, every step committed to both copies, cash-out)"
    )


def bench_commits(workdir: Path, commits: int) -> None:
    memory = WagerMemory.open(workdir / "commits", clock=FakeClock(), event_log_size=500, recall_depth=10)
    latencies = []
    for i in range(commits):
        started = time.perf_counter()
        with memory.transaction() as tx:
            tx.meters.add("coin_in", 100)
            tx.meters.add("bills_in", 100)
            tx.set("game", {"step": i, "cards": list(range(54))})
        latencies.append(time.perf_counter() - started)
    memory.close()
    latencies.sort()
    p99 = latencies[int(0.99 * len(latencies)) - 1]
    print(
        f"commit latency over {commits} transactions: median {statistics.median(latencies) * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms, max {latencies[-1] * 1000:.2f} ms (target p99 < 10 ms)"
    )


def bench_journal_modes(workdir: Path, commits: int) -> None:
    """One copy's commit alone, as the store writes it (a record upsert and an event), per journal mode."""
    for mode in ("WAL", "TRUNCATE"):
        conn = sqlite3.connect(workdir / f"journal-{mode}.db", isolation_level=None)
        conn.execute(f"PRAGMA journal_mode={mode}")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE records (name TEXT PRIMARY KEY, payload TEXT)")
        conn.execute("CREATE TABLE events (key INTEGER PRIMARY KEY, payload TEXT)")
        latencies = []
        for i in range(commits):
            payload = json.dumps({"step": i, "cards": list(range(54))})
            started = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT OR REPLACE INTO records VALUES ('game', ?)", (payload,))
            conn.execute("INSERT INTO events VALUES (?, ?)", (i, payload))
            conn.execute("COMMIT")
            latencies.append(time.perf_counter() - started)
        conn.close()
        latencies.sort()
        p99 = latencies[int(0.99 * len(latencies)) - 1]
        print(
            f"one copy's commit, journal_mode={mode}: median {statistics.median(latencies) * 1000:.2f} ms, "
            f"p99 {p99 * 1000:.2f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--game", default="dragon-poker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench_autoplay(Path(tmp), args.game, args.games)
        bench_commits(Path(tmp), args.commits)
        bench_journal_modes(Path(tmp), args.commits)


if __name__ == "__main__":
    main()

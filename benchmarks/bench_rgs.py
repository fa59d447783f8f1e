"""The game server under load, one instance and then two on one PostgreSQL (the scale-out ratio).

    python benchmarks/bench_rgs.py [--players 16] [--rounds 10] [--game dragon-poker]

Starts a throwaway PostgreSQL (as the tests do), one server instance, runs tools/rgs_load.py against
it; then two instances on the same database (players spread over both, each player's websocket on the
other instance), and prints both reports and the ratio of rounds per second.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.browser_support import ServerProcess  # noqa: E402  (the tests' real-process launcher)
from tests.rom_support import ensure_compiled_build  # noqa: E402
from tests.server_support import PgCluster, _pg_bin  # noqa: E402


def load(urls: list[str], db_url: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, str(ROOT / "tools" / "rgs_load.py"), "--players", str(args.players),
               "--rounds", str(args.rounds), "--game", args.game, "--db", db_url, "--json",
               "--deadline", "600"]
    for url in urls:
        command += ["--url", url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    return dict(json.loads(done.stdout))


def show(report: dict) -> None:
    print(f"{report['instances']} instance(s): {report['rounds_complete']} {report['game']} rounds, "
          f"{report['rounds_per_second']:.1f} rounds/s, errors {report['errors']}, "
          f"audit exit {report['audit']['exit']}")
    for route in ("start", "decision"):
        f = report["routes"][route]
        print(f"  {route:8} p50 {f['p50_ms']:6.1f} ms  p95 {f['p95_ms']:6.1f} ms  p99 {f['p99_ms']:6.1f} ms")
    push = report["push"]
    print(f"  push     p50 {push['p50_ms']:6.1f} ms  p99 {push['p99_ms']:6.1f} ms  (n={push['count']})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--game", default="dragon-poker")
    args = parser.parse_args()
    ensure_compiled_build()  # the servers load the ROM's compiled engines, as in production
    cluster = PgCluster(_pg_bin())
    reports = []
    try:
        for instances in (1, 2):
            db_url = cluster.url(cluster.create_database())
            workdir = Path(tempfile.mkdtemp(prefix="bench-rgs-"))
            servers = [ServerProcess(db_url, workdir).start() for _ in range(instances)]
            try:
                reports.append(load([s.base for s in servers], db_url, args))
            finally:
                for server in servers:
                    server.stop()
            show(reports[-1])
    finally:
        cluster.stop()
    print(f"two instances / one: {reports[1]['rounds_per_second'] / reports[0]['rounds_per_second']:.2f}x "
          "rounds per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())

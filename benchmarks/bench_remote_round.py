"""What the central game server adds to a cabinet's round (issue 30): a Dragon Poker round played on a
headless cabinet locally, then the same on a cabinet that takes its rounds from a real `egm server` on
127.0.0.1 (SQLite, WAL, synchronous=FULL), each round timed from DEAL to the settlement committed.

    python benchmarks/bench_remote_round.py [--rounds 200] [--game dragon-poker] [--split] [--db URL]

Both cabinets commit every step to their own wager memory; the remote one also sends each start and
decision to the server (signed) and waits for its answer through the link's thread. Prints JSON: p50,
p95 and p99 in ms of each, what the server adds at p50 and p99 (target: at most +30 ms p99), and the
time the remote cabinet spent waiting for the server's answers per round (the server's share), and the
load average before and after (the machine is shared: read every figure beside it). `--split` also
times each HTTP exchange as the link's thread sees it (signing, sending, the server, the reply read):
`exchange_ms` per request, and per round the rest of the waiting (`handoffs_and_answer_commits_ms`:
the thread hand-offs and the commits of the answers) and the cabinet's own work outside the waiting
(`cabinet_ms`: its commits before each request, the signatures' keys, the shell). `--db`: the
server's database (an empty PostgreSQL database, say; default a SQLite file in a temporary
directory). Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from egm.cabinet import build_cabinet
from egm.config import load_cabinet_config
from egm.events import PlayerDecision, StartGame
from egm.terminal_link.signing import generate_key_pair

LAUNCH = """
import sys, uvicorn
from egm.server.app import create_app
from egm.server.settings import Settings
db_url, port = sys.argv[1], int(sys.argv[2])
uvicorn.run(create_app(Settings(db_url=db_url, host="127.0.0.1", port=port, warm=False)),
            host="127.0.0.1", port=port, log_level="warning")
"""


def percentiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {name: round(cuts[at] * 1000, 2) for name, at in (("p50", 49), ("p95", 94), ("p99", 98))}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(work: Path, db_url: str | None) -> tuple[subprocess.Popen[bytes], str, str]:
    db_url, port = db_url or f"sqlite:///{work}/server.db", free_port()
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, db_url, str(port)], cwd=work,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=5) as answer:
                if answer.status == 200:
                    return process, base, db_url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the game server never became ready")


def timed_exchanges(link: Any) -> list[float]:
    """Time every HTTP exchange of `link` from here on (seconds each, in the order sent)."""
    exchanges: list[float] = []
    send = link._send

    def timed(request: Any) -> Any:
        began = time.perf_counter()
        try:
            return send(request)
        finally:
            exchanges.append(time.perf_counter() - began)

    link._send = timed
    return exchanges


def play(cabinet: Any, game: str, rounds: int) -> tuple[list[float], list[float]]:
    """Seconds from DEAL to the settlement committed, per round, and of them the seconds the cabinet
    waited for the server's answers (the server's share: HTTP, its transaction, the game's code)."""
    link = getattr(cabinet, "game_server", None)
    waited = [0.0]

    def settle_waits() -> None:
        began = time.perf_counter()
        while cabinet.waiting_for_server():
            link.wait(0.05)
            cabinet.poll_devices()
        waited[0] += time.perf_counter() - began

    cabinet.boot()
    times, waits = [], []
    for _ in range(rounds):
        waited[0] = 0.0
        if cabinet.credits_cents < 10_000:
            cabinet.devices.bill_acceptor.insert_bill(10_000)
            cabinet.poll_devices()
        began = time.perf_counter()
        started = cabinet.handle(StartGame(game))
        if not started.accepted:
            raise SystemExit(f"the round was refused: {started.reason}")
        settle_waits()
        while cabinet.round is not None:
            cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
            settle_waits()
        times.append(time.perf_counter() - began)
        waits.append(waited[0])
    cabinet.close()
    return times, waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--game", default="dragon-poker")
    parser.add_argument("--split", action="store_true", help="also time each HTTP exchange of the link")
    parser.add_argument("--db", help="the server's database URL (default: SQLite in a temporary directory)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    config = load_cabinet_config()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        local, _ = play(build_cabinet(config, work / "local", game_ids=[args.game]), args.game, args.rounds)
        process, base, db_url = start_server(work, args.db)
        try:
            generate_key_pair(work / "terminal")
            subprocess.run([sys.executable, "-m", "egm.cli", "server", "terminal", "add", "--db", db_url,
                            "--id", "bench", "--public-key", str(work / "terminal.pub")], check=True,
                           env=os.environ, capture_output=True)
            table = {"url": base, "terminal_id": "bench", "private_key": str(work / "terminal.key")}
            remote_config = config.model_validate({**config.model_dump(), "game_server": table})
            cabinet = build_cabinet(remote_config, work / "remote", game_ids=[args.game])
            exchanges = timed_exchanges(cabinet.game_server) if args.split else []
            remote, waits = play(cabinet, args.game, args.rounds)
        finally:
            process.terminate()
            process.wait(timeout=60)
    local_ms, remote_ms = percentiles(local), percentiles(remote)
    figures: dict[str, Any] = {
        "game": args.game, "rounds": args.rounds, "database": db_url.split(":")[0],
        "local_ms": local_ms, "remote_ms": remote_ms,
        "added_ms": {k: round(remote_ms[k] - local_ms[k], 2) for k in ("p50", "p99")},
        "waiting_for_server_ms": percentiles(waits),
        "load_average": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}}
    if args.split:
        per_round = len(exchanges) // args.rounds  # the boot's catalogue fetch goes first
        played = exchanges[len(exchanges) - per_round * args.rounds:]
        rounds = [played[i * per_round:(i + 1) * per_round] for i in range(args.rounds)]
        figures["split"] = {
            "requests_per_round": per_round, "exchange_ms": percentiles(played),
            "handoffs_and_answer_commits_ms": percentiles(
                [w - sum(r) for w, r in zip(waits, rounds, strict=True)]),
            "cabinet_ms": percentiles([t - w for t, w in zip(remote, waits, strict=True)])}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

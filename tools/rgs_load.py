"""A bounded load test of the game server on this machine: N players x R rounds, each pressing AUTO.

    python tools/rgs_load.py --url http://127.0.0.1:8080 [--url http://127.0.0.1:8081] \
        --players 8 --rounds 10 --game dragon-poker [--deadline 120] [--db URL] [--json]

Each player registers, deposits, opens its websocket (on the next instance when several are given, so
pushes cross instances), then plays R rounds one after another: a start, then the AUTO decision until
the round is complete. It reports complete rounds per second, p50/p95/p99 per route, the websocket
push latency (from the server's commit to the player's socket), and errors; then, with --db, runs
`egm server audit` on the books.

Bounded: only 127.0.0.1 is ever contacted (any other host is refused before a request is made), the
counts are capped, and a hard deadline stops it. It is a benchmark, not a test: it prints its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

SESSION_COOKIE = "__Host-egm_session"
MAX_PLAYERS, MAX_ROUNDS = 500, 1000
PASSWORD = "load test password"


def loopback_only(url: str) -> str:
    """The URL, if it is http://127.0.0.1:PORT; anything else is refused."""
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname != "127.0.0.1":
        raise SystemExit(f"rgs_load: refusing {url!r}: only http://127.0.0.1:PORT is ever loaded")
    return url.rstrip("/")


class Figures:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.rounds = 0

    def timed(self, route: str, seconds: float, ok: bool) -> None:
        self.latency[route].append(seconds)
        if not ok:
            self.errors[route] += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


class LoadPlayer:
    def __init__(self, base: str, ws_base: str, figures: Figures) -> None:
        self.base, self.ws_base, self.figures = base, ws_base, figures
        self.client = httpx.AsyncClient(base_url=base, timeout=60)
        self.headers = {"Origin": base}

    async def call(self, route: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        began = time.perf_counter()
        if body is None:
            answer = await self.client.get(path, headers=self.headers)
        else:
            answer = await self.client.post(path, json=body, headers=self.headers)
        self.figures.timed(route, time.perf_counter() - began, answer.status_code < 400)
        return answer

    async def join(self, deposit_cents: int) -> None:
        answer = await self.call(
            "register",
            "/api/v1/auth/register",
            {"login": f"load{uuid.uuid4().hex[:12]}", "password": PASSWORD},
        )
        answer.raise_for_status()
        token = (
            answer.cookies.get(SESSION_COOKIE) or answer.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        )
        self.headers.update(
            {"X-CSRF-Token": answer.json()["csrf_token"], "Cookie": f"{SESSION_COOKIE}={token}"}
        )
        (
            await self.call(
                "deposit",
                "/api/v1/wallet/deposit",
                {"request_id": uuid.uuid4().hex, "amount_cents": deposit_cents},
            )
        ).raise_for_status()

    async def listen(self, pushes: list[float], stop: asyncio.Event) -> None:
        """The player's websocket on its instance: each push's delay from the server's commit."""
        headers = {"Origin": self.ws_base, "Cookie": self.headers["Cookie"]}
        url = self.ws_base.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url, additional_headers=headers) as socket:
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
                except TimeoutError:
                    continue
                if "at" in message:
                    pushes.append(time.time() - message["at"])

    async def play(self, game: dict[str, Any], rounds: int) -> None:
        for _ in range(rounds):
            answer = await self.call(
                "start",
                "/api/v1/rounds",
                {
                    "request_id": uuid.uuid4().hex,
                    "game_id": game["id"],
                    "denom_cents": game["denominations_cents"][0],
                    "bet_credits": game["bets_credits"][0],
                    "side_bets": {},
                },
            )
            if answer.status_code != 200:
                continue
            round_id, step_no, complete = answer.json()["round_id"], answer.json()["step_no"], False
            while not complete:
                answer = await self.call(
                    "decision",
                    f"/api/v1/rounds/{round_id}/decisions",
                    {"request_id": uuid.uuid4().hex, "step_no": step_no, "decision": {"kind": "auto"}},
                )
                if answer.status_code != 200:
                    break
                step_no, complete = answer.json()["step_no"], answer.json()["complete"]
            self.figures.rounds += complete


async def run(urls: list[str], players: int, rounds: int, game_id: str, deadline_s: float) -> dict[str, Any]:
    figures, pushes, stop = Figures(), [], asyncio.Event()
    async with httpx.AsyncClient(base_url=urls[0], timeout=30) as probe:
        games = {g["id"]: g for g in (await probe.get("/api/v1/games")).json()}
    if game_id not in games:
        raise SystemExit(f"rgs_load: the server has no game {game_id!r}; it has {sorted(games)}")
    crowd = [LoadPlayer(urls[i % len(urls)], urls[(i + 1) % len(urls)], figures) for i in range(players)]
    await asyncio.gather(*(p.join(deposit_cents=1_000_000) for p in crowd))
    listeners = [asyncio.ensure_future(p.listen(pushes, stop)) for p in crowd]
    began = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(*(p.play(games[game_id], rounds) for p in crowd)), deadline_s)
        stopped = ""
    except TimeoutError:
        stopped = f"stopped at the {deadline_s:.0f} s deadline"
    elapsed = time.perf_counter() - began
    await asyncio.sleep(0.5)  # the last pushes
    stop.set()
    await asyncio.gather(*listeners, return_exceptions=True)
    for p in crowd:
        await p.client.aclose()
    routes = {
        route: {
            "count": len(v),
            "p50_ms": percentile(v, 50) * 1000,
            "p95_ms": percentile(v, 95) * 1000,
            "p99_ms": percentile(v, 99) * 1000,
            "errors": figures.errors.get(route, 0),
        }
        for route, v in figures.latency.items()
    }
    return {
        "game": game_id,
        "instances": len(urls),
        "players": players,
        "rounds_each": rounds,
        "rounds_complete": figures.rounds,
        "seconds": elapsed,
        "rounds_per_second": figures.rounds / elapsed,
        "routes": routes,
        "errors": sum(figures.errors.values()),
        "stopped": stopped,
        "push": {
            "count": len(pushes),
            "p50_ms": statistics.median(pushes) * 1000 if pushes else None,
            "p99_ms": percentile(pushes, 99) * 1000 if pushes else None,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", action="append", required=True, help="an instance (http://127.0.0.1:PORT)")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--game", default="dragon-poker")
    parser.add_argument("--deadline", type=float, default=300, help="hard stop, seconds")
    parser.add_argument("--db", help="audit these books afterwards (egm server audit --db URL)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    urls = [loopback_only(u) for u in args.url]
    if not (
        1 <= args.players <= MAX_PLAYERS and 1 <= args.rounds <= MAX_ROUNDS and 0 < args.deadline <= 3600
    ):
        parser.error(f"players 1-{MAX_PLAYERS}, rounds 1-{MAX_ROUNDS}, deadline up to 3600 s")
    report = asyncio.run(run(urls, args.players, args.rounds, args.game, args.deadline))
    if args.db:
        audit = subprocess.run(
            [sys.executable, "-m", "egm.cli", "server", "audit", "--db", args.db, "--json"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        report["audit"] = {"exit": audit.returncode, "report": audit.stdout.strip()[-2000:]}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['rounds_complete']} {report['game']} rounds in {report['seconds']:.1f} s on "
            f"{report['instances']} instance(s): {report['rounds_per_second']:.1f} rounds/s, "
            f"{report['errors']} errors {report['stopped']}"
        )
        for route, f in sorted(report["routes"].items()):
            print(
                f"  {route:9} n={f['count']:5}  p50 {f['p50_ms']:7.1f} ms  p95 {f['p95_ms']:7.1f} ms  "
                f"p99 {f['p99_ms']:7.1f} ms  errors {f['errors']}"
            )
        push = report["push"]
        if push["count"]:
            print(
                f"  push      n={push['count']:5}  p50 {push['p50_ms']:7.1f} ms  p99 {push['p99_ms']:7.1f} ms"
            )
        if "audit" in report:
            print(f"  audit: exit {report['audit']['exit']}")
    return 1 if report["errors"] or report.get("audit", {}).get("exit", 0) else 0


if __name__ == "__main__":
    sys.exit(main())

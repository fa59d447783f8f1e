"""Live table: dealer ENTER to every display, with many displays connected.

    python benchmarks/bench_live.py [--displays 200] [--hands 10] [--instances 2]

Starts a throwaway PostgreSQL (as the tests do) and N server instances on 127.0.0.1, connects the
displays to them in turn (each a websocket, as the display page holds), then the dealer enters hands
on the first instance, one at a time. For each hand it times, from the moment the dealer's POST is
sent, the arrival of the new board at every display, and prints p50/p99/max over all deliveries
(target: p99 <= 500 ms with 200 displays).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.browser_support import ServerProcess  # noqa: E402  (the tests' real-process launcher)
from tests.rom_support import ensure_compiled_build  # noqa: E402
from tests.server_support import PgCluster, _pg_bin  # noqa: E402

PASSWORD = "bench live password"


def staff(db_url: str, workdir: Path, role: str) -> None:
    secret = workdir / f"{role}.txt"
    secret.write_text(PASSWORD)
    subprocess.run([sys.executable, "-m", "egm.cli", "server", "user", "add", "--db", db_url, "--login", role,
                    "--role", role, "--password-file", str(secret)], check=True, capture_output=True)


def login(base: str, who: str) -> dict[str, str]:
    answer = httpx.post(f"{base}/api/v1/auth/login", json={"login": who, "password": PASSWORD},
                        headers={"Origin": base})
    answer.raise_for_status()
    cookie = answer.headers["set-cookie"].split(";")[0]
    return {"Origin": base, "Cookie": cookie, "X-CSRF-Token": answer.json()["csrf_token"]}


async def display(url: str, origin: str, hands: int, arrivals: list[float], ready: asyncio.Event,
                  connected: list[int]) -> None:
    async with websockets.connect(url, additional_headers={"Origin": origin}, open_timeout=120) as socket:
        await socket.recv()  # the board on connect
        connected.append(1)
        await ready.wait()
        seen = 0
        while seen < hands:
            message = json.loads(await socket.recv())
            if message["type"] == "board":
                arrivals.append(time.perf_counter())
                seen += 1


async def run(bases: list[str], displays: int, hands: int) -> list[float]:
    dealer = login(bases[0], "dealer")
    operator = login(bases[0], "operator")
    created = httpx.post(f"{bases[0]}/live/tables", json={"name": f"bench {uuid.uuid4().hex[:6]}"},
                         headers=operator).json()
    table, token = created["table_id"], created["display_token"]
    ready, connected = asyncio.Event(), []
    arrivals: list[list[float]] = [[] for _ in range(displays)]
    tasks = [asyncio.ensure_future(display(
        f"{bases[i % len(bases)].replace('http://', 'ws://')}/live/tables/{table}/ws?token={token}",
        bases[i % len(bases)], hands, arrivals[i], ready, connected)) for i in range(displays)]
    while len(connected) < displays:
        await asyncio.sleep(0.1)
    ready.set()
    delays = []
    async with httpx.AsyncClient(timeout=60) as client:
        for hand in range(hands):
            sent = time.perf_counter()
            answer = await client.post(f"{bases[0]}/live/tables/{table}/hands", headers=dealer, json={
                "request_id": uuid.uuid4().hex, "front": "PHD"[hand % 3], "middle": "P", "back": "H"})
            answer.raise_for_status()
            while min(len(a) for a in arrivals) <= hand:
                await asyncio.sleep(0.005)
            delays += [a[hand] - sent for a in arrivals]
    await asyncio.gather(*tasks)
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--displays", type=int, default=200)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--instances", type=int, default=2)
    args = parser.parse_args()
    ensure_compiled_build()  # the servers load the ROM's compiled engines, as in production
    cluster = PgCluster(_pg_bin())
    servers: list[ServerProcess] = []
    try:
        db_url = cluster.url(cluster.create_database())
        workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
        for role in ("dealer", "operator"):
            staff(db_url, workdir, role)
        servers = [ServerProcess(db_url, workdir).start() for _ in range(args.instances)]
        delays = asyncio.run(run([s.base for s in servers], args.displays, args.hands))
    finally:
        for server in servers:
            server.stop()
        cluster.stop()
    ordered = sorted(delays)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(f"dealer ENTER to display: {args.displays} displays on {args.instances} instance(s), {args.hands} "
          f"hands, {len(delays)} deliveries: p50 {statistics.median(delays) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms (target p99 <= 500 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

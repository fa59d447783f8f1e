"""The game server's own cost per round: each start and decision is one database transaction around
the game's code (no HTTP; tools/rgs_load.py measures the whole server over HTTP).

    python benchmarks/bench_server.py [--db URL] [--game dragon-poker] [--rounds 200] [--rg]

Default database: a fresh SQLite file in a temporary directory (WAL, synchronous=FULL); give
`--db postgresql://...` (an empty database) to measure PostgreSQL. One player, one thread, AUTO
pressed at every step. `--rg` gives the player a live session, deposit and loss limits on every period
and a 120-minute reality check, so each start pays for every responsible-gaming check. Prints JSON:
rounds/s, and p50/p95/p99 in ms of start and decide. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid

from sqlalchemy import select

from egm.config import LIMIT_PERIODS
from egm.rng import os_rng
from egm.server import rg
from egm.server.accounts import create_player
from egm.server.db import open_database
from egm.server.db.migrations import migrate
from egm.server.db.schema import account
from egm.server.events import Hub
from egm.server.live_rounds import LiveRounds
from egm.server.lobby import load_lobby, warm
from egm.server.rounds import RoundService
from egm.server.sessions import Caller, start_session
from egm.server.settings import LIVE_ROUNDS_CACHED
from egm.server.wallet import post


def percentiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {name: round(cuts[at] * 1000, 2) for name, at in (("p50", 49), ("p95", 94), ("p99", 98))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--game", default="dragon-poker")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--rg", action="store_true", help="limits, a reality check and a live session set")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='bench-server-')}/egm.db"
    db = open_database(url)
    migrate(db)
    lobby = load_lobby()
    game = lobby.games[args.game]
    warm(game)
    service = RoundService(db, lobby, os_rng(), LiveRounds(LIVE_ROUNDS_CACHED), Hub())
    who = create_player(db, f"bench{uuid.uuid4().hex[:8]}", "bench password", "player", int(time.time()))
    with db.write() as conn:
        account_id = conn.execute(select(account.c.id).where(account.c.player_id == who["id"])).scalar_one()
        post(conn, account_id, "deposit", 10**8, int(time.time()))
        if args.rg:
            start_session(conn, who["id"], int(time.time()))
            limits = {period: 10**9 for period in LIMIT_PERIODS}
            rg.change_limits(conn, who["id"], {"deposit": limits, "loss": limits}, (120,), int(time.time()))
    caller = service.player_seat(Caller(who["id"], who["login"], "player", account_id, "-", "-"))
    offer = game.wager_offer()
    starts: list[float] = []
    decisions: list[float] = []
    began = time.perf_counter()
    for _ in range(args.rounds):
        body = {"request_id": uuid.uuid4().hex, "game_id": args.game, "side_bets": {},
                "denom_cents": offer.denominations_cents[0], "bet_credits": offer.bets_credits[0]}
        tick = time.perf_counter()
        started = json.loads(service.start(caller, body, int(time.time())).body)
        starts.append(time.perf_counter() - tick)
        step, complete = 0, False
        while not complete:
            tick = time.perf_counter()
            answer = json.loads(service.decide(caller, started["round_id"], {
                "request_id": uuid.uuid4().hex, "step_no": step, "decision": {"kind": "auto"}},
                int(time.time())).body)
            decisions.append(time.perf_counter() - tick)
            step, complete = answer["step_no"], answer["complete"]
    elapsed = time.perf_counter() - began
    db.dispose()
    print(json.dumps({"database": db.engine.dialect.name, "game": args.game, "rounds": args.rounds,
                      "rg": args.rg,
                      "rounds_per_second": round(args.rounds / elapsed, 1), "start_ms": percentiles(starts),
                      "decide_ms": percentiles(decisions)}, indent=2))


if __name__ == "__main__":
    main()

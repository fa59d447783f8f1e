"""The game server's own cost per round: each start and decision is one database transaction around
the game's code (no HTTP; tools/rgs_load.py measures the whole server over HTTP).

    python benchmarks/bench_server.py [--db URL] [--game dragon-poker] [--rounds 200] [--rg | --terminal]

Default database: a fresh SQLite file in a temporary directory (WAL, synchronous=FULL); give
`--db postgresql://...` (an empty database) to measure PostgreSQL. One player, one thread, AUTO
pressed at every step. `--rg` gives the player a live session, deposit and loss limits on every period
and a 120-minute reality check, so each start pays for every responsible-gaming check. `--terminal`
plays as a registered terminal instead (a cabinet, issue 30): each request is signed, and its signature,
window and nonce (its own committed transaction) are checked before it is served (included in start and
decide; `signed_request_ms` is that part alone). Prints JSON:
rounds/s, and p50/p95/p99 in ms of start and decide. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import uuid
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
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
from egm.server.terminals import Registrations, add_terminal, authenticate
from egm.server.wallet import post
from egm.terminal_link.signing import sign_request


def percentiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {name: round(cuts[at] * 1000, 2) for name, at in (("p50", 49), ("p95", 94), ("p99", 98))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--game", default="dragon-poker")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--rg", action="store_true", help="limits, a reality check and a live session set")
    parser.add_argument("--terminal", action="store_true", help="play as a terminal: signed requests")
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
    seat: Any = service.player_seat(Caller(who["id"], who["login"], "player", account_id, "-", "-"))
    if args.terminal:
        key = Ed25519PrivateKey.generate()
        pem = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()
        add_terminal(db, "BENCH-1", pem, int(time.time()))
    registrations = Registrations(db)  # as the server keeps them (egm/server/terminals.py)

    def sit(path: str, body: dict[str, Any]) -> Any:
        """The seat of this request: the player's, or the terminal that signed it (verified)."""
        if not args.terminal:
            return seat
        raw = json.dumps(body).encode()
        tick = time.perf_counter()
        headers = sign_request(key, "BENCH-1", "POST", path, raw, time.time())
        signed = authenticate(registrations, db, headers, "POST", path, raw, int(time.time()),
                              claim_now=False)
        signing.append(time.perf_counter() - tick)
        return signed

    offer = game.wager_offer()
    starts: list[float] = []
    decisions: list[float] = []
    signing: list[float] = []  # --terminal: signing and verifying (the nonce: in the round transaction)
    began = time.perf_counter()
    for _ in range(args.rounds):
        body = {"request_id": uuid.uuid4().hex, "game_id": args.game, "side_bets": {},
                "denom_cents": offer.denominations_cents[0], "bet_credits": offer.bets_credits[0],
                **({"game_number": len(starts) + 1} if args.terminal else {})}
        tick = time.perf_counter()
        started = json.loads(service.start(sit("/api/v1/terminal/rounds", body), body, int(time.time())).body)
        starts.append(time.perf_counter() - tick)
        step, complete = 0, False
        while not complete:
            tick = time.perf_counter()
            decision = {"request_id": uuid.uuid4().hex, "step_no": step, "decision": {"kind": "auto"}}
            path = f"/api/v1/terminal/rounds/{started['round_id']}/decisions"
            answer = json.loads(service.decide(sit(path, decision), started["round_id"], decision,
                                               int(time.time())).body)
            decisions.append(time.perf_counter() - tick)
            step, complete = answer["step_no"], answer["complete"]
    elapsed = time.perf_counter() - began
    db.dispose()
    print(json.dumps({"database": db.engine.dialect.name, "game": args.game, "rounds": args.rounds,
                      "rg": args.rg, "terminal": args.terminal,
                      "rounds_per_second": round(args.rounds / elapsed, 1), "start_ms": percentiles(starts),
                      "decide_ms": percentiles(decisions),
                      **({"signed_request_ms": percentiles(signing)} if signing else {})}, indent=2))


if __name__ == "__main__":
    main()

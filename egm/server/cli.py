"""`egm server`: run the game server, audit its books, warm its games, add staff accounts and terminals.

    egm server [--db URL] [--host H] [--port P] [--origin URL ...] [--ip-limit N] [--catalogue-key FILE]
    egm server audit [--db URL] [--json] [--terminal-meters T=FILE ...]
                                                   exit 0 when the books balance (and every terminal
                                                   reconciles), 1 when not
    egm server warm                                build the compiled engines, then exit
    egm server user add --login L --role R --password-file F [--db URL]
    egm server terminal add --id T --public-key FILE [--db URL]    exit 2: a taken id or a bad key
    egm server review list [--db URL] [--json]     the players' rounds awaiting a hand pay
    egm server review pay ROUND --by NAME [--db URL]                   credit the win (once)
    egm server review void ROUND --by NAME --reason TEXT [--db URL]    refund the stake instead
                                                   exit 2: an unknown round, or one not in review
    egm server abandon [--db URL] [--now ISO]      complete the abandoned rounds (a cron job); exit 1
                                                   when a round failed, 2 for a bad --now

Without --db every subcommand uses sqlite:///server-data/egm.db, relative to the working directory.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from egm.server.settings import DEFAULT_DB_URL, IP_LIMIT, IP_WINDOW_S

EXIT_UNBALANCED = 1
EXIT_BAD_INPUT = 2


@contextmanager
def migrated_database(url: str) -> Iterator[Any]:
    """The database at `url` with its schema brought up to date, disposed of afterwards (every command
    that reads or writes the books)."""
    from egm.server.db import open_database
    from egm.server.db.migrations import migrate

    db = open_database(url)
    try:
        migrate(db)
        yield db
    finally:
        db.dispose()


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB_URL, help=f"database URL (default {DEFAULT_DB_URL})")


def register(subparsers: argparse._SubParsersAction) -> None:
    server = subparsers.add_parser("server", help="the game server: play every game over HTTP")
    _db(server)
    server.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    server.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    server.add_argument("--origin", action="append", default=[],
                        help="an allowed Origin for POSTs (repeatable; default http://HOST:PORT)")
    server.add_argument("--ip-limit", type=int, default=IP_LIMIT, metavar="N",
                        help=f"register and login requests per client address per {IP_WINDOW_S:g} s "
                        f"(default {IP_LIMIT}; 0: no limit, e.g. for tools/rgs_load.py)")
    server.add_argument("--catalogue-key", type=Path, metavar="FILE",
                        help="an Ed25519 private key (PEM, unencrypted) that signs the terminals' catalogue")
    server.set_defaults(handler=_serve)
    sub = server.add_subparsers(dest="server_command", metavar="SUBCOMMAND")
    audit = sub.add_parser("audit", help="recompute every balance and round from the records")
    _db(audit)
    audit.add_argument("--json", action="store_true", help="print one JSON object")
    audit.add_argument("--terminal-meters", action="append", default=[], metavar="T=FILE",
                       help="reconcile terminal T with its cabinet's meters (FILE: 'egm meters --json' "
                       "output); repeatable")
    audit.set_defaults(handler=_audit)
    warm = sub.add_parser("warm", help="build the compiled engines (one round of every game), then exit")
    warm.set_defaults(handler=_warm)
    user = sub.add_parser("user", help="staff and player accounts")
    user_sub = user.add_subparsers(dest="user_command", metavar="ACTION", required=True)
    add = user_sub.add_parser("add", help="create an account")
    add.add_argument("--login", required=True)
    add.add_argument("--role", required=True, choices=["player", "operator", "dealer", "supervisor"])
    add.add_argument("--password-file", required=True, type=Path, help="a file holding the password")
    _db(add)
    add.set_defaults(handler=_user_add)
    terminal = sub.add_parser("terminal", help="cabinets that play on this server")
    terminal_sub = terminal.add_subparsers(dest="terminal_command", metavar="ACTION", required=True)
    add_terminal = terminal_sub.add_parser("add", help="register a terminal and its Ed25519 public key")
    add_terminal.add_argument("--id", required=True, metavar="T", help="the terminal's id (X-Terminal-Id)")
    add_terminal.add_argument("--public-key", required=True, type=Path, metavar="FILE",
                              help="its public key, PEM (e.g. the .pub of 'egm rom keygen')")
    _db(add_terminal)
    add_terminal.set_defaults(handler=_terminal_add)
    _register_review(sub)
    abandon = sub.add_parser("abandon", help="complete the players' rounds abandoned past the jurisdiction's "
                             "abandoned_round_days, by the games' reference decisions")
    _db(abandon)
    abandon.add_argument("--now", metavar="ISO", help="the time to judge by (ISO 8601, UTC unless it says "
                         "otherwise; default: now)")
    abandon.set_defaults(handler=_abandon)


def _register_review(sub: argparse._SubParsersAction) -> None:
    review = sub.add_parser("review", help="hand pays: the players' rounds in review")
    review_sub = review.add_subparsers(dest="review_command", metavar="ACTION", required=True)
    listing = review_sub.add_parser("list", help="the rounds awaiting a hand pay, oldest first")
    _db(listing)
    listing.add_argument("--json", action="store_true", help="print one JSON array")
    listing.set_defaults(handler=_review_list)
    pay = review_sub.add_parser("pay", help="credit a round's win to the player's wallet")
    void = review_sub.add_parser("void", help="void a round in review: its stake is refunded")
    for action in (pay, void):
        action.add_argument("round_id", metavar="ROUND", help="the round's id")
        action.add_argument("--by", required=True, metavar="NAME", help="the operator who approves it")
        _db(action)
    void.add_argument("--reason", required=True, metavar="TEXT", help="why the round is voided")
    pay.set_defaults(handler=_review_resolve)
    void.set_defaults(handler=_review_resolve)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from egm.rom.signing import RomError
    from egm.server.app import create_app
    from egm.server.settings import Settings
    from egm.terminal_link.signing import load_private_key

    if args.catalogue_key is not None:
        try:
            load_private_key(args.catalogue_key)  # a bad key is refused now, not after the boot
        except RomError as exc:
            print(f"egm server: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.ip_limit < 0:
        print(f"egm server: --ip-limit is 0 (no limit) or more, not {args.ip_limit}", file=sys.stderr)
        return EXIT_BAD_INPUT
    settings = Settings(db_url=args.db, host=args.host, port=args.port, origins=tuple(args.origin),
                        ip_limit=args.ip_limit,
                        catalogue_key=None if args.catalogue_key is None else str(args.catalogue_key))
    # SQLite is the one-process mode: one uvicorn worker (PostgreSQL: start one process per core).
    uvicorn.run(create_app(settings), host=args.host, port=args.port, workers=1, log_level="info")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from egm.server.audit import audit_books
    from egm.server.lobby import load_lobby
    from egm.server.reconcile import ReconcileError, parse_pair, read_cabinet_meters

    try:
        cabinets = {terminal_id: read_cabinet_meters(path)
                    for terminal_id, path in map(parse_pair, args.terminal_meters)}
    except ReconcileError as exc:
        print(f"egm server audit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with migrated_database(args.db) as db:
            result = audit_books(db, load_lobby())
            if cabinets:
                result["terminals"] = _reconcile(db, cabinets)
    except ReconcileError as exc:
        print(f"egm server audit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    reconciled = all(not t["differences"] for t in result.get("terminals", {}).values())
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['accounts']} accounts, {result['rounds']} rounds: "
              + ("the books balance" if result["balanced"] else f"{len(result['problems'])} problems"))
        for problem in result["problems"]:
            print(f"  {problem}")
        for terminal_id, found in result.get("terminals", {}).items():
            print(f"terminal {terminal_id}: " + ("matches its cabinet's meters" if not found["differences"]
                                                 else f"{len(found['differences'])} differences"))
            for difference in found["differences"]:
                print(f"  {difference}")
    return 0 if result["balanced"] and reconciled else EXIT_UNBALANCED


def _reconcile(db: Any, cabinets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each terminal's server totals, its cabinet's meters and their differences."""
    from egm.server.reconcile import ReconcileError, differences
    from egm.server.terminals import seat_of, terminal_meters

    out = {}
    for terminal_id, cabinet in cabinets.items():
        seat = seat_of(db, terminal_id)
        if seat is None:
            raise ReconcileError(f"there is no terminal '{terminal_id}' on this server (see 'egm server "
                                 "terminal add')")
        with db.read() as conn:
            server = terminal_meters(conn, seat)
        out[terminal_id] = {"server": server, "differences": differences(server, cabinet)}
    return out


def _warm(_: argparse.Namespace) -> int:
    from egm.server.lobby import load_lobby, warm

    for game_id, game in load_lobby().games.items():
        began = time.perf_counter()
        warm(game)
        print(f"{game_id}: warm in {time.perf_counter() - began:.1f} s")
    return 0


def _user_add(args: argparse.Namespace) -> int:
    from egm.server.accounts import create_player
    from egm.server.errors import ApiError

    try:
        password = args.password_file.read_text(encoding="utf-8").rstrip("\n")
    except OSError as exc:
        print(f"egm server user add: cannot read the password file: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not 8 <= len(password) <= 256:
        print("egm server user add: a password is 8 to 256 characters", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with migrated_database(args.db) as db:
            created = create_player(db, args.login, password, args.role, int(time.time()))
    except ApiError as exc:
        print(f"egm server user add: {exc.sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(created))
    return 0


def _terminal_add(args: argparse.Namespace) -> int:
    from egm.rom.signing import RomError
    from egm.server.errors import ApiError
    from egm.server.terminals import add_terminal

    try:
        pem = args.public_key.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not a PEM text file"
        print(f"egm server terminal add: cannot read the public key {args.public_key} ({why})",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        with migrated_database(args.db) as db:
            added = add_terminal(db, args.id, pem, int(time.time()))
    except RomError as exc:
        print(f"egm server terminal add: {args.public_key}: {str(exc).removeprefix('the public key: ')}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except ApiError as exc:
        print(f"egm server terminal add: {exc.sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"terminal {added['terminal_id']} added (account {added['account_id']}, key id {added['key_id']})")
    return 0


def _abandon(args: argparse.Namespace) -> int:
    from egm.money import format_cents
    from egm.rng import os_rng
    from egm.server.abandon import abandon_rounds
    from egm.server.events import Hub
    from egm.server.live_rounds import LiveRounds
    from egm.server.lobby import RomRefused, load_lobby
    from egm.server.rounds import RoundService

    try:
        now = int(time.time()) if args.now is None else _epoch(args.now)
    except ValueError:
        print(f"egm server abandon: --now is an ISO 8601 time such as 2026-12-01T03:00:00Z, not "
              f"'{args.now}'", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        lobby = load_lobby()
    except RomRefused as exc:
        print(f"egm server abandon: {exc}", file=sys.stderr)
        return EXIT_UNBALANCED
    with migrated_database(args.db) as db:
        done = abandon_rounds(RoundService(db, lobby, os_rng(), LiveRounds(1), Hub()), now)
    for r in done["completed"]:
        print(f"round {r['round_id']} (account {r['account_id']}, {r['game_id']}) completed by the reference "
              f"decisions: {r['status']}, win {format_cents(r['win_cents'])}")
    for r in done["failed"]:
        print(f"round {r['round_id']}: not completed ({r['error']})", file=sys.stderr)
    print(f"{len(done['completed'])} abandoned round{'s' if len(done['completed']) != 1 else ''} completed")
    return EXIT_UNBALANCED if done["failed"] else 0


def _epoch(text: str) -> int:
    """Seconds since the epoch of an ISO 8601 time (UTC when it names no zone); ValueError."""
    from datetime import UTC, datetime

    when = datetime.fromisoformat(text)
    return int((when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp())


def _review_list(args: argparse.Namespace) -> int:
    from egm.money import format_cents
    from egm.server.hand_pays import awaiting

    with migrated_database(args.db) as db:
        rounds = awaiting(db)
    if args.json:
        print(json.dumps(rounds, indent=2))
        return 0
    print(f"{len(rounds)} round{'s' if len(rounds) != 1 else ''} awaiting a hand pay")
    for r in rounds:
        print(f"  {r['round_id']}  {r['login']} (account {r['account_id']})  {r['game_id']} #{r['number']}  "
              f"stake {format_cents(r['stake_cents'])}  win {format_cents(r['win_cents'])}  {r['at_utc']}: "
              f"{r['why']}")
    return 0


def _review_resolve(args: argparse.Namespace) -> int:
    from egm.money import format_cents
    from egm.server import hand_pays
    from egm.server.errors import ApiError
    from egm.server.events import Hub

    try:
        with migrated_database(args.db) as db:
            now = int(time.time())
            if args.review_command == "pay":
                done = hand_pays.pay(db, Hub(), args.round_id, args.by, now)
                said = f"paid {format_cents(done['paid_cents'])}"
            else:
                done = hand_pays.void(db, Hub(), args.round_id, args.by, args.reason, now)
                said = f"voided; the stake of {format_cents(done['refund_cents'])} is refunded"
    except ApiError as exc:
        print(f"egm server review {args.review_command}: {exc.sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"round {done['round_id']} {said} (approved by {done['by']}); the player's balance is "
          f"{format_cents(done['balance_cents'])}")
    return 0

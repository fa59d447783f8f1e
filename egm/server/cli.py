"""`egm server`: run the game server, audit its books, warm its games, add staff accounts.

    egm server [--db URL] [--host H] [--port P] [--origin URL ...]
    egm server audit [--db URL] [--json]          exit 0 when the books balance, 1 when not
    egm server warm                                build the compiled engines, then exit
    egm server user add --login L --role R --password-file F [--db URL]

Without --db every subcommand uses sqlite:///server-data/egm.db, relative to the working directory.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from egm.server.settings import DEFAULT_DB_URL

EXIT_UNBALANCED = 1
EXIT_BAD_INPUT = 2


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB_URL, help=f"database URL (default {DEFAULT_DB_URL})")


def register(subparsers: argparse._SubParsersAction) -> None:
    server = subparsers.add_parser("server", help="the game server: play every game over HTTP")
    _db(server)
    server.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    server.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    server.add_argument("--origin", action="append", default=[],
                        help="an allowed Origin for POSTs (repeatable; default http://HOST:PORT)")
    server.set_defaults(handler=_serve)
    sub = server.add_subparsers(dest="server_command", metavar="SUBCOMMAND")
    audit = sub.add_parser("audit", help="recompute every balance and round from the records")
    _db(audit)
    audit.add_argument("--json", action="store_true", help="print one JSON object")
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


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from egm.server.app import create_app
    from egm.server.settings import Settings

    settings = Settings(db_url=args.db, host=args.host, port=args.port, origins=tuple(args.origin))
    # SQLite is the one-process mode: one uvicorn worker (PostgreSQL: start one process per core).
    uvicorn.run(create_app(settings), host=args.host, port=args.port, workers=1, log_level="info")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from egm.server.audit import audit_books
    from egm.server.db import open_database
    from egm.server.db.migrations import migrate
    from egm.server.lobby import load_lobby

    db = open_database(args.db)
    migrate(db)
    result = audit_books(db, load_lobby())
    db.dispose()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['accounts']} accounts, {result['rounds']} rounds: "
              + ("the books balance" if result["balanced"] else f"{len(result['problems'])} problems"))
        for problem in result["problems"]:
            print(f"  {problem}")
    return 0 if result["balanced"] else EXIT_UNBALANCED


def _warm(_: argparse.Namespace) -> int:
    from egm.server.lobby import load_lobby, warm

    for game_id, game in load_lobby().games.items():
        began = time.perf_counter()
        warm(game)
        print(f"{game_id}: warm in {time.perf_counter() - began:.1f} s")
    return 0


def _user_add(args: argparse.Namespace) -> int:
    from egm.server.accounts import create_player
    from egm.server.db import open_database
    from egm.server.db.migrations import migrate
    from egm.server.errors import ApiError

    try:
        password = args.password_file.read_text(encoding="utf-8").rstrip("\n")
    except OSError as exc:
        print(f"egm server user add: cannot read the password file: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not 8 <= len(password) <= 256:
        print("egm server user add: a password is 8 to 256 characters", file=sys.stderr)
        return EXIT_BAD_INPUT
    db = open_database(args.db)
    migrate(db)
    try:
        created = create_player(db, args.login, password, args.role, int(time.time()))
    except ApiError as exc:
        print(f"egm server user add: {exc.sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        db.dispose()
    print(json.dumps(created))
    return 0

"""Versioned schema: each migration runs once, in order, in its own transaction, and is recorded in
`schema_version`. On PostgreSQL an advisory lock keeps two instances starting together from both
migrating. A later migration changes the schema with explicit DDL (and schema.py follows it)."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Connection, func, insert, inspect, select, text

from egm.server.db.engine import Database
from egm.server.db.schema import (
    LEDGER_BY_TIME,
    LIVE_TABLES,
    RG_TABLES,
    account_event,
    game_round,
    metadata,
    schema_version,
    terminal_nonce,
)

MIGRATION_LOCK = 0x45474D  # "EGM": the advisory lock id


def _initial(conn: Connection) -> None:
    """Version 1's tables as they were (later migrations create their own)."""
    later = {*RG_TABLES, *LIVE_TABLES, account_event, terminal_nonce}
    metadata.create_all(conn, tables=[t for t in metadata.sorted_tables if t not in later])


def _responsible_gaming(conn: Connection) -> None:
    for table in RG_TABLES:
        table.create(conn)
    LEDGER_BY_TIME.create(conn, checkfirst=True)  # a fresh database made it with wallet_tx already


def _live_tables(conn: Connection) -> None:
    for table in LIVE_TABLES:
        table.create(conn)


def _account_events(conn: Connection) -> None:
    account_event.create(conn)


def _terminals(conn: Connection) -> None:
    terminal_nonce.create(conn)
    column = game_round.c.cabinet_game_number
    if column.name not in {c["name"] for c in inspect(conn).get_columns("game_round")}:  # made by _initial
        conn.execute(text(f"ALTER TABLE game_round ADD COLUMN {column.name} BIGINT"))


def _completed_by(conn: Connection) -> None:
    column = game_round.c.completed_by
    if column.name not in {c["name"] for c in inspect(conn).get_columns("game_round")}:  # made by _initial
        conn.execute(text(f"ALTER TABLE game_round ADD COLUMN {column.name} VARCHAR(16)"))


MIGRATIONS: tuple[tuple[int, str, Callable[[Connection], None]], ...] = (
    (1, "initial schema: players, accounts, ledger, idempotency, rounds, pools, sessions, audit", _initial),
    (2, "responsible gaming: limit changes, reality checks and their acks, time-outs and exclusions",
     _responsible_gaming),
    (3, "live-table scoreboard: tables, sessions, the append-only hand log", _live_tables),
    (4, "account events: the websocket's sequence number per account", _account_events),
    (5, "terminals: the nonce table of signed requests; a terminal round's game number on the cabinet",
     _terminals),
    (6, "abandoned rounds: who completed a round (the player, or the abandoned-round job)", _completed_by),
)
LATEST = MIGRATIONS[-1][0]


def migrate(db: Database) -> int:
    """Bring the schema to LATEST; returns the version found before."""
    with db.write() as conn:
        if not db.is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        schema_version.create(conn, checkfirst=True)
        found = conn.execute(select(func.max(schema_version.c.version))).scalar() or 0
        for version, what, apply in MIGRATIONS:
            if version > found:
                apply(conn)
                conn.execute(insert(schema_version).values(version=version, what=what,
                                                           applied_at=int(time.time())))
    return found

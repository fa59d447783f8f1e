"""The live table's tables, in the game server's schema (migration 2): the hand log is append-only."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Table, Text

from egm.server.db.schema import Stamp, _one_of, metadata

HAND_KINDS = ("entry", "correction", "void")
WINNER = ("P", "H", "D")

live_table = Table(
    "live_table", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("display_token_sha256", String(64), nullable=False, unique=True),  # the token is never stored
    Column("created_by", ForeignKey("player.id"), nullable=False),
    Column("created_at", Stamp, nullable=False),
)

live_session = Table(  # a fresh board, like a new shoe; the table's current session is its newest
    "live_session", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", ForeignKey("live_table.id"), nullable=False, index=True),
    Column("started_by", ForeignKey("player.id"), nullable=False),
    Column("started_at", Stamp, nullable=False),
)

live_hand = Table(  # append-only: an entry starts a hand (hand_id = its seq); corrections and voids follow
    "live_hand", metadata,
    Column("seq", Integer, primary_key=True),
    Column("table_id", ForeignKey("live_table.id"), nullable=False),
    Column("session_id", ForeignKey("live_session.id"), nullable=False),
    Column("hand_id", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("front", String(1)),
    Column("middle", String(1)),
    Column("back", String(1)),
    Column("code", String(2)),
    Column("reason", Text),
    Column("entered_by", ForeignKey("player.id"), nullable=False),
    Column("approved_by", ForeignKey("player.id")),
    Column("request_id", String(100), nullable=False),
    Column("at", Stamp, nullable=False),
    _one_of("kind", HAND_KINDS),
)
Index("live_hand_by_session", live_hand.c.session_id, live_hand.c.seq)

LIVE_TABLES = (live_table, live_session, live_hand)

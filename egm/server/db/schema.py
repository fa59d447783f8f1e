"""The tables (SQLAlchemy 2 Core), the same on SQLite and PostgreSQL. Money is integer cents.

wallet_tx, round_step and audit_event are append-only. A balance is the sum of its account's
wallet_tx rows (`egm server audit` checks it) and can never go below zero (a CHECK constraint).
At most one round per account is open (a partial unique index).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

metadata = MetaData()
Json = JSON().with_variant(JSONB(), "postgresql")
Stamp = BigInteger  # seconds since the epoch (UTC)

ROLES = ("player", "operator", "dealer", "supervisor")
PLAYER_STATUSES = ("active", "timeout", "excluded", "closed")
TX_KINDS = ("deposit", "withdraw", "stake", "win", "refund", "adjust")
ROUND_STATUSES = ("open", "complete", "review", "voided")
LIMIT_KINDS = ("deposit", "loss")
EXCLUSION_KINDS = ("timeout", "self_exclusion")


def _one_of(column: str, values: tuple[str, ...]) -> CheckConstraint:
    return CheckConstraint(f"{column} IN ({', '.join(repr(v) for v in values)})", name=f"{column}_known")


schema_version = Table("schema_version", metadata, Column("version", Integer, primary_key=True),
                       Column("applied_at", Stamp, nullable=False), Column("what", Text, nullable=False))

player = Table(
    "player", metadata,
    Column("id", Integer, primary_key=True),
    Column("login", String(64), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),
    Column("role", String(16), nullable=False),
    Column("status", String(16), nullable=False, server_default="active"),
    Column("failed_logins", Integer, nullable=False, server_default="0"),
    Column("jurisdiction", String(64), nullable=False, server_default="generic"),
    Column("created_at", Stamp, nullable=False),
    _one_of("role", ROLES),
    _one_of("status", PLAYER_STATUSES),
)

account = Table(
    "account", metadata,
    Column("id", Integer, primary_key=True),
    Column("owner", String(16), nullable=False),  # player / terminal / house
    Column("player_id", ForeignKey("player.id"), unique=True),
    Column("balance_cents", BigInteger, nullable=False, server_default="0"),
    Column("version", Integer, nullable=False, server_default="0"),
    CheckConstraint("balance_cents >= 0", name="balance_never_negative"),
)

wallet_tx = Table(
    "wallet_tx", metadata,
    Column("id", Integer, primary_key=True),
    Column("account_id", ForeignKey("account.id"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("amount_cents", BigInteger, nullable=False),  # signed: + credits the account
    Column("balance_after", BigInteger, nullable=False),
    Column("round_id", String(36), index=True),
    Column("request_id", String(100)),
    Column("at", Stamp, nullable=False),
    _one_of("kind", TX_KINDS),
)

idempotency = Table(
    "idempotency", metadata,
    Column("account_id", ForeignKey("account.id"), primary_key=True),
    Column("request_id", String(100), primary_key=True),
    Column("request_sha256", String(64), nullable=False),
    Column("status", Integer, nullable=False),
    Column("reply", Text, nullable=False),  # the reply's exact bytes, served again for a retry
    Column("at", Stamp, nullable=False),
)

game_round = Table(
    "game_round", metadata,
    Column("id", String(36), primary_key=True),  # uuid4
    Column("account_id", ForeignKey("account.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # the account's game number, 1, 2, ... (as on a cabinet)
    Column("game_id", String(64), nullable=False),
    Column("paytable_id", String(128), nullable=False),
    Column("paytable_sha256", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("step_no", Integer, nullable=False),
    Column("step", String(64), nullable=False),
    Column("wager", Json, nullable=False),
    Column("stake_cents", BigInteger, nullable=False),
    Column("win_cents", BigInteger),
    Column("result_code", String(32)),
    Column("hand_pay_reason", Text),
    Column("record", Json, nullable=False),  # the round's record: hidden until complete
    Column("outcome", Json),  # once settled: the result and the game's summary (the recall entry's)
    Column("faults", Integer, nullable=False, server_default="0"),
    Column("started_at", Stamp, nullable=False),
    Column("completed_at", Stamp),
    Column("cabinet_game_number", BigInteger),  # migration 5: a terminal's round, its number on the cabinet
    # migration 6: who made the decisions that completed it: "player" (the player or cabinet), or
    # "abandon" (the abandoned-round job, by the game's reference decisions); None while open
    Column("completed_by", String(16)),
    _one_of("status", ROUND_STATUSES),
    CheckConstraint("stake_cents > 0", name="stake_positive"),
    CheckConstraint("win_cents IS NULL OR win_cents >= 0", name="win_not_negative"),
)
Index("game_number_per_account", game_round.c.account_id, game_round.c.number, unique=True)
Index("one_open_round_per_account", game_round.c.account_id, unique=True,
      sqlite_where=text("status = 'open'"), postgresql_where=text("status = 'open'"))

round_step = Table(
    "round_step", metadata,
    Column("round_id", ForeignKey("game_round.id"), primary_key=True),
    Column("step_no", Integer, primary_key=True),
    Column("request_id", String(100), nullable=False),
    Column("decision", Json),  # None for step 0 (the deal)
    Column("record", Json, nullable=False),
    Column("at", Stamp, nullable=False),
)

pool = Table(
    "pool", metadata,
    Column("account_id", ForeignKey("account.id"), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("cents", BigInteger, nullable=False),
    CheckConstraint("cents >= 0", name="pool_not_negative"),
)

session = Table(
    "session", metadata,
    Column("token_sha256", String(64), primary_key=True),  # the cookie's token is never stored
    Column("player_id", ForeignKey("player.id"), nullable=False, index=True),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", Stamp, nullable=False),
    Column("last_seen_at", Stamp, nullable=False),
    Column("ended_at", Stamp),
    Column("end_reason", String(32)),
)

audit_event = Table(
    "audit_event", metadata,
    Column("id", Integer, primary_key=True),
    Column("at", Stamp, nullable=False),
    Column("player_id", ForeignKey("player.id")),
    Column("kind", String(32), nullable=False),
    Column("detail", Json, nullable=False),
)

terminal = Table(  # a cabinet playing as a thin client ([0021]); used by the terminal routes
    "terminal", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("public_key", Text, nullable=False),  # Ed25519, PEM
    Column("memory_id", String(64)),
    Column("account_id", ForeignKey("account.id"), nullable=False),
    Column("created_at", Stamp, nullable=False),
)

# migration 5: the nonces of terminal requests signed within the window (a replay is refused); older
# ones are pruned, because their requests are refused as stale anyway
terminal_nonce = Table(
    "terminal_nonce", metadata,
    Column("terminal_id", ForeignKey("terminal.id"), primary_key=True),
    Column("nonce", String(64), primary_key=True),
    Column("signed_at", Stamp, nullable=False, index=True),
)


# --- responsible gaming (migration 2) ---------------------------------------------------------------
rg_limit = Table(  # append-only: every change a player asks for; the one in force is the latest in force
    "rg_limit", metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", ForeignKey("player.id"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("period", String(16), nullable=False),  # day / week / month (egm.config.LIMIT_PERIODS)
    Column("amount_cents", BigInteger),  # None: no limit (a removal)
    Column("requested_at", Stamp, nullable=False),
    Column("cooling_off_until", Stamp),  # an increase or removal: confirmable from then; None: at once
    Column("confirmed_at", Stamp),  # written once, by the player's confirmation after the cooling-off
    _one_of("kind", LIMIT_KINDS),
    CheckConstraint("amount_cents IS NULL OR amount_cents > 0", name="limit_positive"),
)

reality_check = Table(  # the interval each player chose; append-only, the latest row counts
    "reality_check", metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", ForeignKey("player.id"), nullable=False, index=True),
    Column("interval_min", Integer),  # None: no reality check
    Column("at", Stamp, nullable=False),
)

reality_check_ack = Table(  # append-only: each check the player acknowledged, in which session
    "reality_check_ack", metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", ForeignKey("player.id"), nullable=False, index=True),
    Column("session_sha256", String(64), nullable=False, index=True),
    Column("at", Stamp, nullable=False),
    Column("elapsed_s", BigInteger, nullable=False),
    Column("net_cents", BigInteger, nullable=False),
)

rg_exclusion = Table(  # append-only: time-outs and self-exclusions; login is refused until ends_at
    "rg_exclusion", metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", ForeignKey("player.id"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),
    Column("starts_at", Stamp, nullable=False),
    Column("ends_at", Stamp),  # None: permanent
    Column("paid_out_cents", BigInteger, nullable=False, server_default="0"),
    _one_of("kind", EXCLUSION_KINDS),
)

RG_TABLES = (rg_limit, reality_check, reality_check_ack, rg_exclusion)
# The limit windows sum an account's ledger rows since a time: without this, every start would read
# the account's whole ledger.
LEDGER_BY_TIME = Index("wallet_tx_account_at", wallet_tx.c.account_id, wallet_tx.c.at)


# migration 4: each account's event counter; every push to its websocket carries the next seq
account_event = Table(
    "account_event", metadata,
    Column("account_id", ForeignKey("account.id"), primary_key=True),
    Column("seq", BigInteger, nullable=False),
)


# --- the live-table scoreboard (migration 3; docs/live-table.md): the hand log is append-only ----------
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

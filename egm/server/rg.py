"""Responsible gaming: the checks the server makes at login, at deposit and at each round start.

SEAM, filled by engineer "server-rt" (issue 25): deposit and loss limits from the signed jurisdiction's
[online] table (a decrease at once, an increase after the cooling-off and a confirmation), the reality
check the player chooses (a due check refuses the next start with 423, never interrupts a round),
time-out and self-exclusion (they block login), and the routes GET|PUT /api/v1/limits,
POST /api/v1/reality-check/ack and POST /api/v1/self-exclusion.

Each check runs inside the caller's write transaction, after the account row is locked, and returns
an ApiError to refuse (403 limit or exclusion, 423 reality check due) or None to allow. Until then
they refuse nothing: no limits are set and no reality check falls due.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from egm.server.errors import ApiError


def refuse_login(conn: Connection, player: Any, now: int) -> ApiError | None:
    """At login, after the password verified: a time-out or self-exclusion in force refuses it (403)."""
    return None


def refuse_deposit(conn: Connection, player_id: int, amount_cents: int, now: int) -> ApiError | None:
    """At deposit: a deposit past the player's deposit limit in its window is refused (403)."""
    return None


def refuse_start(conn: Connection, player_id: int, stake_cents: int, now: int) -> ApiError | None:
    """At round start, the stake counted as lost: a reality check due (423) or a loss limit (403)."""
    return None


def limits(conn: Connection, player_id: int, now: int) -> dict[str, Any]:
    """The player's limits for GET /api/v1/session (and GET /api/v1/limits): none set yet."""
    return {}


def reality_check_due(conn: Connection, player_id: int, now: int) -> bool:
    """Whether a reality check is due (GET /api/v1/session)."""
    return False

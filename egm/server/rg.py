"""Responsible gaming: the checks the server makes at login, at deposit and at each round start, and what
GET /api/v1/session and /api/v1/limits show. The rules are the player's jurisdiction's `[online]` table
(signed firmware, egm.config.OnlineRules); the mechanisms live in limits.py (deposit and loss limits),
reality_check.py and exclusion.py (time-outs and self-exclusion).

Each check runs inside the caller's write transaction, after the account row is locked, and returns
an ApiError to refuse (403 limit or exclusion, 423 reality check due) or None to allow. Every time is the
database's time (Settings.now), never the wall clock of a request.
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Connection, select

from egm.config import OnlineRules, load_jurisdiction
from egm.server import exclusion, reality_check
from egm.server import limits as deposit_loss
from egm.server.db.schema import account, player
from egm.server.errors import ApiError
from egm.server.events import Hub


@functools.cache  # the rule files are firmware: they do not change while the server runs
def rules_of(jurisdiction: str) -> OnlineRules:
    return load_jurisdiction(jurisdiction).online


def _whose(conn: Connection, player_id: int) -> tuple[int, OnlineRules]:
    """(account id, the [online] rules of the player's jurisdiction)."""
    row = conn.execute(select(account.c.id, player.c.jurisdiction)
                       .join(player, player.c.id == account.c.player_id)
                       .where(player.c.id == player_id)).one()
    return row.id, rules_of(row.jurisdiction)


def refuse_login(conn: Connection, player: Any, now: int) -> ApiError | None:
    """At login, after the password verified: a time-out or self-exclusion in force refuses it (403)."""
    return exclusion.refuse_login(conn, player.id, now)


def refuse_deposit(conn: Connection, player_id: int, amount_cents: int, now: int) -> ApiError | None:
    """At deposit: a deposit past a deposit limit in its window is refused (403)."""
    account_id, _ = _whose(conn, player_id)
    return deposit_loss.refuse(conn, player_id, account_id, "deposit", amount_cents, now)


def refuse_start(conn: Connection, player_id: int, stake_cents: int, now: int) -> ApiError | None:
    """At round start, the stake counted as lost: a reality check due (423) or a loss limit (403)."""
    account_id, rules = _whose(conn, player_id)
    return (reality_check.refuse(conn, player_id, account_id, rules, now)
            or deposit_loss.refuse(conn, player_id, account_id, "loss", stake_cents, now))


def limits(conn: Connection, player_id: int, now: int) -> dict[str, Any]:
    """GET /api/v1/limits (and the session's `limits`): each limit in force with what is used and left,
    pending increases, the reality check, and the jurisdiction's offer."""
    account_id, rules = _whose(conn, player_id)
    return {**deposit_loss.describe(conn, player_id, account_id, rules, now),
            "reality_check": reality_check.status(conn, player_id, account_id, rules, now),
            "periods": list(rules.limit_periods), "cooling_off_h": rules.limit_increase_cooling_off_h,
            "timeout_days": list(rules.timeout_days), "self_exclusion_days": list(rules.self_exclusion_days)}


def reality_check_due(conn: Connection, player_id: int, now: int) -> bool:
    """Whether a reality check is due (GET /api/v1/session)."""
    account_id, rules = _whose(conn, player_id)
    return bool(reality_check.status(conn, player_id, account_id, rules, now)["due"])


def change_limits(conn: Connection, player_id: int, changes: dict[str, dict[str, int | None]],
                  reality_check_min: tuple[int | None] | tuple[()], now: int) -> None:
    """PUT /api/v1/limits: each (kind, period) -> cents or None (no limit); the reality-check interval
    when given (a 1-tuple: None switches it off)."""
    _, rules = _whose(conn, player_id)
    for kind, periods in changes.items():
        for period, cents in periods.items():
            deposit_loss.change(conn, player_id, rules, kind, period, cents, now)
    if reality_check_min:
        reality_check.choose(conn, player_id, rules, reality_check_min[0], now)


def confirm_limit(conn: Connection, player_id: int, limit_id: int, now: int) -> None:
    deposit_loss.confirm(conn, player_id, limit_id, now)


def acknowledge_reality_check(conn: Connection, player_id: int, now: int) -> dict[str, Any]:
    account_id, rules = _whose(conn, player_id)
    return reality_check.acknowledge(conn, player_id, account_id, rules, now)


def announce(conn: Connection, hub: Hub, player_id: int, account_id: int, now: int) -> None:
    """At the end of a round (a committing write): push the reality check if one is due now."""
    _, rules = _whose(conn, player_id)
    state = reality_check.status(conn, player_id, account_id, rules, now)
    if state["due"]:
        hub.publish(conn, account_id, "reality_check", state)


def exclude(conn: Connection, hub: Hub, player_id: int, days: int | None, now: int) -> dict[str, Any]:
    account_id, rules = _whose(conn, player_id)
    return exclusion.exclude(conn, hub, player_id, account_id, rules, days, now)

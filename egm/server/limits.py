"""Deposit and loss limits (UKGC RTS 12): per period, over a rolling window of the database's time.

Every change a player asks for is appended to rg_limit, never edited. A decrease (or a first limit)
is in force at once. An increase, or a removal, waits for the jurisdiction's cooling-off
(`[online] limit_increase_cooling_off_h`, 24 h) and then for the player's confirmation
(POST /api/v1/limits/{id}/confirm); until both, the old limit stays in force. The limit in force is the
latest change in force, so a later decrease overrides an earlier pending increase, which then can no
longer be confirmed.

Deposits are counted gross (withdrawals do not give room back). The loss is the net of stakes, wins and
refunds in the window; a round start counts its stake as lost.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, case, func, insert, select, update

from egm.config import LIMIT_PERIODS, OnlineRules
from egm.money import format_cents
from egm.server.db.schema import LIMIT_KINDS, rg_limit, wallet_tx
from egm.server.errors import ApiError
from egm.server.settings import utc_text

PERIOD_WORDS = {"day": "24-hour", "week": "7-day", "month": "30-day"}
COUNTED = {"deposit": ("deposit",), "loss": ("stake", "win", "refund")}


def _changes(conn: Connection, player_id: int) -> list[Any]:
    return list(conn.execute(select(rg_limit).where(rg_limit.c.player_id == player_id)
                             .order_by(rg_limit.c.id)).all())


def _in_force(row: Any) -> bool:
    return row.cooling_off_until is None or row.confirmed_at is not None


def _standing(changes: list[Any], kind: str, period: str) -> tuple[Any | None, Any | None]:
    """(the change in force, the pending change after it) for one limit; either may be None."""
    mine = [c for c in changes if c.kind == kind and c.period == period]
    current = next((c for c in reversed(mine) if _in_force(c)), None)
    after = [c for c in mine if current is None or c.id > current.id]
    return current, (after[-1] if after and not _in_force(after[-1]) else None)


def _amount(row: Any | None) -> int | None:
    return None if row is None else row.amount_cents


def used_cents(conn: Connection, account_id: int, kind: str, now: int) -> dict[str, int]:
    """Gross deposits, or the net loss, in the window of each period ending now (one query)."""
    sums = [func.coalesce(func.sum(case((wallet_tx.c.at > now - seconds, wallet_tx.c.amount_cents),
                                        else_=0)), 0) for seconds in LIMIT_PERIODS.values()]
    totals = conn.execute(select(*sums).where(and_(
        wallet_tx.c.account_id == account_id, wallet_tx.c.kind.in_(COUNTED[kind]),
        wallet_tx.c.at > now - max(LIMIT_PERIODS.values())))).one()
    sign = 1 if kind == "deposit" else -1
    return {period: sign * int(total) for period, total in zip(LIMIT_PERIODS, totals, strict=True)}


def _refusal(kind: str, period: str, limit: int, used: int, wanted: int) -> ApiError:
    left = max(0, limit - used)
    leaves = f"Your {PERIOD_WORDS[period]} {kind} limit of {format_cents(limit)} leaves {format_cents(left)}"
    sentence = (f"{leaves}, so this deposit of {format_cents(wanted)} is refused and nothing was deposited."
                if kind == "deposit" else
                f"{leaves}, less than this round's stake of {format_cents(wanted)} (counted as lost), so the "
                "round is not started and nothing was staked.")
    return ApiError(403, f"{kind}_limit", sentence, limit_cents=limit, left_cents=left, period=period)


def refuse(conn: Connection, player_id: int, account_id: int, kind: str, cents: int,
           now: int) -> ApiError | None:
    """403 when `cents` more (a deposit, or a stake counted as lost) would pass a limit in force."""
    changes = _changes(conn, player_id)
    in_force = {period: _amount(_standing(changes, kind, period)[0]) for period in LIMIT_PERIODS}
    if all(limit is None for limit in in_force.values()):
        return None
    used = used_cents(conn, account_id, kind, now)
    for period, limit in in_force.items():
        if limit is not None and used[period] + cents > limit:
            return _refusal(kind, period, limit, used[period], cents)
    return None


def change(conn: Connection, player_id: int, rules: OnlineRules, kind: str, period: str,
           amount_cents: int | None, now: int) -> None:
    """Ask for a limit (None: no limit). Lower or first: in force at once; higher or removed: pending."""
    if kind not in LIMIT_KINDS:
        raise ApiError(400, "bad_limit", f"A limit is one of {', '.join(LIMIT_KINDS)}, not '{kind}'.")
    if period not in rules.limit_periods:
        raise ApiError(400, "bad_period", f"Your jurisdiction offers {kind} limits per "
                       f"{', '.join(rules.limit_periods)}, not per '{period}'.")
    current, pending = _standing(_changes(conn, player_id), kind, period)
    now_limit = _amount(current)
    if amount_cents == now_limit and pending is None:
        return  # asked again for what is in force
    if pending is not None and pending.amount_cents == amount_cents:
        return  # asked again for what is pending
    looser = now_limit is not None and (amount_cents is None or amount_cents > now_limit)
    cooling = now + rules.limit_increase_cooling_off_h * 3600 if looser else None
    conn.execute(insert(rg_limit).values(player_id=player_id, kind=kind, period=period,
                                         amount_cents=amount_cents, requested_at=now,
                                         cooling_off_until=cooling))


def confirm(conn: Connection, player_id: int, limit_id: int, now: int) -> None:
    """Confirm a pending increase or removal once its cooling-off is over: it is in force from now."""
    row = conn.execute(select(rg_limit).where(and_(rg_limit.c.id == limit_id,
                                                   rg_limit.c.player_id == player_id))).first()
    if row is None:
        raise ApiError(404, "no_such_limit", f"You have no limit change {limit_id}.")
    if _in_force(row):
        raise ApiError(409, "limit_in_force", f"The limit change {limit_id} is already in force.")
    _, pending = _standing(_changes(conn, player_id), row.kind, row.period)
    if pending is None or pending.id != row.id:
        raise ApiError(409, "limit_superseded", f"The limit change {limit_id} was replaced by a later change "
                       "and cannot be confirmed.")
    if now < row.cooling_off_until:
        raise ApiError(409, "cooling_off", f"This {row.kind} limit change can be confirmed from "
                       f"{utc_text(row.cooling_off_until)}, after its cooling-off; until then the lower "
                       "limit stays.")
    conn.execute(update(rg_limit).where(and_(rg_limit.c.id == limit_id, rg_limit.c.confirmed_at.is_(None)))
                 .values(confirmed_at=now))


def describe(conn: Connection, player_id: int, account_id: int, rules: OnlineRules,
             now: int) -> dict[str, Any]:
    """{deposit: {period: {...} | None}, loss: {...}}: each limit in force, what is used and left in its
    window, and any pending increase (its id, amount and when it may be confirmed)."""
    changes = _changes(conn, player_id)
    out: dict[str, Any] = {}
    for kind in LIMIT_KINDS:
        out[kind] = {}
        used_in: dict[str, int] = {}
        for period in rules.limit_periods:
            current, pending = _standing(changes, kind, period)
            if _amount(current) is None and pending is None:
                out[kind][period] = None
                continue
            limit = _amount(current)
            used_in = used_in or used_cents(conn, account_id, kind, now)
            used = used_in[period]
            out[kind][period] = {
                "amount_cents": limit, "used_cents": used,
                "left_cents": None if limit is None else max(0, limit - used),
                "pending": None if pending is None else {
                    "id": pending.id, "amount_cents": pending.amount_cents,
                    "requested_at": pending.requested_at, "confirmable_at": pending.cooling_off_until,
                    "confirmable": now >= pending.cooling_off_until},
            }
    return out

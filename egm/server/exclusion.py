"""Time-outs and self-exclusion (UKGC RTS 14 practice): the player ends the session at once and login is
refused until the period ends, or for ever (permanent self-exclusion).

The periods are the jurisdiction's (`[online] timeout_days`, `self_exclusion_days`). A time-out keeps the
balance for the player's return. A self-exclusion pays the whole balance out in the same transaction (a
`withdraw` row in the ledger), so no money is left waiting behind a blocked login; a withdrawal cannot
be cancelled, and nothing is ever re-bought. An open round stays open with its stake; a time-out player
resumes it on return.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, or_, select, update

from egm.config import OnlineRules
from egm.money import format_cents
from egm.server.db.schema import rg_exclusion, session
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.settings import utc_text
from egm.server.wallet import lock_account, post

DAY_S = 24 * 3600


def in_force(conn: Connection, player_id: int, now: int) -> Any | None:
    """The exclusion in force that ends last (a permanent one first), or None."""
    rows = conn.execute(select(rg_exclusion).where(and_(
        rg_exclusion.c.player_id == player_id, rg_exclusion.c.starts_at <= now,
        or_(rg_exclusion.c.ends_at.is_(None), rg_exclusion.c.ends_at > now)))).all()
    return max(rows, key=lambda r: float("inf") if r.ends_at is None else r.ends_at, default=None)


def refuse_login(conn: Connection, player_id: int, now: int) -> ApiError | None:
    row = in_force(conn, player_id, now)
    if row is None:
        return None
    what = "in a time-out" if row.kind == "timeout" else "self-excluded"
    until = "permanently" if row.ends_at is None else f"until {utc_text(row.ends_at)}"
    return ApiError(403, row.kind, f"This account is {what} {until}, so it cannot log in"
                    f"{'' if row.ends_at is None else ' before then'}.", ends_at=row.ends_at)


def exclude(conn: Connection, hub: Hub, player_id: int, account_id: int, rules: OnlineRules,
            days: int | None, now: int) -> dict[str, Any]:
    """Start a time-out (days in timeout_days), a self-exclusion (days in self_exclusion_days) or a
    permanent self-exclusion (days None); end the player's sessions; pay out on self-exclusion."""
    if days is None or days in rules.self_exclusion_days:
        kind = "self_exclusion"
    elif days in rules.timeout_days:
        kind = "timeout"
    else:
        offered = ", ".join(str(d) for d in (*rules.timeout_days, *rules.self_exclusion_days))
        raise ApiError(400, "bad_period", "Your jurisdiction offers a time-out or self-exclusion of "
                       f"{offered} days, or a permanent one, not {days} days.")
    balance = lock_account(conn, account_id)
    ends_at = None if days is None else now + days * DAY_S
    paid_out = balance if kind == "self_exclusion" else 0
    exclusion_id = conn.execute(rg_exclusion.insert().values(
        player_id=player_id, kind=kind, starts_at=now, ends_at=ends_at, paid_out_cents=paid_out,
    ).returning(rg_exclusion.c.id)).scalar_one()
    if paid_out:
        post(conn, account_id, "withdraw", -paid_out, now, request_id=f"self-exclusion-{exclusion_id}")
        hub.publish(conn, account_id, "balance", {"balance_cents": 0})
    conn.execute(update(session).where(and_(session.c.player_id == player_id, session.c.ended_at.is_(None)))
                 .values(ended_at=now, end_reason=kind))
    hub.publish(conn, account_id, "session_ended", {"reason": kind})
    until = "permanently" if ends_at is None else f"until {utc_text(ends_at)}"
    payout = f"; your balance of {format_cents(paid_out)} has been withdrawn to you" if paid_out else ""
    what = "time-out" if kind == "timeout" else "self-exclusion"
    return {"kind": kind, "starts_at": now, "ends_at": ends_at, "paid_out_cents": paid_out,
            "balance_cents": balance - paid_out,
            "sentence": f"Your {what} has started and lasts {until}; you are logged out{payout}."}

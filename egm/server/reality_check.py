"""The reality check (UKGC RTS 13): at an interval the player chooses from the jurisdiction's offer
(`[online] reality_check_minutes`), the player is shown how long the session has lasted and the net
position (wins and refunds less stakes, this session); the next round start is refused with 423 until
the player acknowledges it. It never interrupts a round: decisions are never refused by it.

The interval runs from the latest of: the session's start (login), the last acknowledgement in this
session, and the moment the player chose the interval. Every time is the database's time.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, func, insert, select

from egm.config import OnlineRules
from egm.money import format_cents
from egm.server.db.schema import reality_check, reality_check_ack, session, wallet_tx
from egm.server.errors import ApiError


def _interval(conn: Connection, player_id: int) -> Any | None:
    return conn.execute(select(reality_check).where(reality_check.c.player_id == player_id)
                        .order_by(reality_check.c.id.desc()).limit(1)).first()


def _live_session(conn: Connection, player_id: int) -> Any | None:
    return conn.execute(select(session).where(and_(session.c.player_id == player_id,
                                                   session.c.ended_at.is_(None)))
                        .order_by(session.c.created_at.desc()).limit(1)).first()


def choose(conn: Connection, player_id: int, rules: OnlineRules, minutes: int | None, now: int) -> None:
    """Set the interval (None: no reality check); it must be one the jurisdiction offers."""
    if minutes is not None and minutes not in rules.reality_check_minutes:
        raise ApiError(400, "bad_interval", f"Your jurisdiction offers a reality check every "
                       f"{', '.join(str(m) for m in rules.reality_check_minutes)} minutes, not {minutes}.")
    chosen = _interval(conn, player_id)
    if chosen is None or chosen.interval_min != minutes:
        conn.execute(insert(reality_check).values(player_id=player_id, interval_min=minutes, at=now))


def status(conn: Connection, player_id: int, account_id: int, rules: OnlineRules, now: int) -> dict[str, Any]:
    """{interval_min, offered_min, due, due_at, session_started_at, elapsed_s, net_cents}."""
    chosen, live = _interval(conn, player_id), _live_session(conn, player_id)
    minutes = chosen.interval_min if chosen is not None else None
    out: dict[str, Any] = {"interval_min": minutes, "offered_min": list(rules.reality_check_minutes),
                           "due": False, "due_at": None, "session_started_at": None, "elapsed_s": 0,
                           "net_cents": 0}
    if live is None:
        return out
    net = conn.execute(select(func.coalesce(func.sum(wallet_tx.c.amount_cents), 0)).where(and_(
        wallet_tx.c.account_id == account_id, wallet_tx.c.kind.in_(("stake", "win", "refund")),
        wallet_tx.c.at >= live.created_at))).scalar_one()
    out.update(session_started_at=live.created_at, elapsed_s=now - live.created_at, net_cents=int(net))
    if minutes is not None:
        last_ack = conn.execute(select(func.max(reality_check_ack.c.at)).where(
            reality_check_ack.c.session_sha256 == live.token_sha256)).scalar()
        due_at = max(live.created_at, last_ack or 0, chosen.at) + minutes * 60
        out.update(due_at=due_at, due=now >= due_at)
    return out


def _figures(state: dict[str, Any]) -> str:
    minutes = state["elapsed_s"] // 60
    net = state["net_cents"]
    position = f"up {format_cents(net)}" if net > 0 else f"down {format_cents(-net)}" if net else "even"
    return f"you have played for {minutes // 60} h {minutes % 60:02d} min this session and are {position}"


def refuse(conn: Connection, player_id: int, account_id: int, rules: OnlineRules,
           now: int) -> ApiError | None:
    """423 while a reality check is due (at a round start only)."""
    state = status(conn, player_id, account_id, rules, now)
    if not state["due"]:
        return None
    return ApiError(423, "reality_check_due", f"Reality check: {_figures(state)}; acknowledge it "
                    "(POST /api/v1/reality-check/ack) to play on.", reality_check=state)


def acknowledge(conn: Connection, player_id: int, account_id: int, rules: OnlineRules,
                now: int) -> dict[str, Any]:
    """Record the acknowledgement of the check that is due; the figures shown, and the next due time."""
    state = status(conn, player_id, account_id, rules, now)
    if not state["due"]:
        raise ApiError(409, "no_reality_check_due", "No reality check is due; there is nothing to "
                       "acknowledge.")
    live = _live_session(conn, player_id)
    conn.execute(insert(reality_check_ack).values(player_id=player_id, session_sha256=live.token_sha256,
                                                  at=now, elapsed_s=state["elapsed_s"],
                                                  net_cents=state["net_cents"]))
    return {"acknowledged_at": now, "elapsed_s": state["elapsed_s"], "net_cents": state["net_cents"],
            "session_started_at": state["session_started_at"],
            "next_due_at": now + state["interval_min"] * 60, "sentence": f"Reality check: {_figures(state)}."}

"""Hand pays: a player's round whose win is above the pay table's maximum win or reaches the hand-pay
limit is settled as `review` and its win is not credited (egm/server/rounds.py). An operator resolves
it (`egm server review list|pay|void`), each in one write transaction with its audit record:

* pay: the win is credited to the player's wallet (a `win` ledger row), the round becomes `complete`,
  and `hand_pay_paid` records who approved it. A round already resolved is refused: no money moves.
* void: the stake is refunded (a `refund` ledger row; the design's "operator may void it (refund,
  audit)": the jurisdiction files say nothing else), the round becomes `voided`, and `hand_pay_voided`
  records who voided it and why.

A terminal's round (a cabinet on the server) is never resolved here: its cabinet locks up and its
attendant pays the hand pay, the cabinet's meters being the money of record (egm/server/terminals.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, update

from egm.server.accounts import audit
from egm.server.db import Database
from egm.server.db.schema import account, audit_event, game_round, player
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.settings import utc_text
from egm.server.wallet import lock_account, post

PAID, VOIDED = "hand_pay_paid", "hand_pay_voided"  # the audit records of a resolved hand pay
MAX_TEXT = 200


def awaiting(db: Database) -> list[dict[str, Any]]:
    """The players' rounds in review, oldest first (terminal rounds are paid at their cabinets)."""
    query = (select(game_round, player.c.login)
             .join(account, account.c.id == game_round.c.account_id)
             .join(player, player.c.id == account.c.player_id)
             .where(game_round.c.status == "review").order_by(game_round.c.completed_at, game_round.c.id))
    with db.read() as conn:
        rows = conn.execute(query).all()
    return [{"round_id": r.id, "account_id": r.account_id, "login": r.login, "game_id": r.game_id,
             "number": r.number, "stake_cents": r.stake_cents, "win_cents": r.win_cents,
             "why": r.hand_pay_reason, "at": r.completed_at, "at_utc": utc_text(r.completed_at)}
            for r in rows]


def pay(db: Database, hub: Hub, round_id: str, by: str, now: int) -> dict[str, Any]:
    """Credit a round's win to its player's wallet; 404 unknown round, 409 not in review or a terminal's."""
    by = _named(by, "--by", "who approves the hand pay")
    with db.write() as conn:
        row = _in_review(conn, round_id)
        balance = post(conn, row.account_id, "win", row.win_cents, now, round_id=round_id)
        conn.execute(update(game_round).where(game_round.c.id == round_id).values(status="complete"))
        audit(conn, now, PAID, row.player_id, round_id=round_id, by=by, win_cents=row.win_cents)
        hub.publish(conn, row.account_id, "balance", {"balance_cents": balance})
    return {"round_id": round_id, "status": "complete", "paid_cents": row.win_cents, "by": by,
            "balance_cents": balance}


def void(db: Database, hub: Hub, round_id: str, by: str, reason: str, now: int) -> dict[str, Any]:
    """Void a round in review: its win is not paid and its stake is refunded to the player's wallet."""
    by = _named(by, "--by", "who voids the round")
    reason = _named(reason, "--reason", "why the round is voided")
    with db.write() as conn:
        row = _in_review(conn, round_id)
        balance = post(conn, row.account_id, "refund", row.stake_cents, now, round_id=round_id)
        conn.execute(update(game_round).where(game_round.c.id == round_id).values(status="voided"))
        audit(conn, now, VOIDED, row.player_id, round_id=round_id, by=by, reason=reason,
              refund_cents=row.stake_cents)
        hub.publish(conn, row.account_id, "balance", {"balance_cents": balance})
    return {"round_id": round_id, "status": "voided", "refund_cents": row.stake_cents, "by": by,
            "reason": reason, "balance_cents": balance}


def decisions(conn: Connection) -> dict[str, dict[str, Any]]:
    """Every resolved hand pay's audit record by round id: {"kind", "at", **detail}."""
    rows = conn.execute(select(audit_event).where(audit_event.c.kind.in_((PAID, VOIDED)))
                        .order_by(audit_event.c.id)).all()
    return {r.detail["round_id"]: {"kind": r.kind, "at": r.at, **r.detail} for r in rows}


def _in_review(conn: Connection, round_id: str) -> Any:
    """The round, locked (account first, then the round: the round engine's lock order), with its
    player; refused unless it is a player's round in review."""
    found = conn.execute(select(game_round.c.account_id).where(game_round.c.id == round_id)).first()
    if found is None:
        raise ApiError(404, "no_such_round", f"There is no round '{round_id}'.")
    lock_account(conn, found.account_id)
    row = conn.execute(select(game_round, account.c.owner, account.c.player_id)
                       .join(account, account.c.id == game_round.c.account_id)
                       .where(game_round.c.id == round_id).with_for_update(of=game_round)).one()
    if row.owner == "terminal":
        raise ApiError(409, "terminal_round", f"Round {round_id} was played at a terminal: its cabinet "
                       "pays the hand pay (the attendant's reset), so the server moves no money for it.")
    if row.status != "review":
        raise ApiError(409, "not_in_review", f"Round {round_id} is not awaiting a hand pay: it is "
                       f"{row.status}{_resolved(conn, round_id)}; nothing was changed.")
    return row


def _resolved(conn: Connection, round_id: str) -> str:
    """' (paid by NAME at TIME)' for a hand pay already resolved ('' otherwise)."""
    found = decisions(conn).get(round_id)
    if found is None:
        return ""
    verb = "paid" if found["kind"] == PAID else "voided"
    return f" ({verb} by {found['by']} at {utc_text(found['at'])})"


def _named(text: str, flag: str, what: str) -> str:
    text = text.strip()
    if not 0 < len(text) <= MAX_TEXT:
        raise ApiError(400, "bad_input", f"{flag} says {what}: 1 to {MAX_TEXT} characters.")
    return text

"""The live table service: tables, sessions and the append-only hand log, on the game server's database.

Who does what (the roles `egm server user add` gives):
- an operator creates a table and receives its display token once (only its SHA-256 is kept);
- a dealer starts a session (a fresh board) and enters hands: the winners of the front, middle and
  back; the server derives the code with the cabinet's rule (`egm.live.board.result_code`);
- a correction (new winners and a reason) needs a supervisor's PIN, and the supervisor must be
  another person than the dealer (two people); a void marks a misdeal. Neither edits the log: each is
  a new line of it, with who entered and who approved it, so the audit keeps every version.

Every change is one write transaction keyed by the caller's request_id (a retry gets the stored reply
and changes nothing), and notifies the table's displays on the "live" channel after commit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from egm.live.board import Entry, board, current_hands, result_code
from egm.server.accounts import audit
from egm.server.db import Database
from egm.server.db.schema import WINNER, live_hand, live_session, live_table, player
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.idempotency import Key, Reply, reply, request_digest
from egm.server.passwords import verify_password
from egm.server.sessions import Caller

ROLE_NAMES = {"operator": "an operator", "dealer": "a dealer", "supervisor": "a supervisor"}


def require_role(caller: Caller, *roles: str) -> None:
    if caller.role not in roles:
        allowed = " or ".join(ROLE_NAMES[r] for r in roles)
        raise ApiError(403, "wrong_role", f"Only {allowed} may do this; you are logged in as "
                       f"{caller.login} ({caller.role}).")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_table(db: Database, caller: Caller, name: str, now: int) -> dict[str, Any]:
    """A new table with its first session; its display token is returned here and never again."""
    require_role(caller, "operator")
    token = secrets.token_urlsafe(24)
    with db.write() as conn:
        if conn.execute(select(live_table.c.id).where(live_table.c.name == name)).first() is not None:
            raise ApiError(409, "table_exists", f"A live table named '{name}' exists; choose another name.")
        table_id = conn.execute(insert(live_table).values(
            name=name, display_token_sha256=_digest(token), created_by=caller.player_id, created_at=now,
        ).returning(live_table.c.id)).scalar_one()
        conn.execute(insert(live_session).values(table_id=table_id, started_by=caller.player_id,
                                                 started_at=now))
        audit(conn, now, "live_table_created", caller.player_id, table_id=table_id, name=name)
    return {"table_id": table_id, "display_token": token}


def table_name(db: Database, table_id: int) -> str:
    with db.read() as conn:
        name = conn.execute(select(live_table.c.name).where(live_table.c.id == table_id)).scalar()
    if name is None:
        raise ApiError(404, "no_such_table", f"There is no live table {table_id}.")
    return str(name)


def check_display_token(db: Database, table_id: int, token: str | None) -> None:
    """404 for an unknown table, 403 for a token that is not this table's."""
    with db.read() as conn:
        stored = conn.execute(select(live_table.c.display_token_sha256)
                              .where(live_table.c.id == table_id)).scalar()
    if stored is None:
        raise ApiError(404, "no_such_table", f"There is no live table {table_id}.")
    if not token or not hmac.compare_digest(stored, _digest(token)):
        raise ApiError(403, "bad_display_token", "This display token is not the table's; ask the operator "
                       "for the table's display address.")


def _current_session(conn: Connection, table_id: int) -> int:
    if conn.execute(select(live_table.c.id).where(live_table.c.id == table_id)).first() is None:
        raise ApiError(404, "no_such_table", f"There is no live table {table_id}.")
    return int(conn.execute(select(func.max(live_session.c.id))
                            .where(live_session.c.table_id == table_id)).scalar_one())


def _log(conn: Connection, session_id: int) -> list[Entry]:
    rows = conn.execute(select(live_hand).where(live_hand.c.session_id == session_id)
                        .order_by(live_hand.c.seq)).all()
    return [Entry(r.seq, r.hand_id, r.kind, r.front or "", r.middle or "", r.back or "") for r in rows]


def read_board(conn: Connection, table_id: int) -> dict[str, Any]:
    """The table's board (egm.live.board) for its current session, with `seq`, the log's newest line."""
    session_id = _current_session(conn, table_id)
    log = _log(conn, session_id)
    return {**board(current_hands(log)), "table_id": table_id, "session_id": session_id,
            "seq": max((e.seq for e in log), default=0)}


def board_of(db: Database, table_id: int) -> dict[str, Any]:
    with db.read() as conn:
        return read_board(conn, table_id)


def _winners(body: dict[str, Any]) -> tuple[str, str, str]:
    winners = tuple(body.get(part) for part in ("front", "middle", "back"))
    unset = [part for part, w in zip(("front", "middle", "back"), winners, strict=True) if not w]
    if unset:
        raise ApiError(400, "row_unset", f"Set every row before ENTER: {', '.join(unset).upper()} "
                       f"{'is' if len(unset) == 1 else 'are'} not set.")
    for part, winner in zip(("FRONT", "MIDDLE", "BACK"), winners, strict=True):
        if winner not in WINNER:
            raise ApiError(400, "bad_winner", f"{part} is won by P (player), H (house) or D (Dragon), "
                           f"not {winner!r}.")
    return winners  # type: ignore[return-value]


def _once(db: Database, hub: Hub, caller: Caller, route: str, body: dict[str, Any], now: int,
          change: Any) -> Reply:
    """Run `change(conn)` exactly once per request_id, then notify the table's displays."""
    table_id = body["table_id"]
    with db.write() as conn:
        key = Key(db, conn, caller.account_id, body["request_id"])
        stored = key.claim(request_digest(route, body), now)
        if stored is not None:
            return stored
        answer = change(conn)
        # A fresh id per change: every instance reads the new board once for all its displays.
        hub.notify(conn, "live", table_id, {"kind": "board", "change": secrets.token_hex(8)})
        return key.store(reply(200, answer))


def enter_hand(db: Database, hub: Hub, caller: Caller, body: dict[str, Any], now: int) -> Reply:
    require_role(caller, "dealer", "supervisor")
    front, middle, back = _winners(body)
    code = result_code(front, middle, back)

    def enter(conn: Connection) -> dict[str, Any]:
        session_id = _current_session(conn, body["table_id"])
        seq = conn.execute(insert(live_hand).values(
            table_id=body["table_id"], session_id=session_id, hand_id=0, kind="entry", front=front,
            middle=middle, back=back, code=code, entered_by=caller.player_id,
            request_id=body["request_id"], at=now,
        ).returning(live_hand.c.seq)).scalar_one()
        conn.execute(update(live_hand).where(live_hand.c.seq == seq).values(hand_id=seq))
        row = {"hand_id": seq, "front": front, "middle": middle, "back": back, "code": code,
               "corrected": False}
        return {"hand_id": seq, "code": code, "row": row}

    return _once(db, hub, caller, "live-hand", body, now, enter)


def _hand_in_session(conn: Connection, table_id: int, hand_id: int) -> tuple[int, list[Entry]]:
    """The current session and its log, with 404 for a hand not on this table's current board and 409
    for a voided one."""
    session_id = _current_session(conn, table_id)
    log = _log(conn, session_id)
    lines = [e for e in log if e.hand_id == hand_id]
    if not lines:
        raise ApiError(404, "no_such_hand", f"Hand {hand_id} is not on this table's current board.")
    if lines[-1].kind == "void":
        raise ApiError(409, "hand_voided", f"Hand {hand_id} was voided as a misdeal; it cannot be changed.")
    return session_id, log


def _supervisor(conn: Connection, pin: str, dealer_id: int) -> int:
    """The supervisor whose PIN this is (their password), another person than the dealer; else 403."""
    supervisors = conn.execute(select(player.c.id, player.c.password_hash)
                               .where(and_(player.c.role == "supervisor", player.c.status == "active"))).all()
    for supervisor in supervisors:
        if verify_password(supervisor.password_hash, pin):
            if supervisor.id == dealer_id:
                break
            return int(supervisor.id)
    raise ApiError(403, "no_supervisor", "A correction needs the PIN of a supervisor other than the "
                   "dealer; nothing was changed.")


def correct_hand(db: Database, hub: Hub, caller: Caller, body: dict[str, Any], now: int) -> Reply:
    require_role(caller, "dealer", "supervisor")
    front, middle, back = _winners(body)
    reason = str(body.get("reason") or "").strip()
    if len(reason) < 3:
        raise ApiError(400, "no_reason", "A correction needs a reason (at least 3 characters).")
    code = result_code(front, middle, back)

    def correct(conn: Connection) -> dict[str, Any]:
        session_id, _ = _hand_in_session(conn, body["table_id"], body["hand_id"])
        approver = _supervisor(conn, str(body.get("supervisor_pin") or ""), caller.player_id)
        conn.execute(insert(live_hand).values(
            table_id=body["table_id"], session_id=session_id, hand_id=body["hand_id"], kind="correction",
            front=front, middle=middle, back=back, code=code, reason=reason, entered_by=caller.player_id,
            approved_by=approver, request_id=body["request_id"], at=now))
        row = {"hand_id": body["hand_id"], "front": front, "middle": middle, "back": back, "code": code,
               "corrected": True}
        return {"hand_id": body["hand_id"], "code": code, "row": row}

    safe = {k: v for k, v in body.items() if k != "supervisor_pin"}  # the PIN is not kept in the key
    return _once(db, hub, caller, "live-correction", safe, now, correct)


def void_hand(db: Database, hub: Hub, caller: Caller, body: dict[str, Any], now: int) -> Reply:
    require_role(caller, "dealer", "supervisor")

    def void(conn: Connection) -> dict[str, Any]:
        session_id, _ = _hand_in_session(conn, body["table_id"], body["hand_id"])
        conn.execute(insert(live_hand).values(
            table_id=body["table_id"], session_id=session_id, hand_id=body["hand_id"], kind="void",
            entered_by=caller.player_id, request_id=body["request_id"], at=now))
        return {"hand_id": body["hand_id"], "voided": True}

    return _once(db, hub, caller, "live-void", body, now, void)


def new_session(db: Database, hub: Hub, caller: Caller, body: dict[str, Any], now: int) -> Reply:
    require_role(caller, "dealer", "supervisor")

    def start(conn: Connection) -> dict[str, Any]:
        _current_session(conn, body["table_id"])
        session_id = conn.execute(insert(live_session).values(
            table_id=body["table_id"], started_by=caller.player_id, started_at=now,
        ).returning(live_session.c.id)).scalar_one()
        audit(conn, now, "live_session_started", caller.player_id, table_id=body["table_id"],
              session_id=session_id)
        return {"table_id": body["table_id"], "session_id": session_id}

    return _once(db, hub, caller, "live-session", body, now, start)


def audit_log(db: Database, caller: Caller, table_id: int) -> list[dict[str, Any]]:
    """Every line of the table's hand log, every session, with who entered and who approved it."""
    require_role(caller, "operator", "supervisor")
    entered, approved = player.alias("entered"), player.alias("approved")
    with db.read() as conn:
        _current_session(conn, table_id)
        rows = conn.execute(
            select(live_hand, entered.c.login.label("entered_login"),
                   approved.c.login.label("approved_login"))
            .join(entered, entered.c.id == live_hand.c.entered_by)
            .outerjoin(approved, approved.c.id == live_hand.c.approved_by)
            .where(live_hand.c.table_id == table_id).order_by(live_hand.c.seq)).all()
    return [{"seq": r.seq, "session_id": r.session_id, "hand_id": r.hand_id, "kind": r.kind,
             "front": r.front, "middle": r.middle, "back": r.back, "code": r.code, "reason": r.reason,
             "entered_by": r.entered_login, "approved_by": r.approved_login, "at": r.at} for r in rows]

"""Players and their accounts: registration, staff accounts (`egm server user add`), login with the
lock after the jurisdiction's `[online] login_failures_lock` failures in a row, and the audit trail."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from egm.server.db import Database
from egm.server.db.schema import ROLES, account, audit_event, player
from egm.server.errors import ApiError
from egm.server.passwords import hash_password, verify_password
from egm.server.rg import refuse_login, rules_of

LOGIN = r"[A-Za-z0-9._@-]{3,64}"  # what register and login accept (egm/server/api/models.py)


def audit(conn: Connection, now: int, kind: str, player_id: int | None, **detail: Any) -> None:
    conn.execute(insert(audit_event).values(at=now, player_id=player_id, kind=kind, detail=detail))


def create_player(db: Database, login: str, password: str, role: str, now: int) -> dict[str, Any]:
    """A new player (or staff member) with an empty account; 409 when the login is taken."""
    if role not in ROLES:
        raise ApiError(400, "bad_role", f"A role is one of {', '.join(ROLES)}, not '{role}'.")
    if not re.fullmatch(LOGIN, login):  # `egm server user add` comes here without the API's model
        raise ApiError(400, "bad_login", f"A login is 3 to 64 letters, digits, dots, underscores, @ or "
                       f"dashes, not '{login}'.")
    password_hash = hash_password(password)  # slow on purpose: outside the transaction
    taken = ApiError(409, "login_taken", f"The login '{login}' is taken; choose another.")
    try:
        with db.write() as conn:
            if conn.execute(select(player.c.id).where(player.c.login == login)).first() is not None:
                raise taken
            player_id = conn.execute(insert(player).values(
                login=login, password_hash=password_hash, role=role, created_at=now,
            ).returning(player.c.id)).scalar_one()
            conn.execute(insert(account).values(owner="player", player_id=player_id))
            audit(conn, now, "player_created", player_id, login=login, role=role)
    except IntegrityError:  # registered by a concurrent request between the check and the insert
        raise taken from None
    return {"id": player_id, "login": login, "role": role}


def authenticate(db: Database, login: str, password: str, now: int) -> dict[str, Any]:
    """The player whose password this is, or 401 (the same sentence for an unknown login and a wrong
    password); a locked account is 403. Each failure is counted; the third in a row locks."""
    with db.read() as conn:
        row = conn.execute(select(player).where(player.c.login == login)).first()
    lock_after = rules_of(row.jurisdiction if row is not None else "generic").login_failures_lock
    locked = ApiError(403, "account_locked", f"This account is locked after {lock_after} failed "
                      "logins; ask an operator to unlock it.")
    if row is not None and row.failed_logins >= lock_after:
        raise locked
    if not verify_password(row.password_hash if row else None, password):
        if row is not None:
            with db.write() as conn:
                failures = conn.execute(update(player).where(player.c.id == row.id)
                                        .values(failed_logins=player.c.failed_logins + 1)
                                        .returning(player.c.failed_logins)).scalar_one()
                audit(conn, now, "login_failed", row.id, failures=failures)
            if failures >= lock_after:
                raise locked
        raise ApiError(401, "login_failed", "The login or the password is wrong.")
    return {"id": row.id, "login": row.login, "role": row.role}


def refuse_excluded(conn: Connection, player_json: dict[str, Any], now: int) -> None:
    with_status = conn.execute(select(player).where(player.c.id == player_json["id"])).one()
    if (refusal := refuse_login(conn, with_status, now)) is not None:
        raise refusal

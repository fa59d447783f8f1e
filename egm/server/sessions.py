"""Sessions: an opaque 256-bit token in a `__Host-` cookie (Secure, HttpOnly, SameSite=Lax), stored only
as its SHA-256, rotated at login (one session per player: a new login ends the old one), with an idle
and an absolute expiry. Each session has its own CSRF token, which every POST echoes in X-CSRF-Token;
every POST also carries an Origin on the allow-list (login CSRF and cross-site requests fail)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from fastapi import Request, Response
from sqlalchemy import Connection, and_, insert, select, update

from egm.server.db import Database
from egm.server.db.schema import account, player, session
from egm.server.errors import ApiError
from egm.server.settings import SESSION_COOKIE, Settings

LAST_SEEN_GRAIN_S = 30  # the idle clock is written at most this often (a write per request is waste)


@dataclass(frozen=True)
class Caller:
    """The player behind an authenticated request."""

    player_id: int
    login: str
    role: str
    account_id: int
    csrf_token: str
    token_sha256: str

    def player_json(self) -> dict[str, object]:
        return {"id": self.player_id, "login": self.login, "role": self.role}


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(conn: Connection, player_id: int, now: int) -> tuple[str, str]:
    """End the player's other sessions and open a new one: (cookie token, CSRF token)."""
    conn.execute(update(session).where(and_(session.c.player_id == player_id, session.c.ended_at.is_(None)))
                 .values(ended_at=now, end_reason="replaced"))
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    conn.execute(insert(session).values(token_sha256=token_digest(token), player_id=player_id,
                                        csrf_token=csrf, created_at=now, last_seen_at=now))
    return token, csrf


def end_session(conn: Connection, token_sha256: str, now: int, reason: str) -> None:
    conn.execute(update(session).where(session.c.token_sha256 == token_sha256)
                 .values(ended_at=now, end_reason=reason))


def set_cookie(response: Response, token: str, settings: Settings) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=settings.session_absolute_s, path="/",
                        secure=True, httponly=True, samesite="lax")


def clear_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", secure=True, httponly=True, samesite="lax")


def check_origin(request: Request, settings: Settings) -> None:
    """403 unless the request's Origin is on the allow-list (every POST; the websocket handshake)."""
    origin = request.headers.get("origin")
    if origin not in settings.allowed_origins:
        shown = f"the origin {origin}" if origin else "a request without an Origin header"
        raise ApiError(403, "origin_refused", f"This server does not accept {shown}; it serves "
                       f"{', '.join(settings.allowed_origins)}.")


def check_csrf(request: Request, caller: Caller) -> None:
    sent = request.headers.get("x-csrf-token", "")
    if not hmac.compare_digest(sent.encode(), caller.csrf_token.encode()):
        raise ApiError(403, "csrf_refused", "The X-CSRF-Token header is missing or wrong; log in again "
                       "to get a fresh one.")


def caller_of(db: Database, token: str | None, settings: Settings) -> Caller:
    """The caller a session cookie names, or 401; ends a session that has expired. The idle clock is
    written (a short write transaction) at most every LAST_SEEN_GRAIN_S seconds."""
    if not token:
        raise ApiError(401, "no_session", "Log in first: this request has no session.")
    digest, now = token_digest(token), settings.now()
    with db.read() as conn:
        row = conn.execute(
            select(session, player.c.login, player.c.role, account.c.id.label("account_id"))
            .join(player, player.c.id == session.c.player_id)
            .join(account, account.c.player_id == player.c.id)
            .where(session.c.token_sha256 == digest)
        ).first()
    if row is None or row.ended_at is not None:
        raise ApiError(401, "no_session", "The session has ended; log in again.")
    if now - row.last_seen_at > settings.session_idle_s or now - row.created_at > settings.session_absolute_s:
        with db.write() as conn:
            end_session(conn, digest, now, "expired")
        raise ApiError(401, "session_expired", "The session expired; log in again.")
    if now - row.last_seen_at >= LAST_SEEN_GRAIN_S:
        with db.write() as conn:
            conn.execute(update(session).where(session.c.token_sha256 == digest).values(last_seen_at=now))
    return Caller(row.player_id, row.login, row.role, row.account_id, row.csrf_token, digest)

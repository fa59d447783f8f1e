"""POST /api/v1/auth/register, /login, /logout."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import update

from egm.server.accounts import audit, authenticate, create_player, refuse_excluded
from egm.server.api.deps import OriginChecked, PostCaller, server_of
from egm.server.api.models import Credentials
from egm.server.db.schema import player
from egm.server.server import Server
from egm.server.sessions import clear_cookie, end_session, set_cookie, start_session

router = APIRouter(prefix="/api/v1/auth")


def _logged_in(server: Server, who: dict[str, Any], status: int) -> JSONResponse:
    """Open a new session for `who` (ending any other) and answer {player, csrf_token} with the cookie."""
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.write() as conn:
        refuse_excluded(conn, who, now)
        token, csrf = start_session(conn, who["id"], now)
        conn.execute(update(player).where(player.c.id == who["id"]).values(failed_logins=0))
        audit(conn, now, "login", who["id"])
    response = JSONResponse({"player": who, "csrf_token": csrf}, status_code=status)
    set_cookie(response, token, server.settings)
    return response


@router.post("/register", status_code=201)
def register(body: Credentials, server: OriginChecked) -> JSONResponse:
    """A new player account, logged in at once."""
    db, _, _ = server.require_ready()
    who = create_player(db, body.login, body.password, "player", server.settings.now())
    return _logged_in(server, who, 201)


@router.post("/login")
def login(body: Credentials, server: OriginChecked) -> JSONResponse:
    db, _, _ = server.require_ready()
    who = authenticate(db, body.login, body.password, server.settings.now())
    return _logged_in(server, who, 200)


@router.post("/logout")
def logout(request: Request, who: PostCaller) -> JSONResponse:
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.write() as conn:
        end_session(conn, who.token_sha256, now, "logout")
        audit(conn, now, "logout", who.player_id)
    response = JSONResponse({"logged_out": True})
    clear_cookie(response)
    return response

"""What every route needs: the server, the caller (from the session cookie), and the POST guards
(Origin on the allow-list, then the session, then the CSRF header)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import Response

from egm.server.idempotency import Reply
from egm.server.rate_limit import IpLimiter
from egm.server.server import Server
from egm.server.sessions import Caller, caller_of, check_csrf, check_origin
from egm.server.settings import SESSION_COOKIE


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def caller(request: Request) -> Caller:
    """The logged-in caller of a GET (401 without a live session)."""
    server = server_of(request)
    db, _, _ = server.require_ready()
    return caller_of(db, request.cookies.get(SESSION_COOKIE), server.settings)


def poster(request: Request) -> Caller:
    """The logged-in caller of a POST or PUT: Origin allowed (403), session (401), CSRF header (403)."""
    check_origin(request, server_of(request).settings)
    who = caller(request)
    check_csrf(request, who)
    return who


def origin_checked(request: Request) -> Server:
    """A POST that needs no session yet (register, login): within its address's rate limit (429), and
    its Origin must still be allowed."""
    server = server_of(request)
    limiter: IpLimiter = request.app.state.ip_limiter
    limiter.admit(request.client.host if request.client else "", server.settings.clock())
    check_origin(request, server.settings)
    return server


GetCaller = Annotated[Caller, Depends(caller)]
PostCaller = Annotated[Caller, Depends(poster)]
OriginChecked = Annotated[Server, Depends(origin_checked)]


def stored(reply: Reply) -> Response:
    """An idempotent request's reply, as stored: the same bytes for the first answer and every retry."""
    return Response(reply.body, status_code=reply.status, media_type="application/json")

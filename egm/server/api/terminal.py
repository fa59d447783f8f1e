"""The terminal routes (/api/v1/terminal/...): a cabinet playing as a thin client ([0021]). Every request
is signed by the terminal's key (no cookie, CSRF or Origin: a cabinet is not a browser); the rounds are
the players' round engine with a `TerminalSeat` (egm/server/seats.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlalchemy.exc import DBAPIError

from egm.server import nonces, terminals
from egm.server.api.deps import server_of, stored
from egm.server.api.models import DecisionBody, TerminalStart
from egm.server.idempotency import Reply
from egm.server.rounds import RoundService
from egm.server.seats import TerminalSeat

router = APIRouter(prefix="/api/v1/terminal")


async def _raw_body(request: Request) -> bytes:
    return await request.body()  # the exact bytes signed (FastAPI parses the same cached bytes)


def signed_path(request: Request) -> str:
    """The path and query exactly as sent: what the terminal signed."""
    raw = request.scope.get("raw_path") or request.url.path.encode()
    query = request.scope.get("query_string", b"")
    return raw.decode("latin-1") + (f"?{query.decode('latin-1')}" if query else "")


def _terminal(request: Request, body: Annotated[bytes, Depends(_raw_body)]) -> TerminalSeat:
    """A read: the nonce claimed in its own transaction before it is served."""
    return _authenticated(request, body, claim_now=True)


def _playing_terminal(request: Request, body: Annotated[bytes, Depends(_raw_body)]) -> TerminalSeat:
    """A round request: the nonce claimed in the round's own transaction (`_played` burns it when the
    request is refused), so a served request commits once."""
    return _authenticated(request, body, claim_now=False)


def _authenticated(request: Request, body: bytes, *, claim_now: bool) -> TerminalSeat:
    server = server_of(request)
    db, _, _ = server.require_ready()
    return terminals.authenticate(db, request.headers, request.method, signed_path(request), body,
                                  server.settings.now(), claim_now=claim_now)


Terminal = Annotated[TerminalSeat, Depends(_terminal)]
PlayingTerminal = Annotated[TerminalSeat, Depends(_playing_terminal)]


def _played(request: Request, seat: TerminalSeat, serve: Callable[[RoundService], Reply]) -> Response:
    """Serve a round request; when it is refused (rolled back, its nonce with it), burn the nonce in a
    transaction of its own so that the refused request cannot be replayed (a replay is refused as
    `replayed`: burning finds its nonce used)."""
    db, _, rounds = server_of(request).require_ready()
    try:
        return stored(serve(rounds))
    except Exception:
        if seat.nonce is not None:
            with contextlib.suppress(DBAPIError):  # the database is down: the request did nothing either
                nonces.burn(db, seat.nonce)
        raise


@router.get("/catalogue")
def catalogue(request: Request, seat: Terminal) -> dict[str, Any]:
    server = server_of(request)
    _, lobby, _ = server.require_ready()
    return terminals.catalogue(lobby, seat.terminal_id, server.catalogue_key)


@router.post("/rounds")
def start(body: TerminalStart, request: Request, seat: PlayingTerminal) -> Response:
    now = server_of(request).settings.now()
    return _played(request, seat, lambda rounds: rounds.start(seat, body.model_dump(), now))


@router.post("/rounds/{round_id}/decisions")
def decide(round_id: str, body: DecisionBody, request: Request, seat: PlayingTerminal) -> Response:
    now = server_of(request).settings.now()
    return _played(request, seat, lambda rounds: rounds.decide(seat, round_id, body.model_dump(), now))


@router.get("/rounds/{round_id}")
def show(round_id: str, request: Request, seat: Terminal) -> Any:
    _, _, rounds = server_of(request).require_ready()
    return rounds.show(seat, round_id)


@router.get("/meters")
def meters(request: Request, seat: Terminal) -> Any:
    db, _, _ = server_of(request).require_ready()
    with db.read() as conn:
        return terminals.terminal_meters(conn, seat)

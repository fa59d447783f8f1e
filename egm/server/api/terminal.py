"""The terminal routes (/api/v1/terminal/...): a cabinet playing as a thin client ([0021]). Every request
is signed by the terminal's key (no cookie, CSRF or Origin: a cabinet is not a browser); the rounds are
the players' round engine with a `TerminalSeat` (egm/server/seats.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from egm.server import terminals
from egm.server.api.deps import server_of, stored
from egm.server.api.models import DecisionBody, TerminalStart
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
    server = server_of(request)
    db, _, _ = server.require_ready()
    return terminals.authenticate(db, request.headers, request.method, signed_path(request), body,
                                  server.settings.now())


Terminal = Annotated[TerminalSeat, Depends(_terminal)]


@router.get("/catalogue")
def catalogue(request: Request, seat: Terminal) -> dict[str, Any]:
    server = server_of(request)
    _, lobby, _ = server.require_ready()
    return terminals.catalogue(lobby, seat.terminal_id, server.catalogue_key)


@router.post("/rounds")
def start(body: TerminalStart, request: Request, seat: Terminal) -> Response:
    server = server_of(request)
    _, _, rounds = server.require_ready()
    return stored(rounds.start(seat, body.model_dump(), server.settings.now()))


@router.post("/rounds/{round_id}/decisions")
def decide(round_id: str, body: DecisionBody, request: Request, seat: Terminal) -> Response:
    server = server_of(request)
    _, _, rounds = server.require_ready()
    return stored(rounds.decide(seat, round_id, body.model_dump(), server.settings.now()))


@router.get("/rounds/{round_id}")
def show(round_id: str, request: Request, seat: Terminal) -> Any:
    _, _, rounds = server_of(request).require_ready()
    return rounds.show(seat, round_id)


@router.get("/meters")
def meters(request: Request, seat: Terminal) -> Any:
    db, _, _ = server_of(request).require_ready()
    with db.read() as conn:
        return terminals.terminal_meters(conn, seat)

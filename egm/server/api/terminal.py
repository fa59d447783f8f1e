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
from starlette.concurrency import run_in_threadpool

from egm.server import nonces, terminals
from egm.server.api.deps import server_of, stored
from egm.server.api.models import Body, DecisionBody, TerminalStart, parse_body
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
    server = server_of(request)
    db, _, registrations = server.require_terminals()
    return terminals.authenticate(registrations, db, request.headers, request.method, signed_path(request),
                                  body, server.settings.now())


Terminal = Annotated[TerminalSeat, Depends(_terminal)]


Serve = Callable[[RoundService, TerminalSeat, Any, int], Reply]


async def _play(request: Request, model: type[Body], serve: Serve) -> Response:
    """A round request, in one worker-thread call: the signature checked (401), the body read (400), then
    served, its nonce claimed in the round's own transaction so that a served request commits once. When
    it is refused (rolled back, its nonce with it), the nonce is burned in a transaction of its own, so
    that a refused request cannot be replayed either (a replay is refused as `replayed`: burning finds
    its nonce used). One thread hop rather than one per dependency and route (docs/cabinet-on-server.md,
    Figures)."""
    body = await request.body()  # the exact bytes signed
    server = server_of(request)

    def played() -> Response:
        db, rounds, registrations = server.require_terminals()
        now = server.settings.now()
        seat = terminals.authenticate(registrations, db, request.headers, request.method,
                                      signed_path(request), body, now, claim_now=False)
        parsed = parse_body(model, body)
        try:
            return stored(serve(rounds, seat, parsed, now))
        except Exception:
            if seat.nonce is not None:
                with contextlib.suppress(DBAPIError):  # the database is down: the request did nothing either
                    nonces.burn(db, seat.nonce)
            raise

    return await run_in_threadpool(played)


@router.get("/catalogue")
def catalogue(request: Request, seat: Terminal) -> dict[str, Any]:
    server = server_of(request)
    _, lobby, _ = server.require_ready()
    return terminals.catalogue(lobby, seat.terminal_id, server.catalogue_key)


def _documented(model: type[Body]) -> dict[str, Any]:
    """The OpenAPI entry of a body the route reads by hand, after its signature is checked."""
    return {"requestBody": {"required": True,
                            "content": {"application/json": {"schema": model.model_json_schema()}}}}


@router.post("/rounds", openapi_extra=_documented(TerminalStart))
async def start(request: Request) -> Response:
    return await _play(request, TerminalStart,
                       lambda rounds, seat, body, now: rounds.start(seat, body.model_dump(), now))


@router.post("/rounds/{round_id}/decisions", openapi_extra=_documented(DecisionBody))
async def decide(round_id: str, request: Request) -> Response:
    return await _play(request, DecisionBody,
                       lambda rounds, seat, body, now: rounds.decide(seat, round_id, body.model_dump(), now))


@router.get("/rounds/{round_id}")
def show(round_id: str, request: Request, seat: Terminal) -> Any:
    _, _, rounds = server_of(request).require_ready()
    return rounds.show(seat, round_id)


@router.get("/meters")
def meters(request: Request, seat: Terminal) -> Any:
    db, _, _ = server_of(request).require_ready()
    with db.read() as conn:
        return terminals.terminal_meters(conn, seat)

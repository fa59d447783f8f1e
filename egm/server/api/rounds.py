"""POST /api/v1/rounds, POST /api/v1/rounds/{id}/decisions, GET /api/v1/rounds/{id}, GET .../replay."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from egm.server.api.deps import GetCaller, PostCaller, server_of, stored
from egm.server.api.models import DecisionBody, StartRound

router = APIRouter(prefix="/api/v1/rounds")


@router.post("")
def start(body: StartRound, request: Request, who: PostCaller) -> Response:
    server = server_of(request)
    _, _, rounds = server.require_ready()
    return stored(rounds.start(rounds.player_seat(who), body.model_dump(), server.settings.now()))


@router.post("/{round_id}/decisions")
def decide(round_id: str, body: DecisionBody, request: Request, who: PostCaller) -> Response:
    server = server_of(request)
    _, _, rounds = server.require_ready()
    return stored(rounds.decide(rounds.player_seat(who), round_id, body.model_dump(), server.settings.now()))


@router.get("/{round_id}")
def show(round_id: str, request: Request, who: GetCaller) -> Any:
    _, _, rounds = server_of(request).require_ready()
    return rounds.show(who, round_id)


@router.get("/{round_id}/replay")
def replay(round_id: str, request: Request, who: GetCaller) -> Any:
    _, _, rounds = server_of(request).require_ready()
    return rounds.replay(who, round_id)

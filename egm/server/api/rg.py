"""Responsible gaming: GET|PUT /api/v1/limits, POST /api/v1/limits/{id}/confirm,
POST /api/v1/reality-check/ack, POST /api/v1/self-exclusion."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from egm.server import rg
from egm.server.accounts import audit
from egm.server.api.deps import GetCaller, PostCaller, server_of
from egm.server.api.models import Limits, RowId, SelfExclusion
from egm.server.sessions import clear_cookie

router = APIRouter(prefix="/api/v1")


@router.get("/limits")
def show_limits(request: Request, who: GetCaller) -> dict[str, Any]:
    server = server_of(request)
    db, _, _ = server.require_ready()
    with db.read() as conn:
        return rg.limits(conn, who.player_id, server.settings.now())


@router.put("/limits")
def change_limits(body: Limits, request: Request, who: PostCaller) -> dict[str, Any]:
    """Lower limits apply at once; higher or removed ones are pending (confirm after the cooling-off)."""
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()
    changes = {kind: getattr(body, kind) for kind in ("deposit", "loss") if getattr(body, kind)}
    interval = (body.reality_check_min,) if "reality_check_min" in body.model_fields_set else ()
    with db.write() as conn:
        rg.change_limits(conn, who.player_id, changes, interval, now)
        audit(conn, now, "limits_changed", who.player_id, **body.model_dump(exclude_unset=True))
        return rg.limits(conn, who.player_id, now)


@router.post("/limits/{limit_id}/confirm")
def confirm_limit(limit_id: RowId, request: Request, who: PostCaller) -> dict[str, Any]:
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.write() as conn:
        rg.confirm_limit(conn, who.player_id, limit_id, now)
        audit(conn, now, "limit_confirmed", who.player_id, limit_id=limit_id)
        return rg.limits(conn, who.player_id, now)


@router.post("/reality-check/ack")
def acknowledge(request: Request, who: PostCaller) -> dict[str, Any]:
    """The elapsed session time and net position shown; the next start is allowed again."""
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.write() as conn:
        answer = rg.acknowledge_reality_check(conn, who.player_id, now)
        audit(conn, now, "reality_check_ack", who.player_id, elapsed_s=answer["elapsed_s"],
              net_cents=answer["net_cents"])
        return answer


@router.post("/self-exclusion")
def self_exclusion(body: SelfExclusion, request: Request, who: PostCaller) -> JSONResponse:
    """A time-out or self-exclusion: the session ends at once (the cookie is cleared)."""
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.write() as conn:
        answer = rg.exclude(conn, server.hub, who.player_id, None if body.permanent else body.days, now)
        audit(conn, now, answer["kind"], who.player_id, ends_at=answer["ends_at"],
              paid_out_cents=answer["paid_out_cents"])
    response = JSONResponse(answer)
    clear_cookie(response)
    return response

"""GET /api/v1/session, GET /api/v1/games, GET /api/v1/history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import and_, select

from egm.server import rg
from egm.server.api.deps import GetCaller, server_of
from egm.server.api.models import RowId
from egm.server.db.schema import game_round
from egm.server.errors import ApiError
from egm.server.events import event_seq
from egm.server.server import Server
from egm.server.sessions import Caller
from egm.server.wallet import balance_of

router = APIRouter(prefix="/api/v1")
HISTORY_PAGE = 50


@router.get("/games")
def games(request: Request) -> list[dict[str, Any]]:
    _, lobby, _ = server_of(request).require_ready()
    return lobby.listing()


@router.get("/games/{game_id}/rules")
def rules(game_id: str, request: Request) -> list[dict[str, Any]]:
    _, lobby, _ = server_of(request).require_ready()
    if game_id not in lobby.games:
        raise ApiError(404, "unknown_game", f"There is no game '{game_id}' on this server.")
    return lobby.rules(game_id)


def snapshot(server: Server, who: Caller) -> dict[str, Any]:
    """Everything a client needs to (re)draw itself, the open round included (resume at its step), and
    `seq`, the account's newest event (the websocket's resynchronisation point)."""
    db, _, rounds = server.require_ready()
    now = server.settings.now()
    with db.read() as conn:
        return {"player": who.player_json(), "balance_cents": balance_of(conn, who.account_id),
                "open_round": rounds.open_round(conn, who), "limits": rg.limits(conn, who.player_id, now),
                "reality_check_due": rg.reality_check_due(conn, who.player_id, now), "now": now,
                "seq": event_seq(conn, who.account_id)}


@router.get("/session")
def session(request: Request, who: GetCaller) -> dict[str, Any]:
    return snapshot(server_of(request), who)


@router.get("/history")
def history(request: Request, who: GetCaller, before: RowId | None = None) -> dict[str, Any]:
    """The caller's finished rounds, newest first, a page at a time (before: the game number of the
    last one seen)."""
    db, _, _ = server_of(request).require_ready()
    query = select(game_round).where(and_(game_round.c.account_id == who.account_id,
                                          game_round.c.status != "open"))
    if before is not None:
        query = query.where(game_round.c.number < before)
    with db.read() as conn:
        rows = conn.execute(query.order_by(game_round.c.number.desc()).limit(HISTORY_PAGE)).all()
    return {"rounds": [{"round_id": r.id, "number": r.number, "game_id": r.game_id, "status": r.status,
                        "stake_cents": r.stake_cents, "win_cents": r.win_cents, "result_code": r.result_code,
                        "started_at": r.started_at,
                        "completed_at": r.completed_at} for r in rows]}

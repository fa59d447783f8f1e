"""The live table's routes (/live/...): tables, sessions, hands, corrections, voids, the board, the
dealer's and the display's pages, and the display's websocket.

The display needs no login: its address carries the table's read-only display token, which can read
the board and nothing else (a token used to post is refused: posts need a staff session).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import Field, StrictStr
from starlette.concurrency import run_in_threadpool

import egm.live
from egm.server import live_table as live
from egm.server.api.deps import PostCaller, caller, server_of, stored
from egm.server.api.models import Body, RequestId, RowId
from egm.server.errors import ApiError
from egm.server.sessions import check_origin

WEB = Path(egm.live.__file__).parent / "web"
STATIC = "/live/static"
HEARTBEAT_S = 15  # the display shows OFFLINE after 45 s without a message
templates = Jinja2Templates(directory=WEB / "templates")
router = APIRouter(prefix="/live")
Winner = Annotated[StrictStr, Field(min_length=1, max_length=1)]


class NewTable(Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class Keyed(Body):
    request_id: RequestId


class HandBody(Body):
    request_id: RequestId
    front: Winner | None = None
    middle: Winner | None = None
    back: Winner | None = None


class CorrectionBody(HandBody):
    reason: Annotated[StrictStr, Field(max_length=500)]
    supervisor_pin: Annotated[StrictStr, Field(max_length=256)] = ""


def mount_static(app: Any) -> None:
    app.mount(STATIC, StaticFiles(directory=WEB / "static"), name="live-static")


@router.post("/tables", status_code=200)
def create_table(body: NewTable, request: Request, who: PostCaller) -> dict[str, Any]:
    server = server_of(request)
    db, _, _ = server.require_ready()
    return live.create_table(db, who, body.name, server.settings.now())


def _post(request: Request, who: Any, change: Any, body: dict[str, Any]) -> Response:
    server = server_of(request)
    db, _, _ = server.require_ready()
    return stored(change(db, server.hub, who, body, server.settings.now()))


@router.post("/tables/{table_id}/sessions")
def new_session(table_id: RowId, body: Keyed, request: Request, who: PostCaller) -> Response:
    return _post(request, who, live.new_session, {**body.model_dump(), "table_id": table_id})


@router.post("/tables/{table_id}/hands")
def enter_hand(table_id: RowId, body: HandBody, request: Request, who: PostCaller) -> Response:
    return _post(request, who, live.enter_hand, {**body.model_dump(), "table_id": table_id})


@router.post("/tables/{table_id}/hands/{hand_id}/corrections")
def correct_hand(table_id: RowId, hand_id: RowId, body: CorrectionBody, request: Request,
                 who: PostCaller) -> Response:
    return _post(request, who, live.correct_hand,
                 {**body.model_dump(), "table_id": table_id, "hand_id": hand_id})


@router.post("/tables/{table_id}/hands/{hand_id}/void")
def void_hand(table_id: RowId, hand_id: RowId, body: Keyed, request: Request, who: PostCaller) -> Response:
    return _post(request, who, live.void_hand,
                 {**body.model_dump(), "table_id": table_id, "hand_id": hand_id})


@router.get("/tables/{table_id}/board")
def board(table_id: RowId, request: Request, token: Annotated[str | None, Query()] = None) -> dict[str, Any]:
    """The board for the display (its token) or for staff logged in (their session)."""
    db, _, _ = server_of(request).require_ready()
    if token is not None:
        live.check_display_token(db, table_id, token)
    else:
        live.require_role(caller(request), "dealer", "supervisor", "operator")
    return live.board_of(db, table_id)


@router.get("/tables/{table_id}/audit")
def audit(table_id: RowId, request: Request) -> list[dict[str, Any]]:
    db, _, _ = server_of(request).require_ready()
    return live.audit_log(db, caller(request), table_id)


def _page(request: Request, name: str, table_id: int, token: str = "") -> HTMLResponse:
    db, _, _ = server_of(request).require_ready()
    if token:
        live.check_display_token(db, table_id, token)
    context = {"table_id": table_id, "table_name": live.table_name(db, table_id), "token": token,
               "static_base": STATIC}
    return templates.TemplateResponse(request, name, context)


@router.get("/tables/{table_id}/dealer", response_class=HTMLResponse)
def dealer_page(table_id: RowId, request: Request) -> HTMLResponse:
    return _page(request, "dealer.html", table_id)


@router.get("/tables/{table_id}/display", response_class=HTMLResponse)
def display_page(table_id: RowId, request: Request,
                 token: Annotated[str, Query(min_length=1)]) -> HTMLResponse:
    return _page(request, "display.html", table_id, token)


class Boards:
    """The newest board of each table this instance shows: one database read per change, whatever the
    number of displays watching."""

    def __init__(self) -> None:
        self._boards: dict[int, tuple[str, dict[str, Any]]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def get(self, db: Any, table_id: int, change: str) -> dict[str, Any]:
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            cached = self._boards.get(table_id)
            if cached is None or cached[0] != change or not change:
                cached = (change, await run_in_threadpool(live.board_of, db, table_id))
                self._boards[table_id] = cached
            return cached[1]


@router.websocket("/tables/{table_id}/ws")
async def display_socket(websocket: WebSocket, table_id: RowId, token: str = "") -> None:
    """The whole board on connect and after each change; a heartbeat every HEARTBEAT_S seconds."""
    server = websocket.app.state.server
    try:
        check_origin(websocket, server.settings)  # cross-site websocket hijacking: refuse foreign pages
        db, _, _ = server.require_ready()
        await run_in_threadpool(live.check_display_token, db, table_id, token)
    except ApiError as refusal:
        await websocket.close(code=4403 if refusal.status == 403 else 4404, reason=refusal.sentence[:120])
        return
    boards: Boards = websocket.app.state.live_boards
    await websocket.accept()
    with server.hub.subscribe("live", table_id) as subscription:
        try:
            await websocket.send_json({"type": "board", "board": await boards.get(db, table_id, "")})
            while True:
                try:
                    message = await asyncio.wait_for(subscription.queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    await websocket.send_json({"type": "ping"})
                    continue
                board_now = await boards.get(db, table_id, str(message.get("change", "")))
                await websocket.send_json({"type": "board", "board": board_now})
        except (WebSocketDisconnect, RuntimeError):
            return


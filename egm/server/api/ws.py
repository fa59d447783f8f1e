"""Websocket /ws: a player's session pushed its balance, round and reality-check changes.

Server to client: `hello` (a snapshot, as GET /api/v1/session gives it, with `seq`), then `balance`,
`round` and `reality_check` messages each with the account's next `seq`, a `ping` every HEARTBEAT_S
seconds of quiet, `snapshot` on request, and `session_ended` when the session is no longer valid. A
reality check that falls due while the player is idle (no round ends to announce it) is found at the
next heartbeat and sent once, as `reality_check` with the current `seq`.
Client to server: only `{"type": "resume", "last_seq": N}`, answered with a snapshot. A client that
sees a gap in `seq`, or reconnects, resumes: correctness never depends on a push.

The handshake needs the session cookie and an Origin on the allow-list (a foreign page's socket is
closed: cross-site websocket hijacking).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from egm.server import rg
from egm.server.api.player import snapshot
from egm.server.errors import ApiError
from egm.server.events import event_seq
from egm.server.sessions import Caller, caller_of, check_origin
from egm.server.settings import SESSION_COOKIE

HEARTBEAT_S = 20
router = APIRouter()


async def _caller(websocket: WebSocket) -> Caller:
    server = websocket.app.state.server
    check_origin(websocket, server.settings)  # type: ignore[arg-type]  (a WebSocket has the headers)
    db, _, _ = server.require_ready()
    return await run_in_threadpool(caller_of, db, websocket.cookies.get(SESSION_COOKIE), server.settings)


async def _snapshot(websocket: WebSocket, who: Caller, kind: str) -> dict[str, Any]:
    return {"type": kind, **await run_in_threadpool(snapshot, websocket.app.state.server, who)}


def _reality_check(server: Any, who: Caller) -> dict[str, Any]:
    """The player's reality check now (`due`, elapsed time and net position) and the account's seq."""
    db, _, _ = server.require_ready()
    now = server.settings.now()
    with db.read() as conn:
        check = rg.limits(conn, who.player_id, now)["reality_check"]
        return {**check, "seq": event_seq(conn, who.account_id)}


@router.websocket("/ws")
async def player_socket(websocket: WebSocket) -> None:
    try:
        who = await _caller(websocket)
    except ApiError as refusal:
        await websocket.close(code=4000 + refusal.status, reason=refusal.sentence[:120])
        return
    server = websocket.app.state.server
    await websocket.accept()
    with server.hub.subscribe("rgs", who.account_id) as subscription:
        await websocket.send_json(await _snapshot(websocket, who, "hello"))
        receiving = asyncio.ensure_future(websocket.receive_json())
        announced = False  # the reality check now due was sent on this socket
        try:
            while True:
                pushed = asyncio.ensure_future(subscription.queue.get())
                done, _ = await asyncio.wait({receiving, pushed}, timeout=HEARTBEAT_S,
                                             return_when=asyncio.FIRST_COMPLETED)
                if pushed in done:
                    message = pushed.result()
                    await websocket.send_json({"type": message.pop("kind"), **message})
                else:
                    pushed.cancel()
                if receiving in done:
                    asked = receiving.result()
                    receiving = asyncio.ensure_future(websocket.receive_json())
                    if isinstance(asked, dict) and asked.get("type") == "resume":
                        try:  # the session may have ended (logout, expiry) since the handshake
                            who = await _caller(websocket)
                        except ApiError as ended:
                            await websocket.send_json({"type": "session_ended", "reason": ended.code})
                            await websocket.close(code=4401)
                            return
                        await websocket.send_json(await _snapshot(websocket, who, "snapshot"))
                if not done:
                    await websocket.send_json({"type": "ping"})
                    check = await run_in_threadpool(_reality_check, server, who)
                    if check["due"] and not announced:
                        await websocket.send_json({"type": "reality_check", **check})
                    announced = bool(check["due"])
        except (WebSocketDisconnect, RuntimeError, ValueError):
            return
        finally:
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await receiving

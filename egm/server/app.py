"""The ASGI app: `create_app(settings)`. Its lifespan starts the boot (ROM self-test, games, database,
warm-up) in a thread, so /healthz answers at once and /readyz turns 200 only when the boot is done."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from egm.server.api import auth, live, player, rg, rounds, terminal, wallet, web, ws
from egm.server.errors import install_handlers
from egm.server.rate_limit import IpLimiter
from egm.server.server import Server
from egm.server.settings import Settings

MAX_BODY_BYTES = 64 * 1024  # the largest decision (a Prism Words play) is well under 1 KiB
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


class SecurityHeaders:
    """Every answer carries the security headers (an /api/ answer also `no-store`: balances and rounds are
    never cached), and a body over MAX_BODY_BYTES is refused unread. Plain ASGI rather than
    `@app.middleware("http")`, which runs each request through an extra task and stream (measured:
    docs/cabinet-on-server.md, Figures)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if api:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        length = Headers(scope=scope).get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            too_large = JSONResponse({"code": "too_large", "sentence": f"A request body is at most "
                                      f"{MAX_BODY_BYTES // 1024} KiB."}, status_code=413)
            await too_large(scope, receive, with_headers)
        else:
            await self.app(scope, receive, with_headers)


def create_app(settings: Settings | None = None) -> FastAPI:
    server = Server(settings or Settings())

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        server.start_boot()
        try:
            yield
        finally:
            server.close()

    app = FastAPI(title="EGM game server", version="1", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.server = server
    app.state.ip_limiter = IpLimiter(server.settings.ip_limit, server.settings.ip_window_s)
    install_handlers(app)

    app.add_middleware(SecurityHeaders)

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"alive": True}

    @app.get("/readyz")
    def readyz(request: Request) -> JSONResponse:
        state: Server = request.app.state.server
        return JSONResponse({"ready": state.ready, "sentence": state.readiness_sentence()},
                            status_code=200 if state.ready else 503)

    for module in (auth, wallet, rounds, player, rg, live, ws, web, terminal):
        app.include_router(module.router)
    live.mount_static(app)
    web.mount_static(app)
    app.state.live_boards = live.Boards()
    return app

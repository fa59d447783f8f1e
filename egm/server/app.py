"""The ASGI app: `create_app(settings)`. Its lifespan starts the boot (ROM self-test, games, database,
warm-up) in a thread, so /healthz answers at once and /readyz turns 200 only when the boot is done."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

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

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Any:
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            response: Any = JSONResponse({"code": "too_large", "sentence": f"A request body is at most "
                                          f"{MAX_BODY_BYTES // 1024} KiB."}, status_code=413)
        else:
            response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        if request.url.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"  # balances and rounds are never cached
        return response

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

"""Errors as the API answers them: {"code": ..., "sentence": ...} with the contract's status codes.

400 malformed body, 401 no session, 402 insufficient funds, 403 limit / exclusion / Origin / CSRF,
404 not found (or not yours), 409 open round / stale step / key conflict, 422 refused by the rules,
423 reality check due, 429 too many attempts from one address, 503 not ready or no database.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("egm.server")


class ApiError(Exception):
    """A refusal with its status, a code and one sentence; `extra` adds keys (e.g. the current view);
    `headers` go on the response (e.g. Retry-After)."""

    def __init__(self, status: int, code: str, sentence: str, *, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(sentence)
        self.status, self.code, self.sentence, self.extra = status, code, sentence, extra
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "sentence": self.sentence, **self.extra}


PLACES = {"query": "The query parameter", "path": "The path's", "header": "The header",
          "cookie": "The cookie"}


def _field_problem(exc: RequestValidationError) -> str:
    """The first problem, said of where it is: the body's field, or the query, path, header or cookie."""
    first = exc.errors()[0] if exc.errors() else {}
    place, *field = [str(p) for p in first.get("loc", ())] or ["body"]
    problem = first.get("msg", "invalid")
    if first.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    if place in PLACES:
        return f"{PLACES[place]} '{'.'.join(field)}' is malformed: {problem}."
    return f"The request body is malformed: {'.'.join(field) or 'the body'}: {problem}."


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"code": "malformed", "sentence": _field_problem(exc)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        sentence = "No such route." if exc.status_code == 404 else str(exc.detail)
        return JSONResponse({"code": codes.get(exc.status_code, "http_error"), "sentence": sentence},
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(DBAPIError)
    async def _database(request: Request, exc: DBAPIError) -> JSONResponse:
        if not exc.connection_invalidated and not _is_unavailable(exc):
            return await _internal(request, exc)
        return JSONResponse({"code": "unavailable", "sentence": "The database is unavailable; nothing was "
                             "changed. Try again shortly."}, status_code=503)

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)  # the transaction was rolled back: nothing changed
        return JSONResponse({"code": "internal", "sentence": "The server failed on this request and "
                             "changed nothing; it has been logged."}, status_code=500)


def _is_unavailable(exc: DBAPIError) -> bool:
    """An OperationalError (connection refused, server gone) rather than a bug in a statement."""
    return type(exc).__name__ == "OperationalError"

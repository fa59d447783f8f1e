"""The player's pages: the table of a game (/play/<game id>), the shell's static files (/static/web/),
and each game's own table module (/static/games/<game id>/<file>, from its package's web folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

import egm.server.web
from egm.games import UnknownGame, descriptor_of
from egm.server.api.deps import server_of
from egm.server.errors import ApiError
from egm.server.sessions import caller_of
from egm.server.settings import SESSION_COOKIE

WEB = Path(egm.server.web.__file__).parent
STATIC = "/static/web"
GAME_FILE = re.compile(r"[a-z0-9_-]{1,40}\.(js|css|svg)")  # no paths: a game serves only its folder's files
templates = Jinja2Templates(directory=WEB / "templates")
router = APIRouter()


def mount_static(app: Any) -> None:
    app.mount(STATIC, StaticFiles(directory=WEB / "static"), name="web-static")


def _csrf_of(request: Request) -> str | None:
    """The logged-in player's CSRF token, rendered into the page (the synchronizer token), or None."""
    server = server_of(request)
    try:
        db, _, _ = server.require_ready()
        return caller_of(db, request.cookies.get(SESSION_COOKIE), server.settings).csrf_token
    except ApiError:
        return None


def table_module(game_id: str, generic: bool = False) -> str:
    """The address of the game's own table module, or of the generic table when it ships none (or when
    asked for: a studio plays a new game's server side on it before the game's table exists)."""
    folder = descriptor_of(game_id).web_folder()
    if generic or folder is None or not (folder / "table.js").is_file():
        return f"{STATIC}/generic.js"
    return f"/static/games/{game_id}/table.js"


@router.get("/play/{game_id}", response_class=HTMLResponse)
def play_page(game_id: str, request: Request, table: str = "") -> Response:
    """The table of a game; `?table=generic` plays it on the generic table."""
    _, lobby, _ = server_of(request).require_ready()
    if game_id not in lobby.games:
        raise ApiError(404, "unknown_game", f"There is no game '{game_id}' on this server.")
    csrf = _csrf_of(request)
    if csrf is None:
        return RedirectResponse(f"/login?next=/play/{game_id}", status_code=303)
    return templates.TemplateResponse(request, "play.html", {
        "static_base": STATIC, "csrf": csrf, "game_id": game_id, "title": lobby.games[game_id].title,
        "module": table_module(game_id, generic=table == "generic"),
        "auto_label": descriptor_of(game_id).auto_play_label.replace("\n", " ")})


@router.get("/static/games/{game_id}/{name}")
def game_file(game_id: str, name: str) -> Response:
    try:
        folder = descriptor_of(game_id).web_folder()
    except UnknownGame:
        folder = None
    if folder is None or not GAME_FILE.fullmatch(name) or not (folder / name).is_file():
        raise ApiError(404, "not_found", "There is no such file.")
    return FileResponse(folder / name)

"""The player's pages: the table of a game (/play/<game id>), the shell's static files (/static/web/),
each game's own table module (/static/games/<game id>/<file>, from its package's web folder), and the
server-rendered pages of egm/server/web/pages.py (lobby, account, limits, history and replay), and the
icon (/favicon.ico, the shell's favicon.svg)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from egm.games import UnknownGame, descriptor_of
from egm.server.api.deps import server_of
from egm.server.errors import ApiError
from egm.server.web import pages
from egm.server.web.pages import STATIC, WEB, table_module

GAME_FILE = re.compile(r"[a-z0-9_-]{1,40}\.(js|css|svg|png)")  # no paths: only the folder's own files
router = APIRouter()
router.include_router(pages.router)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    """Browsers and bookmarks ask /favicon.ico whatever the page links: the icon is the SVG."""
    return RedirectResponse(f"{STATIC}/favicon.svg", status_code=308)


def mount_static(app: Any) -> None:
    app.mount(STATIC, StaticFiles(directory=WEB / "static"), name="web-static")


@router.get("/play/{game_id}", response_class=HTMLResponse)
def play_page(game_id: str, request: Request, table: str = "") -> Response:
    """The table of a game; `?table=generic` plays it on the generic table."""
    _, lobby, _ = server_of(request).require_ready()
    if game_id not in lobby.games:
        raise ApiError(404, "unknown_game", f"There is no game '{game_id}' on this server.")
    who = pages.caller_or_none(request)
    if who is None:
        return pages.login_first(request)
    return pages.page(request, "play.html", lobby.games[game_id].title, who, game_id=game_id,
                      module=table_module(game_id, generic=table == "generic"),
                      side_bets=sorted(lobby.games[game_id].wager_offer().side_bet_limits.items()),
                      auto_label=descriptor_of(game_id).auto_play_label.replace("\n", " "))


@router.get("/static/games/{game_id}/{name}")
def game_file(game_id: str, name: str) -> Response:
    try:
        folder = descriptor_of(game_id).web_folder()
    except UnknownGame:
        folder = None
    if folder is None or not GAME_FILE.fullmatch(name) or not (folder / name).is_file():
        raise ApiError(404, "not_found", "There is no such file.")
    return FileResponse(folder / name)

"""Prism Words' `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.prism_words.descriptor import DESCRIPTOR
from egm.games.prism_words.scene import face_rect, square_rect
from egm.video import snap
from egm.video.layout import grid
from egm.video.scenes.game_select import TILES_RECT
from egm.video.screenshot import credit
from egm.video.session import Session


def _start(s: Session) -> None:
    """Credit the cabinet, then touch PLAY on the Prism Words tile of the game menu."""
    credit(s)
    games = snap.games(s.cabinet.snapshot())
    tile = grid(TILES_RECT, len(games), 1, gap=60)[games.index(DESCRIPTOR.id)]
    s.click(tile.centerx, tile.bottom - 95)  # the tile's PLAY button


def _play(s: Session) -> None:
    """Start a game, let AUTO PLAY make the customer's first two plays, then stage a block: its face
    tapped on the rack and a square next to the words (the play being made, not yet sent)."""
    _start(s)
    for _ in range(2):
        s.key("h")
    table = s.cabinet.round.view().table
    filled = {(item["row"], item["col"]) for item in table["grid"]}
    row, col = min((r, c + 1) for r, c in filled if (r, c + 1) not in filled and c + 1 < table["cols"])
    s.click(*face_rect(0, 0).center)
    s.click(*square_rect(row, col).center)
    s.click(*face_rect(1, 1).center)


def _complete(s: Session) -> None:
    """Play a whole game with AUTO PLAY (the reference decision), the result on the table."""
    _start(s)
    while s.state == f"game.{DESCRIPTOR.id}.play":
        s.key("h")


RECIPES: dict[str, Callable[[Session], None]] = {
    "prism-words-play": _play,
    "prism-words-complete": _complete,
}

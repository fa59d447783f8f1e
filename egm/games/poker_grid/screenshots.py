"""Poker Grid's `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.poker_grid.descriptor import DESCRIPTOR
from egm.games.poker_grid.scene import hand_rect, square_rect
from egm.video import snap
from egm.video.layout import grid
from egm.video.scenes.game_select import TILES_RECT
from egm.video.screenshot import credit
from egm.video.session import Session


def _start(s: Session) -> None:
    """Credit the cabinet, then touch PLAY on the Poker Grid tile of the game menu."""
    credit(s)
    games = snap.games(s.cabinet.snapshot())
    tile = grid(TILES_RECT, len(games), 1, gap=60)[games.index(DESCRIPTOR.id)]
    s.click(tile.centerx, tile.bottom - 95)  # the tile's PLAY button


def _play(s: Session, placements: int) -> None:
    """Start a game and make `placements` taps-then-squares (first card, first lit square)."""
    _start(s)
    for _ in range(placements):
        row, col = s.cabinet.round.view().table["legal"][0]
        s.click(*hand_rect(0).center)
        s.click(*square_rect(row, col).center)


def _complete(s: Session) -> None:
    """Play a whole game with AUTO PLAY (the reference decision), the result on the table."""
    _start(s)
    while s.state == "game.poker-grid.play":
        s.key("h")


RECIPES: dict[str, Callable[[Session], None]] = {
    "poker-grid-play": lambda s: (_play(s, 9), s.click(*hand_rect(2).center)),
    "poker-grid-complete": _complete,
}

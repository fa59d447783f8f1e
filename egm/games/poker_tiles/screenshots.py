"""Poker Tiles' `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.poker_tiles.descriptor import DESCRIPTOR
from egm.games.poker_tiles.scene import rack_rect, square_rect
from egm.video import snap
from egm.video.layout import grid
from egm.video.scenes.game_select import TILES_RECT
from egm.video.screenshot import credit
from egm.video.session import Session


def _start(s: Session) -> None:
    """Credit the cabinet, then touch PLAY on the Poker Tiles tile of the game menu."""
    credit(s)
    games = snap.games(s.cabinet.snapshot())
    tile = grid(TILES_RECT, len(games), 1, gap=60)[games.index(DESCRIPTOR.id)]
    s.click(tile.centerx, tile.bottom - 95)  # the tile's PLAY button


def _play(s: Session) -> None:
    """Three turns by AUTO PLAY, then the next reference play's tiles placed by hand on the board
    (tap a tile, tap its square; a joker's declaration picked on screen), not yet played."""
    _start(s)
    for _ in range(3):
        s.key("h")
    decision = s.cabinet.round.reference_decision()
    if decision.kind != "play":
        return
    rack = list(s.cabinet.round.view().table["rack"])
    for tile in decision.args["tiles"]:
        index = rack.index(tile["card"])
        rack[index] = ""  # each rack tile is placed once
        s.click(*rack_rect(index).center)
        s.click(*square_rect(tile["row"], tile["col"]).center)


def _complete(s: Session) -> None:
    """Play a whole game with AUTO PLAY (the reference decision), the result on the table."""
    _start(s)
    while s.state == "game.poker-tiles.play":
        s.key("h")


RECIPES: dict[str, Callable[[Session], None]] = {
    "poker-tiles-play": _play,
    "poker-tiles-complete": _complete,
}

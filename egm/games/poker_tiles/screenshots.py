"""Poker Tiles' `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.poker_tiles.descriptor import DESCRIPTOR
from egm.games.poker_tiles.scene import rack_rect, square_rect
from egm.video.screenshot import auto_play_to_end, start_from_menu
from egm.video.session import Session


def _play(s: Session) -> None:
    """Three turns by AUTO PLAY, then the next reference play's tiles placed by hand on the board
    (tap a tile, tap its square; a joker's declaration picked on screen), not yet played."""
    start_from_menu(s, DESCRIPTOR.id)
    for _ in range(3):
        s.key("h")
        s.settle()  # the machine's move plays out before the next press
    decision = s.cabinet.round.reference_decision()
    if decision.kind != "play":
        return
    rack = list(s.cabinet.round.view().table["rack"])
    for tile in decision.args["tiles"]:
        index = rack.index(tile["card"])
        rack[index] = ""  # each rack tile is placed once
        s.click(*rack_rect(index).center)
        s.click(*square_rect(tile["row"], tile["col"]).center)


RECIPES: dict[str, Callable[[Session], None]] = {
    "poker-tiles-play": _play,
    "poker-tiles-complete": lambda s: auto_play_to_end(s, DESCRIPTOR.id),
}

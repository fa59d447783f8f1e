"""Poker Grid's `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.poker_grid.descriptor import DESCRIPTOR
from egm.games.poker_grid.scene import hand_rect, square_rect
from egm.video.screenshot import auto_play_to_end, start_from_menu
from egm.video.session import Session


def _play(s: Session, placements: int) -> None:
    """Start a game and make `placements` taps-then-squares (first card, first lit square)."""
    start_from_menu(s, DESCRIPTOR.id)
    for _ in range(placements):
        row, col = s.cabinet.round.view().table["legal"][0]
        s.click(*hand_rect(0).center)
        s.click(*square_rect(row, col).center)
        s.settle()  # the machine's card goes down


RECIPES: dict[str, Callable[[Session], None]] = {
    "poker-grid-play": lambda s: (_play(s, 9), s.click(*hand_rect(2).center)),
    "poker-grid-complete": lambda s: auto_play_to_end(s, DESCRIPTOR.id),
}

"""Prism Words' `egm screenshot` recipes: the table reached through real clicks and keys on a freshly
booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable

from egm.games.prism_words.descriptor import DESCRIPTOR
from egm.games.prism_words.scene import face_rect, square_rect
from egm.video.screenshot import auto_play_to_end, start_from_menu
from egm.video.session import Session


def _play(s: Session) -> None:
    """Start a game, let AUTO PLAY make the customer's first two plays, then stage a block: its face
    tapped on the rack and a square next to the words (the play being made, not yet sent)."""
    start_from_menu(s, DESCRIPTOR.id)
    for _ in range(2):
        s.key("h")
        s.settle()  # the machine's move plays out before the next press
    table = s.cabinet.round.view().table
    filled = {(item["row"], item["col"]) for item in table["grid"]}
    row, col = min((r, c + 1) for r, c in filled if (r, c + 1) not in filled and c + 1 < table["cols"])
    s.click(*face_rect(0, 0).center)
    s.click(*square_rect(row, col).center)
    s.click(*face_rect(1, 1).center)


def _machine(s: Session) -> None:
    """AUTO PLAY until the machine answers with a word of three blocks or more, caught half laid: the
    blocks down so far, the newest ringed."""
    start_from_menu(s, DESCRIPTOR.id)
    for _ in range(30):
        s.key("h")
        pieces = s.video.scene.machine.pieces
        if len(pieces) >= 3 and s.state == "game.prism-words.play":
            s.wait(s.video.scene.machine.piece_s * (len(pieces) // 2 + 0.5))
            return
        s.settle()


RECIPES: dict[str, Callable[[Session], None]] = {
    "prism-words-play": _play,
    "prism-words-machine": _machine,
    "prism-words-complete": lambda s: auto_play_to_end(s, DESCRIPTOR.id),
}

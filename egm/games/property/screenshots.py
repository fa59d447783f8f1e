"""Property's `egm screenshot` recipes: the board, a decision, a trade and the end, reached through
real clicks on a freshly booted emulator session (egm.video.session.Session)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from egm.events import PlayerDecision, SelectGame
from egm.games.property.descriptor import DESCRIPTOR
from egm.games.property.scene import choice_buttons, space_rect
from egm.video.screenshot import credit
from egm.video.session import Session


def _start(s: Session) -> None:
    """Credit the cabinet, choose Property and DEAL."""
    credit(s)
    s.video.send(SelectGame(DESCRIPTOR.id))
    s.key("space")


def _table(s: Session) -> dict[str, Any]:
    return dict(s.cabinet.round.view().table)


def _auto_until(s: Session, done: Callable[[dict[str, Any]], bool]) -> None:
    """Play the customer's reference decisions (as AUTO PLAY would) until `done(table view)`."""
    while s.cabinet.round is not None and s.state.startswith("game.") and not done(_table(s)):
        s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
        s.wait(0.1)
    s.settle()  # the turns play out on the board


def _press(s: Session, label: str, selected: int | None = None) -> None:
    """Click the panel button whose label starts with `label`."""
    button = next(b for b in choice_buttons(_table(s), selected) if b.label.startswith(label))
    s.click(*button.rect.center)


def board(s: Session) -> None:
    """Twelve rounds in: titles owned round the board, tokens, cash and deeds, the log."""
    _start(s)
    _auto_until(s, lambda view: view["round"] >= 12 and view["decision"] == "turn")


def decision(s: Session) -> None:
    """The customer landed on an unowned title: BUY or DECLINE."""
    _start(s)
    _auto_until(s, lambda view: view["decision"] == "buy")


def trade(s: Session) -> None:
    """The customer taps a machine's title and asks to buy it at its price; the answer is shown."""
    _start(s)

    def machine_title(view: dict[str, Any]) -> bool:
        return view["decision"] == "turn" and any(owner > 0 for owner in view["owner"])

    _auto_until(s, machine_title)
    space = next(i for i, owner in enumerate(_table(s)["owner"]) if owner > 0)
    s.click(*space_rect(space).center)
    _press(s, "ASK TO BUY", space)


def machine_turn(s: Session) -> None:
    """The machine's turn played out on the board: its token moved, the space it bought or paid rent on
    ringed, and what happened said over the board."""
    _start(s)
    for _ in range(200):
        s.video.send(PlayerDecision(s.cabinet.round.reference_decision()))
        recent = _table(s)["recent"]
        paid = [i for i, e in enumerate(recent) if e["seat"] and e["kind"] in ("buy", "rent")]
        if paid and s.state == "game.property.play":
            s.wait(s.video.scene.machine.piece_s * (paid[0] + 1.8))  # that event is the newest shown
            return
        s.settle()


def end(s: Session) -> None:
    """A whole game by AUTO PLAY: the result and the final board."""
    _start(s)
    _auto_until(s, lambda view: False)
    s.wait(4.0)  # the win rolls up


RECIPES: dict[str, Callable[[Session], None]] = {
    "property-board": board,
    "property-decision": decision,
    "property-trade": trade,
    "property-machine-turn": machine_turn,
    "property-end": end,
}

"""The scene interface: one screen of the cabinet (attract, a game table, a tilt, the operator menu...).

The video controller owns the window, the clock and the cabinet. Each frame it takes one
`cabinet.snapshot()`, picks the scene for the cabinet's state, and

* passes every input event to `Scene.handle(event, frame)`. Pointer events arrive in *logical*
  coordinates (1920x1080, see `egm.video.layout`), already de-duplicated (a touch arrives as
  FINGERDOWN/FINGERUP converted to MOUSEBUTTONDOWN/UP at the logical position, never twice).
  `handle` returns the cabinet events to send (objects from `egm.events`, e.g. a game decision); it
  must not change money or the cabinet itself. The controller sends them and shows the cabinet's
  refusal reason on screen.
* calls `Scene.draw(surface, frame)` to paint the content area `layout.CONTENT_RECT`; the controller
  paints the meters and button bar (`layout.BAR_RECT`) and any overlay on top.

A scene keeps only presentation state (a selected card, when an animation started). Everything that
matters lives in the cabinet snapshot, so a power cut or a restart redraws the same picture.

Game scenes: a game's descriptor names its table scene (`GameDescriptor.scene`, a `Scene` subclass
built with `Scene(res)`). The snapshot's "game" entry holds the round on the table: the round in
progress, or the last finished round while it stays on the table (the controller keeps it there until
the next game or the game menu). A scene reads it from the frame: `frame.view` (the typed
`egm.games.base.RoundView`), `frame.table` (the game's own data, `RoundView.table`, untouched) and
`frame.round_number` (the game number, which tells one round from the next).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pygame

from egm.games.base import RoundView
from egm.video import snap
from egm.video.cards import CardRenderer
from egm.video.machine_move import MachineMove
from egm.video.theme import Kit


@dataclass(frozen=True)
class Frame:
    """What one frame shows: the cabinet's snapshot and the monotonic time in seconds."""

    snapshot: Mapping[str, Any]
    now: float

    @property
    def state(self) -> str:
        return str(self.snapshot.get("state", ""))

    @property
    def view(self) -> RoundView | None:
        """The round on the table (None when none)."""
        return snap.view(self.snapshot)

    @property
    def table(self) -> Mapping[str, Any]:
        """The game's own data of the round on the table (empty when none)."""
        view = self.view
        return view.table if view is not None else {}

    @property
    def step(self) -> str:
        """The step of the round on the table ("" when none)."""
        view = self.view
        return view.step if view is not None else ""

    @property
    def round_number(self) -> int | None:
        """The game number of the round on the table (None when none or not known)."""
        number = snap.table(self.snapshot).get("number")
        return int(number) if number is not None else None


@dataclass(frozen=True)
class UiAction:
    """An event for the display itself rather than the cabinet (e.g. "shutdown" from the kiosk's
    operator menu, or "notice" with its `text`, shown as a notice). A scene may return it from `handle`
    beside cabinet events."""

    name: str
    text: str = ""


@dataclass
class Resources:
    """Drawing tools shared by all scenes of one display."""

    kit: Kit
    cards: CardRenderer

    @classmethod
    def create(cls) -> Resources:
        kit = Kit()
        return cls(kit=kit, cards=CardRenderer(kit))


WAIT_REVEAL = "Please wait: the cards are being revealed."


class Scene(ABC):
    """One screen. Subclasses set `name` (and `game_id` for a game table)."""

    name: ClassVar[str]
    game_id: ClassVar[str] = ""
    wait_notice: ClassVar[str] = WAIT_REVEAL  # what a press hears while the scene is `busy`

    def __init__(self, res: Resources) -> None:
        self.res = res

    def enter(self, frame: Frame) -> None:  # noqa: B027 - optional hook
        """Called when the controller switches to this scene; reset presentation state here."""

    def update(self, frame: Frame) -> None:  # noqa: B027 - optional hook
        """Called once per frame before input and drawing: advance presentation state (animations)."""

    @abstractmethod
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        """React to one input event; return the cabinet events to send (possibly none)."""

    @abstractmethod
    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        """Paint the content area for this frame."""

    def busy(self, frame: Frame) -> bool:
        """True while an animation runs: the controller then refuses panel presses with a reason."""
        return False

    def hurry(self, frame: Frame) -> None:  # noqa: B027 - optional hook
        """A press during an animation (a deal...) brings it to its end state at once. Never past a
        result: while a result is being revealed the scene is `busy` and input is refused."""

    def deal_refusal(self, frame: Frame) -> str | None:
        """During a game: why DEAL (confirm) does nothing on this table now, as a sentence (its lamp is
        then dark), or None when DEAL acts now (the controller sends the table an ENTER key)."""
        return "DEAL has nothing to confirm on this table: use the table's own buttons."


class MachineTableScene(Scene):
    """A board game's table, where the machine plays too (Poker Grid, Poker Tiles, Prism Words): its
    pieces are put down one by one (`machine`, egm/video/machine_move.py), and a table seen on entering
    the screen (after a power cut too) is shown settled. `_sync` takes each frame's table."""

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.machine = MachineMove()

    def enter(self, frame: Frame) -> None:
        self.machine.settle()
        self._sync(frame)

    def update(self, frame: Frame) -> None:
        self._sync(frame)

    @abstractmethod
    def _sync(self, frame: Frame) -> None:
        """Follow the table shown now: the selection, the staging and the machine's new pieces."""

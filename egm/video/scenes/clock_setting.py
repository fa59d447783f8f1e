"""Setting the cabinet's date and time on the operator menu's SETTINGS page: the row's fields (year,
month, day, hour, minute) are buttons; touch one to set it (the fields then hold the time from that
moment), step it with - and +, and SET sends `SetDateTime` to the cabinet, which refuses a date that
does not exist with a sentence (the shell shows it; the fields keep the date, to be put right).
CANCEL, or the cabinet showing the time set, returns the row to the clock running."""

from __future__ import annotations

from datetime import datetime

import pygame

from egm.events import SetDateTime
from egm.video.scene import Frame
from egm.video.theme import AMBER, CYAN, GREEN, LIGHT_GREY, WHITE, Kit
from egm.video.widgets import Button

FIELDS = (  # (name, x, width, lowest, highest); - and + wrap round within each field
    ("year", 800, 110, 2000, 2099),
    ("month", 930, 80, 1, 12),
    ("day", 1030, 80, 1, 31),  # every day to 31: the cabinet says which dates do not exist
    ("hour", 1140, 80, 0, 23),
    ("minute", 1240, 80, 0, 59),
)
SEPARATORS = (("-", 920), ("-", 1020), (":", 1230))
BUTTONS = (("clock:-", "-", 1360, 80), ("clock:+", "+", 1450, 80), ("clock:set", "SET", 1560, 120),
           ("clock:cancel", "CANCEL", 1700, 120))
ROW_H = 50


def clock_fields(frame: Frame) -> list[int]:
    """The cabinet's date and time now (its snapshot's `date_time`) as the fields."""
    now = datetime.fromisoformat(str(frame.snapshot["date_time"]))
    return [now.year, now.month, now.day, now.hour, now.minute]


class ClockSetting:
    """The date and time row's presentation state: the date being set, and its chosen field."""

    def __init__(self) -> None:
        self.draft: list[int] | None = None  # year, month, day, hour, minute being set
        self.field = 0  # the field - and + change
        self.sent: list[int] | None = None  # what SET sent, until the cabinet shows it

    def reset(self) -> None:
        self.draft = self.sent = None

    def update(self, frame: Frame) -> None:
        if self.sent is not None and clock_fields(frame) == self.sent:
            self.reset()  # set: the row shows the clock running again

    def buttons(self, frame: Frame, top: int) -> list[Button]:
        """The fields, - and +, SET and CANCEL; all but the fields dark until a field is chosen."""
        fields = self.draft or clock_fields(frame)
        out = [
            Button(f"clock:{name}", f"{value:02d}", pygame.Rect(x, top, width, ROW_H), "on",
                   CYAN if self.draft is not None and i == self.field else AMBER)
            for i, ((name, x, width, _, _), value) in enumerate(zip(FIELDS, fields, strict=True))
        ]
        lamp = "on" if self.draft is not None else "off"
        out += [Button(action, label, pygame.Rect(x, top, width, ROW_H),
                       "flash" if action == "clock:set" and lamp == "on" else lamp,
                       GREEN if action == "clock:set" else AMBER)
                for action, label, x, width in BUTTONS]
        return out

    def press(self, action: str, frame: Frame) -> list[object]:
        """A touch on one of `buttons` ("clock:year", "clock:+", "clock:set"...): the cabinet events."""
        what = action.partition(":")[2]
        names = [f[0] for f in FIELDS]
        if what in names:
            self.draft = self.draft or clock_fields(frame)
            self.field = names.index(what)
        elif what in ("-", "+") and self.draft is not None:
            _, _, _, low, high = FIELDS[self.field]
            value = self.draft[self.field] + (1 if what == "+" else -1)
            self.draft[self.field] = low + (value - low) % (high - low + 1)
        elif what == "set" and self.draft is not None:
            self.sent = list(self.draft)  # kept on screen if refused, to be put right
            return [SetDateTime(*self.draft)]
        elif what == "cancel":
            self.reset()
        return []

    def draw(self, surface: pygame.Surface, kit: Kit, x: int, y: int, now_text: str) -> None:
        """The separators between the fields, and under the label what the row is doing."""
        for text, sx in SEPARATORS:
            kit.text(surface, text, (sx, y), 28, WHITE, bold=True, anchor="midtop")
        editing = self.draft is not None
        note = "being set: SET sets the clock, CANCEL keeps it" if editing else f"now {now_text}"
        kit.text(surface, note, (x, y + 34), 18, CYAN if editing else LIGHT_GREY)

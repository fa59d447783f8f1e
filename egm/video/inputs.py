"""Input mapping: the keyboard map for the button panel and the emulated devices, and the pointer
filter that turns mouse and touch into one stream of logical-coordinate presses.

Touch: SDL reports a touch as FINGERDOWN/FINGERUP (positions 0..1 of the window) *and* synthesises
a mouse event for it marked `event.touch = True`. The filter keeps the finger event, drops the
synthesised mouse copy, and while one pointer is down ignores presses from any other pointer (a mouse
click arriving together with a touch is one press, not two).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from egm.video.layout import Viewport

# Panel buttons (names as in hardware.interfaces.ButtonChanged) and emulator-only device actions.
PANEL_KEYS: dict[int, str] = {
    pygame.K_SPACE: "deal",
    pygame.K_RETURN: "deal",
    pygame.K_b: "bet_one",
    pygame.K_x: "max_bet",
    pygame.K_s: "side_bet",
    pygame.K_d: "denomination",
    pygame.K_c: "cash_out",
    pygame.K_h: "auto_play",  # the game's own auto-play button (HOUSE WAY in Dragon Poker)
    pygame.K_F1: "help",
    pygame.K_g: "menu",  # GAMES: back to the game menu, between games
}
DEVICE_KEYS: dict[int, str] = {
    pygame.K_F2: "bill:0",
    pygame.K_F3: "bill:1",
    pygame.K_F4: "bill:2",
    pygame.K_F5: "bill:3",
    pygame.K_F6: "bill:4",
    pygame.K_F7: "bill:5",
    pygame.K_t: "ticket",
    pygame.K_F8: "door:main",
    pygame.K_F9: "door:logic",
    pygame.K_F10: "key:operator",
    pygame.K_F11: "key:attendant",
    pygame.K_F12: "power_cut",
    pygame.K_TAB: "drawer",
    pygame.K_m: "mute",
}
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("SPACE / ENTER", "Deal (start a game, confirm)"),
    ("B / X", "BET ONE: the next bet level / MAX BET: the largest bet, and deal"),
    ("S", "SIDE BET: the next side-bet amount (e.g. Dragon Poker's pair bonus)"),
    ("D", "DENOM: the next denomination (the value of a credit), between games"),
    ("H", "The game's auto-play button (e.g. HOUSE WAY): its choice now"),
    ("C", "Cash out (prints a ticket, or hand pay)"),
    ("1 - 9, BACKSPACE", "The game's own keys (see its rules page)"),
    ("F1", "This help"),
    ("F2 - F7", "Insert a bill (each enabled denomination)"),
    ("T", "Insert the last printed ticket"),
    ("F8 / F9", "Open or close the main / logic door"),
    ("F10 / F11", "Turn the operator / attendant key"),
    ("F12", "Cut the power (kills the process)"),
    ("TAB", "Show the device drawer"),
    ("M", "Mute / unmute"),
    ("G", "GAMES: the game menu (between games)"),
    ("ESC", "Quit (emulator only; the kiosk shuts down from the operator menu)"),
)

POINTER_TYPES = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)
FINGER_TYPES = (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION)
FINGER_TO_MOUSE = {
    pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN,
    pygame.FINGERUP: pygame.MOUSEBUTTONUP,
    pygame.FINGERMOTION: pygame.MOUSEMOTION,
}


@dataclass
class PointerFilter:
    """Turns mouse and finger events into logical-coordinate mouse events, one pointer at a time."""

    viewport: Viewport
    active: str | None = None  # "mouse" or "finger:<id>" while a press is held

    def convert(self, event: pygame.event.Event) -> pygame.event.Event | None:
        """The logical event for `event`, or None when it must be ignored."""
        if event.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWLEAVE):
            self.active = None  # a release outside the window never arrives
            return None
        if event.type in POINTER_TYPES:
            if getattr(event, "touch", False):
                return None  # SDL's mouse copy of a touch: the FINGER event is the real one
            if event.type != pygame.MOUSEMOTION and getattr(event, "button", 1) != 1:
                return None  # only the primary button presses
            source, pos, etype = "mouse", event.pos, event.type
        elif event.type in FINGER_TYPES:
            w, h = self.viewport.size
            source = f"finger:{event.finger_id}"
            pos, etype = (round(event.x * w), round(event.y * h)), FINGER_TO_MOUSE[event.type]
        else:
            return event
        if etype == pygame.MOUSEBUTTONDOWN:
            if self.active not in (None, source):
                return None  # another pointer already holds a press (a lost release of its own is forgiven)
            logical = self.viewport.to_logical(pos)
            if logical is None:
                return None
            self.active = source
        elif etype == pygame.MOUSEBUTTONUP:
            if self.active != source:
                return None
            self.active = None
            logical = self.viewport.to_logical(pos)
            if logical is None:
                logical = (-1, -1)  # released on the letterbox: a release nowhere
        else:
            if self.active is not None and self.active != source:
                return None
            logical = self.viewport.to_logical(pos)
            if logical is None:
                return None
        attrs = {"pos": logical, "button": 1}
        if etype == pygame.MOUSEMOTION:
            attrs = {"pos": logical, "buttons": (1 if self.active else 0, 0, 0)}
        return pygame.event.Event(etype, attrs)

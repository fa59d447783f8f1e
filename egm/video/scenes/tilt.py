"""Tilt and door screens: play stops, the reason is shown, and what an attendant must do.

The reason is wrapped at a size an attendant reads from a step away, never shrunk; a reason longer
than the screen holds is shown a page at a time, turning every PAGE_S seconds.

A note or ticket the acceptor could not account for across a power loss (unreconciled) is settled
here: with the ATTENDANT key turned on, the attendant counts the cash box and answers IN THE CASH BOX
(it is credited) or NOT IN THE CASH BOX (it is not). Without the key the cabinet refuses the answer.
"""

from __future__ import annotations

import pygame

from egm.events import ReconcileBill
from egm.money import format_cents
from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import AMBER, DARK_GREY, GREEN, GREY, LIGHT_GREY, RED, WHITE, panel

REASON_SIZE = 48
LINE_PX = 60
REASON_TOP, REASON_BOTTOM = 410, 780  # between the TILT band and CALL ATTENDANT
REASON_WIDTH = 1760
PAGE_S = 5.0
FOUND_RECT = pygame.Rect(300, 800, 620, 110)  # the attendant's answers for an unreconciled item
NOT_FOUND_RECT = pygame.Rect(1000, 800, 620, 110)


class TiltScene(Scene):
    name = "tilt"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        if event.type != pygame.MOUSEBUTTONUP or not frame.snapshot.get("unreconciled"):
            return []
        if FOUND_RECT.collidepoint(event.pos):
            return [ReconcileBill(in_cash_box=True)]
        if NOT_FOUND_RECT.collidepoint(event.pos):
            return [ReconcileBill(in_cash_box=False)]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        doors = snap.open_doors(frame.snapshot)
        door_only = snap.tilt(frame.snapshot).endswith("door_open")
        colour = AMBER if door_only else RED
        flash = int(frame.now * 2) % 2 == 0
        band = pygame.Rect(0, 120, 1920, 260)
        pygame.draw.rect(surface, colour if flash else (60, 10, 10), band)
        title = "DOOR OPEN" if door_only else "TILT"
        kit.text(surface, title, band.center, 150, WHITE, bold=True, anchor="center")
        reason = snap.tilt_detail(frame.snapshot) or "Play is stopped."
        lines = [  # each cause ("; " joins them) starts a line
            (line, WHITE)
            for part in reason.split("; ")
            for line in kit.wrap(part, REASON_WIDTH, REASON_SIZE, bold=True)
        ]
        lines += [(f"{door.replace('_', ' ').upper()} DOOR IS OPEN", AMBER) for door in doors]
        per_page = (REASON_BOTTOM - REASON_TOP) // LINE_PX
        pages = max(1, -(-len(lines) // per_page))
        page = int(frame.now / PAGE_S) % pages
        for i, (line, tint) in enumerate(lines[page * per_page : (page + 1) * per_page]):
            top = REASON_TOP + i * LINE_PX
            kit.text(surface, line, (960, top), REASON_SIZE, tint, bold=True, anchor="midtop")
        if pages > 1:
            kit.text(surface, f"page {page + 1} of {pages}", (1880, REASON_BOTTOM - 30), 26, LIGHT_GREY,
                     anchor="topright")
        item = frame.snapshot.get("unreconciled")
        if item:
            self._draw_answers(surface, item, bool(frame.snapshot.get("attendant_key")))
        else:
            kit.text(surface, "CALL ATTENDANT", (960, 800), 64, colour, bold=True, anchor="midtop")

    def _draw_answers(self, surface: pygame.Surface, item: dict, key_on: bool) -> None:
        """The attendant's two answers, lit only while the ATTENDANT key is on."""
        kit = self.res.kit
        for rect, label, lit in ((FOUND_RECT, f"IN THE CASH BOX: CREDIT {format_cents(item['amount_cents'])}",
                                  GREEN), (NOT_FOUND_RECT, "NOT IN THE CASH BOX", RED)):
            panel(surface, rect, fill=lit if key_on else DARK_GREY, edge=WHITE if key_on else GREY)
            kit.text(surface, label, rect.center, 34, WHITE if key_on else LIGHT_GREY, bold=True,
                     anchor="center")

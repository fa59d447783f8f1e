"""Cash-out in progress: the printer is printing the ticket (a serial printer takes a few seconds)."""

from __future__ import annotations

import pygame

from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, money, panel


class CashOutScene(Scene):
    name = "cash-out"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        box = pygame.Rect(360, 160, 1200, 600)
        panel(surface, box)
        kit.text(surface, "CASHING OUT", (960, 220), 110, GOLD, bold=True, anchor="midtop")
        pending = (frame.snapshot.get("pending") or {}).get("cashout") or {}
        amount = int(pending.get("amount_cents", snap.credits_cents(frame.snapshot)))
        kit.text(surface, money(amount), (960, 380), 100, WHITE, bold=True, anchor="midtop")
        dots = "." * (int(frame.now * 3) % 4)
        kit.text(surface, f"Printing your ticket{dots}", (960, 560), 48, WHITE, anchor="midtop")
        kit.text(surface, "Take the ticket from the printer.", (960, 650), 34, LIGHT_GREY, anchor="midtop")

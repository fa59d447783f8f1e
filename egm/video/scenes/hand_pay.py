"""The hand-pay lock-up: a win or a cash-out at or above the limit waits for an attendant."""

from __future__ import annotations

import pygame

from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, money, panel


class HandPayScene(Scene):
    name = "hand-pay"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        box = pygame.Rect(260, 100, 1400, 720)
        panel(surface, box, fill=(40, 20, 6), edge=GOLD)
        kit.text(surface, "HAND PAY", (960, 150), 130, GOLD, bold=True, anchor="midtop")
        kit.text(
            surface,
            money(snap.hand_pay_cents(frame.snapshot)),
            (960, 340),
            120,
            WHITE,
            bold=True,
            anchor="midtop",
        )
        if int(frame.now * 2) % 2 == 0:
            kit.text(surface, "CALL ATTENDANT", (960, 540), 72, GOLD, bold=True, anchor="midtop")
        kit.text(
            surface,
            "The machine is locked until the attendant pays and turns the reset key.",
            (960, 680),
            34,
            LIGHT_GREY,
            anchor="midtop",
        )

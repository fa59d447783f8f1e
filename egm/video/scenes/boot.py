"""Power-up, self-test and RAM clear: the cabinet is checking itself; nothing can be played."""

from __future__ import annotations

import pygame

from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE


class BootScene(Scene):
    name = "boot"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        state = snap.state(frame.snapshot).upper().replace("_", " ").replace("-", " ")
        kit.text(surface, "EGM", (960, 200), 140, GOLD, bold=True, anchor="midtop")
        kit.text(surface, state or "POWER UP", (960, 420), 64, WHITE, bold=True, anchor="midtop")
        dots = "." * (int(frame.now * 3) % 4)
        kit.text(
            surface,
            f"Checking program ROM, pay tables and wager memory{dots}",
            (960, 540),
            36,
            LIGHT_GREY,
            anchor="midtop",
        )
        for i in range(12):  # a spinner
            on = (int(frame.now * 12) - i) % 12 < 4
            angle = i * 30
            vec = pygame.math.Vector2(0, -70).rotate(angle)
            pygame.draw.circle(surface, GOLD if on else (60, 56, 70), (960 + vec.x, 720 + vec.y), 12)

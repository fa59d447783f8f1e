"""Tilt and door screens: play stops, the reason is shown, and what an attendant must do."""

from __future__ import annotations

import pygame

from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import AMBER, RED, WHITE


class TiltScene(Scene):
    name = "tilt"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
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
        size = kit.fit(reason, 1760, 52, bold=True)
        kit.text(surface, reason, (960, 450), size, WHITE, bold=True, anchor="midtop")
        for i, door in enumerate(doors):
            kit.text(
                surface,
                f"{door.replace('_', ' ').upper()} DOOR IS OPEN",
                (960, 560 + i * 60),
                44,
                AMBER,
                bold=True,
                anchor="midtop",
            )
        kit.text(surface, "CALL ATTENDANT", (960, 800), 64, colour, bold=True, anchor="midtop")

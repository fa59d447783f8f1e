"""The table for a game that has no scene of its own yet: its title, step and view, and the
house-way/reference decision from the panel (HOUSE WAY), so the game remains playable."""

from __future__ import annotations

import json

import pygame

from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, panel


class GenericGameScene(Scene):
    name = "game"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        view = frame.game
        title = str(view.get("title") or view.get("game_id") or frame.snapshot.get("game_id", "GAME")).upper()
        kit.text(surface, title, (960, 40), 72, GOLD, bold=True, anchor="midtop")
        kit.text(surface, f"STEP: {view.get('step', '')}", (960, 140), 40, WHITE, anchor="midtop")
        box = pygame.Rect(160, 220, 1600, 660)
        panel(surface, box)
        text = json.dumps(view, default=str)
        for i in range(0, min(len(text), 110 * 16), 110):
            kit.text(surface, text[i : i + 110], (box.x + 20, box.y + 20 + (i // 110) * 38), 24, LIGHT_GREY)

"""The table for a game that has no scene of its own: its title, step, stake and result from the
typed round view, and the auto-play button (the panel's, with the game's label) to play it."""

from __future__ import annotations

import pygame

from egm.games import UnknownGame, descriptor_of
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, panel


class GenericGameScene(Scene):
    name = "game"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, view = self.res.kit, frame.view
        if view is None:
            return
        try:
            found = descriptor_of(view.game_id)
            title, auto = found.title.upper(), found.auto_play_label.replace("\n", " ")
        except UnknownGame:
            title, auto = view.game_id.upper(), "AUTO PLAY"
        kit.text(surface, title, (960, 40), 72, GOLD, bold=True, anchor="midtop")
        box = pygame.Rect(360, 220, 1200, 560)
        panel(surface, box)
        lines = [f"STEP: {view.step.upper()}", f"STAKE: {view.stake_credits} CREDITS"]
        if view.decision_awaited:
            lines.append(f"Press {auto} to play." if view.auto_decision else "Your decision.")
        if view.win_credits is not None:
            lines += [view.result_text, f"PAYS {view.win_credits} CREDITS"]
        for i, line in enumerate(lines):
            kit.text(surface, line, (box.centerx, box.y + 60 + i * 90), 56, WHITE if i else GOLD,
                     bold=True, anchor="midtop")
        kit.text(surface, f"Game {frame.round_number or ''}", (box.centerx, box.bottom - 50), 28, LIGHT_GREY,
                 anchor="midtop")

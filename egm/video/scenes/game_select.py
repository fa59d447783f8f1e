"""The game menu: shown while the cabinet is idle with credits; a touch on a game selects it, PLAY
starts it (the bet is taken by the cabinet, not here)."""

from __future__ import annotations

import pygame

from egm.events import SelectGame
from egm.games import UnknownGame, descriptor_of
from egm.video import snap
from egm.video.layout import grid
from egm.video.scene import Frame, Scene, UiAction
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, panel
from egm.video.widgets import Button, draw_all, hit

TILES_RECT = pygame.Rect(160, 200, 1600, 560)


class GameSelectScene(Scene):
    name = "game-select"

    def tiles(self, frame: Frame) -> dict[str, pygame.Rect]:
        games = snap.games(frame.snapshot)
        return dict(zip(games, grid(TILES_RECT, max(1, len(games)), 1, gap=60), strict=True))

    def buttons(self, frame: Frame) -> list[Button]:
        selected = snap.selected_game(frame.snapshot)
        return [
            Button(
                f"play:{gid}",
                "PLAY",
                pygame.Rect(rect.centerx - 150, rect.bottom - 150, 300, 110),
                "flash" if gid == selected else "on",
            )
            for gid, rect in self.tiles(frame).items()
        ]

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        if event.type != pygame.MOUSEBUTTONUP:
            return []
        button = hit(self.buttons(frame), event.pos)
        if button is not None:
            gid = button.action.partition(":")[2]
            return [SelectGame(gid), UiAction("deal")]  # DEAL: the bet level chosen with BET applies
        for gid, rect in self.tiles(frame).items():
            if rect.collidepoint(event.pos):
                return [SelectGame(gid)]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        kit.text(surface, "CHOOSE A GAME", (960, 70), 80, GOLD, bold=True, anchor="midtop")
        selected = snap.selected_game(frame.snapshot)
        for gid, rect in self.tiles(frame).items():
            try:
                found = descriptor_of(gid)
            except UnknownGame:
                continue  # a game the cabinet runs is installed; nothing else is offered
            panel(surface, rect, fill=found.colour, edge=GOLD if gid == selected else WHITE)
            title = found.title.upper()
            kit.text(
                surface,
                title,
                (rect.centerx, rect.y + 40),
                kit.fit(title, rect.width - 40, 72, True),
                WHITE,
                bold=True,
                anchor="midtop",
            )
            if found.tile is not None:
                found.tile.load()(surface, self.res, rect, frame)
        draw_all(surface, kit, self.buttons(frame), frame.now)
        kit.text(
            surface,
            "Touch a game, then PLAY (or DEAL). BET ONE, MAX BET and SIDE BET set the wager.",
            (960, 800),
            34,
            LIGHT_GREY,
            anchor="midtop",
        )

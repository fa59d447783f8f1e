"""The game menu: shown while the cabinet is idle with credits; a touch on a game selects it, PLAY
starts it (the bet is taken by the cabinet, not here).

A tile per installed game, side by side; they narrow as games are added. Each tile is drawn within
its own rectangle: its title fitted to it, its PLAY button no wider than it, and the game's tile art
(descriptor `tile`) given the area between the title and PLAY (`art_rect`), which the art fills at
whatever size fits (`layout.row_in`), drawn with the tile as the clip so nothing reaches a neighbour."""

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
TITLE_H = 130  # a tile's title band, above its art
PLAY_W, PLAY_H, PLAY_BOTTOM = 300, 110, 150  # the PLAY button: at most this wide, its top this far up
MARGIN = 16  # between a tile's edge and its art or its button


class GameSelectScene(Scene):
    name = "game-select"

    def tiles(self, frame: Frame) -> dict[str, pygame.Rect]:
        games = snap.games(frame.snapshot)
        return dict(zip(games, grid(TILES_RECT, max(1, len(games)), 1, gap=60), strict=True))

    def buttons(self, frame: Frame) -> list[Button]:
        selected = snap.selected_game(frame.snapshot)
        return [
            Button(f"play:{gid}", "PLAY", play_rect(rect), "flash" if gid == selected else "on")
            for gid, rect in self.tiles(frame).items()
        ]

    @staticmethod
    def art_rect(tile: pygame.Rect) -> pygame.Rect:
        """Where a game's tile art goes: below the title, above PLAY, inside the tile's margins."""
        top, bottom = tile.y + TITLE_H, play_rect(tile).y - MARGIN
        return pygame.Rect(tile.x + MARGIN, top, tile.width - 2 * MARGIN, bottom - top)

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
        for gid, rect in self.tiles(frame).items():
            self.draw_tile(surface, gid, rect, frame)
        kit.text(
            surface,
            "Touch a game, then PLAY (or DEAL). BET ONE, MAX BET and SIDE BET set the wager.",
            (960, 800),
            34,
            LIGHT_GREY,
            anchor="midtop",
        )

    def draw_tile(self, surface: pygame.Surface, gid: str, rect: pygame.Rect, frame: Frame) -> None:
        """One game's tile, all of it inside `rect`: its panel, title, art and PLAY button."""
        try:
            found = descriptor_of(gid)
        except UnknownGame:
            return  # a game the cabinet runs is installed; nothing else is offered
        kit, selected = self.res.kit, snap.selected_game(frame.snapshot)
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))  # whatever will not fit is cut at the tile's edge
        panel(surface, rect, fill=found.colour, edge=GOLD if gid == selected else WHITE)
        title = found.title.upper()
        size = kit.fit(title, rect.width - 40, 72, True)
        kit.text(surface, title, (rect.centerx, rect.y + 40), size, WHITE, bold=True, anchor="midtop")
        if found.tile is not None:
            found.tile.load()(surface, self.res, self.art_rect(rect), frame)
        draw_all(surface, kit, [b for b in self.buttons(frame) if b.action == f"play:{gid}"], frame.now)
        surface.set_clip(clip)


def play_rect(tile: pygame.Rect) -> pygame.Rect:
    """A tile's PLAY button: centred near its bottom, no wider than the tile leaves room for."""
    width = min(PLAY_W, tile.width - 2 * MARGIN)
    return pygame.Rect(tile.centerx - width // 2, tile.bottom - PLAY_BOTTOM, width, PLAY_H)

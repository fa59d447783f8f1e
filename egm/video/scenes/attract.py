"""The attract screen: shown while the cabinet is idle with no credits, inviting a bill or ticket.
It shows each installed game in turn: its title and its own attract art (its descriptor's)."""

from __future__ import annotations

import math

import pygame

from egm.games import UnknownGame, descriptor_of
from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE

GAME_S = 8.0  # seconds each game is shown
ART_RECT = pygame.Rect(160, 230, 1600, 520)


class AttractScene(Scene):
    name = "attract"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []  # nothing to play for until credit is on the meter

    def game_shown(self, frame: Frame) -> str:
        games = snap.games(frame.snapshot)
        return games[int(frame.now / GAME_S) % len(games)] if games else ""

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        t = frame.now
        for i in range(14):  # slow rays behind the title
            ang = t * 0.15 + i * math.pi / 7
            end = (960 + 1400 * math.cos(ang), 420 + 1400 * math.sin(ang))
            pygame.draw.line(surface, (30, 20, 46), (960, 420), end, 60)
        gid = self.game_shown(frame)
        try:
            found = descriptor_of(gid)
        except UnknownGame:
            found = None
        title = found.title.upper() if found else str(frame.snapshot.get("site_name") or "").upper()
        kit.text(surface, title, (960, 90), kit.fit(title, 1800, 120, True), GOLD, bold=True, anchor="midtop")
        if found is not None and found.attract is not None:
            found.attract.load()(surface, self.res, ART_RECT, frame)
        if int(t * 2) % 2 == 0:
            kit.text(
                surface,
                "INSERT A BILL OR A TICKET TO PLAY",
                (960, 780),
                56,
                WHITE,
                bold=True,
                anchor="midtop",
            )
        kit.text(
            surface, "Press HELP for the rules and the keys", (960, 860), 30, LIGHT_GREY, anchor="midtop"
        )

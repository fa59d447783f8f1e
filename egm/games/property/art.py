"""Property on the cabinet's generic screens: its attract art and its tile on the game menu
(its rules and pay screens are in rules.py, free of pygame)."""

from __future__ import annotations

import pygame

from egm.games.property.scene import GROUP_COLOURS, PAPER
from egm.video.layout import row_in
from egm.video.scene import Frame, Resources
from egm.video.theme import WHITE

DEEDS = ("Boardwalk", "Park Place", "Illinois Avenue", "St. Charles Place", "Marvin Gardens")
DEED_GROUPS = ("dark_blue", "dark_blue", "red", "pink", "yellow")


def _deed(surface: pygame.Surface, res: Resources, rect: pygame.Rect, name: str, group: str) -> None:
    """A title deed of any size: its words fitted to it, and cut at its edge when it is very small."""
    kit, clip = res.kit, surface.get_clip()
    surface.set_clip(rect.clip(clip))
    pygame.draw.rect(surface, PAPER, rect, border_radius=8)
    pad = min(8, rect.width // 12)
    band = pygame.Rect(rect.x + pad, rect.y + pad, rect.width - 2 * pad, rect.height // 4)
    pygame.draw.rect(surface, GROUP_COLOURS[group], band, border_radius=4)
    kit.text(surface, "TITLE DEED", band.center, kit.fit("TITLE DEED", band.width - 4, 16, True), WHITE,
             bold=True, anchor="center")
    words = name.upper().split()
    size = min(kit.fit(word, rect.width - 8, 20, True) for word in words)  # one size for the name
    for k, word in enumerate(words):
        at = (rect.centerx, band.bottom + rect.height * (12 + 13 * k) // 100)
        kit.text(surface, word, at, size, (20, 20, 24), bold=True, anchor="center")
    surface.set_clip(clip)


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Title deeds dealt one after another."""
    shown = int(frame.now * 1.5) % (len(DEEDS) + 2)
    for i, (name, group) in enumerate(zip(DEEDS, DEED_GROUPS, strict=True)):
        if i < shown:
            deed = pygame.Rect(rect.centerx - 380 + i * 155, rect.centery - 110, 140, 200)
            _deed(surface, res, deed, name, group)
    res.kit.text(surface, "buy, build and trade: the richest at the bell is paid", (rect.centerx, rect.y), 40,
                 WHITE, anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Three title deeds across the menu tile's art area, sized to it."""
    for i, spot in enumerate(row_in(rect, 3, 120, 1.4)):
        _deed(surface, res, spot, DEEDS[i], DEED_GROUPS[i])

"""Poker Tiles on the cabinet's generic screens: its attract art and its tile on the game menu
(its rules and pay screens are in rules.py, free of pygame) (docs/games.md)."""

from __future__ import annotations

import pygame

from egm.video.scene import Frame, Resources
from egm.video.theme import GOLD, WHITE

FULL_HOUSE = ("Jc", "Jd", "Js", "Th", "Td")  # the seed's starting zone: J♦ and T♥ on their squares


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """A full house laid in the starting zone, tile after tile, then x4."""
    shown = int(frame.now * 1.5) % (len(FULL_HOUSE) + 3)
    for i, card in enumerate(FULL_HOUSE):
        r = pygame.Rect(rect.centerx - 360 + i * 150, rect.centery - 110, 130, 182)
        pygame.draw.rect(surface, (120, 96, 24), r.inflate(16, 16), border_radius=10)
        if i < shown:
            res.cards.blit(surface, card, r)
    if shown > len(FULL_HOUSE):
        res.kit.text(
            surface,
            "THREE DOUBLES: x4",
            (rect.centerx, rect.centery + 110),
            48,
            GOLD,
            bold=True,
            anchor="midtop",
        )
    res.kit.text(
        surface,
        "lay card tiles in rows and columns to make poker hands",
        (rect.centerx, rect.y),
        40,
        WHITE,
        anchor="midtop",
    )


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Three cards fanned across the menu tile's art area, as large as it holds."""
    res.cards.fan(surface, FULL_HOUSE[:3], rect)

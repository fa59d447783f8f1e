"""Poker Grid on the cabinet's generic screens: its attract art and its tile on the game menu
(its rules and pay screens are in rules.py, free of pygame) (docs/games.md)."""

from __future__ import annotations

import pygame

from egm.video.scene import Frame, Resources
from egm.video.theme import WHITE

ROYAL = ("Th", "Jh", "Qh", "Kh", "Ah")


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """A royal flush laid on the grid, one card after another."""
    shown = int(frame.now * 1.5) % (len(ROYAL) + 2)
    for i, card in enumerate(ROYAL):
        r = pygame.Rect(rect.centerx - 360 + i * 150, rect.centery - 110, 130, 182)
        pygame.draw.rect(surface, (20, 110, 72), r.inflate(12, 12), width=3, border_radius=10)
        if i < shown:
            res.cards.blit(surface, card, r)
    res.kit.text(surface, "cards placed side by side score poker hands", (rect.centerx, rect.y), 40,
                 WHITE, anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Three cards fanned across the menu tile's art area, as large as it holds."""
    res.cards.fan(surface, ROYAL[:3], rect)

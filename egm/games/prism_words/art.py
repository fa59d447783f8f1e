"""Prism Words on the cabinet's generic screens: its attract art and its tile on the game menu
(its rules and pay screens are in rules.py, free of pygame) (docs/games.md)."""

from __future__ import annotations

import pygame

from egm.video.layout import row_in
from egm.video.scene import Frame, Resources
from egm.video.theme import WHITE

IVORY = (246, 238, 214)
INK = (30, 24, 16)
WORD = (("W", 4), ("H", 4), ("I", 1), ("T", 1), ("E", 1), ("R", 1))  # the seed's all-boxed WHITER


def _block(surface: pygame.Surface, res: Resources, rect: pygame.Rect, letter: str, value: int) -> None:
    pygame.draw.rect(surface, IVORY, rect, border_radius=8)
    res.kit.text(surface, letter, rect.center, rect.height * 3 // 5, INK, bold=True, anchor="center")
    numeral = res.kit.text(surface, str(value), (rect.right - 6, rect.y + 4), rect.height // 4, INK,
                           bold=True, anchor="topright")
    pygame.draw.rect(surface, INK, numeral.inflate(6, 2), width=2)


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """WHITER laid block by block, every numeral boxed: the pattern bonus."""
    shown = int(frame.now * 1.5) % (len(WORD) + 2)
    for i, (letter, value) in enumerate(WORD[:shown]):
        _block(surface, res, pygame.Rect(rect.centerx - 390 + i * 130, rect.centery - 60, 120, 120), letter,
               value)
    res.kit.text(surface, "two-faced blocks: choose the face, build the words", (rect.centerx, rect.y), 40,
                 WHITE, anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Four blocks of WHITER across the menu tile's art area, sized to it (tiles narrow as games are
    added)."""
    for (letter, value), spot in zip(WORD[:4], row_in(rect, 4, 100, 1.0), strict=True):
        _block(surface, res, spot, letter, value)

"""Dragon Poker on the cabinet's generic screens: its attract art and its tile on the game menu
(its rules and pay screens are in rules.py, free of pygame) (docs/games.md)."""

from __future__ import annotations

import math

import pygame

from egm.games.dragon_poker.payout import POOL
from egm.video import snap
from egm.video.scene import Frame, Resources
from egm.video.theme import GOLD, WHITE, money

FAN = ("As", "Kh", "JK", "Qd", "Js")


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """A fan of cards and the running Dragon jackpot."""
    t, (cx, cy) = frame.now, rect.center
    for i, card in enumerate(FAN):
        lift = 20 * math.sin(t * 2 + i)
        img = pygame.transform.rotate(res.cards.image(card, 170), 24 - i * 12)
        surface.blit(img, img.get_rect(center=(cx + (i - 2) * 150, cy - 40 + abs(i - 2) * 30 - lift)))
    res.kit.text(surface, "with the running DRAGON JACKPOT", (cx, rect.y), 40, WHITE, anchor="midtop")
    jackpot = int(snap.pools_cents(frame.snapshot).get(POOL, 0))
    res.kit.text(surface, f"JACKPOT {money(jackpot)}", (cx, rect.bottom - 80), 72, GOLD, bold=True,
                 anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Three cards fanned across the menu tile's art area, as large as it holds."""
    res.cards.fan(surface, ("As", None, "JK"), rect)

"""Playing cards drawn in code: faces with rank and suit pips, the joker, and the card back.

Cards are written as in `egm.cards` ("As", "Td", "JK"); a face-down card is None. Each (card, size)
is drawn once and cached by the `CardRenderer` instance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from egm.cards import RANKS
from egm.video.layout import row_in
from egm.video.theme import GOLD, Kit

CARD_RATIO = 1.4  # height / width
RED_SUITS = "dh"
INK_RED = (200, 20, 30)
INK_BLACK = (20, 20, 24)
BACK_RED = (150, 16, 28)
BACK_LINE = (210, 160, 60)
RANK_LABELS = {"T": "10"}


def draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], size: int, colour) -> None:
    """A suit symbol of height about `size`, drawn from circles and polygons."""
    x, y = center
    r = size / 4
    if suit == "d":
        pygame.draw.polygon(
            surface,
            colour,
            [(x, y - size / 2), (x + size * 0.38, y), (x, y + size / 2), (x - size * 0.38, y)],
        )
    elif suit == "h":
        pygame.draw.circle(surface, colour, (round(x - r), round(y - r * 0.6)), round(r * 1.05))
        pygame.draw.circle(surface, colour, (round(x + r), round(y - r * 0.6)), round(r * 1.05))
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y - r * 0.3), (x + 2 * r, y - r * 0.3), (x, y + size / 2)]
        )
    elif suit == "s":
        pygame.draw.circle(surface, colour, (round(x - r), round(y + r * 0.35)), round(r * 1.05))
        pygame.draw.circle(surface, colour, (round(x + r), round(y + r * 0.35)), round(r * 1.05))
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y + r * 0.1), (x + 2 * r, y + r * 0.1), (x, y - size / 2)]
        )
        pygame.draw.polygon(
            surface, colour, [(x, y + r * 0.4), (x - r * 0.8, y + size / 2), (x + r * 0.8, y + size / 2)]
        )
    elif suit == "c":
        pygame.draw.circle(surface, colour, (round(x), round(y - r * 0.95)), round(r * 0.95))
        pygame.draw.circle(surface, colour, (round(x - r * 1.0), round(y + r * 0.35)), round(r * 0.95))
        pygame.draw.circle(surface, colour, (round(x + r * 1.0), round(y + r * 0.35)), round(r * 0.95))
        pygame.draw.polygon(
            surface, colour, [(x, y), (x - r * 0.8, y + size / 2), (x + r * 0.8, y + size / 2)]
        )
    else:
        raise ValueError(f"unknown suit '{suit}'")


class CardRenderer:
    """Draws and caches card images of any width."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self._cache: dict[tuple[str | None, int], pygame.Surface] = {}

    @staticmethod
    def size(width: int) -> tuple[int, int]:
        return width, round(width * CARD_RATIO)

    def image(self, card: str | None, width: int) -> pygame.Surface:
        key = (card, width)
        if key not in self._cache:
            self._cache[key] = self._draw(card, width)
        return self._cache[key]

    def blit(self, surface: pygame.Surface, card: str | None, rect: pygame.Rect) -> None:
        surface.blit(self.image(card, rect.width), rect.topleft)

    def fan(self, surface: pygame.Surface, cards: Sequence[str | None], rect: pygame.Rect,
            widest: int = 120) -> None:
        """`cards` laid left to right across `rect`, as large as it holds (up to `widest` wide), side
        by side when there is room, else overlapping with each index corner showing; never past `rect`."""
        spots = row_in(rect, len(cards), widest, CARD_RATIO, tightest=0.55)
        for card, spot in zip(cards, spots, strict=True):
            self.blit(surface, card, spot)

    def _draw(self, card: str | None, width: int) -> pygame.Surface:
        w, h = self.size(width)
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        radius = max(4, w // 10)
        pygame.draw.rect(surf, (0, 0, 0, 90), surf.get_rect().move(2, 3), border_radius=radius)
        body = pygame.Rect(0, 0, w - 2, h - 3)
        if card is None:
            self._draw_back(surf, body, radius)
        else:
            pygame.draw.rect(surf, (252, 252, 248), body, border_radius=radius)
            pygame.draw.rect(surf, (120, 120, 130), body, width=2, border_radius=radius)
            if card == "JK":
                self._draw_joker(surf, body)
            else:
                self._draw_face(surf, body, card)
        return surf

    def _draw_back(self, surf: pygame.Surface, body: pygame.Rect, radius: int) -> None:
        pygame.draw.rect(surf, BACK_RED, body, border_radius=radius)
        inner = body.inflate(-body.width // 6, -body.width // 6)
        pygame.draw.rect(surf, BACK_LINE, inner, width=2, border_radius=radius // 2)
        step = max(6, body.width // 6)
        clip = surf.get_clip()
        surf.set_clip(inner.inflate(-4, -4))
        for off in range(-inner.height, inner.width + inner.height, step):
            pygame.draw.line(
                surf, (120, 10, 20), (inner.x + off, inner.y), (inner.x + off + inner.height, inner.bottom)
            )
            pygame.draw.line(
                surf, (120, 10, 20), (inner.x + off, inner.bottom), (inner.x + off + inner.height, inner.y)
            )
        surf.set_clip(clip)
        pygame.draw.circle(surf, GOLD, inner.center, max(4, body.width // 6))
        pygame.draw.circle(surf, BACK_RED, inner.center, max(2, body.width // 10))
        pygame.draw.rect(surf, (250, 240, 220), body, width=3, border_radius=radius)

    def _draw_face(self, surf: pygame.Surface, body: pygame.Rect, card: str) -> None:
        rank, suit = card[0], card[1]
        if rank not in RANKS:
            raise ValueError(f"'{card}' is not a card")
        colour = INK_RED if suit in RED_SUITS else INK_BLACK
        w = body.width
        label = RANK_LABELS.get(rank, rank)
        size = max(10, round(w * (0.30 if len(label) == 2 else 0.36)))
        self.kit.text(
            surf, label, (body.x + round(w * 0.08), body.y + round(w * 0.04)), size, colour, bold=True
        )
        pip = max(8, round(w * 0.22))
        draw_suit(surf, suit, (body.x + round(w * 0.2), body.y + round(w * 0.52)), pip, colour)
        draw_suit(
            surf, suit, (body.centerx + round(w * 0.1), body.centery + round(w * 0.2)), round(w * 0.5), colour
        )

    def _draw_joker(self, surf: pygame.Surface, body: pygame.Rect) -> None:
        w = body.width
        self.kit.text(
            surf,
            "JK",
            (body.x + round(w * 0.08), body.y + round(w * 0.04)),
            max(10, round(w * 0.28)),
            INK_RED,
            bold=True,
        )
        cx, cy = body.centerx, body.centery + round(w * 0.15)
        r = w * 0.3
        points = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.45
            ang = -math.pi / 2 + i * math.pi / 5
            points.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        pygame.draw.polygon(surf, GOLD, points)
        pygame.draw.polygon(surf, INK_RED, points, width=2)
        self.kit.text(
            surf,
            "WILD",
            (cx, body.bottom - round(w * 0.06)),
            max(9, round(w * 0.17)),
            INK_BLACK,
            bold=True,
            anchor="midbottom",
        )

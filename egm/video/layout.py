"""The logical screen and its mapping onto a physical panel.

Every scene draws on a 1920x1080 logical surface. The controller scales that surface to the window or
panel with the aspect ratio kept (letterbox bars fill the rest) and maps pointer positions back, so
scenes only ever see logical coordinates.

>>> v = Viewport((1280, 720))
>>> v.scale, v.to_logical((640, 360))
(0.6666666666666666, (960, 540))
>>> Viewport((1920, 1200)).offset, Viewport((1920, 1200)).to_logical((0, 0))
((0, 60), None)
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

LOGICAL_SIZE = (1920, 1080)
LOGICAL_RECT = pygame.Rect(0, 0, *LOGICAL_SIZE)
# The scene owns the content area; the controller draws the meter and button bar below it.
CONTENT_RECT = pygame.Rect(0, 0, 1920, 930)
BAR_RECT = pygame.Rect(0, 930, 1920, 150)


@dataclass(frozen=True)
class Viewport:
    """Where the logical surface lands on a physical surface of `size` pixels."""

    size: tuple[int, int]

    @property
    def scale(self) -> float:
        return min(self.size[0] / LOGICAL_SIZE[0], self.size[1] / LOGICAL_SIZE[1])

    @property
    def scaled_size(self) -> tuple[int, int]:
        return round(LOGICAL_SIZE[0] * self.scale), round(LOGICAL_SIZE[1] * self.scale)

    @property
    def offset(self) -> tuple[int, int]:
        w, h = self.scaled_size
        return (self.size[0] - w) // 2, (self.size[1] - h) // 2

    def to_logical(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """A physical pixel to a logical one; None on the letterbox bars (outside the picture)."""
        x = (pos[0] - self.offset[0]) / self.scale
        y = (pos[1] - self.offset[1]) / self.scale
        if not (0 <= x < LOGICAL_SIZE[0] and 0 <= y < LOGICAL_SIZE[1]):
            return None
        return int(x), int(y)

    def present(self, logical: pygame.Surface, target: pygame.Surface) -> None:
        """Blit the logical frame onto the physical surface, scaled and letterboxed."""
        if target.get_size() == LOGICAL_SIZE:
            target.blit(logical, (0, 0))
            return
        target.fill((0, 0, 0))
        target.blit(pygame.transform.smoothscale(logical, self.scaled_size), self.offset)


def grid(rect: pygame.Rect, columns: int, rows: int, gap: int = 0) -> list[pygame.Rect]:
    """Split `rect` into columns x rows cells (row-major), `gap` pixels apart."""
    cw = (rect.width - gap * (columns - 1)) / columns
    ch = (rect.height - gap * (rows - 1)) / rows
    return [
        pygame.Rect(round(rect.x + c * (cw + gap)), round(rect.y + r * (ch + gap)), round(cw), round(ch))
        for r in range(rows)
        for c in range(columns)
    ]


def row_in(
    rect: pygame.Rect, count: int, widest: int, aspect: float, tightest: float = 1.1
) -> list[pygame.Rect]:
    """`count` rectangles (height = `aspect` x width) left to right, centred in `rect` and never past
    it: each as wide as fits up to `widest`, 1.1 widths apart when there is room, closer when not, down
    to `tightest` widths (below 1 they overlap, as a fan of cards showing each one's index corner).
    A game's tile art lays out its cards or pieces with it, so it fits any tile the menu gives.

    >>> [(r.x, r.y, r.size) for r in row_in(pygame.Rect(0, 0, 1000, 500), 2, 100, 1.4)]
    [(395, 180, (100, 140)), (505, 180, (100, 140))]
    >>> [(r.x, r.width) for r in row_in(pygame.Rect(0, 0, 200, 500), 3, 100, 1.4, tightest=0.55)]
    [(0, 95), (52, 95), (104, 95)]
    """
    width = int(min(widest, rect.height / aspect, rect.width / (1 + (count - 1) * tightest)))
    step = int(min(width * 1.1, (rect.width - width) / (count - 1))) if count > 1 else 0
    height = round(width * aspect)  # as a card image of that width is drawn: never past `rect`
    left = rect.x + (rect.width - width - step * (count - 1)) // 2
    top = rect.y + (rect.height - height) // 2
    return [pygame.Rect(left + i * step, top, width, height) for i in range(count)]

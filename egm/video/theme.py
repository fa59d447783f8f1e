"""Colours, fonts and text drawing shared by every scene.

`Kit` is the drawing toolkit a scene receives: fonts by size (pygame's default font, or DejaVu Sans
when the system has it) and a bounded cache of rendered text, so a static label is rasterised once
rather than 60 times a second.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

from egm.money import format_cents as money  # noqa: F401 - the scenes' name for it

# --- palette -------------------------------------------------------------------------------------
WHITE = (255, 255, 255)
CABINET = (14, 12, 22)
FELT = (10, 92, 58)
FELT_DARK = (6, 62, 40)
FELT_EDGE = (92, 56, 24)
GOLD = (238, 190, 60)
RED = (204, 30, 40)
DRAGON_RED = (180, 24, 30)
BLUE = (40, 90, 200)
CYAN = (70, 200, 230)
GREY = (120, 120, 130)
LIGHT_GREY = (200, 200, 210)
DARK_GREY = (40, 40, 50)
PANEL = (26, 24, 40)
PANEL_EDGE = (90, 84, 130)
GREEN = (40, 190, 80)
AMBER = (255, 170, 0)
LAMP_OFF = (60, 58, 70)


class Kit:
    """Fonts and cached text for one display (no module-level state: each controller owns one)."""

    def __init__(self, cache_size: int = 1024) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: OrderedDict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = OrderedDict()
        self._cache_size = cache_size
        self._face = pygame.font.match_font("dejavusans")
        self._bold_face = pygame.font.match_font("dejavusans", bold=True) or self._face
        self.drawn: list[str] = []  # every text drawn since the frame began (tests read the screen's words)

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            face = self._bold_face if bold else self._face
            self._fonts[key] = pygame.font.Font(face, size)
        return self._fonts[key]

    def render(
        self, text: str, size: int, colour: tuple[int, ...] = WHITE, bold: bool = False
    ) -> pygame.Surface:
        key = (text, size, tuple(colour), bold)
        surf = self._text.get(key)
        if surf is None:
            surf = self.font(size, bold).render(text, True, colour)
            self._text[key] = surf
            if len(self._text) > self._cache_size:
                self._text.popitem(last=False)
        else:
            self._text.move_to_end(key)
        return surf

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: tuple[int, ...] = WHITE,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        """Draw `text` with its `anchor` point (a pygame.Rect attribute name) at `pos`."""
        surf = self.render(text, size, colour, bold)
        self.drawn.append(text)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        return rect

    def wrap(self, text: str, width: int, size: int, bold: bool = False) -> list[str]:
        """`text` broken into lines no wider than `width` pixels at `size`: between words, and inside
        a word only when the word alone is wider (a long path or key id)."""
        font = self.font(size, bold)
        if font.size(text)[0] <= width:
            return [text]  # as written (its spacing too)
        lines: list[str] = []
        line = ""
        for word in text.split():
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while font.size(word)[0] > width:  # a word wider than the line is cut where it must be
                cut = next(i for i in range(len(word), 0, -1) if font.size(word[:i])[0] <= width)
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        return [*lines, line] if line else lines

    def fit(self, text: str, width: int, size: int, bold: bool = False) -> int:
        """The largest size <= `size` at which `text` fits in `width` pixels."""
        while size > 10 and self.font(size, bold).size(text)[0] > width:
            size -= 2
        return size


def panel(surface: pygame.Surface, rect: pygame.Rect, fill=PANEL, edge=PANEL_EDGE, radius: int = 14) -> None:
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=3, border_radius=radius)



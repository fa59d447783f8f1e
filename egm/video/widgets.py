"""On-screen buttons: a rectangle, a label, an action name, and a lamp like a panel button's."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from egm.video.theme import AMBER, DARK_GREY, GOLD, LAMP_OFF, LIGHT_GREY, WHITE, Kit

FLASH_HZ = 2.0


@dataclass(frozen=True)
class Button:
    """A touch/click target. `action` names what it does (a panel button name or a scene action)."""

    action: str
    label: str
    rect: pygame.Rect
    lamp: str = "on"  # "on", "off" or "flash", as the panel lamp would show
    colour: tuple[int, int, int] = AMBER

    @property
    def enabled(self) -> bool:
        return self.lamp != "off"

    def lit(self, now: float) -> bool:
        if self.lamp == "flash":
            return int(now * FLASH_HZ * 2) % 2 == 0
        return self.lamp == "on"

    def draw(self, surface: pygame.Surface, kit: Kit, now: float) -> None:
        lit = self.lit(now)
        base = self.colour if lit else LAMP_OFF
        shadow = self.rect.move(0, 5)
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=16)
        pygame.draw.rect(surface, base, self.rect, border_radius=16)
        hi = pygame.Rect(self.rect.x + 6, self.rect.y + 4, self.rect.width - 12, self.rect.height // 3)
        glow = tuple(min(255, c + 50) for c in base)
        pygame.draw.rect(surface, glow, hi, border_radius=12)
        pygame.draw.rect(surface, GOLD if lit else DARK_GREY, self.rect, width=3, border_radius=16)
        colour = (20, 16, 10) if lit else LIGHT_GREY
        lines = self.label.split("\n")
        size = min(kit.fit(line, self.rect.width - 16, 34, bold=True) for line in lines)
        line_h = size + 4
        top = self.rect.centery - line_h * len(lines) // 2 + line_h // 2
        for i, line in enumerate(lines):
            kit.text(
                surface, line, (self.rect.centerx, top + i * line_h), size, colour, bold=True, anchor="center"
            )


def hit(buttons: list[Button], pos: tuple[int, int]) -> Button | None:
    """The enabled button under `pos`, if any."""
    for b in buttons:
        if b.rect.collidepoint(pos) and b.enabled:
            return b
    return None


def hit_any(buttons: list[Button], pos: tuple[int, int]) -> Button | None:
    """The button under `pos`, lit or dark (a dark one pressed is told why not)."""
    for b in buttons:
        if b.rect.collidepoint(pos):
            return b
    return None


def draw_all(surface: pygame.Surface, kit: Kit, buttons: list[Button], now: float) -> None:
    for b in buttons:
        b.draw(surface, kit, now)


def label_box(
    surface: pygame.Surface,
    kit: Kit,
    rect: pygame.Rect,
    title: str,
    value: str,
    value_colour=WHITE,
    value_size: int = 44,
) -> None:
    """A meter window: a small title over a large value."""
    pygame.draw.rect(surface, (6, 6, 10), rect, border_radius=10)
    pygame.draw.rect(surface, (70, 64, 100), rect, width=2, border_radius=10)
    title_size = kit.fit(title, rect.width - 16, 22, bold=True)
    kit.text(surface, title, (rect.centerx, rect.y + 8), title_size, LIGHT_GREY, bold=True, anchor="midtop")
    size = kit.fit(value, rect.width - 16, value_size, bold=True)
    kit.text(
        surface, value, (rect.centerx, rect.bottom - 10), size, value_colour, bold=True, anchor="midbottom"
    )

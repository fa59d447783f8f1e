"""Overlays drawn over any scene: the help (key map), the printed ticket, and refusal messages."""

from __future__ import annotations

import pygame

from egm.video.inputs import KEY_HELP
from egm.video.layout import BAR_RECT, CONTENT_RECT, LOGICAL_RECT, LOGICAL_SIZE
from egm.video.theme import GOLD, GREEN, LIGHT_GREY, RED, WHITE, Kit, panel
from egm.video.ticket import draw_ticket
from hardware.interfaces import TicketData

HELP_RECT = pygame.Rect(200, 40, 1520, 860)


def shade(surface: pygame.Surface, alpha: int = 150) -> None:
    veil = pygame.Surface(LOGICAL_SIZE, pygame.SRCALPHA)
    veil.fill((0, 0, 0, alpha))
    surface.blit(veil, (0, 0))


def draw_help(surface: pygame.Surface, kit: Kit) -> None:
    shade(surface)
    panel(surface, HELP_RECT)
    kit.text(
        surface,
        "HELP: BUTTONS AND KEYS",
        (HELP_RECT.centerx, HELP_RECT.y + 20),
        44,
        GOLD,
        bold=True,
        anchor="midtop",
    )
    for i, (key, what) in enumerate(KEY_HELP):
        y = HELP_RECT.y + 86 + i * 40
        kit.text(surface, key, (HELP_RECT.x + 50, y), 30, GOLD, bold=True)
        kit.text(surface, what, (HELP_RECT.x + 400, y), 30, WHITE)
    kit.text(
        surface,
        "Dragon Poker: designate the player, dealer and Dragon hands; set yours into front 3,",
        (HELP_RECT.centerx, HELP_RECT.bottom - 80),
        26,
        LIGHT_GREY,
        anchor="midtop",
    )
    kit.text(
        surface,
        "middle 5 and back 5 (back >= middle >= front). Touch anywhere or press F1 to close.",
        (HELP_RECT.centerx, HELP_RECT.bottom - 44),
        26,
        LIGHT_GREY,
        anchor="midtop",
    )


def draw_ticket_overlay(surface: pygame.Surface, kit: Kit, ticket: TicketData) -> pygame.Rect:
    """The last printed ticket, centred; returns where it lies."""
    shade(surface)
    image = draw_ticket(kit, ticket)
    rect = image.get_rect(center=CONTENT_RECT.center)
    surface.blit(image, rect)
    kit.text(
        surface,
        "TICKET PRINTED - touch to take it (T or INSERT TICKET inserts it)",
        (rect.centerx, rect.bottom + 20),
        30,
        WHITE,
        bold=True,
        anchor="midtop",
    )
    return rect


def draw_toasts(surface: pygame.Surface, kit: Kit, toasts: list[tuple[str, bool]]) -> None:
    """Messages above the bar, newest lowest: red for a refusal, green for information."""
    for i, (text, error) in enumerate(reversed(toasts)):
        size = kit.fit(text, 1700, 34, bold=True)
        image = kit.render(text, size, WHITE, bold=True)
        rect = image.get_rect(midbottom=(LOGICAL_RECT.centerx, BAR_RECT.y - 20 - i * 70)).inflate(50, 24)
        pygame.draw.rect(surface, RED if error else GREEN, rect, border_radius=14)
        pygame.draw.rect(surface, WHITE, rect, width=2, border_radius=14)
        surface.blit(image, image.get_rect(center=rect.center))

"""Overlays drawn over any scene: the help (key map), the printed ticket, and refusal messages."""

from __future__ import annotations

import pygame

from egm.games import UnknownGame, descriptor_of
from egm.games.base import Game
from egm.games.descriptor import InfoPage
from egm.host.remote_game import CataloguePaytable
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


def help_pages(game: Game | None) -> list[InfoPage]:
    """The keys, then the rules and pay pages of `game` generated from its pay table (its
    descriptor's `info_pages`)."""
    keys = InfoPage("HELP: BUTTONS AND KEYS", tuple(f"{key}\t{what}" for key, what in KEY_HELP))
    if game is None:
        return [keys]
    try:
        pages = descriptor_of(game.game_id).info_pages
    except UnknownGame:  # a game server's game this cabinet has no code for: the generic table
        pages = None
    if isinstance(game.paytable, CataloguePaytable):  # vouched for by the server: not in this ROM
        pages = None
    return [keys, *(pages.load()(game.paytable, "cabinet") if pages is not None else [])]


def draw_help(surface: pygame.Surface, kit: Kit, page: InfoPage, index: int, count: int) -> None:
    """One help page; a line "KEY\tWHAT" is drawn in two columns."""
    shade(surface)
    panel(surface, HELP_RECT)
    kit.text(surface, page.title, (HELP_RECT.centerx, HELP_RECT.y + 20), 44, GOLD, bold=True, anchor="midtop")
    # each line re-flowed to the page's width (never shrunk); the rows share the room above the footer
    rows: list[tuple[str, str]] = []
    for line in page.lines:
        key, tab, what = line.partition("\t")
        rows += [(key, what)] if tab else [("", part) for part in kit.wrap(line, HELP_RECT.width - 100, 30)]
    top, footer = HELP_RECT.y + 86, HELP_RECT.bottom - 56
    step = min(44, (footer - top) // max(1, len(rows)))
    size = 30 if step >= 40 else 26
    for i, (key, what) in enumerate(rows):
        y = top + i * step
        if key:
            kit.text(surface, key, (HELP_RECT.x + 50, y), size, GOLD, bold=True)
            kit.text(surface, what, (HELP_RECT.x + 400, y), size, WHITE)
        else:
            kit.text(surface, what, (HELP_RECT.x + 50, y), size, WHITE)
    more = "touch for the next page" if index + 1 < count else "touch to close"
    kit.text(surface, f"Page {index + 1} of {count}: {more}; F1 closes.",
             (HELP_RECT.centerx, footer + 10), 26, LIGHT_GREY, anchor="midtop")


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


def draw_server_banner(surface: pygame.Surface, kit: Kit, text: str) -> None:
    """What the cabinet waits on the game server for ("WAITING FOR THE GAME SERVER", "GAME SERVER
    OFFLINE"), across the top of the table while it waits: the loop keeps drawing meanwhile."""
    image = kit.render(text, kit.fit(text, 1500, 44, bold=True), WHITE, bold=True)
    rect = image.get_rect(midtop=(LOGICAL_RECT.centerx, 24)).inflate(60, 28)
    pygame.draw.rect(surface, RED, rect, border_radius=14)
    pygame.draw.rect(surface, WHITE, rect, width=2, border_radius=14)
    surface.blit(image, image.get_rect(center=rect.center))
    kit.drawn.append(text)


def draw_toasts(surface: pygame.Surface, kit: Kit, toasts: list[tuple[str, bool]]) -> None:
    """The newest message above the bar, red for a refusal, green for information: one at a time, so
    notices never stack over the table's own instructions."""
    for i, (text, error) in enumerate(reversed(toasts[-1:])):
        size = kit.fit(text, 1700, 34, bold=True)
        image = kit.render(text, size, WHITE, bold=True)
        rect = image.get_rect(midbottom=(LOGICAL_RECT.centerx, BAR_RECT.y - 20 - i * 70)).inflate(50, 24)
        pygame.draw.rect(surface, RED if error else GREEN, rect, border_radius=14)
        pygame.draw.rect(surface, WHITE, rect, width=2, border_radius=14)
        surface.blit(image, image.get_rect(center=rect.center))

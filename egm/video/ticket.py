"""The printed TITO ticket as the emulator shows it: the lines the printers print
(`hardware.ticket_text`), in the same order, with the validation number's Interleaved 2 of 5 barcode."""

from __future__ import annotations

import pygame

from egm.video import barcode
from egm.video.theme import Kit
from hardware.interfaces import TicketData
from hardware.ticket_text import LAYOUT, Emphasis, ticket_text

PAPER = (250, 248, 240)
INK = (10, 10, 10)
WIDTH, TOP, MARGIN = 900, 14, 40
FONTS = {  # text size (px) and bold, for each emphasis
    Emphasis.TITLE: (28, True),
    Emphasis.BANNER: (34, True),
    Emphasis.AMOUNT: (48, True),
    Emphasis.BOLD: (22, True),
    Emphasis.PLAIN: (20, False),
}
BARCODE_HEIGHT = 110


def _row_height(emphasis: Emphasis) -> int:
    return BARCODE_HEIGHT + 8 if emphasis is Emphasis.BARCODE else FONTS[emphasis][0] * 5 // 4 + 4


BARCODE_RECT = pygame.Rect(
    MARGIN, TOP + sum(_row_height(e) for e in LAYOUT[: LAYOUT.index(Emphasis.BARCODE)]),
    WIDTH - 2 * MARGIN, BARCODE_HEIGHT,
)
TICKET_SIZE = (WIDTH, TOP + sum(_row_height(e) for e in LAYOUT) + TOP)


def draw_ticket(kit: Kit, ticket: TicketData) -> pygame.Surface:
    surf = pygame.Surface(TICKET_SIZE)
    surf.fill(PAPER)
    y = TOP
    for line in ticket_text(ticket).lines():
        if line.emphasis is Emphasis.BARCODE:
            barcode.draw(surf, line.text, BARCODE_RECT)
        else:
            size, bold = FONTS[line.emphasis]
            size = kit.fit(line.text, WIDTH - 2 * MARGIN, size, bold)
            kit.text(surf, line.text, (WIDTH // 2, y), size, INK, bold=bold, anchor="midtop")
        y += _row_height(line.emphasis)
    pygame.draw.rect(surf, (180, 180, 170), surf.get_rect(), width=2)
    return surf

"""The printed TITO ticket as the emulator shows it: the printer's template drawn in code, with the
amount in figures and words, the 18-digit validation number and its Interleaved 2 of 5 barcode."""

from __future__ import annotations

import pygame

from egm.video import barcode
from egm.video.theme import Kit
from hardware.interfaces import TicketData
from hardware.serial.ticket_layout import ticket_text

TICKET_SIZE = (900, 440)
PAPER = (250, 248, 240)
INK = (10, 10, 10)
BARCODE_RECT = pygame.Rect(40, 150, 820, 120)


def draw_ticket(kit: Kit, ticket: TicketData) -> pygame.Surface:
    """The ticket as the printer prints it: every field from the one ticket text every printer backend
    uses (`hardware.serial.ticket_layout.ticket_text`), so the screen and the paper say the same."""
    text = ticket_text(ticket)
    surf = pygame.Surface(TICKET_SIZE)
    surf.fill(PAPER)
    w = TICKET_SIZE[0]
    kit.text(surf, text.site_name.upper(), (w // 2, 14), 28, INK, bold=True, anchor="midtop")
    kit.text(surf, text.site_address, (w // 2, 48), 20, INK, anchor="midtop")
    kit.text(surf, text.ticket_type, (w // 2, 76), 34, INK, bold=True, anchor="midtop")
    kit.text(surf, text.validation, (w // 2, 118), 24, INK, bold=True, anchor="midtop")
    barcode.draw(surf, text.barcode, BARCODE_RECT)
    kit.text(surf, text.amount_figures, (w // 2, 280), 52, INK, bold=True, anchor="midtop")
    kit.text(surf, text.amount_words, (w // 2, 342), kit.fit(text.amount_words, w - 40, 20), INK,
             anchor="midtop")
    kit.text(surf, f"{text.date} {text.time}   {text.sequence}", (30, 376), 18, INK)
    kit.text(surf, text.machine, (w - 30, 376), 18, INK, anchor="topright")
    kit.text(surf, text.expiry, (w // 2, 404), 18, INK, bold=True, anchor="midtop")
    pygame.draw.rect(surf, (180, 180, 170), surf.get_rect(), width=2)
    return surf

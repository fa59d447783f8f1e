"""The printed TITO ticket as the emulator shows it: the printer's template drawn in code, with the
amount in figures and words, the 18-digit validation number and its Interleaved 2 of 5 barcode."""

from __future__ import annotations

import pygame

from egm.video import barcode
from egm.video.theme import Kit, money
from hardware.interfaces import TicketData

TICKET_SIZE = (900, 440)
PAPER = (250, 248, 240)
INK = (10, 10, 10)
BARCODE_RECT = pygame.Rect(40, 150, 820, 120)

ONES = (
    "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN FIFTEEN SIXTEEN "
    "SEVENTEEN EIGHTEEN NINETEEN".split()
)
TENS = "_ _ TWENTY THIRTY FORTY FIFTY SIXTY SEVENTY EIGHTY NINETY".split()


def words(n: int) -> str:
    """A whole number in words, as printed on a ticket.

    >>> words(1234)
    'ONE THOUSAND TWO HUNDRED THIRTY FOUR'
    """
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    for size, name in ((10**9, "BILLION"), (10**6, "MILLION"), (1000, "THOUSAND"), (100, "HUNDRED")):
        if n >= size:
            rest = n % size
            return f"{words(n // size)} {name}" + ("" if rest == 0 else " " + words(rest))
    raise AssertionError("unreachable")


def amount_words(cents: int) -> str:
    return f"{words(cents // 100)} DOLLARS AND {cents % 100:02d} CENTS"


def format_validation(number: str) -> str:
    """Groups as printed: 00-1234-5678-9012-3456."""
    return f"{number[:2]}-{number[2:6]}-{number[6:10]}-{number[10:14]}-{number[14:]}"


def draw_ticket(kit: Kit, ticket: TicketData) -> pygame.Surface:
    surf = pygame.Surface(TICKET_SIZE)
    surf.fill(PAPER)
    w = TICKET_SIZE[0]
    kit.text(surf, ticket.site_name.upper(), (w // 2, 14), 28, INK, bold=True, anchor="midtop")
    kit.text(surf, ticket.site_address, (w // 2, 48), 20, INK, anchor="midtop")
    kit.text(surf, ticket.ticket_type, (w // 2, 76), 34, INK, bold=True, anchor="midtop")
    kit.text(
        surf,
        f"VALIDATION {format_validation(ticket.validation_number)}",
        (w // 2, 118),
        24,
        INK,
        bold=True,
        anchor="midtop",
    )
    barcode.draw(surf, ticket.validation_number, BARCODE_RECT)
    kit.text(surf, money(ticket.amount_cents), (w // 2, 280), 52, INK, bold=True, anchor="midtop")
    kit.text(
        surf,
        amount_words(ticket.amount_cents),
        (w // 2, 342),
        kit.fit(amount_words(ticket.amount_cents), w - 40, 20),
        INK,
        anchor="midtop",
    )
    issued = ticket.issued_at.strftime("%m/%d/%Y %H:%M:%S")
    kit.text(surf, f"{issued}   TICKET # {ticket.sequence:04d}", (30, 376), 18, INK)
    kit.text(surf, f"MACHINE # {ticket.machine_number}", (w - 30, 376), 18, INK, anchor="topright")
    kit.text(
        surf, f"VOID AFTER {ticket.expires_days} DAYS", (w // 2, 404), 18, INK, bold=True, anchor="midtop"
    )
    pygame.draw.rect(surf, (180, 180, 170), surf.get_rect(), width=2)
    return surf

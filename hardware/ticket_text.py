"""What a TITO ticket says: one text for the TCL printer, the ESC/POS printer and the on-screen ticket.

`ticket_text` renders a `TicketData` into its fields: the amount in words (num2words, US cheque
style) and in figures, the validation number grouped for reading, date, time, sequence, expiry,
machine. The TCL template receives the fields (`TicketText.fields`); the ESC/POS printer and the
screen print the same lines in the same order (`TicketText.lines`), each with an emphasis that the
printer maps to its text sizes and the screen to its fonts.

>>> amount_in_words(12534)
'ONE HUNDRED TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS'
>>> amount_in_words(100_000_001)
'ONE MILLION DOLLARS AND ONE CENT'
>>> amount_in_figures(123456789)
'$1,234,567.89'
>>> grouped_validation_number("001234567890123456")
'00-1234-5678-9012-3456'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from num2words.lang_EN import Num2Word_EN

from hardware.interfaces import TicketData

VALIDATION_DIGITS = 18


class TicketError(ValueError):
    """A ticket that cannot be printed as given (e.g. a malformed validation number)."""


class _UsChequeEnglish(Num2Word_EN):
    """num2words' English as US cheques and tickets write it: "ONE HUNDRED TWENTY-FIVE", with no
    "and" inside a number and no commas between its groups (num2words' "en" is the British form)."""

    def merge(self, lpair: tuple[str, int], rpair: tuple[str, int]) -> tuple[str, int]:
        text, value = super().merge(lpair, rpair)
        return text.replace(" and ", " ").replace(", ", " "), value


_WORDS = _UsChequeEnglish()


def amount_in_words(cents: int) -> str:
    """Dollars and cents in words, as a ticket prints them (num2words counts an integer in cents)."""
    if cents < 0:
        raise TicketError(f"cannot spell a negative amount ({cents} cents)")
    return _WORDS.to_currency(cents, currency="USD", separator=" and").upper()


def amount_in_figures(cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"


def check_validation_number(number: str) -> None:
    if len(number) != VALIDATION_DIGITS or not number.isascii() or not number.isdigit():
        raise TicketError(f"validation number {number!r} must be exactly {VALIDATION_DIGITS} digits")


def grouped_validation_number(number: str) -> str:
    check_validation_number(number)
    return "-".join((number[:2], number[2:6], number[6:10], number[10:14], number[14:]))


class Emphasis(StrEnum):
    """How a line stands out: each printer and the screen map these to their own text sizes."""

    TITLE = "title"  # the site name
    BANNER = "banner"  # the ticket type, the largest words
    AMOUNT = "amount"  # the amount in figures
    BOLD = "bold"
    PLAIN = "plain"
    BARCODE = "barcode"  # the validation number as Interleaved 2 of 5 bars


# The emphasis of each line of `TicketText.lines`, top to bottom (the screen lays its ticket out from it).
LAYOUT = (
    Emphasis.TITLE,  # site name
    Emphasis.PLAIN,  # site address
    Emphasis.BANNER,  # ticket type
    Emphasis.BOLD,  # validation number, grouped
    Emphasis.PLAIN,  # date, time, sequence
    Emphasis.AMOUNT,  # amount in figures
    Emphasis.PLAIN,  # amount in words
    Emphasis.BARCODE,  # validation number as bars
    Emphasis.BOLD,  # expiry
    Emphasis.PLAIN,  # machine number
)


@dataclass(frozen=True)
class Line:
    text: str
    emphasis: Emphasis


@dataclass(frozen=True)
class TicketText:
    """The printed fields of one ticket, in the TCL template's order. `barcode` is printed as
    Interleaved 2 of 5."""

    site_name: str
    site_address: str
    ticket_type: str
    validation: str
    date: str
    time: str
    sequence: str
    amount_words: str
    amount_figures: str
    expiry: str
    machine: str
    barcode: str

    def fields(self) -> list[str]:
        """The TCL template's fields, in order."""
        return [
            self.site_name,
            self.site_address,
            self.ticket_type,
            self.validation,
            self.date,
            self.time,
            self.sequence,
            self.amount_words,
            self.amount_figures,
            self.expiry,
            self.machine,
            self.barcode,
        ]

    def lines(self) -> list[Line]:
        """The ticket top to bottom, as the ESC/POS printer and the screen print it."""
        texts = (
            self.site_name,
            self.site_address,
            self.ticket_type,
            self.validation,
            f"{self.date}  {self.time}  {self.sequence}",
            self.amount_figures,
            self.amount_words,
            self.barcode,
            self.expiry,
            self.machine,
        )
        return [Line(text, emphasis) for text, emphasis in zip(texts, LAYOUT, strict=True)]


def ticket_text(ticket: TicketData) -> TicketText:
    check_validation_number(ticket.validation_number)
    if ticket.amount_cents <= 0:
        raise TicketError(f"a ticket must be for a positive amount (got {ticket.amount_cents} cents)")
    days = ticket.expires_days
    return TicketText(
        site_name=ticket.site_name,
        site_address=ticket.site_address,
        ticket_type=ticket.ticket_type,
        validation=f"VALIDATION {grouped_validation_number(ticket.validation_number)}",
        date=ticket.issued_at.strftime("%m/%d/%Y"),
        time=ticket.issued_at.strftime("%H:%M:%S"),
        sequence=f"TICKET # {ticket.sequence:04d}",
        amount_words=amount_in_words(ticket.amount_cents),
        amount_figures=amount_in_figures(ticket.amount_cents),
        expiry=f"TICKET VOID AFTER {days} DAY{'S' if days != 1 else ''}",
        machine=f"MACHINE # {ticket.machine_number}",
        barcode=ticket.validation_number,
    )

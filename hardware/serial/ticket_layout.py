"""What a TITO ticket says, in the order every printer backend prints it.

One place renders a `TicketData` into text fields (amount in words and in figures, the validation
number grouped for reading, date, time, expiry), so the TCL template, the ESC/POS layout and the
simulators print the same ticket.

>>> amount_in_words(12534)
'ONE HUNDRED TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS'
>>> amount_in_figures(123456789)
'$1,234,567.89'
>>> grouped_validation_number("001234567890123456")
'00-1234-5678-9012-3456'
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.interfaces import TicketData

ONES = (
    "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN "
    "FIFTEEN SIXTEEN SEVENTEEN EIGHTEEN NINETEEN"
).split()
TENS = "_ _ TWENTY THIRTY FORTY FIFTY SIXTY SEVENTY EIGHTY NINETY".split()
SCALES = ((1_000_000_000, "BILLION"), (1_000_000, "MILLION"), (1_000, "THOUSAND"))


class TicketError(ValueError):
    """A ticket that cannot be printed as given (e.g. a malformed validation number)."""


def _below_thousand(n: int) -> list[str]:
    words: list[str] = []
    if n >= 100:
        words += [ONES[n // 100], "HUNDRED"]
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10] + (f"-{ONES[n % 10]}" if n % 10 else ""))
    elif n or not words:
        words.append(ONES[n])
    return words


def number_in_words(n: int) -> str:
    """Spell a whole number in capitals, as cheques and tickets do.

    >>> number_in_words(2_001_015)
    'TWO MILLION ONE THOUSAND FIFTEEN'
    """
    if n < 0:
        raise TicketError(f"cannot spell a negative amount ({n})")
    words: list[str] = []
    for size, name in SCALES:
        if n >= size:
            words += _below_thousand(n // size) + [name]
            n %= size
    if n or not words:
        words += _below_thousand(n)
    return " ".join(words)


def amount_in_words(cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    dollar_word = "DOLLAR" if dollars == 1 else "DOLLARS"
    cent_word = "CENT" if rest == 1 else "CENTS"
    return f"{number_in_words(dollars)} {dollar_word} AND {number_in_words(rest)} {cent_word}"


def amount_in_figures(cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"


def grouped_validation_number(number: str) -> str:
    check_validation_number(number)
    return "-".join((number[:2], number[2:6], number[6:10], number[10:14], number[14:]))


def check_validation_number(number: str) -> None:
    if len(number) != 18 or not number.isascii() or not number.isdigit():
        raise TicketError(f"validation number {number!r} must be exactly 18 digits")


@dataclass(frozen=True)
class TicketText:
    """The printed fields of one ticket, in print order. `barcode` is printed as Interleaved 2 of 5."""

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

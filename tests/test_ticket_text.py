"""One ticket text: the TCL printer, the ESC/POS printer and the on-screen ticket print the same lines
(issue 12's defect: the paper said "TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS" and "TICKET VOID
AFTER", the screen "TWENTY FIVE DOLLARS AND 34 CENTS" and "VOID AFTER")."""

from __future__ import annotations

from dataclasses import replace

import pytest
from escpos.printer import Dummy

from egm.video.theme import Kit
from egm.video.ticket import BARCODE_RECT, draw_ticket
from hardware.interfaces import TicketData, TicketFailed
from hardware.serial import tcl_protocol as t
from hardware.serial.escpos_printer import EscPosTicketPrinter
from hardware.ticket_text import TicketError, amount_in_words, ticket_text
from tests.itf_scanner import decode, read_row
from tests.test_hw_tcl import TICKET as TCL_TICKET

TICKET = replace(TCL_TICKET, amount_cents=2534)  # $25.34, the amount of the reported defect


class RecordingDummy(Dummy):
    """python-escpos's in-memory printer, keeping every line of text it is asked to print."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def textln(self, txt: str = "") -> None:
        self.lines.append(txt)
        super().textln(txt)


def screen_lines(ticket: TicketData) -> list[str]:
    kit = Kit()  # the kit keeps every text it draws, in order (`Kit.drawn`)
    draw_ticket(kit, ticket)
    return kit.drawn


def paper_lines(ticket: TicketData) -> list[str]:
    printer = RecordingDummy()
    EscPosTicketPrinter(printer).render(ticket)
    return printer.lines


def tcl_fields(ticket: TicketData) -> list[str]:
    command = t.encode_print("0", ticket_text(ticket).fields())
    return command.decode("ascii").strip("^|").split("|")[3:]  # after ^P|template|copies|


def test_screen_prints_the_paper_lines() -> None:
    assert screen_lines(TICKET) == paper_lines(TICKET)


def test_screen_bars_and_paper_bars_carry_the_same_digits() -> None:
    printer = Dummy()
    EscPosTicketPrinter(printer).render(TICKET)
    assert b"\x1dkF\x12" + TICKET.validation_number.encode() in printer.output  # GS k 70 (ITF), 18 digits
    image = draw_ticket(Kit(), TICKET)
    scanned = decode(read_row(image, BARCODE_RECT.centery, BARCODE_RECT.x, BARCODE_RECT.right))
    assert scanned == TICKET.validation_number


def test_every_tcl_field_but_the_barcode_is_on_the_screen() -> None:
    *fields, digits = tcl_fields(TICKET)
    shown = screen_lines(TICKET)
    assert digits == TICKET.validation_number
    for field in fields:
        assert any(field in line for line in shown), f"{field!r} is printed but not on the screen"


def test_amount_in_words_us_style_on_paper_and_screen() -> None:
    words = "TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS"
    assert words in paper_lines(TICKET) and words in screen_lines(TICKET)
    assert "TICKET VOID AFTER 30 DAYS" in screen_lines(TICKET)


def test_doctests() -> None:
    import doctest

    import hardware.ticket_text

    result = doctest.testmod(hardware.ticket_text)
    assert result.failed == 0 and result.attempted > 0


def test_amounts_in_words_from_num2words_us_cheque_style() -> None:
    assert amount_in_words(1) == "ZERO DOLLARS AND ONE CENT"
    assert amount_in_words(100) == "ONE DOLLAR AND ZERO CENTS"
    assert amount_in_words(11500) == "ONE HUNDRED FIFTEEN DOLLARS AND ZERO CENTS"
    assert amount_in_words(123456789) == (
        "ONE MILLION TWO HUNDRED THIRTY-FOUR THOUSAND FIVE HUNDRED SIXTY-SEVEN DOLLARS AND EIGHTY-NINE CENTS"
    )
    with pytest.raises(TicketError, match="negative"):
        amount_in_words(-5)


def test_paper_and_screen_refuse_the_same_bad_ticket() -> None:
    bad = replace(TICKET, validation_number="12345")
    with pytest.raises(TicketError, match="18 digits"):
        ticket_text(bad)
    with pytest.raises(TicketError, match="18 digits"):
        draw_ticket(Kit(), bad)
    printer = EscPosTicketPrinter(Dummy())
    printer.print_ticket(bad)
    (failed,) = printer.poll()
    assert isinstance(failed, TicketFailed) and "18 digits" in failed.reason

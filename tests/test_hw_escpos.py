"""ESC/POS ticket printing through python-escpos: the bytes a generic thermal printer receives."""

from __future__ import annotations

from datetime import UTC, datetime

from escpos.printer import Dummy

from hardware.interfaces import DeviceFault, TicketData, TicketFailed, TicketPrinted
from hardware.serial.escpos_printer import EscPosTicketPrinter, PortEscpos
from hardware.sim.scripted_port import ScriptedPort

TICKET = TicketData(
    validation_number="001234567890123456",
    amount_cents=2000,
    site_name="EGM TEST CASINO",
    site_address="1 TEST WAY",
    machine_number="0042",
    issued_at=datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC),
    sequence=3,
    expires_days=1,
)
ONLINE, PAPER_OK, NO_PAPER = b"\x12", b"\x12", b"\x72"  # DLE EOT 1 / DLE EOT 4 replies


def test_ticket_bytes_with_itf_barcode() -> None:
    dummy = Dummy()
    printer = EscPosTicketPrinter(dummy)
    printer.print_ticket(TICKET)
    assert printer.poll() == [TicketPrinted(TICKET.validation_number)]
    out = dummy.output
    assert b"\x1dkF\x12001234567890123456" in out  # GS k 70 (ITF), 18 digits
    for line in (
        b"EGM TEST CASINO\n",
        b"VALIDATION 00-1234-5678-9012-3456\n",
        b"03/14/2026  15:09:26  TICKET # 0003\n",
        b"$20.00\n",
        b"TWENTY DOLLARS AND ZERO CENTS\n",
        b"TICKET VOID AFTER 1 DAY\n",
        b"MACHINE # 0042\n",
    ):
        assert line in out
    assert out.index(b"$20.00") < out.index(b"\x1dkF") < out.index(b"\x1dV")  # amount, barcode, cut


class StatusPort(ScriptedPort):
    """Answers the two ESC/POS real-time status queries; swallows everything else."""

    def __init__(self, paper: bytes) -> None:
        super().__init__([])
        self.paper = paper

    def write(self, data: bytes, /) -> int:
        self.written.append(data)
        if data == b"\x10\x04\x01":
            self.buffer += ONLINE
        elif data == b"\x10\x04\x04":
            self.buffer += self.paper
        return len(data)


def test_status_checked_before_and_after_printing() -> None:
    port = StatusPort(PAPER_OK)
    printer = EscPosTicketPrinter(PortEscpos(port))
    printer.print_ticket(TICKET)
    assert printer.poll() == [TicketPrinted(TICKET.validation_number)]
    wire = b"".join(port.written)
    assert wire.startswith(b"\x10\x04\x01\x10\x04\x04")  # online? paper? before printing
    assert wire.index(b"\x1dV") < wire.rindex(b"\x10\x04\x04")  # and again after the cut


def test_paper_out_fails_the_ticket_before_printing() -> None:
    port = StatusPort(NO_PAPER)
    printer = EscPosTicketPrinter(PortEscpos(port))
    printer.print_ticket(TICKET)
    events = printer.poll()
    assert [type(e) for e in events] == [DeviceFault, TicketFailed]
    assert not any(b"\x1dkF" in chunk for chunk in port.written)


def test_bad_validation_number_is_refused() -> None:
    printer = EscPosTicketPrinter(Dummy())
    printer.print_ticket(TicketData(**{**TICKET.__dict__, "validation_number": "123"}))
    (failed,) = printer.poll()
    assert isinstance(failed, TicketFailed) and "18 digits" in failed.reason

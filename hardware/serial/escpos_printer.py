"""Generic ESC/POS thermal printers through python-escpos (`TicketPrinter`), for kiosks without a
casino ticket printer.

The ticket is the same `TicketText` the TCL template prints, in the lines the screen shows too
(`TicketText.lines`), with its validation number as an Interleaved 2 of 5 barcode (ESC/POS "ITF",
GS k 70). ESC/POS has no "validation number printed" flag, so a ticket counts as printed when the
whole job was delivered to a printer that reported itself online with paper before and after it;
anything else is `TicketFailed`. That is weaker evidence than TCL gives, which is why casino floors
use TCL printers.

`PortEscpos` lets python-escpos write to a port opened by our injected port factory (device path
or pyserial URL); tests use python-escpos's own `Dummy` printer and check the bytes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import serial
from escpos.escpos import Escpos
from escpos.exceptions import Error as EscposError

from hardware.interfaces import DeviceFault, DeviceFaultCleared, TicketData, TicketFailed, TicketPrinted
from hardware.serial.ports import Port
from hardware.ticket_text import Emphasis, TicketError, ticket_text

log = logging.getLogger(__name__)

DEVICE = "printer"
NO_PAPER = 0
PRINTER_ERRORS = (EscposError, serial.SerialException, OSError, ValueError)
# python-escpos text settings for each line's emphasis (every line centred; each sets bold and the
# size, since `set` leaves whatever it is not given as it was)
STYLES: dict[Emphasis, dict[str, bool]] = {
    Emphasis.TITLE: {"bold": True, "double_height": True},
    Emphasis.BANNER: {"bold": True, "double_width": True, "double_height": True},
    Emphasis.AMOUNT: {"bold": True, "double_height": True},
    Emphasis.BOLD: {"bold": True, "normal_textsize": True},
    Emphasis.PLAIN: {"bold": False, "normal_textsize": True},
}


class PortEscpos(Escpos):
    """A python-escpos printer whose bytes go through one of our ports.

    `port` is a port, or a function that opens one: then the port is opened on first use and
    opened again after it failed, so a printer switched on after the cabinet still works.
    """

    def __init__(self, port: Port | Callable[[], Port]) -> None:
        super().__init__()
        self.opener = port if callable(port) else None
        self.port: Port | None = None if callable(port) else port

    def _open(self) -> Port:
        if self.port is None:
            assert self.opener is not None
            self.port = self.opener()
        return self.port

    def _raw(self, msg: bytes) -> None:
        try:
            self._open().write(msg)
        except (serial.SerialException, OSError):
            self.close()
            raise

    def _read(self) -> bytes:
        try:
            return self._open().read(1)
        except (serial.SerialException, OSError):
            self.close()
            raise

    def close(self) -> None:
        if self.port is not None and self.opener is not None:
            self.port.close()
            self.port = None


class EscPosTicketPrinter:
    """Prints TITO tickets on any ESC/POS printer."""

    def __init__(self, printer: Escpos) -> None:
        self.printer = printer
        self.events: list[object] = []
        self.fault: str | None = None

    def _problem(self) -> str | None:
        """Why the printer cannot print now, or None. Printers that cannot answer count as fine."""
        try:
            if not self.printer.is_online():
                return "The ticket printer is offline; check its cover, paper and power."
            if self.printer.paper_status() == NO_PAPER:
                return "The ticket printer is out of paper; load a new roll."
        except NotImplementedError:
            return None
        except PRINTER_ERRORS as exc:
            return f"The ticket printer cannot be reached ({exc}); check its cable."
        return None

    def _track(self, problem: str | None) -> None:
        if problem is not None and self.fault is None:
            self.events.append(DeviceFault(DEVICE, "printer_error", problem))
        elif problem is None and self.fault is not None:
            self.events.append(DeviceFaultCleared(DEVICE, "printer_error"))
        self.fault = problem

    def ready(self) -> bool:
        return self._problem() is None

    def poll(self) -> list[object]:
        self._track(self._problem())
        events, self.events = self.events, []
        return events

    def print_ticket(self, ticket: TicketData) -> None:
        number = ticket.validation_number
        problem = self._problem()
        if problem is not None:
            self._track(problem)
            self.events.append(TicketFailed(number, problem))
            return
        try:
            self.render(ticket)
        except TicketError as exc:
            self.events.append(TicketFailed(number, f"the ticket cannot be printed: {exc}"))
            return
        except PRINTER_ERRORS as exc:
            self.events.append(TicketFailed(number, f"the printer failed while printing: {exc}"))
            return
        problem = self._problem()
        if problem is not None:
            self._track(problem)
            reason = f"the printer reported a problem after printing: {problem}"
            self.events.append(TicketFailed(number, reason))
            return
        self.events.append(TicketPrinted(number))

    def render(self, ticket: TicketData) -> None:
        p = self.printer
        for line in ticket_text(ticket).lines():
            if line.emphasis is Emphasis.BARCODE:
                p.barcode(line.text, "ITF", height=80, width=2, pos="BELOW", function_type="B")
            else:
                p.set(align="center", **STYLES[line.emphasis])
                p.textln(line.text)
        p.cut()

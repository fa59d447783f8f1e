"""The TCL ticket printer driver (FutureLogic GEN2/GEN3-class, JCM, Nanoptix): `TicketPrinter`.

A ticket is printed from a template held in the printer with `^P|...|^`. Whether it counts as
issued is decided only by the printer's "validation number done" flag, so the cabinet neither
double-pays nor loses a ticket:

- before the print command the driver clears the flags (`^C|^`) and checks that BARCODE DATA
  ACCESSED is off; after it, the driver polls `^S|^` at once; the printer takes the job by
  setting BUSY and clearing VALIDATION DONE ("accepted"). If polls were lost and the printer is
  already idle again, VALIDATION DONE together with BARCODE DATA ACCESSED proves the job ran;
- when VALIDATION DONE comes back on, a second status read must agree, then `TicketPrinted`
  is reported, once. A jam or paper-out after that point is a fault, not a lost ticket;
- a fault (paper out, head up, jam) before that point, a printer that never takes the job, or a
  restart (RESET flag, e.g. power lost mid-print) with VALIDATION DONE still off means the
  number never reached the paper: `TicketFailed`, and the printer's queue is flushed (`^F|A|^`)
  so it cannot print that ticket later;
- a restart with VALIDATION DONE on after the job was accepted means the number was printed
  before power went: `TicketPrinted`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from hardware.core.clock import Clock
from hardware.interfaces import (
    DeviceFault,
    DeviceFaultCleared,
    DeviceWarning,
    TicketData,
    TicketFailed,
    TicketPrinted,
)
from hardware.serial import tcl_protocol as t
from hardware.serial.link import Interval, SerialLink
from hardware.serial.ports import TCL_LINE, LineSettings, PortFactory, open_serial_port
from hardware.ticket_text import TicketError, ticket_text

log = logging.getLogger(__name__)

DEVICE = "printer"


@dataclass
class PrintJob:
    ticket: TicketData
    phase: str = "sent"  # sent -> accepted -> validated
    waits: int = 0


class TclTicketPrinter:
    """A TCL ticket printer on a serial port."""

    def __init__(
        self,
        url: str,
        clock: Clock,
        *,
        port_factory: PortFactory = open_serial_port,
        timeout_s: float = 0.2,
        line: LineSettings = TCL_LINE,
        fault_after_s: float = 3.0,
        poll_interval_s: float = 0.2,
        template: str = "0",
        accept_polls: int = 5,
    ) -> None:
        self.link: SerialLink[t.Status] = SerialLink(
            DEVICE, url, line, clock, timeout_s=timeout_s, port_factory=port_factory,
            fault_after_s=fault_after_s,
        )
        self.reader = t.StatusReader()
        self.pacing = Interval(clock, poll_interval_s)
        self.template = template
        self.accept_polls = accept_polls
        self.status: t.Status | None = None
        self.job: PrintJob | None = None
        self.active_faults: set[str] = set()
        self.paper_low = False
        self.events: list[object] = []

    # --- TicketPrinter -----------------------------------------------------------------------
    def ready(self) -> bool:
        return self._not_ready_reason() is None

    def print_ticket(self, ticket: TicketData) -> None:
        number = ticket.validation_number
        reason = self._not_ready_reason()
        if reason is not None:
            self.events.append(TicketFailed(number, reason))
            return
        try:
            command = t.encode_print(self.template, ticket_text(ticket).fields())
        except (TicketError, ValueError) as exc:
            self.events.append(TicketFailed(number, f"the ticket cannot be printed: {exc}"))
            return
        if not self.link.send(t.CLEAR_ERRORS):
            self.events.append(TicketFailed(number, "the ticket could not be sent to the printer"))
            return
        before = self.link.exchange(t.STATUS_REQUEST, self.reader)
        if before is None or before.has(t.BARCODE_DATA_ACCESSED) or before.faults() or before.busy:
            faults = before.faults() if before is not None else {}
            reason = next(iter(faults.values()), "the printer did not clear its flags for a new ticket")
            self.events.append(TicketFailed(number, reason))
            return
        if not self.link.send(command):
            self.events.append(TicketFailed(number, "the ticket could not be sent to the printer"))
            return
        self.job = PrintJob(ticket)
        log.info("printer: ticket %s sent", number)
        self._read_status()

    def poll(self) -> list[object]:
        if self.pacing.due():
            self._read_status()
        events = self.link.take_events() + self.events
        self.events = []
        return events

    def close(self) -> None:
        self.link.close()

    # --- status ----------------------------------------------------------------------------
    def _not_ready_reason(self) -> str | None:
        if self.link.faulted:
            return "the printer is not answering"
        if self.status is None:
            return "the printer has not reported its status yet"
        if self.job is not None or self.status.busy:
            return "the printer is still printing another ticket"
        faults = self.status.faults()
        if faults:
            return next(iter(faults.values()))
        return None

    def _read_status(self) -> None:
        status = self.link.exchange(t.STATUS_REQUEST, self.reader)
        if status is not None:
            self._on_status(status)

    def _on_status(self, status: t.Status) -> None:
        self.status = status
        if status.has(t.RESET):
            log.warning("printer: it restarted (power loss or reset); clearing its reset flag")
            self.link.send(t.CLEAR_ERRORS)
        self._track_faults(status)
        self._track_job(status)

    def _track_faults(self, status: t.Status) -> None:
        faults = status.faults()
        for kind, message in faults.items():
            if kind not in self.active_faults:
                log.error("printer fault: %s", message)
                self.events.append(DeviceFault(DEVICE, kind, message))
        for kind in sorted(self.active_faults - faults.keys()):
            self.events.append(DeviceFaultCleared(DEVICE, kind))
        self.active_faults = set(faults)
        low = status.has(t.PAPER_LOW)
        if low != self.paper_low:
            self.paper_low = low
            message = "The ticket printer's paper is low; load a new pack soon."
            self.events.append(DeviceWarning(DEVICE, "paper_low", message, active=low))

    def _track_job(self, status: t.Status) -> None:
        job = self.job
        if job is None:
            return
        if job.phase == "sent" and (status.busy or not status.validation_done):
            job.phase = "accepted"
        if job.phase != "validated":
            printed = status.validation_done and (
                job.phase == "accepted" or status.has(t.BARCODE_DATA_ACCESSED)
            )
            if printed:
                confirm = self.link.exchange(t.STATUS_REQUEST, self.reader)
                if confirm is None or not confirm.validation_done:
                    log.warning("printer: validation-done flag not confirmed; asking again next poll")
                    return
                self.status = confirm
                job.phase = "validated"
                log.info("printer: ticket %s printed", job.ticket.validation_number)
                self.events.append(TicketPrinted(job.ticket.validation_number))
            elif status.has(t.RESET):
                self._fail("the printer restarted before the validation number was printed")
                return
            elif status.faults():
                self._fail(next(iter(status.faults().values())))
                return
            elif job.phase == "sent":
                job.waits += 1
                if job.waits >= self.accept_polls:
                    self._fail("the printer never started the ticket")
                return
        if job.phase == "validated" and not self.status.busy:
            self.job = None

    def _fail(self, reason: str) -> None:
        if self.job is None:
            return
        number = self.job.ticket.validation_number
        log.error("printer: ticket %s not issued: %s", number, reason)
        self.events.append(TicketFailed(number, reason))
        self.link.send(t.FLUSH_ALL)
        self.job = None

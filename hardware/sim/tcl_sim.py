"""A TCL ticket printer simulator (the printer's side of the protocol).

A print job moves one step per status enquiry: taken (BUSY on, VALIDATION DONE off) -> the
validation number is printed (VALIDATION DONE on; the ticket is now issued and listed in
`issued`) -> finished (BUSY off, TOP OF FORM on). Faults can strike now, or be armed to strike a
job just before or just after its validation number is printed. The VALIDATION DONE and BARCODE
DATA ACCESSED flags live in the printer's non-volatile memory, so they survive a power loss and
tell the host, after the restart, whether the interrupted ticket was issued. BARCODE DATA ACCESSED
is set when a job's barcode is printed and cleared by the host's `^C|^`.
"""

from __future__ import annotations

import logging

from hardware.serial import tcl_protocol as t
from hardware.sim.device import SimDevice

log = logging.getLogger(__name__)

FAULTS = {  # every status flag the driver reads as a fault
    "paper_out": t.PAPER_OUT,
    "head_up": t.HEAD_UP,
    "jam": t.PAPER_JAM,
    "chassis_open": t.CHASSIS_OPEN,
    "offline": t.PRINTER_OFFLINE,
    "head_error": t.HEAD_ERROR,
    "voltage_error": t.VOLTAGE_ERROR,
    "system_error": t.SYSTEM_ERROR,
    "too_hot": t.TEMPERATURE_ERROR,
    "cutter_error": t.CUTTER_ERROR,
    "flash_error": t.FLASH_PROGRAM_ERROR,
    "libraries_corrupt": t.LIBRARIES_CORRUPT,
}
STRIKES = (*FAULTS, "power_loss")


class TclPrinterSimulator(SimDevice):
    name = "tcl"

    def __init__(self, template: str = "0", fields: int = 12) -> None:
        self.template = template
        self.fields = fields
        self.issued: list[list[str]] = []  # field lists of tickets whose validation number printed
        self.validation_done = True  # non-volatile, like BARCODE DATA ACCESSED
        self.barcode_accessed = False
        self.armed: tuple[str, bool] | None = None  # (fault, after validation?)
        self.paper_low = False
        super().__init__()

    def power_up(self) -> None:
        self.reader = t.CommandReader()
        self.status = t.Status().with_flag(t.RESET, True).with_flag(t.VALIDATION_DONE, self.validation_done)
        self.status = self.status.with_flag(t.PAPER_LOW, self.paper_low)
        self.status = self.status.with_flag(t.BARCODE_DATA_ACCESSED, self.barcode_accessed)
        self.job: list[str] | None = None
        self.step = 0

    # --- the host's commands -------------------------------------------------------------------
    def handle(self, data: bytes) -> bytes:
        out = b""
        for item in self.reader.feed(data):
            if isinstance(item, bytes):
                out += self._command(item)
            else:
                log.info("tcl sim: ignored %r (%s)", item.data, item.reason)
        return out

    def _command(self, command: bytes) -> bytes:
        if command == t.STATUS_REQUEST:
            if self.job is not None:
                self._advance()
            return t.encode_status(self.status)
        if command == t.CLEAR_ERRORS:
            self._set(t.RESET, False)
            self._set_barcode_accessed(False)
        elif command == t.FLUSH_ALL:
            self._finish()
        elif command.startswith(b"^P|"):
            self._print(command)
        else:
            log.info("tcl sim: unknown command %r", command)
            self._set(t.COMMAND_ERROR, True)
        return b""

    def _print(self, command: bytes) -> None:
        parts = command.decode("ascii", errors="replace").split("|")
        fields = parts[3:-1]
        if parts[1] != self.template or len(fields) != self.fields:
            log.info("tcl sim: bad print command %r", command)
            self._set(t.PRINT_REGION_DATA_ERROR, True)
            return
        if self.job is not None or self.status.faults():
            log.info("tcl sim: print refused (busy or faulted)")
            return
        self.job, self.step = fields, 0
        self._set(t.BUSY, True)
        self._set(t.TOP_OF_FORM, False)
        self._set_validation(False)

    def _advance(self) -> None:
        """One step of the job, run when the host asks for status."""
        self.step += 1
        if self.step == 2:
            if self._strike(after_validation=False):
                return
            self._set_validation(True)
            self._set_barcode_accessed(True)
            assert self.job is not None
            self.issued.append(self.job)
            self._strike(after_validation=True)
        elif self.step >= 3:
            self._finish()

    def _strike(self, after_validation: bool) -> bool:
        if self.armed is None or self.armed[1] != after_validation:
            return False
        kind, _ = self.armed
        self.armed = None
        log.info("tcl sim: %s strikes %s validation", kind, "after" if after_validation else "before")
        if kind == "power_loss":
            self.power_loss()
        else:
            self.inject_fault(kind)
        return True

    def _finish(self) -> None:
        self.job = None
        self._set(t.BUSY, False)
        self._set(t.TOP_OF_FORM, True)

    def _set(self, flag: t.Flag, on: bool) -> None:
        self.status = self.status.with_flag(flag, on)

    def _set_validation(self, on: bool) -> None:
        self.validation_done = on
        self._set(t.VALIDATION_DONE, on)

    def _set_barcode_accessed(self, on: bool) -> None:
        self.barcode_accessed = on
        self._set(t.BARCODE_DATA_ACCESSED, on)

    # --- the technician ------------------------------------------------------------------------
    def inject_fault(self, kind: str) -> None:
        """A fault now (paper out, head up, jam, offline...; see FAULTS); a job not yet validated is
        lost."""
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r}; choose one of {sorted(FAULTS)}")
        with self.lock:
            self._set(FAULTS[kind], True)
            if self.job is not None:
                self._finish()

    def clear_fault(self) -> None:
        with self.lock:
            for flag in FAULTS.values():
                self._set(flag, False)

    def set_paper_low(self, low: bool) -> None:
        with self.lock:
            self.paper_low = low
            self._set(t.PAPER_LOW, low)

    def arm(self, kind: str, after_validation: bool) -> None:
        """Strike the next job with `kind` just before or just after its validation number prints."""
        if kind not in STRIKES:
            raise ValueError(f"unknown strike {kind!r}; choose one of {STRIKES}")
        with self.lock:
            self.armed = (kind, after_validation)

    def power_loss(self) -> None:
        """Power goes off: the printer is silent until `power_on` (VALIDATION DONE is kept)."""
        with self.lock:
            self.unplug()

    def power_on(self) -> None:
        self.replug()

    def bad_checksum(self, reply: bytes) -> bytes:
        """TCL has no checksum: spoil a flag byte instead (bit 6 cleared), which the host must catch."""
        flags_at = reply.find(b"|", reply.find(b"|", 3) + 1) + 1
        return reply[:flags_at] + bytes([reply[flags_at] & 0x3F]) + reply[flags_at + 1 :]

"""The JCM ID-003 bill acceptor driver (the `serial` backend of `BillAcceptor`).

The driver polls the acceptor with STATUS REQUEST and turns status changes into HAL events. It
never moves money: it reports `BillEscrowed` when a note or ticket waits in escrow, and
`BillStacked` only when the acceptor reports VEND VALID for an item the cabinet asked to stack;
VEND VALID is then acknowledged, and a repeated VEND VALID (a lost ACK) is acknowledged again but
never reported twice. An item the cabinet asked to stack that the acceptor reports in the stacker
at its power-up (0x42) before VEND VALID was seen is reported `BillStacked` too, once.

Power-up: POWER UP (0x40/0x41/0x42) -> RESET -> ACK -> INITIALIZE -> the settings commands (each
echoed by the acceptor) -> DISABLE or ENABLE. The power-up status says where the item in the path
went across the acceptor's power loss, and is passed on as `AcceptorPoweredUp` (0x40 empty, 0x41
in the acceptor and given back, 0x42 in the stacker): the cabinet, which holds the pending record,
decides what it means for the credit meter. Error statuses (stacker full/open, jams, cheated,
failure) become `DeviceFault`s and `DeviceFaultCleared` once the acceptor is back to normal.
Communication trouble (no answer, CRC errors, short frames, unplugging) is handled by `SerialLink`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from hardware.core.clock import Clock
from hardware.interfaces import (
    AcceptorPoweredUp,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    DeviceFault,
    DeviceFaultCleared,
    PowerUpPath,
)
from hardware.serial import id003_protocol as p
from hardware.serial.link import Interval, SerialLink
from hardware.serial.ports import ID003_LINE, LineSettings, PortFactory, open_serial_port

log = logging.getLogger(__name__)

DEVICE = "bill_acceptor"
RECONCILE_FAULTS = frozenset({"vend_without_stack", "stack_unconfirmed"})
POWER_UP_PATHS = {
    p.POWER_UP: PowerUpPath.EMPTY,
    p.POWER_UP_BILL_IN_ACCEPTOR: PowerUpPath.IN_ACCEPTOR,
    p.POWER_UP_BILL_IN_STACKER: PowerUpPath.IN_STACKER,
}
"""Money questions only a person can settle: they stay until `acknowledge_faults()`."""


@dataclass(frozen=True)
class EscrowItem:
    amount_cents: int = 0
    barcode: str | None = None


def decode_escrow(data: bytes, note_codes: dict[int, int]) -> EscrowItem | str:
    """An ESCROW status's data as an item, or a sentence saying why it is not one."""
    if not data:
        return "escrow status without an escrow code"
    code = data[0]
    if code == p.TICKET_ESCROW_CODE:
        barcode = data[1:]
        if not barcode or not barcode.isdigit():
            return f"ticket escrow with an unreadable barcode {barcode!r}"
        return EscrowItem(barcode=barcode.decode("ascii"))
    if code in note_codes and len(data) == 1:
        return EscrowItem(amount_cents=note_codes[code])
    return f"escrow code 0x{code:02X} is not in the bill table"


class Id003BillAcceptor:
    """A JCM ID-003 bill acceptor on a serial port."""

    def __init__(
        self,
        url: str,
        clock: Clock,
        *,
        port_factory: PortFactory = open_serial_port,
        timeout_s: float = 0.2,
        line: LineSettings = ID003_LINE,
        fault_after_s: float = 3.0,
        poll_interval_s: float = 0.2,
        note_codes: dict[int, int] | None = None,
    ) -> None:
        self.link: SerialLink[p.Frame] = SerialLink(
            DEVICE, url, line, clock, timeout_s=timeout_s, port_factory=port_factory,
            fault_after_s=fault_after_s,
        )
        self.reader = p.FrameReader()
        self.pacing = Interval(clock, poll_interval_s)
        self.note_codes = dict(p.USD_NOTE_CODES if note_codes is None else note_codes)
        self.events: list[object] = []
        # what the cabinet wants
        self.accepting = False
        self.denominations: frozenset[int] = frozenset()
        self.tickets = False
        self.settings_dirty = True
        # what the acceptor is doing
        self.last_status: int | None = None
        self.escrow: EscrowItem | None = None
        self.stack_requested = False
        self.return_requested = False
        self.vended = False
        self.active_faults: set[str] = set()
        self.heard_from = False  # the first status tells the cabinet what is in the path now
        self.heard_escrow = False  # whether this driver has seen an item in escrow yet

    # --- BillAcceptor ------------------------------------------------------------------------
    def enable(self, denominations_cents: frozenset[int], tickets: bool = True) -> None:
        unknown = set(denominations_cents) - set(self.note_codes.values())
        if unknown:
            log.warning("bill acceptor: no escrow code for %s cents; those notes stay inhibited", unknown)
        self.accepting, self.denominations, self.tickets = True, frozenset(denominations_cents), tickets
        self.settings_dirty = True

    def inhibit(self) -> None:
        self.accepting = False
        self.settings_dirty = True

    def stack(self) -> None:
        if self.escrow is None or self.vended:
            log.warning("bill acceptor: stack requested with nothing in escrow; ignored")
            return
        self.stack_requested, self.return_requested = True, False
        self._operate(p.STACK_1)

    def return_escrow(self) -> None:
        if self.escrow is None or self.stack_requested:
            log.warning("bill acceptor: return requested with nothing returnable in escrow; ignored")
            return
        self.return_requested = True
        self._operate(p.RETURN)

    def poll(self) -> list[object]:
        if self.pacing.due():
            frame = self.link.exchange(p.encode_frame(p.STATUS_REQUEST), self.reader)
            if frame is not None:
                self._on_status(frame)
        events = self.link.take_events() + self.events
        self.events = []
        return events

    def acknowledge_faults(self) -> None:
        """The attendant has counted the cash box and settled the item: clear the reconcile faults."""
        for kind in sorted(self.active_faults & RECONCILE_FAULTS):
            self.events.append(DeviceFaultCleared(DEVICE, kind))
        self.active_faults -= RECONCILE_FAULTS

    def close(self) -> None:
        self.link.close()

    # --- commands --------------------------------------------------------------------------
    def _command(self, command: int, data: bytes = b"") -> p.Frame | None:
        return self.link.exchange(p.encode_frame(command, data), self.reader)

    def _operate(self, command: int) -> None:
        """STACK-1 or RETURN; the acceptor answers ACK. Sent again on the next ESCROW poll if lost."""
        reply = self._command(command)
        if reply is not None and reply.command != p.ACK:
            log.warning("bill acceptor: command 0x%02X answered with 0x%02X", command, reply.command)

    def _setting(self, command: int, data: bytes) -> bool:
        reply = self._command(command, data)
        if reply != p.Frame(command, data):
            log.warning("bill acceptor: setting 0x%02X %s not echoed (got %s)", command, data.hex(), reply)
            return False
        return True

    def _apply_settings(self, full: bool) -> None:
        mask = 0xFFFF
        for code, cents in self.note_codes.items():
            if cents in self.denominations and code in p.NOTE_CODES:
                mask &= ~(1 << (code - p.FIRST_NOTE_CODE))
        barcode_inhibit = 0 if self.tickets else p.INHIBIT_TICKETS
        steps = [(p.SET_DENOMINATION, mask.to_bytes(2, "little"))]
        if full:
            steps += [
                (p.SET_SECURITY, b"\x00\x00"),
                (p.SET_BARCODE_FUNCTION, bytes([p.BARCODE_INTERLEAVED_2_OF_5, p.BARCODE_18_DIGITS])),
            ]
        steps += [
            (p.SET_BARCODE_INHIBIT, bytes([barcode_inhibit])),
            (p.SET_INHIBIT, b"\x00" if self.accepting else b"\x01"),
        ]
        self.settings_dirty = not all(self._setting(cmd, data) for cmd, data in steps)

    # --- statuses --------------------------------------------------------------------------
    def _on_status(self, frame: p.Frame) -> None:
        status, data = frame.command, frame.data
        changed = status != self.last_status
        self.last_status = status
        if not self.heard_from and status in (p.ENABLE_IDLING, p.DISABLE_INHIBIT, p.STACKED):
            # the acceptor kept its power while the cabinet restarted and holds nothing (or has just
            # stacked an item a previous driver ACKed): where an item the cabinet had pending went,
            # this driver cannot say (the cabinet asks an attendant)
            self.events.append(AcceptorPoweredUp(PowerUpPath.EMPTY))
        self.heard_from = True
        if status in p.POWER_UP_STATUSES:
            self._on_power_up(status, changed)
        elif status == p.INITIALIZE:
            self._apply_settings(full=True)
        elif status in (p.ENABLE_IDLING, p.DISABLE_INHIBIT):
            self._on_idle(status)
        elif status == p.ESCROW:
            self._on_escrow(data)
        elif status == p.VEND_VALID:
            self._on_vend_valid(data)
        elif status == p.STACKED:
            if self.vended:
                self._clear_escrow()
        elif status == p.REJECTING:
            if changed:
                reason = p.REJECT_REASONS.get(data[0], "unknown reason") if data else "no reason given"
                code = f"0x{data[0]:02X}" if data else "none"
                self.events.append(BillRejected(f"{reason} (code {code})"))
                if not self.vended:
                    self._clear_escrow()
        elif status == p.RETURNING:
            self._returned()
        elif status in p.ERROR_KINDS:
            self._on_error(status, data)
        elif status == p.PAUSE:
            log.info("bill acceptor paused: a second bill is being inserted")
        elif status == p.COMMUNICATION_ERROR:
            log.warning("bill acceptor reports a communication error (it received a bad frame)")
        elif status == p.INVALID_COMMAND:
            log.warning("bill acceptor reports an invalid command")
        elif status not in (p.ACCEPTING, p.STACKING, p.HOLDING):
            log.warning("bill acceptor: unknown status 0x%02X %s; ignored", status, data.hex())

    def _on_power_up(self, status: int, changed: bool) -> None:
        if changed:  # a repeated power-up status (our RESET was lost) is the same power-up
            item = self.escrow or EscrowItem()
            stacking = self.escrow is not None and self.stack_requested and not self.vended
            if status == p.POWER_UP_BILL_IN_STACKER and stacking:
                # the item the cabinet asked to stack reached the cash box before VEND VALID was seen:
                # the power-up confirms the stack as VEND VALID would (reported once, as VEND VALID is)
                self.events.append(BillStacked(item.amount_cents, item.barcode))
            self.events.append(AcceptorPoweredUp(POWER_UP_PATHS[status], item.amount_cents, item.barcode))
            self._clear_escrow()  # the cabinet settles the item from the path reported
        log.info("bill acceptor powered up (status 0x%02X); resetting it", status)
        reply = self._command(p.RESET)
        if reply is not None and reply.command != p.ACK:
            log.warning("bill acceptor: RESET answered with 0x%02X", reply.command)
        self.settings_dirty = True

    def _on_idle(self, status: int) -> None:
        for kind in sorted(self.active_faults - RECONCILE_FAULTS):
            self.events.append(DeviceFaultCleared(DEVICE, kind))
        self.active_faults &= RECONCILE_FAULTS
        if self.escrow is not None and not self.vended and self.stack_requested:
            self._fault(
                "stack_unconfirmed",
                "The bill acceptor went idle after a stack without reporting VEND VALID, so the "
                "item was not credited; count the cash box and hand-pay if it is there.",
            )
        self._returned()
        device_accepting = status == p.ENABLE_IDLING
        if self.settings_dirty or device_accepting != self.accepting:
            self._apply_settings(full=False)

    def _on_escrow(self, data: bytes) -> None:
        item = decode_escrow(data, self.note_codes)
        if isinstance(item, str):
            log.warning("bill acceptor: %s; returning it", item)
            self.events.append(BillRejected(item))
            self._command(p.RETURN)
            return
        self.heard_escrow = True
        if self.vended:  # the last item was stacked and its STACKED went by unseen: this one is new,
            self._clear_escrow()  # even at the same value, and nobody has asked to stack it yet
        if self.escrow != item:
            self._returned()  # a different item: the one we knew went back unseen
            self.escrow = item
            self.events.append(BillEscrowed(item.amount_cents, item.barcode))
        elif self.stack_requested:
            self._operate(p.STACK_1)  # the first STACK-1 or its ACK was lost
        elif self.return_requested:
            self._operate(p.RETURN)

    def _on_vend_valid(self, data: bytes) -> None:
        item = self.escrow
        if item is not None and self.stack_requested and not self.vended:
            code = data[0] if data else None
            expected = (
                p.TICKET_ESCROW_CODE
                if item.barcode is not None
                else next((c for c, v in self.note_codes.items() if v == item.amount_cents), None)
            )
            if code is not None and code != expected:
                log.warning("bill acceptor: vend valid code 0x%02X, escrow was %s", code, item)
            self.vended = True
            self.events.append(BillStacked(item.amount_cents, item.barcode))
        elif item is None and not self.heard_escrow:
            # this driver started after the item was escrowed (the cabinet restarted mid-stack): report
            # what the acceptor stacked; the cabinet matches it against the item it had pending
            code = data[0] if data else None
            self.escrow = EscrowItem(amount_cents=self.note_codes.get(code, 0) if code is not None else 0)
            self.vended = True
            self.events.append(BillStacked(self.escrow.amount_cents, None))
        elif not self.vended:
            self._fault(
                "vend_without_stack",
                "The bill acceptor stacked an item the cabinet did not ask to stack; it was not "
                "credited. Count the cash box and reconcile.",
            )
        self.link.send(p.encode_frame(p.ACK))

    def _on_error(self, status: int, data: bytes) -> None:
        kind, message = p.ERROR_KINDS[status]
        if status == p.FAILURE and data:
            detail = p.FAILURE_CODES.get(data[0], f"code 0x{data[0]:02X}")
            message = f"The bill acceptor reports a hardware failure ({detail}); service it."
        if status == p.CHEATED and self.escrow is not None and not self.vended:
            log.error("bill acceptor: cheat detected with %s in escrow; it is not credited", self.escrow)
            self._clear_escrow()
        self._fault(kind, message)

    def _fault(self, kind: str, message: str) -> None:
        if kind not in self.active_faults:
            self.active_faults.add(kind)
            log.error("bill acceptor fault: %s", message)
            self.events.append(DeviceFault(DEVICE, kind, message))

    def _returned(self) -> None:
        if self.escrow is not None and not self.vended and not self.stack_requested:
            self.events.append(BillReturned(self.escrow.amount_cents, self.escrow.barcode))
        self._clear_escrow()

    def _clear_escrow(self) -> None:
        self.escrow = None
        self.stack_requested = self.return_requested = self.vended = False

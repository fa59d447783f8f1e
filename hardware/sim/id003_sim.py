"""A JCM ID-003 bill acceptor simulator (the device side of the protocol).

The acceptor moves one step per STATUS REQUEST, so a test decides exactly when things happen:
insert a note -> ACCEPTING -> ESCROW (until STACK-1/2 or RETURN) -> STACKING -> VEND VALID (until
the host ACKs) -> STACKED -> ENABLE. The `cash_box` list is what physically reached the stacker.
"""

from __future__ import annotations

import logging
from collections import deque

from hardware.serial import id003_protocol as p
from hardware.sim.device import SimDevice

log = logging.getLogger(__name__)

FAULT_STATUSES = {
    "stacker_full": p.STACKER_FULL,
    "stacker_open": p.STACKER_OPEN,
    "jam": p.ACCEPTOR_JAM,
    "stacker_jam": p.STACKER_JAM,
    "cheat": p.CHEATED,
    "failure": p.FAILURE,
}

Status = tuple[int, bytes]
FIRMWARE = b"ID003-SIM(USA) V1.00"


class Id003Simulator(SimDevice):
    name = "id003"

    def __init__(self, note_codes: dict[int, int] | None = None) -> None:
        self.note_codes = dict(p.USD_NOTE_CODES if note_codes is None else note_codes)
        self.cash_box: list[tuple[int, str | None]] = []  # (cents, barcode) actually stacked
        self.returned: list[tuple[int, str | None]] = []
        self.next_power_up = p.POWER_UP
        super().__init__()

    # --- state ---------------------------------------------------------------------------------
    def power_up(self, status: int | None = None) -> None:
        if status is None:  # plugged back in: report what the power loss left behind
            status, self.next_power_up = self.next_power_up, p.POWER_UP
        self.reader = p.FrameReader()
        self.upcoming: deque[Status] = deque()
        self.steady: Status = (status, b"")
        self.initialized = False
        self.inhibited = True
        self.denomination_mask = b"\xff\xff"
        self.barcode_inhibit = p.INHIBIT_TICKETS
        self.escrow: Status | None = None  # (escrow code, barcode bytes)
        self.stage = "idle"  # idle, escrow, stacking, vend_valid, returning
        self.fault: str | None = None

    def _idle(self) -> Status:
        if not self.initialized:
            return (p.INITIALIZE, b"")
        return (p.DISABLE_INHIBIT, b"") if self.inhibited else (p.ENABLE_IDLING, b"")

    def _settle(self) -> None:
        if self.fault is None and self.stage == "idle" and self.steady[0] not in p.POWER_UP_STATUSES:
            self.steady = self._idle()

    # --- the host's frames ---------------------------------------------------------------------
    def handle(self, data: bytes) -> bytes:
        out = b""
        bad = False
        for item in self.reader.feed(data):
            if isinstance(item, p.Frame):
                reply = self._command(item)
                out += reply.encode() if reply is not None else b""
            else:
                log.info("id003 sim: bad frame from host (%s)", item.reason)
                bad = True
        if bad and not out:  # one COMMUNICATION ERROR answers a spoiled request
            out = p.Frame(p.COMMUNICATION_ERROR).encode()
        return out

    def _command(self, frame: p.Frame) -> p.Frame | None:
        cmd = frame.command
        if cmd == p.STATUS_REQUEST:
            status = self.upcoming.popleft() if self.upcoming else self.steady
            return p.Frame(*status)
        if cmd == p.VERSION_REQUEST:
            return p.Frame(p.VERSION_REQUEST, FIRMWARE)
        if cmd == p.RESET:
            self.power_up(status=p.INITIALIZE)
            return p.Frame(p.ACK)
        if cmd in p.SETTING_COMMANDS:
            return self._setting(frame)
        if cmd == p.ACK:
            if self.stage == "vend_valid":
                self._stacked()
            return None  # the host's ACK has no reply
        if cmd in (p.STACK_1, p.STACK_2) and self.stage in ("escrow", "stacking"):
            if self.stage == "escrow":
                self.stage = "stacking"
                self.upcoming = deque([(p.STACKING, b"")])
                code = self.escrow[0] if self.escrow else 0
                self.steady = (p.VEND_VALID, bytes([code]))
                self.stage = "vend_valid"
            return p.Frame(p.ACK)
        if cmd == p.RETURN and self.stage == "escrow":
            self.stage = "idle"
            if self.escrow is not None:
                self.returned.append(self._item(self.escrow))
            self.escrow = None
            self.upcoming = deque([(p.RETURNING, b"")])
            self.steady = self._idle()
            return p.Frame(p.ACK)
        if cmd == p.HOLD and self.stage == "escrow":
            return p.Frame(p.ACK)
        return p.Frame(p.INVALID_COMMAND)

    def _setting(self, frame: p.Frame) -> p.Frame:
        if frame.command == p.SET_DENOMINATION:
            self.denomination_mask = frame.data
        elif frame.command == p.SET_INHIBIT:
            self.inhibited = frame.data != b"\x00"
            self.initialized = True
        elif frame.command == p.SET_BARCODE_INHIBIT:
            self.barcode_inhibit = frame.data[0] if frame.data else 0xFF
        self._settle()
        return frame  # settings are echoed

    def _stacked(self) -> None:
        if self.escrow is not None:
            self.cash_box.append(self._item(self.escrow))
        self.escrow = None
        self.stage = "idle"
        self.upcoming = deque([(p.STACKED, b"")])
        self.steady = self._idle()

    def _item(self, escrow: Status) -> tuple[int, str | None]:
        code, barcode = escrow
        if code == p.TICKET_ESCROW_CODE:
            return (0, barcode.decode("ascii"))
        return (self.note_codes.get(code, 0), None)  # 0: a note the bill table does not know

    # --- the customer and the technician -------------------------------------------------------
    def insert_note(self, cents: int) -> bool:
        """A note goes in; True when it is on its way to escrow (a rejected note comes back)."""
        with self.lock:
            code = next((c for c, v in self.note_codes.items() if v == cents), None)
            bit = 1 << (code - p.FIRST_NOTE_CODE) if code is not None else 0
            mask = int.from_bytes(self.denomination_mask.ljust(2, b"\xff"), "little")
            accepted = code is not None and not mask & bit and not self.barcode_inhibit & p.INHIBIT_NOTES
            return self._insert((code, b"") if accepted and code is not None else None)

    def insert_ticket(self, barcode: str) -> bool:
        with self.lock:
            accepted = not self.barcode_inhibit & p.INHIBIT_TICKETS and barcode.isdigit()
            return self._insert((p.TICKET_ESCROW_CODE, barcode.encode("ascii")) if accepted else None)

    def _insert(self, escrow: Status | None) -> bool:
        if self.stage != "idle" or self.fault is not None or self.steady[0] != p.ENABLE_IDLING:
            log.info("id003 sim: not accepting now; the item is refused at the mouth")
            return False
        # statuses not yet reported (STACKED of the item before) come first: the host must see them
        if escrow is None:
            self.upcoming.extend([(p.ACCEPTING, b""), (p.REJECTING, bytes([0x79]))])
            return False
        self.escrow = escrow
        self.stage = "escrow"
        self.upcoming.append((p.ACCEPTING, b""))
        self.steady = (p.ESCROW, bytes([escrow[0]]) + escrow[1])
        return True

    def inject_fault(self, kind: str) -> None:
        """Jam, stacker full/open, cheat or failure: the acceptor reports it until `clear_fault`."""
        if kind not in FAULT_STATUSES:
            raise ValueError(f"unknown fault {kind!r}; choose one of {sorted(FAULT_STATUSES)}")
        with self.lock:
            self.fault = kind
            self._settle_path()  # the technician clears the path: escrow given back, stacking finished
            self.upcoming.clear()
            data = b"\xa2" if kind == "failure" else b""
            self.steady = (FAULT_STATUSES[kind], data)

    def clear_fault(self) -> None:
        with self.lock:
            self.fault = None
            self._settle()

    def power_cycle(self, status: int | None = None) -> None:
        """Cut and restore power now; a bill in the path makes the matching power-up status.

        `status` forces the power-up status reported (e.g. plain POWER UP although a bill was in
        the path, as an acceptor that lost track of it would), after the bill settled as usual.
        """
        with self.lock:
            settled = self._settle_path()
            self.power_up(settled if status is None else status)

    def unplug(self) -> None:
        """Power and cable gone: a bill in the path settles as in `power_cycle`, reported at replug."""
        with self.lock:
            self.next_power_up = self._settle_path()
            super().unplug()

    def _settle_path(self) -> int:
        """Where the item in the path ends up when power goes or a fault stops the acceptor, and the
        power-up status that says so: in escrow it is given back; once stacking (VEND VALID) it goes
        on into the cash box."""
        stage, escrow = self.stage, self.escrow
        self.stage, self.escrow = "idle", None
        if stage == "escrow" and escrow is not None:
            self.returned.append(self._item(escrow))
            return p.POWER_UP_BILL_IN_ACCEPTOR
        if stage in ("stacking", "vend_valid") and escrow is not None:
            self.cash_box.append(self._item(escrow))
            return p.POWER_UP_BILL_IN_STACKER
        return p.POWER_UP

    def bad_checksum(self, reply: bytes) -> bytes:
        return reply[:-1] + bytes([reply[-1] ^ 0xFF])

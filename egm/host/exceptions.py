"""SAS exceptions: the codes this cabinet reports to the general poll, their priority, and the queue.

Where exceptions come from. Everything the cabinet does that the host must hear of is already in
wager memory, written in the same transaction as the deed: the event log (doors, power, bills,
tickets, hand pays, faults, RAM and ROM errors, cash-out) and the game meters (a game started when
games_played moves, ended when games_won + games_lost moves). `ExceptionQueue.catch_up` turns what
was written since it last looked into exceptions; the queue record keeps the last event number and
meter counts it has seen. So a power cut at any instant loses nothing: what the queue had not taken
in yet is still in the log, and what it had is in the queue record.

Order and delivery. The queue is kept in priority order (PRIORITY: 1 first), first in first out
within a priority. The head is reported to each general poll and leaves the queue only when the host
acknowledges it (SAS implied ACK); a power cut before that reports it again.

Overflow. The queue holds CAPACITY exceptions. When a new one would not fit, the newest exception of
the lowest priority present (the new one included) is dropped, and exception 0x70 (exception buffer
overflow) is put at the head of the queue, once, so the host knows to read the meters and event
log. Door, power, money and fault exceptions therefore outlive game start/end and bill reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CAPACITY = 64

NO_ACTIVITY = 0x00
GENERAL_TILT = 0x20  # SAS: for a fault no other code names; here the host's word against the cabinet's record
SLOT_DOOR_OPENED, SLOT_DOOR_CLOSED = 0x11, 0x12
CARD_CAGE_OPENED, CARD_CAGE_CLOSED = 0x15, 0x16
AC_POWER_APPLIED, AC_POWER_LOST = 0x17, 0x18
CASH_BOX_DOOR_OPENED, CASH_BOX_DOOR_CLOSED = 0x19, 0x1A
CASH_BOX_REMOVED = 0x1B
CASH_BOX_FULL = 0x27
BILL_JAM = 0x28
BILL_ACCEPTOR_FAILURE = 0x29
RAM_ERROR_RECOVERED = 0x31
RAM_ERROR_NOT_RECOVERED = 0x32
ROM_ERROR = 0x37  # EPROM error (bad checksum compare)
MEMORY_ERROR_RESET = 0x3A
TICKET_PRINTED = 0x3D
BILL_ACCEPTED = 0x4F
HAND_PAY_PENDING, HAND_PAY_RESET = 0x51, 0x52
SYSTEM_VALIDATION_REQUEST = 0x57
PRINTER_COMMUNICATION_ERROR, PRINTER_PAPER_OUT = 0x60, 0x61
CASH_OUT_PRESSED = 0x66
TICKET_INSERTED = 0x67
TICKET_TRANSFER_COMPLETE = 0x68
AFT_TRANSFER_COMPLETE = 0x69
BUFFER_OVERFLOW = 0x70
PRINTER_PAPER_LOW = 0x74
PRINTER_CARRIAGE_JAMMED = 0x78
GAME_STARTED, GAME_ENDED = 0x7E, 0x7F

# 1: the machine cannot be trusted or played (memory, ROM, power, faults);
# 2: money waits on the host or an attendant; 3: doors; 4: what happened (games, bills, buttons).
PRIORITY: dict[int, int] = {
    BUFFER_OVERFLOW: 0,
    RAM_ERROR_RECOVERED: 1,
    RAM_ERROR_NOT_RECOVERED: 1,
    MEMORY_ERROR_RESET: 1,
    ROM_ERROR: 1,
    AC_POWER_LOST: 1,
    AC_POWER_APPLIED: 1,
    CASH_BOX_FULL: 1,
    CASH_BOX_REMOVED: 1,
    BILL_JAM: 1,
    BILL_ACCEPTOR_FAILURE: 1,
    PRINTER_COMMUNICATION_ERROR: 1,
    PRINTER_PAPER_OUT: 1,
    PRINTER_CARRIAGE_JAMMED: 1,
    SYSTEM_VALIDATION_REQUEST: 2,
    GENERAL_TILT: 2,
    TICKET_INSERTED: 2,
    TICKET_TRANSFER_COMPLETE: 2,
    TICKET_PRINTED: 2,
    HAND_PAY_PENDING: 2,
    HAND_PAY_RESET: 2,
    AFT_TRANSFER_COMPLETE: 2,
    SLOT_DOOR_OPENED: 3,
    SLOT_DOOR_CLOSED: 3,
    CARD_CAGE_OPENED: 3,
    CARD_CAGE_CLOSED: 3,
    CASH_BOX_DOOR_OPENED: 3,
    CASH_BOX_DOOR_CLOSED: 3,
    PRINTER_PAPER_LOW: 4,
    BILL_ACCEPTED: 4,
    CASH_OUT_PRESSED: 4,
    GAME_STARTED: 4,
    GAME_ENDED: 4,
}

DOORS = {  # door -> (opened, closed)
    "main": (SLOT_DOOR_OPENED, SLOT_DOOR_CLOSED),
    "logic": (CARD_CAGE_OPENED, CARD_CAGE_CLOSED),
    "cash_box": (CASH_BOX_DOOR_OPENED, CASH_BOX_DOOR_CLOSED),
}
PRINTER_FAULTS = {
    "paper_out": PRINTER_PAPER_OUT,
    "paper_jam": PRINTER_CARRIAGE_JAMMED,
    "jam": PRINTER_CARRIAGE_JAMMED,
}
ACCEPTOR_FAULTS = {
    "stacker_full": CASH_BOX_FULL,
    "stacker_open": CASH_BOX_REMOVED,
    "acceptor_jam": BILL_JAM,
    "stacker_jam": BILL_JAM,
}
SIMPLE_EVENTS = {  # event-log kind -> exception
    "power_loss": AC_POWER_LOST,
    "power_up": AC_POWER_APPLIED,
    "memory_repaired": RAM_ERROR_RECOVERED,
    "ram_clear": MEMORY_ERROR_RESET,
    "rom_error": ROM_ERROR,
    "bill_in": BILL_ACCEPTED,
    "ticket_out": TICKET_PRINTED,
    "ticket_in": TICKET_TRANSFER_COMPLETE,
    "hand_pay": HAND_PAY_PENDING,
    "hand_pay_reset": HAND_PAY_RESET,
    "cash_out": CASH_OUT_PRESSED,
    "sas_ticket_inserted": TICKET_INSERTED,
    "sas_aft_complete": AFT_TRANSFER_COMPLETE,
    "sas_host_fault": GENERAL_TILT,
    "game_server_offline": GENERAL_TILT,  # a round waited on the central game server too long
}


def exceptions_for(event: Mapping[str, Any]) -> tuple[int, ...]:
    """The SAS exceptions an event-log entry stands for (most stand for one, or none)."""
    if event.get("kind") == "sas_validation_request":  # CASH OUT under system validation
        return (CASH_OUT_PRESSED, SYSTEM_VALIDATION_REQUEST)
    code = exception_for(event)
    return () if code is None else (code,)


def exception_for(event: Mapping[str, Any]) -> int | None:
    """The SAS exception an event-log entry stands for, or None."""
    kind, detail = event.get("kind"), event.get("detail") or {}
    if kind in SIMPLE_EVENTS:
        return SIMPLE_EVENTS[kind]
    if kind in ("door_open", "door_close") and detail.get("door") in DOORS:
        opened, closed = DOORS[detail["door"]]
        return opened if kind == "door_open" else closed
    if kind == "device_fault":
        fault = detail.get("fault", "")
        if detail.get("device") == "printer":
            return PRINTER_FAULTS.get(fault, PRINTER_COMMUNICATION_ERROR)
        if detail.get("device") == "bill_acceptor":
            return ACCEPTOR_FAULTS.get(fault, BILL_ACCEPTOR_FAILURE)
    if kind == "device_warning" and detail.get("device") == "printer":
        return PRINTER_PAPER_LOW
    return None


def games_played(meters: Mapping[str, int]) -> int:
    return int(meters["games_played"])


def games_ended(meters: Mapping[str, int]) -> int:
    return int(meters["games_won"]) + int(meters["games_lost"])


@dataclass
class ExceptionQueue:
    """The queue and what it has taken in so far (the `sas_exceptions` record in wager memory)."""

    codes: list[int] = field(default_factory=list)
    event_seq: int = 0  # the last event-log entry taken in
    games_started: int = 0
    games_ended: int = 0
    overflowed: bool = False

    def to_record(self) -> dict[str, Any]:
        return {
            "codes": list(self.codes),
            "event_seq": self.event_seq,
            "games_started": self.games_started,
            "games_ended": self.games_ended,
            "overflowed": self.overflowed,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> ExceptionQueue:
        return cls(
            codes=[int(c) for c in record["codes"]],
            event_seq=int(record["event_seq"]),
            games_started=int(record["games_started"]),
            games_ended=int(record["games_ended"]),
            overflowed=bool(record["overflowed"]),
        )

    def add(self, code: int) -> None:
        """Put `code` in priority order; on overflow drop the newest of the lowest priority."""
        rank = PRIORITY.get(code, 4)
        at = next((i for i, c in enumerate(self.codes) if PRIORITY.get(c, 4) > rank), len(self.codes))
        self.codes.insert(at, code)
        if len(self.codes) > CAPACITY:
            lowest = max(PRIORITY.get(c, 4) for c in self.codes)
            drop = max(i for i, c in enumerate(self.codes) if PRIORITY.get(c, 4) == lowest)
            del self.codes[drop]
            if not self.overflowed:
                self.overflowed = True
                self.codes.insert(0, BUFFER_OVERFLOW)
                if len(self.codes) > CAPACITY:
                    self.codes.pop()

    def catch_up(self, events: list[dict[str, Any]], meters: Mapping[str, int]) -> bool:
        """Take in the events after `event_seq` (oldest first) and the games since last time.
        True when anything changed."""
        changed = False
        for event in events:
            if event["seq"] <= self.event_seq:
                continue
            self.event_seq = event["seq"]
            changed = True
            for code in exceptions_for(event):
                self.add(code)
        started, ended = games_played(meters), games_ended(meters)
        for _ in range(max(0, min(started - self.games_started, CAPACITY))):
            self.add(GAME_STARTED)
        for _ in range(max(0, min(ended - self.games_ended, CAPACITY))):
            self.add(GAME_ENDED)
        if (started, ended) != (self.games_started, self.games_ended):
            self.games_started, self.games_ended = started, ended
            changed = True
        return changed

    def head(self) -> int:
        return self.codes[0] if self.codes else NO_ACTIVITY

    def delivered(self, code: int) -> bool:
        """The host acknowledged `code` (reported as the head; a higher priority exception may have
        been queued in front of it since): it leaves the queue. True when the queue changed."""
        if code not in self.codes:
            return False
        self.codes.remove(code)
        if code == BUFFER_OVERFLOW:
            self.overflowed = False
        return True

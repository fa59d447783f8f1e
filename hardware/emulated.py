"""Emulated peripherals: in-process stand-ins for the bill acceptor, printer, button panel, doors and keys.

The emulator's on-screen controls and headless autoplay drive them through plain methods
(`insert_bill`, `insert_ticket`, `press`, `open_door`, `turn_key`...). They behave like the real
devices as the cabinet sees them: an inserted note waits in escrow until the cabinet says `stack()`,
the printer confirms a ticket only after "printing" it, and every happening is reported as a
hardware event from `poll()`. They never move money: they only report.
"""

from __future__ import annotations

from collections import deque

from hardware.interfaces import (
    AcceptorPoweredUp,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    ButtonChanged,
    DeviceFault,
    DeviceFaultCleared,
    Door,
    DoorChanged,
    Key,
    KeyTurned,
    LampState,
    PowerUpPath,
    TicketData,
    TicketFailed,
    TicketPrinted,
    same_item,
)


class _EventQueue:
    def __init__(self) -> None:
        self._events: deque[object] = deque()

    def _report(self, event: object) -> None:
        self._events.append(event)

    def poll(self) -> list[object]:
        events = list(self._events)
        self._events.clear()
        return events


class EmulatedBillAcceptor(_EventQueue):
    """A note and ticket acceptor with one escrow position."""

    def __init__(self) -> None:
        super().__init__()
        self.enabled_cents: frozenset[int] = frozenset()
        self.tickets_enabled = False
        self.escrow: BillEscrowed | None = None
        self.stacked: list[BillStacked] = []  # the cash box
        self.jammed = False
        self._report(AcceptorPoweredUp(PowerUpPath.EMPTY))  # switched on with nothing in its path

    def enable(self, denominations_cents: frozenset[int], tickets: bool = True) -> None:
        self.enabled_cents = frozenset(denominations_cents)
        self.tickets_enabled = tickets

    def inhibit(self) -> None:
        self.enabled_cents = frozenset()
        self.tickets_enabled = False

    def insert_bill(self, amount_cents: int) -> bool:
        """A note goes in; True when it reaches escrow, False when the acceptor rejects it."""
        if self.jammed or self.escrow is not None:
            self._report(BillRejected("The note reader is busy or jammed; your note was returned."))
            return False
        if amount_cents not in self.enabled_cents:
            note = f"${amount_cents // 100:,}.{amount_cents % 100:02d} note"  # hardware does not import egm
            if self.enabled_cents:
                reason = f"This machine does not take the {note} (not enabled); it was returned."
            else:
                reason = f"Notes are not enabled now, only between games; your {note} was returned."
            self._report(BillRejected(reason))
            return False
        self.escrow = BillEscrowed(amount_cents=amount_cents)
        self._report(self.escrow)
        return True

    def insert_counterfeit(self, amount_cents: int) -> bool:
        """A note that fails the acceptor's own checks (a counterfeit): it never reaches escrow."""
        if self.jammed or self.escrow is not None:
            self._report(BillRejected("The note reader is busy or jammed; your note was returned."))
            return False
        dollars = f"${amount_cents // 100:,}.{amount_cents % 100:02d}"
        self._report(BillRejected(f"The {dollars} note was not recognised as genuine; it was returned."))
        return False

    def insert_ticket(self, barcode: str, amount_cents: int = 0) -> bool:
        """A TITO ticket goes in (amount_cents: what the ticket reads, 0 when unknown)."""
        if self.jammed or self.escrow is not None or not self.tickets_enabled:
            self._report(BillRejected("Tickets are taken only between games; your ticket was returned."))
            return False
        self.escrow = BillEscrowed(amount_cents=amount_cents, barcode=barcode)
        self._report(self.escrow)
        return True

    def stack(self) -> None:
        if self.escrow is None:
            return
        stacked = BillStacked(self.escrow.amount_cents, self.escrow.barcode)
        self.stacked.append(stacked)
        self.escrow = None
        self._report(stacked)

    def return_escrow(self) -> None:
        if self.escrow is None:
            return
        self._report(BillReturned(self.escrow.amount_cents, self.escrow.barcode))
        self.escrow = None

    def in_cash_box(self, amount_cents: int, barcode: str | None) -> bool:
        """The attendant's count: is this item in the cash box?"""
        return any(same_item(amount_cents, barcode, s.amount_cents, s.barcode) for s in self.stacked)

    def power_cycle(self, path: PowerUpPath | None = None) -> None:
        """The acceptor loses power and comes back, reporting where the item in escrow went.

        By default an item in escrow is given back (IN_ACCEPTOR) and nothing is EMPTY; `path`
        forces the report: IN_STACKER puts the item in the cash box, EMPTY loses track of it.
        """
        item = self.escrow
        if path is None:
            path = PowerUpPath.EMPTY if item is None else PowerUpPath.IN_ACCEPTOR
        if item is not None and path is PowerUpPath.IN_STACKER:
            self.stacked.append(BillStacked(item.amount_cents, item.barcode))
        self.escrow = None
        amount, barcode = (item.amount_cents, item.barcode) if item else (0, None)
        self._report(AcceptorPoweredUp(path, amount, barcode))

    def jam(self) -> None:
        self.jammed = True
        self._report(DeviceFault("bill_acceptor", "jam", "Bill acceptor jammed: clear the bill path."))

    def clear_jam(self) -> None:
        self.jammed = False
        self._report(DeviceFaultCleared("bill_acceptor", "jam"))

    def acknowledge_faults(self) -> None:
        """The attendant's key clears a jam (the emulated bill path has no other person-only fault)."""
        if self.jammed:
            self.clear_jam()


class EmulatedPrinter(_EventQueue):
    """A TITO printer; `printed` holds every ticket that came out, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.printed: list[TicketData] = []
        self.paper = True

    def ready(self) -> bool:
        return self.paper

    def print_ticket(self, ticket: TicketData) -> None:
        if not self.paper:
            self._report(TicketFailed(ticket.validation_number, "printer out of paper"))
            return
        self.printed.append(ticket)
        self._report(TicketPrinted(ticket.validation_number))

    def paper_out(self) -> None:
        self.paper = False
        self._report(DeviceFault("printer", "paper_out", "Printer out of paper: load a ticket stack."))

    def load_paper(self) -> None:
        self.paper = True
        self._report(DeviceFaultCleared("printer", "paper_out"))


class EmulatedButtonPanel(_EventQueue):
    """Player buttons with lamps; `lamps` shows what each lamp is doing."""

    def __init__(self) -> None:
        super().__init__()
        self.lamps: dict[str, LampState] = {}

    def press(self, button: str) -> None:
        """A full press: down then up."""
        self._report(ButtonChanged(button, True))
        self._report(ButtonChanged(button, False))

    def set_lamp(self, button: str, state: LampState) -> None:
        self.lamps[button] = state


class EmulatedDoorsAndKeys(_EventQueue):
    """Door switches and key switches."""

    def __init__(self) -> None:
        super().__init__()
        self.open_doors: set[Door] = set()

    def is_open(self, door: Door) -> bool:
        return door in self.open_doors

    def open_door(self, door: Door) -> None:
        self.open_doors.add(door)
        self._report(DoorChanged(door, True))

    def close_door(self, door: Door) -> None:
        self.open_doors.discard(door)
        self._report(DoorChanged(door, False))

    def turn_key(self, key: Key, on: bool = True) -> None:
        self._report(KeyTurned(key, on))

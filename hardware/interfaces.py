"""Capability interfaces of the hardware abstraction layer: one small interface per peripheral.

The firmware (`egm`) talks only to these. Each has three kinds of backend: `emulated` (in-process
stand-ins driven by the emulator's on-screen controls or by autoplay), `serial` (real devices through
pyserial) and `sim` (wire-protocol simulators that the serial drivers can be pointed at).

Devices are polled: the cabinet's main loop calls `poll()` and turns each returned event into a
state-machine event. Money never moves inside a driver: a driver only reports what the device said.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


# --- events --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BillEscrowed:
    """A note (amount_cents) or a TITO ticket (barcode) is held in escrow, not yet credited."""

    amount_cents: int = 0
    barcode: str | None = None


@dataclass(frozen=True)
class BillStacked:
    """The escrowed item reached the cash box (ID-003 "vend valid"): only now may it be credited."""

    amount_cents: int = 0
    barcode: str | None = None


@dataclass(frozen=True)
class BillReturned:
    amount_cents: int = 0
    barcode: str | None = None


@dataclass(frozen=True)
class BillRejected:
    reason: str


def same_item(amount_cents: int, barcode: str | None, other_cents: int, other_barcode: str | None) -> bool:
    """Whether two reports name the same note or ticket: a ticket by its barcode (an acceptor may not
    know its amount), a note by its value."""
    if barcode is not None or other_barcode is not None:
        return barcode == other_barcode
    return amount_cents == other_cents


class PowerUpPath(StrEnum):
    """Where a bill acceptor says the item in its path went across its own power loss (ID-003)."""

    EMPTY = "empty"  # 0x40 power up: nothing in the path
    IN_ACCEPTOR = "in_acceptor"  # 0x41 power up with bill in acceptor: it is given back
    IN_STACKER = "in_stacker"  # 0x42 power up with bill in stacker: it reached the cash box


@dataclass(frozen=True)
class AcceptorPoweredUp:
    """The bill acceptor powered up and reports where the item in its path went.

    amount_cents / barcode: the item the driver last saw in escrow (0 / None when it saw none, as
    after the cabinet itself restarted). The cabinet credits a pending item only on IN_STACKER.
    """

    path: PowerUpPath
    amount_cents: int = 0
    barcode: str | None = None


@dataclass(frozen=True)
class DeviceFault:
    """A device failure that stops play until cleared (jam, stacker full/open, cheat, no answer...)."""

    device: str
    kind: str
    message: str


@dataclass(frozen=True)
class DeviceFaultCleared:
    device: str
    kind: str


@dataclass(frozen=True)
class DeviceWarning:
    """A condition that needs an attendant soon but does not stop play (e.g. printer paper low).

    Reported once when it starts (active=True) and once when it ends (active=False).
    """

    device: str
    kind: str
    message: str
    active: bool = True


@dataclass(frozen=True)
class TicketPrinted:
    """The printer confirmed the validation number was printed: the ticket counts as issued."""

    validation_number: str


@dataclass(frozen=True)
class TicketFailed:
    """The ticket was not printed (the validation number never reached the paper)."""

    validation_number: str
    reason: str


@dataclass(frozen=True)
class ButtonChanged:
    button: str  # e.g. "bet", "deal", "house_way", "cash_out", "help", "service"
    pressed: bool


class Door(StrEnum):
    MAIN = "main"
    LOGIC = "logic"
    CASH_BOX = "cash_box"


class Key(StrEnum):
    OPERATOR = "operator"  # audit/operator menu
    ATTENDANT = "attendant"  # hand-pay and tilt reset


@dataclass(frozen=True)
class DoorChanged:
    door: Door
    open: bool


@dataclass(frozen=True)
class KeyTurned:
    key: Key
    on: bool


@dataclass(frozen=True)
class HostPoll:
    """The casino host polled this machine over SAS: a general poll (command None) or a long poll
    with its data (CRC checked). The cabinet answers it through the host link's `reply`."""

    command: int | None
    data: bytes = b""


@dataclass(frozen=True)
class HostAcknowledged:
    """The host acknowledged this machine's last reply (SAS implied ACK: it polled another machine,
    or sent this one a different poll). An exception reported is delivered only now."""


@dataclass(frozen=True)
class HostLinkChanged:
    """The host link came up (polls arrive) or went down (the host fell silent)."""

    up: bool
    message: str


# --- data --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TicketData:
    """Everything a TITO ticket template prints."""

    validation_number: str  # 18 digits
    amount_cents: int
    site_name: str
    site_address: str
    machine_number: str
    issued_at: datetime
    sequence: int
    expires_days: int
    ticket_type: str = "CASHOUT TICKET"


class LampState(StrEnum):
    OFF = "off"
    ON = "on"
    FLASH = "flash"


# --- capabilities --------------------------------------------------------------------------------
class BillAcceptor(Protocol):
    def enable(self, denominations_cents: frozenset[int], tickets: bool = True) -> None:
        """Accept these notes (and TITO tickets); every other note is rejected by the device."""

    def inhibit(self) -> None:
        """Accept nothing (tilts, doors open, game locked up)."""

    def stack(self) -> None:
        """Send the escrowed item to the cash box."""

    def return_escrow(self) -> None:
        """Give the escrowed item back."""

    def acknowledge_faults(self) -> None:
        """The attendant has settled what only a person can (a jam cleared, the cash box counted
        after a power loss mid-stack): clear those faults. The device reports DeviceFaultCleared."""

    def poll(self) -> list[object]:
        """Events since the last poll."""


class TicketPrinter(Protocol):
    def print_ticket(self, ticket: TicketData) -> None:
        """Start printing; the outcome arrives later as TicketPrinted or TicketFailed from poll()."""

    def poll(self) -> list[object]: ...

    def ready(self) -> bool:
        """True when the printer can print now (paper in, no fault, head down)."""


class ButtonPanel(Protocol):
    def poll(self) -> list[object]: ...

    def set_lamp(self, button: str, state: LampState) -> None: ...


class DoorsAndKeys(Protocol):
    def poll(self) -> list[object]: ...

    def is_open(self, door: Door) -> bool: ...


class HostLink(Protocol):
    """The cabinet's port to the casino host (SAS): polls arrive from `poll()` as HostPoll events."""

    address: int

    def poll(self) -> list[object]: ...

    def reply(self, data: bytes, *, needs_ack: bool = True) -> None:
        """Answer the poll just reported (the link repeats it if the host asks again, unless the
        reply needs no acknowledgement)."""

    def no_reply(self) -> None:
        """The poll just reported gets no answer."""

    def wait(self, timeout_s: float) -> bool:
        """Block until the host sends something or `timeout_s` passes (headless main loops)."""


class Speaker(Protocol):
    """The cabinet's speakers: play one sound (mono 16-bit PCM samples, e.g. a numpy int16 array)."""

    def play(self, name: str, pcm: Any, volume: float) -> None: ...

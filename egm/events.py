"""The cabinet's input events: everything that can happen to a cabinet arrives as one of these.

Player and operator inputs are defined here; device reports (bills, tickets, doors, keys, faults)
are the hardware layer's own event types, re-exported so that a front end (the emulator, autoplay,
a test) imports every event from one place. `Cabinet.handle(event)` takes any of them and answers
with a `Result`: accepted, or refused with a reason sentence (and then nothing changed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from egm.games.base import Decision, Wager
from hardware.interfaces import (
    AcceptorPoweredUp,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    ButtonChanged,
    DeviceFault,
    DeviceFaultCleared,
    DeviceWarning,
    Door,
    DoorChanged,
    HostAcknowledged,
    HostLinkChanged,
    HostPoll,
    Key,
    KeyTurned,
    PowerUpPath,
    TicketFailed,
    TicketPrinted,
)

__all__ = [
    "AcceptorPoweredUp",
    "BillEscrowed",
    "BillRejected",
    "BillReturned",
    "BillStacked",
    "ButtonChanged",
    "CashOut",
    "ChooseDenomination",
    "DeviceFault",
    "DeviceFaultCleared",
    "DeviceWarning",
    "Door",
    "DoorChanged",
    "GameServerAnswered",
    "HostAcknowledged",
    "HostLinkChanged",
    "HostPoll",
    "Key",
    "KeyTurned",
    "PlayerDecision",
    "PowerUpPath",
    "RamClear",
    "ReconcileBill",
    "Result",
    "RunRomCheck",
    "SelectGame",
    "StartGame",
    "TicketFailed",
    "TicketPrinted",
]


@dataclass(frozen=True)
class SelectGame:
    """The player picks a game on the attract screen (one of config.games)."""

    game_id: str


@dataclass(frozen=True)
class StartGame:
    """Bet and deal. game_id None plays the selected game; wager None bets the game's default wager."""

    game_id: str | None = None
    wager: Wager | None = None


@dataclass(frozen=True)
class ChooseDenomination:
    """The player chooses the credit's value for the next games (between games only): one of the
    cabinet's player denominations. The money on the meter does not change, only how many credits it
    makes."""

    denomination_cents: int


@dataclass(frozen=True)
class PlayerDecision:
    """A decision for the round in progress (designate, set, house way, place...)."""

    decision: Decision


@dataclass(frozen=True)
class CashOut:
    """The player presses CASH OUT: a ticket below the hand-pay limit, a hand-pay lock-up at or above."""


@dataclass(frozen=True)
class ReconcileBill:
    """Attendant: the cash box was counted for the unreconciled pending note or ticket.

    in_cash_box: found there (it is credited now) or not (it is not credited).
    """

    in_cash_box: bool


@dataclass(frozen=True)
class RamClear:
    """Operator menu only: wipe wager memory (meters, recall, log) and restart. Ends a RAM-error tilt.

    hand_pay_cents: the operator hand-pays the credit read from a memory in RAM error before it is
    cleared (it must equal that credit; the clear's record keeps the hand pay).
    """

    hand_pay_cents: int = 0


@dataclass(frozen=True)
class ChangeSetting:
    """Operator menu only: change one setting (egm.cabinet.settings.SETTINGS names them); the event log
    records the old and the new value, and wager memory keeps it across power cuts."""

    name: str
    value: int


@dataclass(frozen=True)
class SetDateTime:
    """Operator menu only: set the cabinet's date and time (UTC) to the minute; the event log records
    the old and the new date and time, and wager memory keeps it across power cuts and RAM clears."""

    year: int
    month: int
    day: int
    hour: int
    minute: int


@dataclass(frozen=True)
class SetBetLevels:
    """Operator menu only, between games: the bet levels (credits) one game offers the player, a
    subset of its pay table's bets_credits with at least one level; the event log records the old and
    the new levels, and wager memory keeps them across power cuts."""

    game_id: str
    levels: tuple[int, ...]


@dataclass(frozen=True)
class SetJurisdiction:
    """Operator menu only, with nothing owed to a player: the jurisdiction whose rules the cabinet
    follows, by file name in jurisdictions/; logged with the old and the new one, kept in wager
    memory across power cuts."""

    name: str


@dataclass(frozen=True)
class GameServerAnswered:
    """An event: the server answered `key` with an HTTP status and its JSON body."""

    key: str
    status: int
    body: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunRomCheck:
    """Operator menu only: verify the program and pay-table ROM now."""


@dataclass(frozen=True)
class Result:
    """The cabinet's answer to one event."""

    accepted: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.accepted


ACCEPTED = Result(True)

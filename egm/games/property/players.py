"""The parties at a Property table and what passes between them and the rules: the Bank, a seat's
cash and standing, the requests a seat answers, the trades it proposes, a machine seat's strategy, and
the refusal of an action the rules do not allow."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from egm.games.property.table import Table

BANK = -1


class Refused(Exception):
    """An action the rules do not allow now; nothing changed. The message is one sentence."""


class GameOver(Exception):
    """The short form's end: a seat went bankrupt."""


@dataclass(frozen=True)
class Request:
    """A decision a seat owes: "turn" (before a throw: roll, or act first), "jail" (a turn in Jail:
    roll for doubles, pay the fine or use a card), "buy" (an unowned title card landed on) or
    "auction" (a sealed bid for `lot` "property" at `space`, or a scarce "house" / "hotel")."""

    seat: int
    kind: str
    space: int = -1
    lot: str = "property"


@dataclass(frozen=True)
class Trade:
    """`seat` gives `give` and receives `get` from `other`; `cash` > 0 is paid by `seat` to `other`,
    < 0 received from it."""

    seat: int
    other: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    cash: int


class Strategy(Protocol):
    """What a machine seat decides (see egm.games.property.strategy)."""

    name: str

    def jail(self, table: Table, seat: int) -> str: ...
    def buy(self, table: Table, seat: int, space: int) -> bool: ...
    def bid(self, table: Table, seat: int, request: Request) -> int: ...
    def next_action(self, table: Table, seat: int) -> tuple[str, int] | None: ...
    def place_building(self, table: Table, seat: int, lot: str) -> int: ...
    def accept_trade(self, table: Table, seat: int, trade: Trade) -> bool: ...


Flow = Generator[Request, Any, Any]  # a part of the game that may ask the outside seat


@dataclass
class Seat:
    cash: int
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0  # turns already spent in Jail since the seat was sent there
    jail_cards: list[str] = field(default_factory=list)  # decks of the Get out of Jail Free cards held
    bankrupt: bool = False
    built_hotel: bool = False


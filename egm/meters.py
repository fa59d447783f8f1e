"""The cabinet's accounting meters, in integer cents (counts for the game and door meters).

Every meter has METER_DIGITS decimal digits and rolls over to zero past 10**METER_DIGITS - 1, as a
mechanical or SAS meter does. The accounting identity is therefore checked modulo the rollover:

    current_credits = bills_in + tickets_in + aft_in + coin_out
                      - coin_in - tickets_out - aft_out - handpaid_cancelled_credits

Meanings (the trade's, as SAS reports them):
  coin_in                     total staked at game start
  coin_out                    wins credited to the credit meter
  jackpot                     wins paid by hand (at or above the hand-pay limit), never credited
  handpaid_cancelled_credits  credits cashed out by hand pay (cash-out at or above the limit)
  cancelled_credits           all credits cashed out, by ticket or by hand pay
  bills_in                    notes stacked (also counted per denomination in bills_by_denomination)
  tickets_in / tickets_out    TITO tickets redeemed / printed
  aft_in / aft_out            cashable credits moved in / out by the host (SAS AFT)
  current_credits             the credit meter
  games_played / won / lost   a game counts as played at its start; won when it returns more than
                              its stake, lost otherwise (counted when it ends)
  door_opens, power_resets    counts
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

METER_DIGITS = 10
ROLLOVER = 10**METER_DIGITS

METER_NAMES = (
    "coin_in",
    "coin_out",
    "jackpot",
    "handpaid_cancelled_credits",
    "cancelled_credits",
    "bills_in",
    "tickets_in",
    "tickets_out",
    "aft_in",
    "aft_out",
    "current_credits",
    "games_played",
    "games_won",
    "games_lost",
    "door_opens",
    "power_resets",
)
GAME_METER_NAMES = ("coin_in", "coin_out", "games_played")


@dataclass
class Meters:
    """A set of meters. Change it only on a transaction's copy (see egm.memory)."""

    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(METER_NAMES, 0))
    bills_by_denomination: dict[str, int] = field(default_factory=dict)  # "500" -> notes stacked
    per_game: dict[str, dict[str, int]] = field(default_factory=dict)
    per_paytable: dict[str, dict[str, int]] = field(default_factory=dict)

    def __getitem__(self, name: str) -> int:
        return self.totals[name]

    def add(self, name: str, amount: int) -> None:
        """Advance a meter (or, for current_credits only, move it down) with rollover."""
        if name not in self.totals:
            raise KeyError(f"no meter named '{name}'")
        if amount < 0 and name != "current_credits":
            raise ValueError(f"meter '{name}' only counts up")
        if name == "current_credits":
            if self.totals[name] + amount < 0:
                raise ValueError("the credit meter cannot go below zero")
            self.totals[name] += amount
        else:
            self.totals[name] = (self.totals[name] + amount) % ROLLOVER

    def add_bill(self, amount_cents: int) -> None:
        self.add("bills_in", amount_cents)
        self.add("current_credits", amount_cents)
        key = str(amount_cents)
        self.bills_by_denomination[key] = (self.bills_by_denomination.get(key, 0) + 1) % ROLLOVER

    def add_game(self, game_id: str, paytable_id: str, name: str, amount: int) -> None:
        """A per-game and per-pay-table meter (coin_in, coin_out or games_played)."""
        if name not in GAME_METER_NAMES:
            raise KeyError(f"no per-game meter named '{name}'")
        for table, key in ((self.per_game, game_id), (self.per_paytable, paytable_id)):
            row = table.setdefault(key, dict.fromkeys(GAME_METER_NAMES, 0))
            row[name] = (row[name] + amount) % ROLLOVER

    def balance_error(self) -> int:
        """How far the credit meter is from the accounting identity (0 when it holds)."""
        t = self.totals
        expected = (
            t["bills_in"]
            + t["tickets_in"]
            + t["aft_in"]
            + t["coin_out"]
            - t["coin_in"]
            - t["tickets_out"]
            - t["aft_out"]
            - t["handpaid_cancelled_credits"]
        ) % ROLLOVER
        return (t["current_credits"] - expected) % ROLLOVER

    def copy(self) -> Meters:
        return copy.deepcopy(self)

    def to_record(self) -> dict[str, Any]:
        return {
            **self.totals,
            "bills_by_denomination": dict(self.bills_by_denomination),
            "per_game": copy.deepcopy(self.per_game),
            "per_paytable": copy.deepcopy(self.per_paytable),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Meters:
        totals = {name: int(record.get(name, 0)) for name in METER_NAMES}  # a meter added later reads 0
        return cls(
            totals=totals,
            bills_by_denomination={k: int(v) for k, v in record["bills_by_denomination"].items()},
            per_game={k: dict(v) for k, v in record["per_game"].items()},
            per_paytable={k: dict(v) for k, v in record["per_paytable"].items()},
        )

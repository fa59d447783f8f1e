"""The cabinet's accounting meters, in integer cents (counts for the game and door meters).

Every meter has METER_DIGITS decimal digits and rolls over to zero past 10**METER_DIGITS - 1, as a
mechanical or SAS meter does; the credit meter never rolls over (it cannot go past its digits or
below zero), and no single amount may reach 10**METER_DIGITS. The accounting identity

    current_credits = bills_in + tickets_in + aft_in + coin_out
                      - coin_in - tickets_out - aft_out - handpaid_cancelled_credits

holds modulo the rollover, and every transaction is checked exactly: the credit meter must move by
exactly what the accounting meters moved (`breach_since`), so no multiple of the rollover can slip
through. The side-bet meters are sub-meters (part of coin_in and of the wins) and outside the
identity; a transaction may not advance side_bet_in by more than coin_in.

Meanings (the trade's, as SAS reports them):
  coin_in                     total staked at game start
  coin_out                    wins credited to the credit meter
  side_bet_in                 the part of coin_in staked on side bets (Dragon Poker's pair bonus)
  side_bet_out                what side bets returned (their stake back included), counted when the
                              game settles: part of coin_out, or of jackpot when the game's whole
                              win locks up for a hand pay
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
    "side_bet_in",
    "side_bet_out",
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
CREDITS_IN = ("bills_in", "tickets_in", "aft_in", "coin_out")  # meters that add to the credit meter
CREDITS_OUT = ("coin_in", "tickets_out", "aft_out", "handpaid_cancelled_credits")  # meters that take from it


class MeterError(ValueError):
    """An amount that a meter cannot take (negative, too large for its digits); nothing is changed."""


def check_amount(amount: int, what: str) -> None:
    """Refuse an amount that is not a whole number of cents a meter can count."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise MeterError(f"{what} must be a whole number of cents, not {amount!r}")
    if not 0 <= amount < ROLLOVER:
        raise MeterError(f"{what} of {amount} does not fit the {METER_DIGITS}-digit meters")


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
            raise MeterError(f"meter '{name}' only counts up")
        check_amount(abs(amount), f"an amount for meter '{name}'")
        if name == "current_credits":
            if self.totals[name] + amount < 0:
                raise MeterError("the credit meter cannot go below zero")
            if self.totals[name] + amount >= ROLLOVER:
                raise MeterError(f"the credit meter cannot go past its {METER_DIGITS} digits")
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
        check_amount(amount, f"an amount for per-game meter '{name}'")
        for table, key in ((self.per_game, game_id), (self.per_paytable, paytable_id)):
            row = table.setdefault(key, dict.fromkeys(GAME_METER_NAMES, 0))
            row[name] = (row[name] + amount) % ROLLOVER

    def balance_error(self) -> int:
        """How far the credit meter is from the accounting identity (0 when it holds)."""
        t = self.totals
        expected = (sum(t[n] for n in CREDITS_IN) - sum(t[n] for n in CREDITS_OUT)) % ROLLOVER
        return (t["current_credits"] - expected) % ROLLOVER

    def breach_since(self, before: Meters) -> str:
        """Why the change from `before` to these meters breaks the accounting identity, or "".

        Exact, not modulo the rollover: each meter's advance is less than the rollover, and the
        credit meter must move by exactly the credits in minus the credits out.
        """
        for name, value in self.totals.items():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < ROLLOVER:
                return f"meter '{name}' would hold {value!r}, outside its {METER_DIGITS} digits"

        def advance(name: str) -> int:
            return (self.totals[name] - before.totals[name]) % ROLLOVER

        if advance("side_bet_in") > advance("coin_in"):
            return "the side-bet meter would take more than coin in: side bets are part of coin in"
        expected = sum(advance(n) for n in CREDITS_IN) - sum(advance(n) for n in CREDITS_OUT)
        moved = self.totals["current_credits"] - before.totals["current_credits"]
        if moved != expected:
            return (
                f"the credit meter would move by {moved} cents where the accounting meters move it by "
                f"{expected}: the accounting identity would break"
            )
        return ""

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

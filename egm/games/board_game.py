"""What the board games' `Game` classes share (Poker Grid, Poker Tiles, Prism Words, Property).

The customer (seat 0) plays against machine opponents. The opponents play the machine strategy the
pay table names (`[paytable] strategy`), one of the game's own `machine_strategies`; a pay table that
names another is refused when the game is built, so a cabinet never plays a strategy its RTP was not
certified for. The stake is the pay-table model's `stake_bets` bets, with no side bet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from egm.games.base import Game, Wager


class BoardGame(Game):
    """A `Game` against machine opponents on the pay table's machine strategy (`self.strategy`)."""

    machine_strategies: ClassVar[Mapping[str, Any]]  # strategy name -> the strategy the opponents play

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.rules = paytable.rules
        name = paytable.header.strategy
        if name not in self.machine_strategies:
            raise ValueError(
                f"pay table strategy '{name}' is not a {self.title} machine strategy; "
                f"use one of {sorted(self.machine_strategies)}"
            )
        self.strategy = self.machine_strategies[name]

    def default_wager(self, denom_cents: int) -> Wager:
        bet = self.paytable.header.default_bet_credits
        return Wager(bet_credits=bet, stake_credits=bet * self.rules.stake_bets, denom_cents=denom_cents)

    def opponents(self, asked: int | None) -> int:
        """The opponents of a new round: `asked`, or the pay table's `opponents_default` when None;
        ValueError unless 1 to `opponents_max`."""
        opponents = self.rules.opponents_default if asked is None else asked
        if not 1 <= opponents <= self.rules.opponents_max:
            raise ValueError(
                f"this pay table allows 1 to {self.rules.opponents_max} opponents, not {opponents}"
            )
        return opponents

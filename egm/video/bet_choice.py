"""The player's wager for the next game, chosen on the panel between games: BET ONE (the next bet level
the operator enabled among the pay table's, back to the smallest after the largest), MAX BET (the
largest enabled) and SIDE BET (the next amount on the game's side bet, within the pay table's limit,
back to none after the limit). The enabled levels (`levels`) are the cabinet's (`Cabinet.bet_levels`).

It is presentation state only: the wager it builds is checked by the cabinet against the pay table
when the game starts (`Game.refuse_wager`), before any money moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from egm.games.base import Game, Wager

SIDE_BET_STEPS = (1, 2, 5, 10, 20, 50, 100)  # the amounts SIDE BET steps through, up to the pay table's limit


def side_bet_amounts(limit: int) -> tuple[int, ...]:
    """The side-bet amounts offered, none first: the steps below the limit, then the limit.

    >>> side_bet_amounts(10), side_bet_amounts(3), side_bet_amounts(0)
    ((0, 1, 2, 5, 10), (0, 1, 2, 3), (0,))
    """
    if limit <= 0:
        return (0,)
    return (0, *(s for s in SIDE_BET_STEPS if s < limit), limit)


@dataclass
class BetChoice:
    """The bet and side bets chosen for one game (absent: the game's defaults)."""

    bet_credits: int | None = None
    side_bets: dict[str, int] = field(default_factory=dict)

    def bet(self, game: Game, denom_cents: int, levels: Sequence[int]) -> int:
        """The bet chosen while its level is enabled, else the game's opening bet."""
        if self.bet_credits in levels:
            return self.bet_credits
        return game.opening_bet(levels, denom_cents)

    def bet_one(self, game: Game, denom_cents: int, levels: Sequence[int]) -> int:
        bet = self.bet(game, denom_cents, levels)
        later = sorted(b for b in levels if b > bet)
        self.bet_credits = later[0] if later else min(levels)
        return self.bet_credits

    def max_bet(self, levels: Sequence[int]) -> int:
        self.bet_credits = max(levels)
        return self.bet_credits

    def side_bet_name(self, game: Game) -> str | None:
        """The game's side bet (the first its pay table offers), or None."""
        limits = game.wager_offer().side_bet_limits
        return sorted(limits)[0] if limits else None

    def next_side_bet(self, game: Game) -> int:
        name = self.side_bet_name(game)
        if name is None:
            return 0
        amounts = side_bet_amounts(game.wager_offer().side_bet_limits[name])
        current = self.side_bets.get(name, 0)
        later = [a for a in amounts if a > current]
        self.side_bets[name] = later[0] if later else 0
        return self.side_bets[name]

    def wager(self, game: Game, denom_cents: int, levels: Sequence[int]) -> Wager:
        """The wager to start the game with: the bet's wager (`Game.wager_for`) with the side bets
        chosen in place of the default ones, the stake recomputed by the pay table's offer."""
        base = game.wager_for(self.bet(game, denom_cents, levels), denom_cents)
        if not self.side_bets:
            return base
        sides = {**base.side_bets, **self.side_bets}
        sides = {name: credits for name, credits in sides.items() if credits}
        stake = game.wager_offer().stake_credits(base.bet_credits, sides)
        return Wager(base.bet_credits, stake, denom_cents, sides)

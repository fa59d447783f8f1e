"""The hand's money on the cabinet: the stake's return, the jackpot in cents, and the pair bonus.

The player bets B credits per point and stakes S points (S x B credits, taken at game start). One
point is worth B x denomination cents. After the hand is settled in points (`settlement.settle`):

* stake return = max(0, S + player_points) x B credits (the player never loses more than the stake);
* the running jackpot is kept in CENTS in wager memory (pool "dragon_jackpot"); every payment into it
  is a whole number of points, so of credits. A win takes every whole credit in the pool (a
  remainder smaller than one credit, possible only after play at another denomination, stays in the
  pool); the player is paid it as credits, a house win returns it to the house;
* the house reseeds the pool with `jackpot_seed_points` x B x denomination after a win, and the
  pool starts there when wager memory holds none;
* the player's and the dealer's payments into the pool are added in full: the house covers any part
  of the player's that the stake cap absorbed.

>>> from egm.games.dragon_poker.paytable import DragonPokerRules
>>> rules = DragonPokerRules.model_construct(stake_points=10, jackpot_seed_points=0)
>>> jackpot_payment(pool_before_cents=8000, won_by="P", paid_in_points=6, unit_cents=1000,
...                 denom_cents=1000, rules=rules)
(8, 6000)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from egm.games.base import Wager
from egm.games.dragon_poker.paytable import DragonPokerRules
from egm.games.dragon_poker.settlement import Ledger, Side, jackpot_award

POOL = "dragon_jackpot"


def starting_pool_cents(rules: DragonPokerRules, wager: Wager) -> int:
    """The pool when wager memory holds none yet: the seed, in cents at this bet."""
    return rules.jackpot_seed_points * wager.bet_credits * wager.denom_cents


def jackpot_payment(pool_before_cents: int, won_by: str, paid_in_points: int, unit_cents: int,
                    denom_cents: int, rules: DragonPokerRules) -> tuple[int, int]:
    """(jackpot credits paid to the player, pool after in cents)."""
    won = won_by in (Side.PLAYER, Side.HOUSE)
    prize_cents, pool_after_cents = jackpot_award(
        pool_before_cents, won, paid_in_points * unit_cents, rules.jackpot_seed_points * unit_cents,
        whole=denom_cents,
    )
    return (prize_cents // denom_cents if won_by == Side.PLAYER else 0), pool_after_cents


@dataclass(frozen=True)
class Payout:
    """What the cabinet credits and commits for one hand."""

    stake_return_credits: int
    jackpot_credits: int
    pair_bonus_credits: int
    pool_before_cents: int
    pool_after_cents: int

    @property
    def win_credits(self) -> int:
        return self.stake_return_credits + self.jackpot_credits + self.pair_bonus_credits

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "win_credits": self.win_credits}


def cabinet_payout(ledger: Ledger, wager: Wager, rules: DragonPokerRules, pool_before_cents: int,
                   pair_bonus_credits: int) -> Payout:
    """Turn a settled hand into credits and the new pool (see the module doc)."""
    unit_cents = wager.bet_credits * wager.denom_cents
    jackpot_credits, pool_after_cents = jackpot_payment(
        pool_before_cents, ledger.jackpot_won_by, ledger.player_to_jackpot + ledger.house_to_jackpot,
        unit_cents, wager.denom_cents, rules,
    )
    return Payout(
        stake_return_credits=max(0, rules.stake_points + ledger.player_points) * wager.bet_credits,
        jackpot_credits=jackpot_credits,
        pair_bonus_credits=pair_bonus_credits,
        pool_before_cents=pool_before_cents,
        pool_after_cents=pool_after_cents,
    )

"""The `[game]` table of a Dragon Poker pay table: `DragonPokerRules`.

The pay-table ROM checks a pay table's `[game]` table against this model (strict types, unknown keys
forbidden, frozen). A pay table that could not settle every hand fails here with a sentence that names
the key: every row must give points for every hand rank that row can hold (0 for no bonus), and the
pair-bonus table must price every two-card hand.

Points are the game's unit: the player bets B credits per point and stakes `stake_points` points.

>>> WinPoints(two_rows=2, three_rows=3).for_rows(3)
3
>>> BonusPoints(front={"pair": 0}, middle={}, back={})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for BonusPoints
  Value error, bonus_points.front has no points for high_card, three_of_a_kind; ...
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from egm.config import Strict
from egm.games.bounds import MAX_BET_CREDITS, MAX_POINTS, Points
from egm.poker import Category

ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}

# The hand ranks each row can hold: a 3-card front ranks only as high card, pair or three of a kind.
ROW_CATEGORIES: dict[str, tuple[Category, ...]] = {
    "front": (Category.HIGH_CARD, Category.PAIR, Category.THREE_OF_A_KIND),
    "middle": tuple(Category),
    "back": tuple(Category),
}

PAIR_BONUS = "pair_bonus"  # the side bet's name in a wager and in the pay table

# The two-card hands of the pair bonus, best first (a hand is named by the first that fits).
PAIR_BONUS_HANDS = ("two_jokers", "natural_aces", "natural_pair", "joker_pair")


def rank_name(category: Category) -> str:
    """The pay table's name for a hand rank.

    >>> rank_name(Category.FOUR_OF_A_KIND)
    'four_of_a_kind'
    """
    return category.name.lower()


def _exactly(table: dict[str, int], names: list[str], where: str, what: str) -> None:
    missing = [n for n in names if n not in table]
    unknown = [n for n in table if n not in names]
    if missing:
        raise ValueError(f"{where} has no points for {', '.join(missing)}; "
                         f"every {what} must be listed (0 for no award)")
    if unknown:
        raise ValueError(f"{where} names {', '.join(unknown)}, which is not one of {', '.join(names)}")


class WinPoints(Strict):
    """Points for winning two or three of the three rows."""

    two_rows: int = Field(ge=1, le=MAX_POINTS)
    three_rows: int = Field(ge=1, le=MAX_POINTS)

    @model_validator(mode="after")
    def _sweep_pays_at_least_two_rows(self) -> WinPoints:
        if self.three_rows < self.two_rows:
            raise ValueError("win_points.three_rows must be at least win_points.two_rows")
        return self

    def for_rows(self, rows_won: int) -> int:
        """Points for a side that won `rows_won` (2 or 3) rows."""
        if rows_won not in (2, 3):
            raise ValueError("a side wins the hand with 2 or 3 rows")
        return self.two_rows if rows_won == 2 else self.three_rows


class BonusPoints(Strict):
    """Bonus points by row and hand rank, earned by whoever holds the hand (player, dealer or Dragon)."""

    front: dict[str, Points]
    middle: dict[str, Points]
    back: dict[str, Points]

    @model_validator(mode="after")
    def _every_rank_priced(self) -> BonusPoints:
        for row in ROWS:
            names = [rank_name(c) for c in ROW_CATEGORIES[row]]
            _exactly(getattr(self, row), names, f"bonus_points.{row}", "hand rank the row can hold")
        return self

    def points(self, row: str, category: Category) -> int:
        return getattr(self, row)[rank_name(category)]


class PairBonus(Strict):
    """The optional side bet on the 2 bonus cards: bet limits and pays (to 1) per two-card hand."""

    max_bet_credits: int = Field(ge=1, le=MAX_BET_CREDITS)
    default_bet_credits: int = Field(ge=0, le=MAX_BET_CREDITS)
    pays_to_one: dict[str, Points]

    @field_validator("pays_to_one")
    @classmethod
    def _every_hand_priced(cls, table: dict[str, int]) -> dict[str, int]:
        _exactly(table, list(PAIR_BONUS_HANDS), "pair_bonus.pays_to_one", "two-card hand")
        return table

    @model_validator(mode="after")
    def _default_within_limit(self) -> PairBonus:
        if self.default_bet_credits > self.max_bet_credits:
            raise ValueError("pair_bonus.default_bet_credits must not exceed pair_bonus.max_bet_credits")
        return self


class DragonPokerRules(Strict):
    """Everything a Dragon Poker hand needs to settle, as the pay table's `[game]` table declares it.

    stake_points: S, the points staked at game start; the game returns max(0, S + net points) x B.
    jackpot_seed_points: the running jackpot's value when it starts and after it is won (house money).
    split_points: what the player pays the house when player, dealer and Dragon win one row each.
    """

    stake_points: int = Field(ge=1, le=MAX_POINTS)
    jackpot_seed_points: int = Field(ge=0, le=MAX_POINTS)
    split_points: int = Field(ge=1, le=MAX_POINTS)
    win_points: WinPoints
    bonus_points: BonusPoints
    pair_bonus: PairBonus

    def largest_win_credits(self, bet_credits: int) -> int:
        """An upper bound of one hand's return before any jackpot: the stake back, a sweep, every
        row's top bonus, and the top pair bonus at its largest bet (the pay-table ROM checks that
        it fits the meters)."""
        bonuses = sum(max(getattr(self.bonus_points, row).values()) for row in ROWS)
        hand = (self.stake_points + self.win_points.three_rows + bonuses) * bet_credits
        side = self.pair_bonus.max_bet_credits * (max(self.pair_bonus.pays_to_one.values()) + 1)
        return hand + side

    @property
    def stake_bets(self) -> int:
        """The stake is S bets of B credits (the wager offer, `egm.games.base.WagerOffer`)."""
        return self.stake_points

    @property
    def side_bet_limits(self) -> dict[str, int]:
        return {PAIR_BONUS: self.pair_bonus.max_bet_credits}


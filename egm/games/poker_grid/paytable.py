"""The `[game]` table of a Poker Grid pay table: the board, the seats, and what the result pays.

Money is counted in units: the customer bets B credits per unit and the stake is `stake_units`
units (B x stake_units credits, taken at game start). Every pay is a whole number of units, so a win
is always a whole number of credits. The result pays by margin (the customer's score minus the best
opponent's score): the `result_pays` tier with the highest `min_margin` the margin reaches (a
negative `min_margin` pays on a loss by at most that much); a margin below every tier pays nothing.
On top, each premium hand the customer makes pays its `hand_awards` units, once per placement.

>>> rules = PokerGridRules.model_validate(EXAMPLE)
>>> [rules.result_units(m) for m in (-9, -8, 0, 1, 5, 6, 30)]
[0, 4, 10, 16, 16, 18, 20]
>>> from pydantic import ValidationError
>>> try:
...     PokerGridRules.model_validate({**EXAMPLE, "wild_spaces": [[3, 2], [5, 5]]})
... except ValidationError as exc:
...     print(exc.errors()[0]["msg"])
Value error, square [3, 2] is both a starter space and a wild space; give each space one role
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from egm.cards import DECK_SIZE
from egm.config import Strict
from egm.games.board_game import StakeInUnits
from egm.games.bounds import MAX_TIERS, MAX_UNITS, Units
from egm.games.margin import MarginTier, check_tiers, tier_units

Square = Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=2, max_length=2)]

EXAMPLE: dict[str, Any] = {
    "rows": 7,
    "cols": 8,
    "starter_spaces": [[3, 2], [3, 5]],
    "wild_spaces": [[1, 4], [5, 3]],
    "hand_size": 5,
    "opponents_default": 1,
    "opponents_max": 1,
    "stake_units": 10,
    "result_pays": [
        {"min_margin": -8, "pays": 4},
        {"min_margin": 0, "pays": 10},
        {"min_margin": 1, "pays": 16},
        {"min_margin": 6, "pays": 18},
        {"min_margin": 25, "pays": 20},
    ],
    "hand_awards": {"straight_flush": 20, "royal_flush": 50, "five_of_a_kind": 1},
}


class HandAwards(Strict):
    """Units for each premium hand the customer makes (per placement)."""

    four_of_a_kind: Units = 0
    straight_flush: Units = 0
    royal_flush: Units = 0
    five_of_a_kind: Units = 0

    def for_hand(self, hand: str) -> int:
        """The award for a hand name ("pair" .. "five_of_a_kind"); 0 for a hand with no award."""
        return getattr(self, hand) if hand in type(self).model_fields else 0


class PokerGridRules(StakeInUnits, Strict):
    """Board geometry, seats and pays. Rows and columns are numbered from 0, top left.

    A pay table's pays hold for one opponent count (`opponents_default`, with `opponents_max` equal to
    it): the best opponent's score rises with every seat, so each count is certified with pays of its
    own, in a pay table of its own (one certificate, one RTP each)."""

    rows: int = Field(ge=1, le=25)
    cols: int = Field(ge=1, le=25)
    starter_spaces: list[Square] = Field(min_length=2, max_length=2)
    wild_spaces: list[Square] = Field(min_length=2, max_length=2)
    hand_size: int = Field(default=5, ge=1, le=10)
    opponents_default: int = Field(default=1, ge=1, le=3)
    opponents_max: int = Field(default=1, ge=1, le=3)
    stake_units: int = Field(ge=1, le=MAX_UNITS)
    result_pays: list[MarginTier] = Field(min_length=1, max_length=MAX_TIERS)
    hand_awards: HandAwards = HandAwards()

    @model_validator(mode="after")
    def _check(self) -> PokerGridRules:
        spaces = self.rows * self.cols
        wilds = len(self.wild_spaces)
        if spaces - wilds != DECK_SIZE:
            raise ValueError(
                f"the board has {spaces - wilds} card spaces but every one of the {DECK_SIZE} cards is "
                "played onto its own space; make rows x cols minus the wild spaces equal 54"
            )
        seen: dict[tuple[int, int], str] = {}
        for role, squares in (("starter", self.starter_spaces), ("wild", self.wild_spaces)):
            for row, col in squares:
                if row >= self.rows or col >= self.cols:
                    raise ValueError(
                        f"{role} space [{row}, {col}] is off the {self.rows} x {self.cols} board"
                    )
                if (row, col) in seen:
                    other = seen[(row, col)]
                    raise ValueError(
                        f"square [{row}, {col}] is both a {other} space and a {role} space; "
                        "give each space one role"
                    )
                seen[(row, col)] = role
        (row_a, col_a), (row_b, col_b) = self.wild_spaces
        if sorted((abs(row_a - row_b), abs(col_a - col_b))) == [0, 2]:
            raise ValueError(
                "the wild spaces are two apart in one line, so one card could join both in one hand; "
                "move them further apart"
            )
        if self.opponents_default > self.opponents_max:
            raise ValueError("opponents_default exceeds opponents_max; lower it or raise the maximum")
        if self.opponents_max != self.opponents_default:
            certified = self.opponents_default
            others = ", ".join(str(n) for n in range(certified + 1, self.opponents_max + 1))
            raise ValueError(
                f"the pays are certified for {certified} opponent(s) only, so this pay table has "
                f"no pays for {others} opponents; make opponents_max {certified}, and give each "
                "other opponent count a pay table of its own (e.g. paytables/poker-grid-3.toml)"
            )
        seats = 1 + self.opponents_max
        if seats * self.hand_size + len(self.starter_spaces) > DECK_SIZE:
            raise ValueError(
                f"{seats} seats of {self.hand_size} cards and the starters need more than 54 cards; "
                "lower hand_size or opponents_max"
            )
        check_tiers(self.result_pays, "result_pays")
        self._check_connected()
        return self

    def _check_connected(self) -> None:
        """Every card space must be reachable from a starter through card spaces (wild spaces are not
        cards, so a card may never be placed next to a wild space alone): then a seat always has a
        legal square while any card space is empty."""
        wild = {tuple(square) for square in self.wild_spaces}
        frontier = [tuple(square) for square in self.starter_spaces]
        reached = set(frontier)
        while frontier:
            row, col = frontier.pop()
            for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= nxt[0] < self.rows and 0 <= nxt[1] < self.cols and nxt not in wild | reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        if len(reached) != self.rows * self.cols - len(wild):
            raise ValueError(
                "some card spaces can only be reached through a wild space; move the wild spaces so "
                "that every card space connects to a starter space through card spaces"
            )

    def largest_win_credits(self, bet_credits: int) -> int:
        """An upper bound of one game's return: the top result pay, and the top hand award for every
        square of the board (the pay-table ROM checks that it fits the meters)."""
        top_award = max(self.hand_awards.model_dump().values())
        return (max(t.pays for t in self.result_pays) + self.rows * self.cols * top_award) * bet_credits

    def won_units(self, margin: int, hands: list[str]) -> int:
        """Units a game pays: its result by `margin`, plus the award of each of the customer's `hands`."""
        return self.result_units(margin) + sum(self.hand_awards.for_hand(hand) for hand in hands)

    def result_units(self, margin: int) -> int:
        """Units the result pays: margin = customer score - best opponent score."""
        return tier_units(self.result_pays, margin)

"""The `[game]` table of a Poker Tiles pay table: the board, the seats, the short form, the hand values
and what the result pays.

The board is `rows` x `cols` squares, numbered from 0 at the top left. Three kinds of square are marked:
the starting area (`start_area`: its first and last square, five squares of one row, between the two
end markers drawn just outside it), its STARTING ZONE `centre`, and one square for each of the 52
cards (`card_squares`, card -> [row, col]; the pay table's pattern).

Money is counted in units: the customer bets B credits per unit and the stake is `stake_units` units
(B x stake_units credits, taken at game start). The result pays by margin, the customer's final score
minus the best opponent's (so a positive margin is first place): the `result_pays` tier with the
highest `min_margin` the margin reaches; below every tier, nothing. On top, every line the customer
scores with a hand listed in `hand_awards` pays its units.

>>> rules = PokerTilesRules.model_validate(EXAMPLE)
>>> [rules.result_units(m) for m in (-40, -5, 0, 3, 30)]
[16, 17, 18, 19, 20]
>>> rules.start_squares()[0], rules.centre
([6, 4], [6, 6])
>>> from pydantic import ValidationError
>>> try:
...     PokerTilesRules.model_validate({**EXAMPLE, "centre": [5, 6]})
... except ValidationError as exc:
...     print(exc.errors()[0]["msg"])
Value error, the centre [5, 6] is not in the starting area; put the STARTING ZONE square in it
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from egm.cards import RANKS, SUITS, Card
from egm.config import Strict
from egm.games.board_game import StakeInUnits
from egm.games.bounds import MAX_POINTS, MAX_TIERS, MAX_UNITS, Units
from egm.games.margin import MarginTier, check_tiers, tier_units
from egm.games.poker_tiles.hands import HANDS, MAX_LINE

Square = Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=2, max_length=2)]


def example_card_squares() -> dict[str, list[int]]:
    """The shipped board's pattern on a 13 x 13 board: the card of rank r (deuce 0 .. ace 12) and suit
    s (clubs 0 .. spades 3) stands at row (r + s + 9) mod 13, column (r + 3s + 6) mod 13. Each suit
    runs down its own diagonals, no two card squares touch, and J♦ and T♥ lie in the starting area.
    `paytables/poker-tiles.toml` lists every square."""
    return {
        RANKS[rank] + SUITS[suit]: [(rank + suit + 9) % 13, (rank + 3 * suit + 6) % 13]
        for suit in range(4)
        for rank in range(13)
    }


EXAMPLE: dict[str, Any] = {
    "rows": 13,
    "cols": 13,
    "start_area": [[6, 4], [6, 8]],
    "centre": [6, 6],
    "card_squares": example_card_squares(),
    "opponents_default": 1,
    "opponents_max": 3,
    "rounds": 10,
    "stake_units": 20,
    "hand_values": {name: i + 1 for i, name in enumerate(HANDS)},
    "result_pays": [
        {"min_margin": -1000, "pays": 16},
        {"min_margin": -20, "pays": 17},
        {"min_margin": 0, "pays": 18},
        {"min_margin": 1, "pays": 19},
        {"min_margin": 21, "pays": 20},
    ],
    "hand_awards": {"four_of_a_kind": 1, "straight_flush": 3, "royal_flush": 8, "five_of_a_kind": 1},
}


class HandValues(Strict):
    """The base points of each hand (the seed's legend 22); a scored line earns base x multiplier."""

    pair: int = Field(ge=1, le=MAX_POINTS)
    two_pair: int = Field(ge=1, le=MAX_POINTS)
    three_of_a_kind: int = Field(ge=1, le=MAX_POINTS)
    straight: int = Field(ge=1, le=MAX_POINTS)
    flush: int = Field(ge=1, le=MAX_POINTS)
    full_house: int = Field(ge=1, le=MAX_POINTS)
    four_of_a_kind: int = Field(ge=1, le=MAX_POINTS)
    straight_flush: int = Field(ge=1, le=MAX_POINTS)
    royal_flush: int = Field(ge=1, le=MAX_POINTS)
    five_of_a_kind: int = Field(ge=1, le=MAX_POINTS)

    def by_index(self) -> list[int]:
        """The values in hand-index order (egm.games.poker_tiles.hands.HANDS)."""
        return [getattr(self, name) for name in HANDS]


class PokerTilesRules(StakeInUnits, Strict):
    """Board, seats, short form and pays."""

    rows: int = Field(ge=5, le=25)
    cols: int = Field(ge=5, le=25)
    start_area: list[Square] = Field(min_length=2, max_length=2)
    centre: Square
    card_squares: dict[str, Square]
    opponents_default: int = Field(default=1, ge=1, le=3)
    opponents_max: int = Field(default=1, ge=1, le=3)
    rounds: int = Field(ge=1, le=100)  # the short form: the game ends after this many rounds of turns
    stake_units: int = Field(ge=1, le=MAX_UNITS)
    hand_values: HandValues
    result_pays: list[MarginTier] = Field(min_length=1, max_length=MAX_TIERS)
    hand_awards: dict[str, Units] = {}

    @model_validator(mode="after")
    def _check(self) -> PokerTilesRules:
        (row, first), (last_row, last) = self.start_area
        if row != last_row or last - first + 1 != MAX_LINE:
            raise ValueError(
                f"the starting area {self.start_area} must be {MAX_LINE} squares of one row, given by its "
                "first and last square"
            )
        if row >= self.rows or first < 1 or last > self.cols - 2:
            raise ValueError(
                "the starting area and its two end markers must lie on the board; move it inwards"
            )
        if self.centre not in self.start_squares():
            raise ValueError(f"the centre {self.centre} is not in the starting area; "
                             "put the STARTING ZONE square in it")
        self._check_card_squares()
        if self.opponents_default > self.opponents_max:
            raise ValueError("opponents_default exceeds opponents_max; lower it or raise the maximum")
        check_tiers(self.result_pays, "result_pays")
        unknown = sorted(set(self.hand_awards) - set(HANDS))
        if unknown:
            raise ValueError(f"hand_awards names {unknown}, which are not hands; "
                             f"use names from {list(HANDS)}")
        return self

    def _check_card_squares(self) -> None:
        expected = {str(Card(i)) for i in range(52)}
        if set(self.card_squares) != expected:
            missing = sorted(expected - set(self.card_squares))
            extra = sorted(set(self.card_squares) - expected)
            raise ValueError(f"card_squares must mark each of the 52 cards once (missing {missing}, "
                             f"not cards {extra})")
        seen: dict[tuple[int, int], str] = {}
        for card, (row, col) in self.card_squares.items():
            if row >= self.rows or col >= self.cols:
                raise ValueError(f"the square of {card}, [{row}, {col}], is off the "
                                 f"{self.rows} x {self.cols} board")
            if (row, col) in seen:
                raise ValueError(f"{seen[(row, col)]} and {card} are marked on the same square "
                                 f"[{row}, {col}]; give each card its own square")
            if [row, col] == self.centre:
                raise ValueError(f"{card} is marked on the STARTING ZONE centre; keep the centre unmarked")
            seen[(row, col)] = card

    def start_squares(self) -> list[list[int]]:
        (row, first), (_, last) = self.start_area
        return [[row, col] for col in range(first, last + 1)]

    def result_units(self, margin: int) -> int:
        """Units the result pays: margin = customer score - best opponent score."""
        return tier_units(self.result_pays, margin)

    def award_units(self, hand: str) -> int:
        return self.hand_awards.get(hand, 0)

"""The `[game]` table of a Prism Words pay table: board, assets, seats, short form and pays.

Money is counted in units: the customer bets B credits per unit and the stake is `stake_units` units
(B x stake_units credits, taken at game start); it buys one game. The result pays by margin (the
customer's final score minus the best opponent's): the `result_pays` tier with the highest
`min_margin` the margin reaches; a margin below every tier pays nothing. On top, `awards` pays units
for each of the customer's plays that earns the 6+ letter pattern bonus and for each depleted rack.

The pay table names its ROM assets (the block set and the lexicon) by path, relative to the pay
table's own folder, and by SHA-256; the game refuses to start with a file that hashes otherwise.

>>> rules = PrismWordsRules.model_validate(EXAMPLE)
>>> [rules.result_units(m) for m in (-500, -40, 0, 1, 60)]
[7, 8, 9, 11, 12]
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from egm.config import Strict
from egm.games.board_game import StakeInUnits
from egm.games.bounds import MAX_TIERS, MAX_UNITS, Units
from egm.games.margin import MarginTier, check_tiers, tier_units

Square = Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=2, max_length=2)]
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]

EXAMPLE: dict[str, Any] = {
    "rows": 15,
    "cols": 15,
    "centre": [7, 7],
    "blocks": "assets/prism-words-blocks.txt",
    "blocks_sha256": "0" * 64,
    "lexicon": "assets/enable2k.txt.gz",
    "lexicon_sha256": "0" * 64,
    "scoring": "rules",
    "turns_per_seat": 10,
    "opponents_default": 1,
    "opponents_max": 1,
    "stake_units": 10,
    "result_pays": [
        {"min_margin": -1000, "pays": 7},
        {"min_margin": -40, "pays": 8},
        {"min_margin": 0, "pays": 9},
        {"min_margin": 1, "pays": 11},
        {"min_margin": 50, "pays": 12},
    ],
    "awards": {"pattern_bonus": 1, "depleted_rack": 2},
}


class Awards(Strict):
    """Units paid for each of the customer's plays that earns the pattern bonus (a 6+ letter word of
    all boxed or all unboxed faces) and for each play of all 6 rack blocks."""

    pattern_bonus: Units = 0
    depleted_rack: Units = 0

    def for_award(self, name: str) -> int:
        return int(getattr(self, name))


class PrismWordsRules(StakeInUnits, Strict):
    """Board, assets, seats, short form and pays. Rows and columns are numbered from 0, top left."""

    rows: int = Field(ge=5, le=21)
    cols: int = Field(ge=5, le=21)
    centre: Square
    blocks: str = Field(min_length=1)
    blocks_sha256: Sha256
    lexicon: str = Field(min_length=1)
    lexicon_sha256: Sha256
    # "rules": the four scoring phases as stated (6+ letters doubled); "example": the seed's worked
    # example, which comes out only without the doubling (docs/prism-words.md).
    scoring: Literal["rules", "example"] = "rules"
    rack_size: Literal[6] = 6
    first_word_min: int = Field(default=4, ge=2, le=6)
    # The short form: the game ends once every seat has taken this many turns (0: the full game).
    turns_per_seat: int = Field(default=0, ge=0, le=1000)
    opponents_default: int = Field(default=1, ge=1, le=3)
    opponents_max: int = Field(default=1, ge=1, le=3)
    stake_units: int = Field(ge=1, le=MAX_UNITS)
    result_pays: list[MarginTier] = Field(min_length=1, max_length=MAX_TIERS)
    awards: Awards = Awards()

    @model_validator(mode="after")
    def _check(self) -> PrismWordsRules:
        row, col = self.centre
        if row >= self.rows or col >= self.cols:
            raise ValueError(f"the centre pocket [{row}, {col}] is off the {self.rows} x {self.cols} grid")
        if self.opponents_default > self.opponents_max:
            raise ValueError("opponents_default exceeds opponents_max; lower it or raise the maximum")
        check_tiers(self.result_pays, "result_pays")
        return self

    def result_units(self, margin: int) -> int:
        """Units the result pays: margin = customer score - best opponent score."""
        return tier_units(self.result_pays, margin)

    def units(self, margin: int, awards: list[str]) -> int:
        """Units a game pays: the result's tier plus each award earned that the pay table pays."""
        return self.result_units(margin) + sum(self.awards.for_award(award) for award in awards)

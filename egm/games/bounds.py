"""The bounds every number in a pay table is checked against (issue 27, defect 7).

A pay table is signed firmware, but a signature says who approved it, not that it is sane: a hand
value of 2^70 overflowed the board games' machine integers, and a stake of 2^70 units could never be
covered, so autoplay fed notes for ever. So each number in each game's pay-table model carries one
of these bounds, wide enough for any pay table a lab would certify, narrow enough that every sum the
engines make stays a machine integer and every stake and win fits the 10-digit meters (the ROM's
`largest_win_credits` check then bounds the product).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MAX_UNITS = 10_000  # a stake, a pay or an award, in units (bets of B credits)
MAX_POINTS = 1_000_000  # points and a board game's play money (a hand value, a rent, a starting cash)
MAX_MARGIN = 100_000_000  # a margin tier's min_margin, either side of 0 (scores or net worth)
MAX_BET_CREDITS = 10_000  # a bet or a side bet, in credits
MAX_TIERS = 100  # margin tiers in one pay table

Units = Annotated[int, Field(ge=0, le=MAX_UNITS)]
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]

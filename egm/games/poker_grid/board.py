"""The Poker Grid board: its squares, and which squares a card may go on.

The geometry is the shared `egm.games.grid.Grid`; squares are numbered row-major from the top left
(square = row * cols + col). A board position is a list with one entry per square: a card index (0..53),
`EMPTY`, or `WILD` for a wild space (no card is ever placed on a wild space).

Interpretation (docs/poker-grid.md): a wild space is not a card, so a square next to a wild space and
no card is not a legal square; the pay table is checked so every card space still connects to a starter.

>>> from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
>>> layout = Layout.from_rules(PokerGridRules.model_validate(EXAMPLE))
>>> position = layout.empty_position()
>>> position[layout.square(3, 2)] = 0; position[layout.square(3, 5)] = 51
>>> [layout.row_col(s) for s in layout.legal_squares(position)][:4]
[(2, 2), (2, 5), (3, 1), (3, 3)]
>>> layout.row_col(layout.wild_squares[0])
(1, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from egm.games.grid import LINES, Grid
from egm.games.poker_grid.paytable import PokerGridRules

__all__ = ["EMPTY", "LINES", "MAX_HAND", "WILD", "Layout"]

EMPTY = -1
WILD = -2
MAX_HAND = 5  # the placed card and up to 4 cards next to it in a straight line


@dataclass(frozen=True)
class Layout(Grid):
    """The fixed geometry of one pay table's board: the shared grid plus its starter and wild squares."""

    starter_squares: tuple[int, ...]
    wild_squares: tuple[int, ...]

    @classmethod
    def from_rules(cls, rules: PokerGridRules) -> Layout:
        def squares(pairs: list[list[int]]) -> tuple[int, ...]:
            return tuple(row * rules.cols + col for row, col in pairs)

        return cls(rules.rows, rules.cols, squares(rules.starter_spaces), squares(rules.wild_spaces))

    def empty_position(self) -> list[int]:
        """A board with nothing placed: card spaces EMPTY, wild spaces WILD."""
        position = [EMPTY] * self.size
        for square in self.wild_squares:
            position[square] = WILD
        return position

    def legal_squares(self, position: Sequence[int]) -> list[int]:
        """Empty card spaces next to a card already on the board, in square order."""
        return [
            square
            for square, held in enumerate(position)
            if held == EMPTY and any(position[n] >= 0 for n in self.neighbours(square))
        ]

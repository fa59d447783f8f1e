"""The Poker Grid board: its squares, which squares a card may go on, and the lines through a square.

Squares are numbered row-major from the top left (square = row * cols + col). A board position is a
list with one entry per square: a card index (0..53), `EMPTY`, or `WILD` for a wild space (no card is
ever placed on a wild space).

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

from egm.games.poker_grid.paytable import PokerGridRules

EMPTY = -1
WILD = -2
MAX_HAND = 5  # the placed card and up to 4 cards next to it in a straight line
LINES = ("row", "col")


@dataclass(frozen=True)
class Layout:
    """The fixed geometry of one pay table's board."""

    rows: int
    cols: int
    starter_squares: tuple[int, ...]
    wild_squares: tuple[int, ...]

    @classmethod
    def from_rules(cls, rules: PokerGridRules) -> Layout:
        def squares(pairs: list[list[int]]) -> tuple[int, ...]:
            return tuple(row * rules.cols + col for row, col in pairs)

        return cls(rules.rows, rules.cols, squares(rules.starter_spaces), squares(rules.wild_spaces))

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def square(self, row: int, col: int) -> int:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"square ({row}, {col}) is off the {self.rows} x {self.cols} board")
        return row * self.cols + col

    def row_col(self, square: int) -> tuple[int, int]:
        return divmod(square, self.cols)

    def empty_position(self) -> list[int]:
        """A board with nothing placed: card spaces EMPTY, wild spaces WILD."""
        position = [EMPTY] * self.size
        for square in self.wild_squares:
            position[square] = WILD
        return position

    def neighbours(self, square: int) -> list[int]:
        """The squares side by side or end to end with `square` (not diagonal)."""
        row, col = divmod(square, self.cols)
        out = []
        if row > 0:
            out.append(square - self.cols)
        if col > 0:
            out.append(square - 1)
        if col < self.cols - 1:
            out.append(square + 1)
        if row < self.rows - 1:
            out.append(square + self.cols)
        return out

    def legal_squares(self, position: Sequence[int]) -> list[int]:
        """Empty card spaces next to a card already on the board, in square order."""
        return [
            square
            for square, held in enumerate(position)
            if held == EMPTY and any(position[n] >= 0 for n in self.neighbours(square))
        ]

    def arms(self, position: Sequence[int], square: int, line: str) -> tuple[list[int], list[int]]:
        """The squares that can join a hand with a card placed on `square`, along `line`: going back
        (left or up) and forward (right or down), nearest first, at most 4 each way.

        An arm runs over cards and stops at an empty square or the board's edge. A wild space joins
        only when it is right next to `square` (a wild space is wild for the card played next to it),
        and the arm may run on past it; a wild space further out ends the arm.
        """
        row = square // self.cols
        if line == "row":
            back = range(square - 1, row * self.cols - 1, -1)
            forward = range(square + 1, (row + 1) * self.cols)
        else:
            back = range(square - self.cols, -1, -self.cols)
            forward = range(square + self.cols, self.size, self.cols)
        return self._arm(position, back), self._arm(position, forward)

    @staticmethod
    def _arm(position: Sequence[int], squares: range) -> list[int]:
        arm: list[int] = []
        for square in squares:
            held = position[square]
            if held == EMPTY or (held == WILD and arm) or len(arm) == MAX_HAND - 1:
                break
            arm.append(square)
        return arm

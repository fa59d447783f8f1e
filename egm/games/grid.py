"""Grid geometry for the board games (Poker Grid, Poker Tiles, Prism Words): squares numbered
row-major from the top left (square = row * cols + col), the squares next to a square, and the squares
along a row or a column from it.

>>> grid = Grid(7, 8)
>>> grid.square(3, 2), grid.row_col(26), grid.size
(26, (3, 2), 56)
>>> grid.neighbours(0), grid.neighbours(26)
([1, 8], [18, 25, 27, 34])
>>> [list(squares)[:3] for squares in grid.line(26, "row")], [list(s)[:2] for s in grid.line(26, "col")]
([[25, 24], [27, 28, 29]], [[18, 10], [34, 42]])
>>> grid.square(7, 0)
Traceback (most recent call last):
...
ValueError: The square at row 8, column 1 is off the 7 x 8 board.
>>> square_name(0, 3)
'row 1, column 4'
"""

from __future__ import annotations

from dataclasses import dataclass

LINES = ("row", "col")


def square_name(row: int, col: int) -> str:
    """A square as a player reads it, counted from 1 (row 1 the top, column 1 the left): the words the
    browser tables name their squares with (egm/server/web/static/board.js)."""
    return f"row {row + 1}, column {col + 1}"


@dataclass(frozen=True)
class Grid:
    """A rectangular board of `rows` x `cols` squares."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def contains(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def square(self, row: int, col: int) -> int:
        """The square at (row, col); ValueError (naming the board) when it is off the board."""
        if not self.contains(row, col):
            raise ValueError(f"The square at {square_name(row, col)} is off the {self.rows} x {self.cols} "
                             "board.")
        return row * self.cols + col

    def row_col(self, square: int) -> tuple[int, int]:
        return divmod(square, self.cols)

    def neighbours(self, square: int) -> list[int]:
        """The squares side by side or end to end with `square` (not diagonal), in square order."""
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

    def line(self, square: int, line: str) -> tuple[range, range]:
        """The squares along `line` ("row" or "col") from `square`: going back (left or up) and
        forward (right or down), nearest first, to the board's edge."""
        if line == "row":
            row = square // self.cols
            return range(square - 1, row * self.cols - 1, -1), range(square + 1, (row + 1) * self.cols)
        if line == "col":
            return range(square - self.cols, -1, -self.cols), range(square + self.cols, self.size, self.cols)
        raise ValueError(f"a line is one of {LINES}, not '{line}'")

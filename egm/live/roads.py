"""The live table's scoreboard (seed 004, Fig. 5 and [0028]): the rows, a bead plate and a big road.

Pure functions of the table's hands in the order they were dealt. A hand is one result code from the
cabinet's rule (`egm.games.dragon_poker.settlement.hand_winner`): "P2", "P3", "H2", "H3", "D2", "D3", or
"S" when each side won one row (a split, which this board draws the way a baccarat board draws a tie).

The patent's board is the last ten rows; "similar to a Baccarat display" adds the two history roads a
baccarat board shows:
- the **bead plate**: every hand in order, column by column, `depth` cells deep;
- the **big road**: one column per streak of the same winning side. A streak runs down its column;
  when it reaches the bottom, or a cell below is taken by an older streak's tail, it turns right and
  tails along that row (the "dragon tail"). A new winning side starts a new column at the top, just
  right of where the previous streak started (further right if a tail along the top row took that
  cell). A split is not a cell: it is marked on the cell of the
  hand before it (a slash, counted); splits before the first winner are marked on the first cell.
  The side is what counts, not the code: P2 then P3 is one streak. A split never breaks a streak, so
  P, H, S, S, P opens a new column for the last P (after H), as a baccarat board does.

No derived ("prediction") roads: their rules compare columns of two sides (banker and player), which
has no defined meaning with three, and a display at a table shows history, not suggested outcomes.

>>> [(c.column, c.row, c.side, c.splits) for c in big_road(["P2", "P3", "S", "H2", "D3"])]
[(0, 0, 'P', 0), (0, 1, 'P', 1), (1, 0, 'H', 0), (2, 0, 'D', 0)]
>>> totals(["P2", "S", "H3", "P3"])
{'P': 2, 'H': 1, 'D': 0, 'S': 1}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SIDES = ("P", "H", "D")
SPLIT = "S"
CODES = (*(f"{side}{rows}" for side in SIDES for rows in (2, 3)), SPLIT)
DEPTH = 6  # cells in a column of the bead plate and the big road
ROWS_SHOWN = 10  # the patent's board: the ten most recent hands (Fig. 5)


def side_of(code: str) -> str:
    """The winning side of a result code ("P", "H" or "D"), or "S" for a split.

    >>> side_of("H3"), side_of("S")
    ('H', 'S')
    """
    if code not in CODES:
        raise ValueError(f"'{code}' is not a Dragon Poker result: use one of {', '.join(CODES)}")
    return code[0]


@dataclass(frozen=True)
class BeadCell:
    """One hand on the bead plate: its place in dealing order, its column and row, and its code."""

    index: int
    column: int
    row: int
    code: str


@dataclass(frozen=True)
class RoadCell:
    """One won hand on the big road.

    index: the hand's place in dealing order. side: "P", "H" or "D". code: its result ("P2"...).
    splits: the splits that followed it (or, on the first cell, came before it), drawn as slashes.
    streak: which column the streak started in (a tail's cells lie to the right of it).
    """

    index: int
    column: int
    row: int
    side: str
    code: str
    splits: int
    streak: int


def bead_plate(codes: Sequence[str], depth: int = DEPTH) -> list[BeadCell]:
    """Every hand, in order, filling each column of `depth` cells top to bottom, left to right.

    >>> [(c.column, c.row) for c in bead_plate(["P2"] * 7, depth=6)][-2:]
    [(0, 5), (1, 0)]
    """
    for code in codes:
        side_of(code)
    return [BeadCell(i, i // depth, i % depth, code) for i, code in enumerate(codes)]


def big_road(codes: Sequence[str], depth: int = DEPTH) -> list[RoadCell]:
    """The big road of these hands (module doc), its cells in dealing order."""
    cells: list[RoadCell] = []
    taken: set[tuple[int, int]] = set()
    leading_splits = 0
    streak = -1
    column = row = 0
    turned = False
    for index, code in enumerate(codes):
        side = side_of(code)
        if side == SPLIT:
            if cells:
                last = cells[-1]
                cells[-1] = RoadCell(last.index, last.column, last.row, last.side, last.code,
                                     last.splits + 1, last.streak)
            else:
                leading_splits += 1
            continue
        if cells and side == cells[-1].side:
            if not turned and row + 1 < depth and (column, row + 1) not in taken:
                row += 1
            else:  # the bottom, or an older tail below: tail to the right along this row
                turned = True
                column += 1
        else:  # a new side: the first column right of the last streak's start with its top free
            streak += 1
            while (streak, 0) in taken:
                streak += 1
            column, row, turned = streak, 0, False
        taken.add((column, row))
        splits = leading_splits if not cells else 0
        cells.append(RoadCell(index, column, row, side, code, splits, streak))
    return cells


def totals(codes: Sequence[str]) -> dict[str, int]:
    """How many hands each side won, and how many were splits."""
    counts = dict.fromkeys((*SIDES, SPLIT), 0)
    for code in codes:
        counts[side_of(code)] += 1
    return counts


def last_columns(cells: Sequence[BeadCell | RoadCell], columns: int) -> list[BeadCell | RoadCell]:
    """The cells in the last `columns` columns, moved to start at column 0: what a board `columns`
    wide shows once the road has grown past it (it scrolls to the newest).

    >>> [(c.column, c.code) for c in last_columns(bead_plate(["P2", "H2", "D2"], depth=1), 2)]
    [(0, 'H2'), (1, 'D2')]
    """
    if not cells:
        return []
    first = max(0, max(c.column for c in cells) - columns + 1)
    return [_shifted(c, first) for c in cells if c.column >= first]


def _shifted(cell: BeadCell | RoadCell, by: int) -> BeadCell | RoadCell:
    if isinstance(cell, BeadCell):
        return BeadCell(cell.index, cell.column - by, cell.row, cell.code)
    return RoadCell(cell.index, cell.column - by, cell.row, cell.side, cell.code, cell.splits,
                    cell.streak - by)

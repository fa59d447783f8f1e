"""The Poker Tiles board of one pay table: its size, the starting area and its centre, the card marked
on each square, which natural tile doubles where, and the hand values, as the arrays the compiled
engine reads.

Which natural tile placed where counts a doubling (`doubling`, docs/poker-tiles.md): inside the
starting area, a card marked on any square of the area, wherever in the area it lies (the seed: "If
both Jack of Diamonds had been played at the starting area, ... three doubles"); elsewhere, the card
marked on that very square (claim 9).

Squares are numbered row-major from the top left (square = row * cols + col), as the shared grid
geometry (egm.games.grid) numbers them.

>>> from egm.games.poker_tiles.paytable import EXAMPLE, PokerTilesRules
>>> layout = Layout.from_rules(PokerTilesRules.model_validate(EXAMPLE))
>>> [layout.row_col(s) for s in layout.start], layout.row_col(layout.centre)
([(6, 4), (6, 5), (6, 6), (6, 7), (6, 8)], (6, 6))
>>> str(Card(int(layout.marked[layout.square(6, 5)]))), layout.card_squares[0]
('Jd', (9, 6, '2c'))
>>> [str(Card(c)) for c in np.flatnonzero(layout.doubling[layout.square(6, 8)])]
['Th', 'Jd']
>>> [str(Card(c)) for c in np.flatnonzero(layout.doubling[layout.square(9, 6)])]
['2c']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from egm.cards import Card
from egm.games.grid import Grid
from egm.games.poker_tiles.engine import CARDS, EMPTY
from egm.games.poker_tiles.paytable import PokerTilesRules


@dataclass(frozen=True, eq=False)
class Layout(Grid):
    """The fixed geometry and values of one pay table's board."""

    start: tuple[int, ...]  # the starting area's squares, left to right
    centre: int
    marked: np.ndarray  # int64 per square: the card marked there, or EMPTY
    in_start: np.ndarray  # int64 per square: 1 inside the starting area
    values: np.ndarray  # int64 per hand index: its base value
    doubling: np.ndarray  # int64 [square, card]: 1 where that natural tile placed there counts a doubling

    @classmethod
    def from_rules(cls, rules: PokerTilesRules) -> Layout:
        size = rules.rows * rules.cols
        marked = np.full(size, EMPTY, dtype=np.int64)
        for card, (row, col) in rules.card_squares.items():
            marked[row * rules.cols + col] = Card.parse(card).index
        start = tuple(row * rules.cols + col for row, col in rules.start_squares())
        in_start = np.zeros(size, dtype=np.int64)
        in_start[list(start)] = 1
        centre = rules.centre[0] * rules.cols + rules.centre[1]
        values = np.array(rules.hand_values.by_index(), dtype=np.int64)
        doubling = np.zeros((size, CARDS), dtype=np.int64)
        for square in range(size):
            if marked[square] != EMPTY:
                doubling[square, marked[square]] = 1
        zone_cards = [card for card in marked[list(start)] if card != EMPTY]
        doubling[np.ix_(start, zone_cards)] = 1
        return cls(rules.rows, rules.cols, start, centre, marked, in_start, values, doubling)

    @property
    def card_squares(self) -> list[tuple[int, int, str]]:
        """(row, col, card) of every marked square, in card order."""
        where = {int(card): square for square, card in enumerate(self.marked) if card != EMPTY}
        return [(*self.row_col(where[card]), str(Card(card))) for card in sorted(where)]

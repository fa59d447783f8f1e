"""How a seat chooses its placement: the machine strategy, and the lab's lookahead and random players.

All of them see only what the seat may see: its own hand and the board (never another seat's hand
or the draw pile's order), and all are pure functions of that (no floats, no randomness but the
random player's own stream), so a game is exactly repeatable.

`grid-opponent/1` (the machine opponent, and the reference strategy for the customer's seat):
1. List every legal placement (card, square) with the points it scores now; keep the best
   `CANDIDATES` (6) by points, ties going to a natural card over a joker, then the lower card
   (index rank * 4 + suit), then the lower square (row-major).
2. Value each as points now minus the *threat*: how much the placement raises the next seat's
   expected best reply on the legal squares in line with it (same row or column, at most 4 squares
   away). The next seat's expected best reply on a square is the expected maximum points of its
   cards there, its cards being a random set (as many as it holds) of the cards the mover cannot see.
3. Play the highest value; ties as in step 1.

`grid-lookahead/1` (the lab's best-available strategy) adds to that value half the points the
mover's own remaining cards could score on its next turn on the position after the placement.

Both are compiled (`egm.games.poker_grid.compiled.choose`), exact integer arithmetic throughout.

`random` (the lab's lower bound) plays a uniformly random legal placement: a random card of the
hand, then a random legal square, both drawn from the strategy's own random stream.

>>> from egm.games.poker_grid.board import Layout
>>> from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
>>> from egm.cards import Card, parse_cards
>>> deck = [c.index for c in parse_cards("9c 2d 9h 3d 4c 5d 7h 8d Ks Qd 9s Kd")]
>>> deck += [i for i in range(54) if i not in deck]
>>> table = Table(Layout.from_rules(PokerGridRules.model_validate(EXAMPLE)), 5, 2, deck)
>>> [str(Card(c)) for c in table.hands[0]], str(Card(table.position[table.layout.square(3, 2)]))
(['9c', '9h', '4c', '7h', 'Ks'], '9s')
>>> card, square = machine_move(table)  # pairs the 9s (Ks by the Kd ties; the lower card plays)
>>> str(Card(card)), table.layout.row_col(square)
('9c', (2, 2))
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from egm.games.poker_grid import compiled
from egm.games.poker_grid.table import Table
from egm.rng import Rng

MACHINE_STRATEGY = "grid-opponent/1"
LOOKAHEAD_STRATEGY = "grid-lookahead/1"
RANDOM_STRATEGY = "random"
CANDIDATES = compiled.CANDIDATES

Placement = tuple[int, int]  # (card, square)
Strategy = Callable[[Table], Placement]


def next_held(table: Table) -> int:
    """How many cards the next seat still holding cards holds (0 when no other seat does)."""
    others = ((table.turn + k) % table.seats for k in range(1, table.seats))
    return next((len(table.hands[seat]) for seat in others if table.hands[seat]), 0)


def _plan(table: Table, lookahead: bool) -> Placement:
    """The compiled search (`compiled.choose`) on the table's position, legal squares and hand."""
    layout = table.layout
    legal = np.zeros(layout.size, np.bool_)
    legal[table.legal_squares()] = True
    card, square = compiled.choose(np.array(table.position, np.int64), legal, layout.rows, layout.cols,
                                   np.array(table.hands[table.turn], np.int64), next_held(table), lookahead)
    return int(card), int(square)


def machine_move(table: Table) -> Placement:
    """grid-opponent/1: points now minus the threat to the next seat."""
    return _plan(table, lookahead=False)


def lookahead_move(table: Table) -> Placement:
    """grid-lookahead/1: grid-opponent/1 plus half the seat's own best follow-up."""
    return _plan(table, lookahead=True)


def random_player(rng: Rng) -> Strategy:
    """A uniformly random legal placement, from `rng` (the strategy's own stream)."""

    def choose(table: Table) -> Placement:
        hand = table.hands[table.turn]
        squares = table.legal_squares()
        return hand[rng.randbelow(len(hand))], squares[rng.randbelow(len(squares))]

    return choose


MACHINE_STRATEGIES: dict[str, Strategy] = {MACHINE_STRATEGY: machine_move}

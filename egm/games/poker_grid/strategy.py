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

from collections.abc import Callable, Iterable, Sequence
from math import comb

from egm.cards import DECK_SIZE, JOKER_INDICES
from egm.games.poker_grid.board import EMPTY, MAX_HAND, Layout
from egm.games.poker_grid.scoring import Reach
from egm.games.poker_grid.table import Table
from egm.rng import Rng

MACHINE_STRATEGY = "grid-opponent/1"
LOOKAHEAD_STRATEGY = "grid-lookahead/1"
RANDOM_STRATEGY = "random"
CANDIDATES = 6

Placement = tuple[int, int]  # (card, square)
Strategy = Callable[[Table], Placement]


def _tie_key(card: int, square: int) -> tuple[bool, int, int]:
    """Larger is preferred: a natural card, then the lower card, then the lower square."""
    return (card < JOKER_INDICES[0], -card, -square)


def _distinct(cards: Iterable[int]) -> list[int]:
    """The cards that play differently: both jokers play alike, so the second is dropped."""
    distinct = set(cards)
    if JOKER_INDICES[0] in distinct:
        distinct.discard(JOKER_INDICES[1])
    return sorted(distinct)


def _scored_placements(table: Table) -> list[tuple[int, int, int]]:
    """(points, card, square) of every legal placement of the seat to move, best first (ties as the
    module doc says)."""
    hand = _distinct(table.hands[table.turn])
    placements = []
    for square in table.legal_squares():
        reach = Reach.of(table.layout, table.position, square)
        placements.extend((reach.points(card), card, square) for card in hand)
    placements.sort(key=lambda p: (p[0], *_tie_key(p[1], p[2])), reverse=True)
    return placements


def _in_line(layout: Layout, a: int, b: int) -> bool:
    """Whether squares a and b are in one row or column, close enough to share a hand."""
    (row_a, col_a), (row_b, col_b) = layout.row_col(a), layout.row_col(b)
    return (row_a == row_b and abs(col_a - col_b) < MAX_HAND) or (
        col_a == col_b and abs(row_a - row_b) < MAX_HAND
    )


class _Reply:
    """The next seat's expected best reply on a square, from what the seat to move can see: the next
    seat holds its count of cards drawn from the `unseen` ones (not on the board, not in the mover's
    hand). Values are scaled by C(unseen, held) so they stay whole numbers (exact, repeatable)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        seen = set(table.hands[table.turn]) | {c for c in table.position if c >= 0}
        self.unseen = [c for c in range(DECK_SIZE) if c not in seen]
        others = [(table.turn + k) % table.seats for k in range(1, table.seats)]
        held = min(next((len(table.hands[s]) for s in others if table.hands[s]), 0), len(self.unseen))
        count = len(self.unseen)
        # weights[i]: the chance, times the scale, that the i-th best unseen card is the best one held
        self.weights = [comb(count - i - 1, held - 1) for i in range(count)] if held else []
        self.scale = comb(count, held)
        self.legal_before = set(table.legal_squares())
        self._before: dict[int, int] = {}

    def expected_best(self, position: Sequence[int], square: int) -> int:
        reach = Reach.of(self.table.layout, position, square)
        values = sorted(reach.points_each(self.unseen), reverse=True)
        return sum(v * w for v, w in zip(values, self.weights, strict=False))

    def before(self, square: int) -> int:
        """The expected best reply on `square` before this turn's placement (0 if not legal then)."""
        if square not in self._before:
            legal = square in self.legal_before
            self._before[square] = self.expected_best(self.table.position, square) if legal else 0
        return self._before[square]

    def threat(self, square: int, card: int) -> int:
        """How much playing `card` on `square` raises the next seat's expected best reply on the
        squares in line with it (the largest rise over those squares)."""
        layout = self.table.layout
        position = list(self.table.position)
        position[square] = card
        return max(
            (
                self.expected_best(position, target) - self.before(target)
                for target in _legal_after(self.table, self.legal_before, square)
                if _in_line(layout, square, target)
            ),
            default=0,
        )


def _legal_after(table: Table, legal: set[int], square: int) -> set[int]:
    """The legal squares once a card is on `square`, from `legal`, the legal squares before."""
    opened = {n for n in table.layout.neighbours(square) if table.position[n] == EMPTY}
    return (legal - {square}) | opened


def _follow_up(table: Table, card: int, square: int) -> int:
    """The most points the mover's other cards could score next turn after `card` on `square`."""
    position = list(table.position)
    position[square] = card
    rest = _distinct(c for c in table.hands[table.turn] if c != card)
    return max(
        (
            Reach.of(table.layout, position, target).points(other)
            for target in _legal_after(table, set(table.legal_squares()), square)
            for other in rest
        ),
        default=0,
    )


def _plan(table: Table, follow_up: bool) -> Placement:
    """The best-valued of the best placements by points (see the module doc); values are doubled
    so that half the follow-up stays a whole number."""
    reply = _Reply(table)

    def value(points: int, card: int, square: int) -> int:
        worth = 2 * (points * reply.scale - reply.threat(square, card))
        return worth + (_follow_up(table, card, square) * reply.scale if follow_up else 0)

    _, card, square = max(
        ((value(*placement), *placement[1:]) for placement in _scored_placements(table)[:CANDIDATES]),
        key=lambda p: (p[0], *_tie_key(p[1], p[2])),
    )
    return card, square


def machine_move(table: Table) -> Placement:
    """grid-opponent/1: points now minus the threat to the next seat."""
    return _plan(table, follow_up=False)


def lookahead_move(table: Table) -> Placement:
    """grid-lookahead/1: grid-opponent/1 plus half the seat's own best follow-up."""
    return _plan(table, follow_up=True)


def random_player(rng: Rng) -> Strategy:
    """A uniformly random legal placement, from `rng` (the strategy's own stream)."""

    def choose(table: Table) -> Placement:
        hand = table.hands[table.turn]
        squares = table.legal_squares()
        return hand[rng.randbelow(len(hand))], squares[rng.randbelow(len(squares))]

    return choose


MACHINE_STRATEGIES: dict[str, Strategy] = {MACHINE_STRATEGY: machine_move}

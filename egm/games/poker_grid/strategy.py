"""How a seat chooses its placement: the machine strategy, and the lab's random and lookahead players.

`grid-opponent/1` (the machine opponent, and the reference strategy for the customer's seat) is
greedy: it plays the placement that scores the most points this turn. Ties go, in order, to a natural
card over a joker (jokers are kept for later), to the lower card (index rank * 4 + suit), then to the
lower square (row-major). It is a pure function of the seat's hand and the board.

`grid-lookahead/1` (the lab's best-available strategy) looks one reply ahead: of the placements
that score within `LOOKAHEAD_SLACK` points of the best, it plays the one maximising its points minus
the most points any card the seat cannot see (not on the board, not in its own hand) could score
next turn on a square the placement opens or lengthens a line to. Ties as for the greedy strategy.

`random` (the lab's lower bound) plays a uniformly random legal placement: a random card of the
hand, then a random legal square, both drawn from the strategy's own random stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from egm.cards import DECK_SIZE, JOKER_INDICES
from egm.games.poker_grid.board import MAX_HAND
from egm.games.poker_grid.scoring import score
from egm.games.poker_grid.table import Table
from egm.rng import Rng

MACHINE_STRATEGY = "grid-opponent/1"
LOOKAHEAD_STRATEGY = "grid-lookahead/1"
RANDOM_STRATEGY = "random"
LOOKAHEAD_SLACK = 3

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


def _scored_placements(table: Table) -> Iterator[tuple[int, int, int]]:
    """(points, card, square) of every legal placement of the seat to move."""
    hand = _distinct(table.hands[table.turn])
    for square in table.legal_squares():
        for card in hand:
            yield score(table.layout, table.position, square, card).points, card, square


def greedy(table: Table) -> Placement:
    """grid-opponent/1: the most points now, ties as the module doc says."""
    _, card, square = max(_scored_placements(table), key=lambda p: (p[0], *_tie_key(p[1], p[2])))
    return card, square


def _threat(table: Table, square: int, card: int) -> int:
    """The most points a card unseen by the seat to move could score next turn on a legal square in
    line with `square` and near enough (up to 4 squares away) to share a hand with it, on the
    position after playing `card` there."""
    position = list(table.position)
    position[square] = card
    seen = set(table.hands[table.turn]) | {c for c in position if c >= 0}
    unseen = _distinct(c for c in range(DECK_SIZE) if c not in seen)
    row, col = table.layout.row_col(square)
    targets = [
        target
        for target in table.layout.legal_squares(position)
        for t_row, t_col in [table.layout.row_col(target)]
        if (t_row == row and abs(t_col - col) < MAX_HAND) or (t_col == col and abs(t_row - row) < MAX_HAND)
    ]
    return max(
        (score(table.layout, position, target, other).points for target in targets for other in unseen),
        default=0,
    )


def lookahead(table: Table) -> Placement:
    """grid-lookahead/1: points now minus the reply threat, over the near-best placements."""
    placements = list(_scored_placements(table))
    best_points = max(points for points, _, _ in placements)
    _, card, square = max(
        (
            (points - _threat(table, square, card), card, square)
            for points, card, square in placements
            if points >= best_points - LOOKAHEAD_SLACK
        ),
        key=lambda p: (p[0], *_tie_key(p[1], p[2])),
    )
    return card, square


def random_player(rng: Rng) -> Strategy:
    """A uniformly random legal placement, from `rng` (the strategy's own stream)."""

    def choose(table: Table) -> Placement:
        hand = table.hands[table.turn]
        squares = table.legal_squares()
        return hand[rng.randbelow(len(hand))], squares[rng.randbelow(len(squares))]

    return choose


MACHINE_STRATEGIES: dict[str, Strategy] = {MACHINE_STRATEGY: greedy}

"""What a placement scores: the best poker hand of the placed card and up to 4 cards next to it in a
straight line, one way only (a row or a column), to which the placed card contributes.

Interpretation (docs/poker-grid.md):

* A hand is a run of 2 to 5 consecutive squares along one row or one column that holds the placed
  square; every square of it holds a card or is a wild space next to the placed square
  (`compiled._arm`). The cards may be in any order.
* Jokers and wild spaces are fully wild, and may stand for a card already in the hand.
* 5-card hands rank as in poker (egm.poker). Shorter hands rank only by matching ranks: 2 cards make
  a pair; 3 cards a pair or three of a kind; 4 cards a pair, two pair, three or four of a kind. No
  straight or flush has fewer than 5 cards.
* The placed card contributes when the hand without it (the same squares less the placed one) scores
  fewer points: a kicker or a card beside a pair already on the board does not contribute.
* Of all such hands the placement scores the one with the most points; among equals the first in the
  order: row before column, fewer cards before more, the one reaching further back (left or up) first.

>>> from egm.cards import parse_cards
>>> def named(text):
...     return hand_name([c.index for c in parse_cards(text)])
>>> named("9c 9d"), named("9c JK"), named("9c Td"), named("2c 2d 7h 7s"), named("2c JK 7h 7s")
('pair', 'pair', None, 'two_pair', 'three_of_a_kind')
>>> named("Ts Js Qs Ks JK"), named("9s Js Qs Ks JK"), named("4c 5h 6d 7d"), named("7c 7h 7d JK JK")
('royal_flush', 'straight_flush', None, 'five_of_a_kind')
>>> points_for("full_house"), points_for(None)
(6, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from egm import poker
from egm.cards import JOKER_INDICES, Card
from egm.games.poker_grid import compiled
from egm.games.poker_grid.board import LINES, MAX_HAND, WILD, Layout

JOKER = JOKER_INDICES[0]  # jokers and wild spaces are alike in a hand: all stand for any card
ACE_TIE_RANK = 13  # an ace as a tie-break rank in an egm.poker value (a royal flush's top card)

HAND_POINTS = {
    "pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 6,
    "four_of_a_kind": 7,
    "straight_flush": 8,
    "royal_flush": 9,
    "five_of_a_kind": 10,
}


@dataclass(frozen=True)
class Play:
    """The hand a placement scores: the line, its squares in order along it, the hand and points.
    A placement that scores nothing has line "row", no squares, hand None and 0 points."""

    line: str
    squares: tuple[int, ...]
    hand: str | None
    points: int


NO_SCORE = Play("row", (), None, 0)


def points_for(hand: str | None) -> int:
    return HAND_POINTS[hand] if hand else 0


def hand_name(cards: Sequence[int]) -> str | None:
    """The best scoring hand of 2 to 5 line cards (card indices; `WILD` for a wild space), or None
    below a pair."""
    suited = len(cards) == MAX_HAND
    return _hand(tuple(sorted(_key(card, suited) for card in cards)))


def _key(card: int, suited: bool) -> int:
    """A line card as the scoring caches see it: jokers and wild spaces alike; in a hand of fewer
    than 5 cards, where suits never count, every card as the club of its rank."""
    if card >= JOKER or card == WILD:
        return JOKER
    return card if suited else card & ~3


@lru_cache(maxsize=1 << 18)
def _hand(cards: tuple[int, ...]) -> str | None:
    return _poker_hand(cards) if len(cards) == MAX_HAND else _matching_hand(cards)


def _poker_hand(cards: tuple[int, ...]) -> str | None:
    """A 5-card hand, ranked by egm.poker."""
    value = _poker_value([card for card in cards if card < JOKER], sum(card >= JOKER for card in cards))
    category = poker.category(value)
    if category < poker.Category.PAIR:
        return None
    if category == poker.Category.STRAIGHT_FLUSH and value >> 16 & 15 == ACE_TIE_RANK:
        return "royal_flush"
    return category.name.lower()


def _poker_value(naturals: list[int], wilds: int) -> int:
    """egm.poker's value of natural cards plus `wilds` wild cards. The deck has two jokers; a line
    holding both and a wild space tries each natural card for the third wild."""
    if wilds <= len(JOKER_INDICES):
        return poker.evaluate([Card(card) for card in (*naturals, *JOKER_INDICES[:wilds])])
    return max(_poker_value([*naturals, sub], wilds - 1) for sub in range(JOKER) if sub not in naturals)


def _matching_hand(cards: tuple[int, ...]) -> str | None:
    """A hand of 1 to 4 cards, ranked by matching ranks only."""
    jokers = sum(card >= JOKER for card in cards)
    groups = sorted(Counter(card >> 2 for card in cards if card < JOKER).values(), reverse=True) or [0]
    largest = groups[0] + jokers
    if largest >= 4:
        return "four_of_a_kind"
    if largest == 3:
        return "three_of_a_kind"
    if largest == 2:
        return "two_pair" if len(groups) > 1 and groups[1] == 2 else "pair"
    return None


HAND_NAMES = {points: hand for hand, points in HAND_POINTS.items()}


def score(layout: Layout, position: Sequence[int], square: int, card: int) -> Play:
    """The play of `card` onto the empty `square` of `position` (the position is not changed), by the
    compiled scoring (`compiled.best_play`, held to `hand_name` by tests/test_poker_grid_compiled.py)."""
    points, line, back, forward = compiled.best_play(np.array(position, np.int64), square, layout.rows,
                                                     layout.cols, card)
    if not points:
        return NO_SCORE
    name = LINES[line]
    behind, ahead = layout.line(square, name)
    squares = (*reversed(behind[:back]), square, *ahead[:forward])
    return Play(name, squares, HAND_NAMES[int(points)], int(points))

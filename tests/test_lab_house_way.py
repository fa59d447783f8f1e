"""The house way's compiled twin (egm.games.dragon_poker.lab.kernel_house_way) against the reference the
cabinet runs (egm.games.dragon_poker.house_way): the same setting, values and cards, on random 13-card hands.

20,000 uniform hands from the 54-card deck (about 45% hold a joker) plus 2,000 holding both jokers;
every reference setting is also checked legal and a split of the hand. About 40 s.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np

from egm.cards import DECK, Card
from egm.games.dragon_poker.house_way import (
    BACK_WINS,
    FRONT_WINS,
    MIDDLE_WINS,
    WIN_SCALE,
    score,
    set_around,
    set_house_way,
)
from egm.games.dragon_poker.lab.kernel_house_way import house_way
from egm.games.dragon_poker.paytable import ROWS
from egm.lab.fast_eval import CARD_BITS
from egm.poker import Category

JOKERS = DECK[52:]


def mask_of(cards: Iterable[Card]) -> int:
    return sum(1 << int(CARD_BITS[card.index]) for card in cards)


def check(hand: list[Card]) -> None:
    setting = set_house_way(hand)
    assert setting.foul() is None, hand
    assert sorted(setting.front + setting.middle + setting.back) == sorted(hand)
    expected = (*(setting.values[row] for row in ROWS), *(mask_of(setting.row(row)) for row in ROWS))
    compiled = tuple(int(x) for x in house_way(np.int64(mask_of(hand))))
    assert compiled == expected, " ".join(map(str, hand))


def test_the_compiled_house_way_sets_20000_random_hands_exactly_as_the_reference() -> None:
    rng = random.Random(20_000)
    for _ in range(20_000):
        check(rng.sample(DECK, 13))


def test_the_compiled_house_way_agrees_on_hands_holding_both_jokers() -> None:
    rng = random.Random(2)
    for _ in range(2_000):
        check([*JOKERS, *rng.sample(DECK[:52], 11)])


def test_the_setting_does_not_depend_on_the_dealt_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = rng.sample(DECK, 13)
        setting = set_house_way(hand)
        rng.shuffle(hand)
        assert set_house_way(hand) == setting


def test_the_house_way_never_scores_below_the_greedy_setting() -> None:
    rng = random.Random(4)
    for _ in range(500):
        hand = frozenset(rng.sample(DECK, 13))
        greedy = set_around(hand, frozenset())  # house-way/1's setting
        chosen = set_house_way(tuple(hand))
        assert score(*(chosen.values[row] for row in ROWS)) >= score(*(greedy.values[row] for row in ROWS))


def test_a_stronger_row_never_has_a_lower_chance_in_the_tables() -> None:
    front = [w for category in (Category.HIGH_CARD, Category.PAIR, Category.THREE_OF_A_KIND)
             for by_second in FRONT_WINS[category] for w in by_second]
    for chances in (front, *([w for category in Category for w in table[category]]
                             for table in (MIDDLE_WINS, BACK_WINS))):
        assert chances == sorted(chances)
        assert 0 <= chances[0] and chances[-1] <= WIN_SCALE

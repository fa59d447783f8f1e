"""The compiled evaluator gives the reference's values and the reference's cards, bit for bit."""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest

import egm.lab.fast_eval
from egm.cards import DECK, Card
from egm.lab.fast_eval import CARD_BITS, best3_mask, best5_many, best5_mask, mask_of, value3_mask, value5_mask
from egm.poker import best_hand, evaluate


def mask(cards: Sequence[Card]) -> int:
    return sum(1 << int(CARD_BITS[c.index]) for c in cards)


def cards_of(chosen: int) -> tuple[Card, ...]:
    return tuple(sorted((c for c in DECK if chosen >> int(CARD_BITS[c.index]) & 1), reverse=True))


def holding(rng: random.Random, n: int, jokers: int) -> list[Card]:
    return rng.sample(DECK[:52], n - jokers) + list(DECK[52 : 52 + jokers])


def check_house_way_rows(seed: int, jokers: int, hands: int) -> None:
    """Back = best 5 of 13, middle = best 5 of the other 8, front = the last 3: the Dragon house way."""
    rng = random.Random(seed)
    for _ in range(hands):
        hand = holding(rng, 13, jokers)
        back = best_hand(hand, 5)
        rest = [c for c in hand if c not in back[1]]
        middle = best_hand(rest, 5)
        front = [c for c in rest if c not in middle[1]]
        fast_back = best5_mask(mask(hand))
        fast_middle = best5_mask(mask(hand) & ~fast_back[1])
        assert (fast_back[0], cards_of(fast_back[1])) == back, hand
        assert (fast_middle[0], cards_of(fast_middle[1])) == middle, hand
        assert best3_mask(mask(front)) == (evaluate(front), mask(front))


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_house_way_rows_match_the_reference_card_for_card(jokers: int) -> None:
    check_house_way_rows(800 + jokers, jokers, 15_000)


@pytest.mark.soak
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_house_way_rows_match_the_reference_long_run(jokers: int) -> None:
    check_house_way_rows(9000 + jokers, jokers, 400_000)


@pytest.mark.parametrize("n", [3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20])
def test_best_of_n_matches_the_reference(n: int) -> None:
    rng = random.Random(n)
    for trial in range(1500):
        hand = holding(rng, n, trial % 3 if n > 2 else 0)
        for size in (3, 5) if n >= 5 else (3,):
            value, chosen = best3_mask(mask(hand)) if size == 3 else best5_mask(mask(hand))
            assert (value, cards_of(chosen)) == best_hand(hand, size), (hand, size)


def test_every_three_card_hand_and_a_five_card_sample_match() -> None:
    for hand in combinations(DECK, 3):
        assert best3_mask(mask(hand)) == (evaluate(hand), mask(hand))
        assert value3_mask(mask(hand)) == evaluate(hand), hand
    rng = random.Random(5)
    hands = [rng.sample(DECK, 5) for _ in range(100_000)]
    values, chosen = best5_many(np.array([mask(h) for h in hands], np.int64))
    assert values.tolist() == [evaluate(h) for h in hands]
    assert chosen.tolist() == [mask(h) for h in hands]
    assert [value5_mask(mask(h)) for h in hands[:20_000]] == values[:20_000].tolist()


def test_mask_of_card_indices_is_the_lane_layout() -> None:
    # 2c (index 0) is clubs' deuce, bit 0; As (51) spades' ace, bit 3 * 16 + 12; the jokers bits 61, 62
    assert mask_of(np.array([0, 51, 52, 53], np.uint8)) == 1 | 1 << 60 | 3 << 61
    assert sorted(CARD_BITS.tolist()) == sorted({16 * suit + rank for suit in range(4) for rank in range(13)}
                                                | {61, 62})


def test_doctests() -> None:
    result = doctest.testmod(egm.lab.fast_eval)
    assert result.failed == 0 and result.attempted > 0

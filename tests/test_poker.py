"""The reference evaluator against exact counts, brute-force joker substitution and ordering facts."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

import pytest

import egm.cards
import egm.poker
import egm.rng
from egm.cards import DECK, Card, parse_cards
from egm.poker import Category, best_hand, category, describe, evaluate

NATURALS = DECK[:52]
JOKERS = DECK[52:]

_SHAPES_5 = {(5,): 9, (4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}
_SHAPES_3 = {(3,): 3, (2, 1): 1, (1, 1, 1): 0}


def plain_value(indices: Sequence[int]) -> int:
    """Value of 3 or 5 natural cards, repeats allowed (a joker's copy), straight from the rules."""
    ranks = sorted((i >> 2 for i in indices), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    tiebreak = [rank for rank, _ in groups]
    if len(indices) == 3:
        cat = _SHAPES_3[shape]
    else:
        cat = _SHAPES_5[shape]
        flush = len({i & 3 for i in indices}) == 1
        wheel = ranks == [12, 3, 2, 1, 0]
        straight = shape == (1, 1, 1, 1, 1) and (ranks[0] - ranks[4] == 4 or wheel)
        if straight:
            cat, tiebreak = (8 if flush else 4), [3 if wheel else ranks[0]]
        if flush and cat < 5:
            cat, tiebreak = 5, ranks
    value = cat
    for i in range(5):
        value = value << 4 | (tiebreak[i] + 1 if i < len(tiebreak) else 0)
    return value


def brute_value(cards: Sequence[Card]) -> int:
    """Every joker replaced by each of the 52 cards in turn (repeats allowed); the best result."""
    naturals = [c.index for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    return max(plain_value(naturals + [c.index for c in stand_ins])
               for stand_ins in _stand_ins(jokers))


def _stand_ins(jokers: int) -> list[tuple[Card, ...]]:
    return [()] if jokers == 0 else [(c,) for c in NATURALS] if jokers == 1 else [
        (a, b) for i, a in enumerate(NATURALS) for b in NATURALS[i:]]


def random_hand(rng: random.Random, size: int, jokers: int) -> list[Card]:
    hand = rng.sample(NATURALS, size - jokers) + list(JOKERS[:jokers])
    rng.shuffle(hand)
    return hand


def test_category_counts_over_all_joker_free_five_card_hands() -> None:
    counts = Counter(evaluate(hand) >> 20 for hand in combinations(NATURALS, 5))
    assert {Category(c).name: n for c, n in counts.items()} == {
        "STRAIGHT_FLUSH": 40, "FOUR_OF_A_KIND": 624, "FULL_HOUSE": 3744, "FLUSH": 5108, "STRAIGHT": 10200,
        "THREE_OF_A_KIND": 54912, "TWO_PAIR": 123552, "PAIR": 1098240, "HIGH_CARD": 1302540}
    assert sum(counts.values()) == 2_598_960


def test_three_card_counts_and_brute_force_over_every_three_card_hand_with_jokers() -> None:
    counts = Counter(category(evaluate(h)) for h in combinations(NATURALS, 3))
    assert counts == {Category.THREE_OF_A_KIND: 52, Category.PAIR: 3744, Category.HIGH_CARD: 18304}
    for jokers in (1, 2):
        for naturals in combinations(NATURALS, 3 - jokers):
            hand = [*naturals, *JOKERS[:jokers]]
            assert evaluate(hand) == brute_value(hand), hand


@pytest.mark.parametrize("jokers", [1, 2])
def test_every_five_card_hand_class_with_jokers_agrees_with_brute_force(jokers: int) -> None:
    """With jokers, a hand's value depends only on its natural ranks and on whether they share a suit:
    one hand per (rank multiset, suited or not) covers every 5-card hand."""
    checked = 0
    for ranks in combinations_with_replacement(range(13), 5 - jokers):
        if max(Counter(ranks).values()) > 4:
            continue
        copies = [ranks[:i].count(r) for i, r in enumerate(ranks)]  # the k-th card of a rank gets suit k
        suit_patterns = [copies]
        if len(set(ranks)) == len(ranks):
            suit_patterns = [[0] * len(ranks), [1] + [0] * (len(ranks) - 1)]
        for suits in suit_patterns:
            hand = [Card(r * 4 + s) for r, s in zip(ranks, suits, strict=True)] + list(JOKERS[:jokers])
            assert evaluate(hand) == brute_value(hand), " ".join(map(str, hand))
            checked += 1
    assert checked == {1: 1820 + 715, 2: 455 + 286}[jokers]


@pytest.mark.parametrize(("jokers", "samples"), [(0, 20000), (1, 4000), (2, 300)])
def test_five_card_hands_agree_with_brute_force_substitution(jokers: int, samples: int) -> None:
    rng = random.Random(4 + jokers)
    for _ in range(samples):
        hand = random_hand(rng, 5, jokers)
        assert evaluate(hand) == brute_value(hand), " ".join(map(str, hand))


@pytest.mark.parametrize("text", [
    "As Ks Qs JK JK", "Ac Ad Ah As JK", "JK JK 2c 2d 2h", "Ah 2h 3h 4h JK", "As Ks Qs 9s JK",
    "Ac Kd JK JK 7h", "5c 5d 9h 9s JK", "Kc Qd JK JK 2h", "2c 4d 6h JK JK", "Ts Js Qs Ks As",
])
def test_chosen_joker_hands_agree_with_brute_force(text: str) -> None:
    hand = parse_cards(text)
    assert evaluate(hand) == brute_value(hand)


def v(text: str) -> int:
    return evaluate(parse_cards(text))


def test_ordering_facts() -> None:
    wheel, six_high = v("Ah 2c 3d 4s 5h"), v("2c 3d 4s 5h 6c")
    assert category(wheel) == Category.STRAIGHT and wheel == Category.STRAIGHT << 20 | 4 << 16
    assert v("7h 5h 4h 3h 2h") > v("Tc Jd Qs Kh Ac")  # any flush beats any straight
    assert wheel < six_high < v("Tc Jd Qs Kh Ac")
    assert category(v("Kh Ac 2d 3s 4c")) == Category.HIGH_CARD  # no wrap-around K-A-2
    assert v("Ah 2h 3h 4h 5h") < v("2d 3d 4d 5d 6d") < v("Ts Js Qs Ks As") < v("2c 2d 2h 2s JK")
    assert describe(v("Ts Js Qs Ks As")) == "Royal Flush"
    assert v("Kc Kd Kh Ks JK") < v("Ac Ad Ah As JK") and category(v("JK JK As Ah Ad")) == 9
    assert v("Ac Kc Qc Jc 9c") > v("Kd Qd Jd Td 8d")  # A-high flush beats K-high flush
    assert v("Kc Kd 2s") < v("Kh Ks 3c 2d 4h")  # a 3-card pair is below the same 5-card pair
    assert v("Kc Kd As") > v("Kh Ks Qc Jd 9h")  # ... but its kicker still counts first
    assert v("Qc Qd Qs") < v("Qh Qs Qd 2c 3d") < v("Kc Kh Ks")
    assert category(v("2c 3c 4c")) == Category.HIGH_CARD  # no straights or flushes in 3 cards
    assert v("Kc Kd 9s 9h 3c") < v("Kc Kd Ts Th 2c") < v("Ac Ad 2s 2h 3c")
    assert v("As Ks Qs 9s JK") == Category.FLUSH << 20 | 0xDDCB8  # the joker is a second ace of spades


def test_value_encoding_examples() -> None:
    assert v("9c 9d 9h 4s 2c") == Category.THREE_OF_A_KIND << 20 | 0x83100
    assert v("Jc Jd 4s 4h Ac") == Category.TWO_PAIR << 20 | 0xA3D00
    assert v("7c 7d Ks 5h 3c") == Category.PAIR << 20 | 0x6C420
    assert v("7c 7d Ks") == Category.PAIR << 20 | 0x6C000
    assert v("6c 6d 6s Qh Qc") == Category.FULL_HOUSE << 20 | 0x5B000
    assert v("JK JK 8c") == Category.THREE_OF_A_KIND << 20 | 0x70000


def test_bad_hands_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="3 or 5 cards"):
        evaluate(parse_cards("2c 3c 4c 5c"))
    with pytest.raises(ValueError, match="all different"):
        evaluate([Card(0), Card(0), Card(5)])
    with pytest.raises(ValueError, match="same card twice"):
        best_hand([Card(0), Card(0), *parse_cards("3c 4c 5c 6c")])
    with pytest.raises(ValueError, match="cannot make a 5-card hand"):
        best_hand(parse_cards("2c 3c 4c 5c"))
    with pytest.raises(ValueError, match="3 or 5 cards, not 4"):
        best_hand(parse_cards("2c 3c 4c 5c"), 4)


def canonical_by_brute_force(cards: Sequence[Card], size: int) -> tuple[int, tuple[Card, ...]]:
    """All subsets; the best value; among those, fewest jokers, then lowest suits, then joker 52 first.

    Asserts that this choice is unique, so it pins down exactly the rules in egm.poker's module doc.
    """
    def key(subset: tuple[Card, ...]) -> tuple[int, int, int]:
        jokers = [c.index for c in subset if c.is_joker]
        return len(jokers), sum(c.index & 3 for c in subset if not c.is_joker), sum(jokers)

    scored = [(evaluate(s), s) for s in combinations(sorted(cards), size)]
    best = max(value for value, _ in scored)
    ranked = sorted((key(s), s) for value, s in scored if value == best)
    assert len(ranked) == 1 or ranked[0][0] != ranked[1][0], ranked[:2]
    return best, tuple(sorted(ranked[0][1], reverse=True))


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_best_hand_is_the_best_subset_with_the_canonical_cards(jokers: int) -> None:
    rng = random.Random(40 + jokers)
    for trial in range(150):
        size = 5 if trial % 3 else 3
        n = max(rng.choice([size, 6, 8, 13]), size)
        holding = random_hand(rng, n, jokers)
        assert best_hand(holding, size) == canonical_by_brute_force(holding, size), holding


@pytest.mark.parametrize(("text", "size", "chosen"), [
    ("Ac Ad Kh Ks Kc 7d 2c JK", 5, "JK Ac Ks Kh Kc"),
    ("9h 8h 7h 6h 5h 9c 8c 7c 6c 5c JK JK", 5, "JK JK 9c 8c 7c"),  # equal straight flushes: clubs
    ("2c 2d 2h 3c 3d 3h Ks", 5, "3h 3d 3c 2d 2c"),
    ("Ah 2d 3c 4s 5d 5h JK", 5, "JK 5d 4s 3c 2d"),
    ("Ac Kd Qh Js 9c JK", 5, "JK Ac Kd Qh Js"),
    ("7c 7d 7h 7s JK", 3, "7h 7d 7c"),
])
def test_canonical_choice_examples(text: str, size: int, chosen: str) -> None:
    holding = parse_cards(text)
    value, cards = best_hand(holding, size)
    assert " ".join(map(str, cards)) == chosen and evaluate(cards) == value
    assert best_hand(holding, size) == canonical_by_brute_force(holding, size)


def test_doctests_of_the_card_modules() -> None:
    for module in (egm.poker, egm.cards, egm.rng):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__

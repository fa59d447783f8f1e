"""The poker hand evaluator every game uses: 3- and 5-card hands, two fully wild jokers.

Hand values are plain ints with one total order over 3- and 5-card hands::

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

r1..r5 are the ranks that break ties, most significant first, each as rank + 1 (deuce = 1 .. ace = 13),
and 0 where a hand has no such card (a 3-card hand has r4 = r5 = 0):

* five of a kind: r1; straight and straight flush: r1 = the top card (A-2-3-4-5 has the five on top,
  r1 = 4: the wheel is the lowest straight; there is no wrap-around K-A-2);
* four of a kind: quads, kicker; full house: trips, pair; three of a kind: trips, kickers;
* two pair: high pair, low pair, kicker; pair: pair, kickers; flush and high card: all ranks, descending.

Three-card hands rank only as high card, pair or three of a kind. A joker stands for any card, even one
already in the hand, so a flush may hold two aces of its suit and four aces plus a joker are five aces.

>>> v = evaluate(parse_cards("Ah Kh Qh Jh Th")); category(v).name, describe(v), hex(v)
('STRAIGHT_FLUSH', 'Royal Flush', '0x8d0000')
>>> evaluate(parse_cards("5d 4c 3s 2h Ac")) < evaluate(parse_cards("6d 5c 4s 3h 2c"))
True
>>> describe(evaluate(parse_cards("Ac Ad Ah As JK")))
'Five Aces'
>>> evaluate(parse_cards("Kc Kd 2s")) < evaluate(parse_cards("Kh Ks 4c 3d 2h"))
True

Canonical card choice (`best_hand`): the value fixes the category and the ranks; the cards that make it
are chosen by these rules, and egm.lab.fast_eval follows exactly the same ones:

1. Natural cards before jokers: among the card sets with the best value, one with the fewest jokers.
   When one joker of two is needed, it is the first joker (index 52).
2. Among natural cards of one rank, the lowest suits first (clubs, diamonds, hearts, spades).
3. Kickers are the highest ranks left (natural cards, by rule 1).
4. A straight flush or flush that several suits make equally well uses the suit that needs fewer
   jokers, then the lowest suit. A flush takes the highest cards of its suit, and every joker in the
   holding (each joker is an extra ace of the suit, which always raises a flush).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import partial
from itertools import combinations_with_replacement

from egm.cards import Card, parse_cards

__all__ = ["Category", "best_hand", "category", "describe", "evaluate", "parse_cards"]

ACE = 12
FIVE = 3  # the top card of the wheel, A-2-3-4-5


class Category(IntEnum):
    """Hand categories, lowest first: a hand value's bits 20 and up."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9


_RANK_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
               "King", "Ace")


def _make_value(cat: Category, ranks: Sequence[int]) -> int:
    """The value of a hand of category `cat` whose tie-break ranks (0..12) are `ranks`."""
    value = int(cat)
    for i in range(5):
        value = value << 4 | (ranks[i] + 1 if i < len(ranks) else 0)
    return value


# Every straight, the highest first: (top rank, its five ranks, their rank bitmask). The wheel's ace is low.
_STRAIGHTS: tuple[tuple[int, tuple[int, ...], int], ...] = tuple(
    (top, ranks, sum(1 << r for r in ranks))
    for top in range(ACE, FIVE - 1, -1)
    for ranks in [tuple((top - i) % 13 for i in range(5))]
)


@dataclass(frozen=True, slots=True)
class _Holding:
    """The cards on hand, sorted for the canonical choice."""

    by_rank: tuple[tuple[Card, ...], ...]  # 13 entries: the natural cards of each rank, lowest suit first
    by_suit: tuple[tuple[Card, ...], ...]  # 4 entries: the natural cards of each suit, highest rank first
    jokers: tuple[Card, ...]  # lowest index first

    @classmethod
    def of(cls, cards: Sequence[Card]) -> _Holding:
        by_rank: list[list[Card]] = [[] for _ in range(13)]
        by_suit: list[list[Card]] = [[] for _ in range(4)]
        jokers = []
        for card in sorted(cards):
            if card.index >= 52:
                jokers.append(card)
            else:
                by_rank[card.index >> 2].append(card)
                by_suit[card.index & 3].insert(0, card)
        return cls(tuple(map(tuple, by_rank)), tuple(map(tuple, by_suit)), tuple(jokers))

    def groups(self, sizes: Sequence[int], jokers_left: int, used: frozenset[int] = frozenset()
               ) -> list[tuple[int, tuple[Card, ...]]] | None:
        """Distinct ranks for groups of `sizes` (in order), the highest first group, then the highest
        second, and so on; each group's natural cards (jokers fill the rest). None if impossible."""
        if not sizes:
            return []
        size = sizes[0]
        for rank in range(ACE, -1, -1):
            naturals = self.by_rank[rank][:size]
            need = size - len(naturals)
            if rank in used or need > jokers_left:
                continue
            rest = self.groups(sizes[1:], jokers_left - need, used | {rank})
            if rest is not None:
                return [(rank, naturals), *rest]
        return None


def _grouped(h: _Holding, cat: Category, sizes: tuple[int, ...]) -> tuple[int, tuple[Card, ...]] | None:
    found = h.groups(sizes, len(h.jokers))
    if found is None:
        return None
    naturals = tuple(c for _, cards in found for c in cards)
    return _make_value(cat, [r for r, _ in found]), naturals + h.jokers[: sum(sizes) - len(naturals)]


def _straight_flush(h: _Holding) -> tuple[int, tuple[Card, ...]] | None:
    best: tuple[int, int, int] | None = None  # (top, -jokers needed, -suit): the max is the choice
    for suit, cards in enumerate(h.by_suit):
        if len(cards) + len(h.jokers) < 5:
            continue
        ranks = sum(1 << (c.index >> 2) for c in cards)
        for top, _, straight in _STRAIGHTS:
            need = (straight & ~ranks).bit_count()
            if need <= len(h.jokers):
                best = max(best or (top, -need, -suit), (top, -need, -suit))
                break
    if best is None:
        return None
    top, suit = best[0], -best[2]
    wanted = _STRAIGHTS[ACE - top][1]
    naturals = tuple(c for c in h.by_suit[suit] if c.rank in wanted)
    return _make_value(Category.STRAIGHT_FLUSH, [top]), naturals + h.jokers[: 5 - len(naturals)]


def _flush(h: _Holding) -> tuple[int, tuple[Card, ...]] | None:
    best: tuple[int, int] | None = None  # (value, -suit)
    jokers = len(h.jokers)
    for suit, cards in enumerate(h.by_suit):
        if len(cards) + jokers >= 5:
            value = _make_value(Category.FLUSH, [ACE] * jokers + [c.rank for c in cards[: 5 - jokers]])
            best = max(best or (value, -suit), (value, -suit))
    if best is None:
        return None
    return best[0], h.by_suit[-best[1]][: 5 - jokers] + h.jokers


def _straight(h: _Holding) -> tuple[int, tuple[Card, ...]] | None:
    for top, ranks, _ in _STRAIGHTS:
        naturals = tuple(h.by_rank[r][0] for r in ranks if h.by_rank[r])
        if 5 - len(naturals) <= len(h.jokers):
            return _make_value(Category.STRAIGHT, [top]), naturals + h.jokers[: 5 - len(naturals)]
    return None


_Finder = Callable[[_Holding], "tuple[int, tuple[Card, ...]] | None"]
# Categories from the top; the first finder that finds a hand finds the best one.
_FIVE_CARD_FINDERS: tuple[_Finder, ...] = (
    partial(_grouped, cat=Category.FIVE_OF_A_KIND, sizes=(5,)),
    _straight_flush,
    partial(_grouped, cat=Category.FOUR_OF_A_KIND, sizes=(4, 1)),
    partial(_grouped, cat=Category.FULL_HOUSE, sizes=(3, 2)),
    _flush,
    _straight,
    partial(_grouped, cat=Category.THREE_OF_A_KIND, sizes=(3, 1, 1)),
    partial(_grouped, cat=Category.TWO_PAIR, sizes=(2, 2, 1)),
    partial(_grouped, cat=Category.PAIR, sizes=(2, 1, 1, 1)),
    partial(_grouped, cat=Category.HIGH_CARD, sizes=(1, 1, 1, 1, 1)),
)
_THREE_CARD_FINDERS: tuple[_Finder, ...] = (
    partial(_grouped, cat=Category.THREE_OF_A_KIND, sizes=(3,)),
    partial(_grouped, cat=Category.PAIR, sizes=(2, 1)),
    partial(_grouped, cat=Category.HIGH_CARD, sizes=(1, 1, 1)),
)


def _best(cards: Sequence[Card], size: int) -> tuple[int, tuple[Card, ...]]:
    """The best `size`-card hand of `cards` and its canonically chosen cards (see the module doc)."""
    h = _Holding.of(cards)
    for finder in _THREE_CARD_FINDERS if size == 3 else _FIVE_CARD_FINDERS:
        found = finder(h)
        if found is not None:
            return found[0], tuple(sorted(found[1], reverse=True))
    raise AssertionError("a high-card hand always exists")  # pragma: no cover


def _check(cards: Sequence[Card], what: str) -> None:
    if len({c.index for c in cards}) != len(cards):
        raise ValueError(f"{what} {' '.join(map(str, cards))} holds the same card twice")


def _table_key(cards: Sequence[Card]) -> tuple[int, int, int, bool] | None:
    """(size, rank-count key, jokers, all naturals suited) or None if a card repeats."""
    key = seen = suits = jokers = 0
    for card in cards:
        bit = 1 << card.index
        if seen & bit:
            return None
        seen |= bit
        if card.index >= 52:
            jokers += 1
        else:
            key += 1 << 3 * (card.index >> 2)
            suits |= 1 << (card.index & 3)
    return len(cards), key, jokers, len(cards) == 5 and suits in (1, 2, 4, 8)


def _build_table() -> dict[tuple[int, int, int, bool], int]:
    """Every 3- and 5-card hand class (rank multiset, jokers, suited or not) -> its value."""
    table: dict[tuple[int, int, int, bool], int] = {}
    for size in (3, 5):
        for jokers in range(3):
            for ranks in combinations_with_replacement(range(13), size - jokers):
                if any(ranks.count(r) > 4 for r in ranks):
                    continue
                distinct = len(set(ranks)) == len(ranks)
                # Suits: the k-th card of a rank gets suit k; an unsuited distinct hand breaks suit once.
                suits = [ranks[:i].count(r) for i, r in enumerate(ranks)]
                patterns = [suits]
                if distinct and len(ranks) > 1:
                    patterns = [[1] + suits[1:]]
                    if size == 5:
                        patterns.append(suits)
                for pattern in patterns:
                    hand = [Card(r * 4 + s) for r, s in zip(ranks, pattern, strict=True)]
                    hand += [Card(52 + j) for j in range(jokers)]
                    key = _table_key(hand)
                    assert key is not None
                    table[key] = _best(hand, size)[0]
    return table


_VALUES = _build_table()


def evaluate(cards: Sequence[Card]) -> int:
    """The value of a 3- or 5-card hand; jokers take whatever substitution is best.

    >>> describe(evaluate(parse_cards("As Ks Qs Js JK")))
    'Royal Flush'
    >>> describe(evaluate(parse_cards("9c 9d JK")))
    'Three Nines'
    >>> evaluate(parse_cards("2c 3c 4c 5c"))
    Traceback (most recent call last):
    ...
    ValueError: 2c 3c 4c 5c cannot be evaluated: a hand has 3 or 5 cards, all different (got 4)
    """
    key = _table_key(cards)
    if key is None or key[0] not in (3, 5):
        raise ValueError(f"{' '.join(map(str, cards))} cannot be evaluated: a hand has 3 or 5 cards, "
                         f"all different (got {len(cards)})")
    return _VALUES[key]


def best_hand(cards: Sequence[Card], size: int = 5) -> tuple[int, tuple[Card, ...]]:
    """The best `size`-card hand (3 or 5) among `cards`: its value and its cards, by descending index.

    The cards are the canonical choice described in the module doc (natural cards before jokers, lowest
    suits first, highest kickers, flush suit by value then fewer jokers then lowest suit).

    >>> value, chosen = best_hand(parse_cards("Ac Ad Kh Ks Kc 7d 2c JK"))
    >>> describe(value), " ".join(map(str, chosen))
    ('Four Kings', 'JK Ac Ks Kh Kc')
    >>> value, chosen = best_hand(parse_cards("Ac Ad Kh Ks Kc 7d 2c JK"), 3)
    >>> describe(value), " ".join(map(str, chosen))
    ('Three Aces', 'JK Ad Ac')
    """
    if size not in (3, 5):
        raise ValueError(f"a hand has 3 or 5 cards, not {size}")
    if len(cards) < size:
        raise ValueError(f"{len(cards)} cards cannot make a {size}-card hand")
    _check(cards, "the holding")
    return _best(cards, size)


def category(value: int) -> Category:
    """The category of a hand value.

    >>> category(evaluate(parse_cards("Ac Kc Qc Jc 9c")))
    <Category.FLUSH: 5>
    """
    return Category(value >> 20)


def _plural(rank: int) -> str:
    return "Sixes" if rank == 4 else _RANK_NAMES[rank] + "s"


def describe(value: int) -> str:
    """A hand value in words.

    >>> [describe(evaluate(parse_cards(t))) for t in ("Kc Kd 3s", "Ah Kh Qh 7c 2d", "5d 4c 3s 2h Ac")]
    ['Pair of Kings', 'Ace High', 'Five-High Straight']
    >>> [describe(evaluate(parse_cards(t))) for t in ("6c 6d 6s Qh Qc", "Jc Jd 4s 4h 9c", "9s 8s 7s 6s 5s")]
    ['Full House, Sixes over Queens', 'Two Pair, Jacks and Fours', 'Nine-High Straight Flush']
    """
    cat = category(value)
    ranks = [(value >> shift & 15) - 1 for shift in (16, 12, 8, 4, 0)]
    top = _RANK_NAMES[ranks[0]]
    match cat:
        case Category.FIVE_OF_A_KIND:
            return f"Five {_plural(ranks[0])}"
        case Category.STRAIGHT_FLUSH:
            return "Royal Flush" if ranks[0] == ACE else f"{top}-High Straight Flush"
        case Category.FOUR_OF_A_KIND:
            return f"Four {_plural(ranks[0])}"
        case Category.FULL_HOUSE:
            return f"Full House, {_plural(ranks[0])} over {_plural(ranks[1])}"
        case Category.FLUSH:
            return f"{top}-High Flush"
        case Category.STRAIGHT:
            return f"{top}-High Straight"
        case Category.THREE_OF_A_KIND:
            return f"Three {_plural(ranks[0])}"
        case Category.TWO_PAIR:
            return f"Two Pair, {_plural(ranks[0])} and {_plural(ranks[1])}"
        case Category.PAIR:
            return f"Pair of {_plural(ranks[0])}"
        case _:
            return f"{top} High"


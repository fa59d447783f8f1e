"""Compiled poker evaluation for the lab's kernels: best 5 (or 3) of up to 54 cards, straight from bitmasks.

A holding is a card-set mask (`int64`) in the lane layout: each suit has a 16-bit lane, bit
16 * suit + rank for a natural card (egm.cards index rank * 4 + suit), and the jokers 52 and 53 are bits 61
and 62 (`CARD_BITS`, `mask_of`). A suit's rank set is then one shift and one mask, and the cards of a rank
are one column across the lanes: the census every evaluation starts with costs a few instructions.
The functions compute, with no subset enumeration, the value of the best hand in
exactly egm.poker's encoding, and the mask of the cards that make it, chosen by exactly the canonical
rule egm.poker.best_hand documents (natural cards before jokers, joker 52 first; lowest suits first
within a rank; highest kickers; a straight flush or flush from the suit that needs fewer jokers, then the
lowest suit; a flush takes every joker as an extra ace). tests/test_fast_eval.py proves value and cards
equal to the reference on random holdings of 3 to 13 cards, with and without jokers.

>>> from egm.cards import Card, parse_cards
>>> from egm.poker import describe
>>> def cards_of(chosen): return [str(Card(i)) for i in range(54) if chosen >> CARD_BITS[i] & 1]
>>> cards = mask_of(np.array([c.index for c in parse_cards("Ac Ad Kh Ks Kc 7d 2c JK")], np.uint8))
>>> value, chosen = best5_mask(cards)
>>> describe(value), cards_of(chosen)
('Four Kings', ['Kc', 'Kh', 'Ks', 'Ac', 'JK'])
>>> value, chosen = best3_mask(cards & ~chosen)
>>> describe(value), cards_of(chosen)
('Ace High', ['2c', '7d', 'Ad'])

All functions are `numba.njit(cache=True)`; call them from other compiled code or from Python.
"""

from __future__ import annotations

import numpy as np

from egm.lab.jit import njit

JOKER_BIT = 61  # joker 52; joker 53 is the next bit
JOKERS = np.int64(3) << np.int64(JOKER_BIT)
ALL_RANKS = 0x1FFF  # one lane: the 13 ranks
COLUMN = 0x0001000100010001  # bit 0 of each lane: shifted left by r, the four cards of rank r

FIVE_OF_A_KIND = 9
STRAIGHT_FLUSH = 8
FOUR_OF_A_KIND = 7
FULL_HOUSE = 6
FLUSH = 5
STRAIGHT = 4
THREE_OF_A_KIND = 3
TWO_PAIR = 2
PAIR = 1
HIGH_CARD = 0

# CARD_BITS[index]: the bit of the card with that egm.cards index (rank * 4 + suit; jokers 52, 53).
CARD_BITS = np.array([16 * (i & 3) + (i >> 2) for i in range(52)] + [JOKER_BIT, JOKER_BIT + 1], np.int64)
# HIGHEST_RANK[x]: the highest set bit of a 13-bit rank set x (x > 0).
HIGHEST_RANK = np.array([max(r for r in range(13) if x >> r & 1) if x else -1 for x in range(1 << 13)],
                        np.int8)
# STRAIGHT_RANKS[top]: the rank set of the straight with `top` on top (3 = the wheel, A-2-3-4-5).
STRAIGHT_RANKS = np.array([0x100F if top == 3 else 31 << (top - 4) if top > 3 else 0 for top in range(13)],
                          np.int64)


def _top_ranks(ranks: int, k: int) -> list[int]:
    return [r for r in range(12, -1, -1) if ranks >> r & 1][:k]


# TOP[k, x]: the k highest ranks of the rank set x, as a rank set; DESCENDING[x]: x's five highest ranks
# as rank + 1 nibbles, highest first, left-aligned in 20 bits (0 nibbles where x holds fewer): a hand
# value's tie-break part, so the top k of them are DESCENDING[x] >> 4 * (5 - k).
TOP = np.array([[sum(1 << r for r in _top_ranks(x, k)) for x in range(1 << 13)] for k in range(6)], np.int64)
DESCENDING = np.array([sum((r + 1) << (16 - 4 * i) for i, r in enumerate(_top_ranks(x, 5)))
                       for x in range(1 << 13)], np.int64)


@njit(cache=True)
def _popcount(x: int) -> int:
    """Set bits of a value below 2^16."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(cache=True)
def _lowest_bits(x: int, k: int) -> int:
    """The k lowest set bits of x (fewer if x has fewer)."""
    out = 0
    for _ in range(k):
        if x == 0:
            break
        bit = x & -x
        out |= bit
        x ^= bit
    return out


@njit(cache=True, inline="always")
def _naturals(mask: int, rank: int, k: int) -> int:
    """The k cards of `rank` with the lowest suits."""
    return _lowest_bits((mask >> rank) & COLUMN, k) << rank


@njit(cache=True, inline="always")
def _lowest_suits(mask: int, ranks: int) -> int:
    """For each rank of `ranks`, the card of it from the lowest suit `mask` holds (none if it holds
    none): the four lanes at once."""
    held = mask & (ranks * COLUMN)
    s0, s1 = held & ALL_RANKS, (held >> 16) & ALL_RANKS
    s2, s3 = (held >> 32) & ALL_RANKS, (held >> 48) & ALL_RANKS
    below = s0 | s1
    return s0 | (s1 & ~s0) << 16 | (s2 & ~below) << 32 | (s3 & ~(below | s2)) << 48


@njit(cache=True, inline="always")
def _lowest_cards(mask: int, pairs: int, singles: int) -> int:
    """For each rank of `pairs` its two cards from the lowest suits, and for each rank of `singles` its
    card from the lowest suit (disjoint rank sets), the four lanes at once: a suit's card is taken
    unless enough lower suits hold the rank."""
    held = mask & ((pairs | singles) * COLUMN)
    s0, s1 = held & ALL_RANKS, (held >> 16) & ALL_RANKS
    s2, s3 = (held >> 32) & ALL_RANKS, (held >> 48) & ALL_RANKS
    one_below2, one_below3 = s0 | s1, s0 | s1 | s2
    two_below2, two_below3 = s0 & s1, (s0 & s1) | (s2 & (s0 | s1))
    return (s0 | (s1 & (pairs | ~s0)) << 16 | (s2 & ((pairs & ~two_below2) | (singles & ~one_below2))) << 32
            | (s3 & ((pairs & ~two_below3) | (singles & ~one_below3))) << 48)


@njit(cache=True)
def _at_least(counts: tuple[int, int, int, int, int, int], k: int) -> int:
    """The ranks held k or more times (all ranks for k <= 0). counts[i] = ranks held i+ times, i=0..5."""
    return counts[max(k, 0)] if k <= 5 else 0


@njit(cache=True)
def _count(counts: tuple[int, int, int, int, int, int], rank: int) -> int:
    return ((counts[1] >> rank) & 1) + ((counts[2] >> rank) & 1) + ((counts[3] >> rank) & 1) + (
        (counts[4] >> rank) & 1)


# From here to _census, the joker search's helpers are inlined in numba's IR (inline="always"): each call
# site then has its constant category, group sizes and k folded in.
@njit(cache=True, inline="always")
def _singles(mask: int, held: int, used: int, k: int, jokers_left: int) -> tuple[bool, int, int, int]:
    """k kickers of distinct unused ranks, highest first, a natural card (lowest suit) where one is held
    and a joker otherwise: (found, ranks + 1 as k nibbles, natural cards, jokers used)."""
    packed = 0
    chosen = 0
    jokers = 0
    got = 0
    rank = 12
    while got < k and rank >= 0:
        if not (used >> rank) & 1:
            if (held >> rank) & 1:
                chosen |= _naturals(mask, rank, 1)
            elif jokers < jokers_left:
                jokers += 1
            else:
                rank -= 1
                continue
            packed = packed << 4 | (rank + 1)
            got += 1
        rank -= 1
    return got == k, packed, chosen, jokers


@njit(cache=True, inline="always")
def _grouped(mask: int, counts: tuple[int, int, int, int, int, int], jokers_held: int, cat: int, a: int,
             b: int, k: int) -> tuple[int, int]:
    """The best hand of `cat` made of a group of a cards (0: none), a group of b cards (0: none) and k
    kickers, all of distinct ranks; (-1, 0) if the holding cannot make it. Mirrors egm.poker's search:
    the highest first rank whose hand can be completed, then the highest second, then kickers."""
    candidates_a = _at_least(counts, a - jokers_held) if a else 1
    while candidates_a:
        ra = HIGHEST_RANK[candidates_a]
        candidates_a ^= 1 << ra
        need_a = a - min(_count(counts, ra), a) if a else 0
        candidates_b = _at_least(counts, b - jokers_held + need_a) & ~(1 << ra) if b else 1
        while candidates_b:
            rb = HIGHEST_RANK[candidates_b]
            candidates_b ^= 1 << rb
            need_b = b - min(_count(counts, rb), b) if b else 0
            used = (1 << ra if a else 0) | (1 << rb if b else 0)
            found, packed, kickers, jokers = _singles(mask, counts[1], used, k,
                                                      jokers_held - need_a - need_b)
            if not found:
                continue
            value = cat
            groups = 0
            chosen = kickers | _lowest_bits(mask & JOKERS, need_a + need_b + jokers)
            if a:
                value = value << 4 | (ra + 1)
                chosen |= _naturals(mask, ra, a)
                groups += 1
            if b:
                value = value << 4 | (rb + 1)
                chosen |= _naturals(mask, rb, b)
                groups += 1
            value = (value << (4 * k) | packed) << (4 * (5 - groups - k))
            return value, chosen
    return -1, 0


@njit(cache=True, inline="always")
def _straight_top(ranks: int, jokers_held: int) -> tuple[int, int]:
    """The highest straight that `ranks` and the jokers make: (top, jokers needed), or (-1, 9). The
    general search (two jokers); no joker and one joker have the direct `_run_top` and `_gapped_top`."""
    extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit r + 1 = rank r; bit 0 = the ace, low
    for top in range(12, 2, -1):
        need = 5 - _popcount((extended >> (top - 3)) & 31)
        if need <= jokers_held:
            return top, need
    return -1, 9


@njit(cache=True, inline="always")
def _straight_flush(mask: int, suits: tuple[int, int, int, int], jokers_held: int) -> tuple[int, int]:
    best_top, best_need, best_suit = -1, 9, -1
    for suit in range(4):
        if _popcount(suits[suit]) + jokers_held >= 5:
            top, need = _straight_top(suits[suit], jokers_held)
            if top > best_top or (top == best_top and need < best_need):
                best_top, best_need, best_suit = top, need, suit
    if best_top < 0:
        return -1, 0
    chosen = _lowest_bits(mask & JOKERS, best_need) | mask & (STRAIGHT_RANKS[best_top] << (16 * best_suit))
    return (STRAIGHT_FLUSH << 4 | (best_top + 1)) << 16, chosen


@njit(cache=True, inline="always")
def _flush(mask: int, suits: tuple[int, int, int, int], jokers_held: int) -> tuple[int, int]:
    """The best flush; each joker is one more ace of the suit, so the jokers lead the value."""
    aces = 0
    for _ in range(jokers_held):
        aces = aces << 4 | 13
    best_value, best_suit = -1, -1
    for suit in range(4):
        if _popcount(suits[suit]) + jokers_held >= 5:
            value = (FLUSH << (4 * jokers_held) | aces) << (20 - 4 * jokers_held) | (
                DESCENDING[suits[suit]] >> (4 * jokers_held))
            if value > best_value:
                best_value, best_suit = value, suit
    if best_value < 0:
        return -1, 0
    return best_value, mask & JOKERS | TOP[5 - jokers_held, suits[best_suit]] << (16 * best_suit)


@njit(cache=True, inline="always")
def _straight(mask: int, held: int, jokers_held: int) -> tuple[int, int]:
    top, need = _straight_top(held, jokers_held)
    if top < 0:
        return -1, 0
    chosen = _lowest_bits(mask & JOKERS, need) | _lowest_suits(mask, STRAIGHT_RANKS[top] & held)
    return (STRAIGHT << 4 | (top + 1)) << 16, chosen


@njit(cache=True, inline="always")
def _census(mask: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int, int, int], int]:
    """(rank set of each suit, ranks held at least 0..5 times, jokers held)."""
    s0, s1 = mask & ALL_RANKS, (mask >> 16) & ALL_RANKS
    s2, s3 = (mask >> 32) & ALL_RANKS, (mask >> 48) & ALL_RANKS
    one = s0 | s1 | s2 | s3
    two = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3))
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    four = s0 & s1 & s2 & s3
    return (s0, s1, s2, s3), (ALL_RANKS, one, two, three, four, 0), (mask >> JOKER_BIT & 1) + (
        mask >> (JOKER_BIT + 1) & 1)


@njit(cache=True, inline="always")
def _with_jokers(mask: int, suits: tuple[int, int, int, int], counts: tuple[int, int, int, int, int, int],
                 jokers: int) -> tuple[int, int]:
    """best5_mask of a holding with two jokers: egm.poker's search, category by category, best first."""
    value, chosen = _grouped(mask, counts, jokers, FIVE_OF_A_KIND, 5, 0, 0)
    if value < 0:
        value, chosen = _straight_flush(mask, suits, jokers)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, FOUR_OF_A_KIND, 4, 0, 1)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, FULL_HOUSE, 3, 2, 0)
    if value < 0:
        value, chosen = _flush(mask, suits, jokers)
    if value < 0:
        value, chosen = _straight(mask, counts[1], jokers)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, THREE_OF_A_KIND, 3, 0, 2)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, TWO_PAIR, 2, 2, 1)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, PAIR, 2, 0, 3)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, HIGH_CARD, 0, 0, 5)
    return value, chosen


@njit(cache=True, inline="always")
def _run_top(ranks: int) -> int:
    """The top of the highest straight in a rank set, or -1."""
    extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit r + 1 = rank r; bit 0 = the ace, low
    runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4)
    return HIGHEST_RANK[runs] + 3 if runs else -1


@njit(cache=True, inline="always")
def _suits_holding(naturals: int, k: int) -> int:
    """The suits holding k (1..13) or more of the natural cards `naturals`, as bits 0..3: the four
    lanes counted at once (SWAR)."""
    x = naturals - ((naturals >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = (x + (x >> 8)) & 0x001F001F001F001F  # each lane's count, at most 13
    x = ((x + (16 - k) * COLUMN) >> 4) & COLUMN  # bit 16 * suit: k or more
    return (x | x >> 15 | x >> 30 | x >> 45) & 15


@njit(cache=True, inline="always")
def _natural(mask: int, suits: tuple[int, int, int, int], counts: tuple[int, int, int, int, int, int]
             ) -> tuple[int, int]:
    """best5_mask of a joker-free holding: each category straight from the rank sets, no search."""
    one, two, three, four = counts[1], counts[2], counts[3], counts[4]
    flushes = _suits_holding(mask, 5)
    if flushes:
        top, top_suit = -1, 0
        for suit in range(4):
            if flushes >> suit & 1:
                run = _run_top(suits[suit])
                if run > top:  # on a tie the lower suit stays
                    top, top_suit = run, suit
        if top >= 0:
            return (STRAIGHT_FLUSH << 4 | (top + 1)) << 16, STRAIGHT_RANKS[top] << (16 * top_suit)
    if four:
        quad = HIGHEST_RANK[four]
        kicker = TOP[1, one ^ (1 << quad)]
        return (FOUR_OF_A_KIND << 4 | (quad + 1)) << 16 | DESCENDING[kicker] >> 4, (
            mask & (COLUMN << quad) | _lowest_suits(mask, kicker))
    if three:
        trips = 1 << HIGHEST_RANK[three]
        pairs = two ^ trips
        if pairs:
            pair = TOP[1, pairs]
            # no quads here, so the trips rank is held exactly three times
            return FULL_HOUSE << 20 | DESCENDING[trips] | DESCENDING[pair] >> 4, (
                mask & (COLUMN * trips) | _lowest_cards(mask, pair, 0))
    if flushes:
        best, best_suit = -1, 0
        for suit in range(4):
            if (flushes >> suit) & 1 and DESCENDING[suits[suit]] > best:
                best, best_suit = DESCENDING[suits[suit]], suit
        return FLUSH << 20 | best, TOP[5, suits[best_suit]] << (16 * best_suit)
    top = _run_top(one)
    if top >= 0:
        return (STRAIGHT << 4 | (top + 1)) << 16, _lowest_suits(mask, STRAIGHT_RANKS[top])
    if three:
        trips = 1 << HIGHEST_RANK[three]
        kickers = TOP[2, one ^ trips]
        return THREE_OF_A_KIND << 20 | DESCENDING[trips] | DESCENDING[kickers] >> 4, (
            mask & (COLUMN * trips) | _lowest_suits(mask, kickers))
    if two & (two - 1):
        pairs = TOP[2, two]
        kicker = TOP[1, one ^ pairs]
        return TWO_PAIR << 20 | DESCENDING[pairs] | DESCENDING[kicker] >> 8, (
            _lowest_cards(mask, pairs, kicker))
    if two:
        kickers = TOP[3, one ^ two]
        return PAIR << 20 | DESCENDING[two] | DESCENDING[kickers] >> 4, (
            _lowest_cards(mask, two, kickers))
    kickers = TOP[5, one]
    return DESCENDING[kickers], _lowest_suits(mask, kickers)


@njit(cache=True, inline="always")
def _gapped_top(ranks: int) -> tuple[int, int]:
    """The highest straight that `ranks` and one joker make: (top, jokers needed), or (-1, 9)."""
    a = (ranks << 1) | ((ranks >> 12) & 1)  # bit r + 1 = rank r; bit 0 = the ace, low
    b, c, d, e = a >> 1, a >> 2, a >> 3, a >> 4
    ab, cd = a & b, c & d
    # bit i: four of the ranks i - 1 .. i + 3 held (i <= 9: no window runs past the ace)
    four_of_five = ((ab & cd) | (e & ((ab & (c | d)) | (cd & (a | b))))) & 0x3FF
    if not four_of_five:
        return -1, 9
    low = HIGHEST_RANK[four_of_five]
    return low + 3, 1 - ((ab & cd & e) >> low & 1)


@njit(cache=True, inline="always")
def _one_joker(mask: int, suits: tuple[int, int, int, int], counts: tuple[int, int, int, int, int, int]
               ) -> tuple[int, int]:
    """best5_mask of a holding with one joker, straight from the natural cards' rank sets: the joker
    completes the best hand of each category in turn (it can never leave two pair or high card best)."""
    joker = mask & JOKERS
    one, two, three, four = counts[1], counts[2], counts[3], counts[4]
    if four:
        quad = TOP[1, four]
        return FIVE_OF_A_KIND << 20 | DESCENDING[quad], mask & (COLUMN * quad) | joker
    fours = _suits_holding(mask & ~JOKERS, 4)
    top, need, top_suit = -1, 9, 0
    for suit in range(4):
        if fours >> suit & 1:
            run, run_need = _gapped_top(suits[suit])
            if run > top or (run == top and run_need < need):  # on a full tie the lower suit stays
                top, need, top_suit = run, run_need, suit
    if top >= 0:
        return (STRAIGHT_FLUSH << 4 | (top + 1)) << 16, (
            mask & (STRAIGHT_RANKS[top] << (16 * top_suit)) | (joker if need else 0))
    if three:
        trips = TOP[1, three]
        kicker = TOP[1, one ^ trips]
        return FOUR_OF_A_KIND << 20 | DESCENDING[trips] | DESCENDING[kicker] >> 4, (
            mask & (COLUMN * trips) | joker | _lowest_suits(mask, kicker))
    if two & (two - 1):
        pairs = TOP[2, two]
        return FULL_HOUSE << 20 | DESCENDING[pairs], mask & (COLUMN * pairs) | joker  # no trips here
    best, best_suit = -1, 0
    for suit in range(4):
        if fours >> suit & 1 and DESCENDING[suits[suit]] > best:
            best, best_suit = DESCENDING[suits[suit]], suit
    if best >= 0:
        return (FLUSH << 4 | 13) << 16 | best >> 4, TOP[4, suits[best_suit]] << (16 * best_suit) | joker
    top, need = _gapped_top(one)
    if top >= 0:
        return (STRAIGHT << 4 | (top + 1)) << 16, (
            _lowest_suits(mask, STRAIGHT_RANKS[top] & one) | (joker if need else 0))
    if two:
        kickers = TOP[2, one ^ two]
        return THREE_OF_A_KIND << 20 | DESCENDING[two] | DESCENDING[kickers] >> 4, (
            mask & (COLUMN * two) | _lowest_suits(mask, kickers) | joker)
    pair = TOP[1, one]
    kickers = TOP[3, one ^ pair]
    return PAIR << 20 | DESCENDING[pair] | DESCENDING[kickers] >> 4, (
        _lowest_suits(mask, pair | kickers) | joker)


@njit(cache=True)
def best5_mask(mask: int) -> tuple[int, int]:
    """The best 5-card hand of a holding of at least 5 cards: (value, mask of the chosen cards)."""
    suits, counts, jokers = _census(mask)
    if jokers == 1:
        return _one_joker(mask, suits, counts)
    if jokers:
        return _with_jokers(mask, suits, counts, jokers)
    return _natural(mask, suits, counts)


@njit(cache=True)
def value5_mask(mask: int) -> int:
    """The value of exactly five cards: best5_mask's, straight from the rank sets when no joker is held
    (every card plays, so there is nothing to choose: the house way's middle around a 3-card front)."""
    suits, counts, jokers = _census(mask)
    if jokers == 1:
        return _one_joker(mask, suits, counts)[0]
    if jokers:
        return _with_jokers(mask, suits, counts, jokers)[0]
    one, two, three, four = counts[1], counts[2], counts[3], counts[4]
    if not two:  # five ranks: a straight, a flush, both or neither
        flush = one == suits[0] or one == suits[1] or one == suits[2] or one == suits[3]
        top = _run_top(one)
        if top >= 0:
            return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 4 | (top + 1)) << 16
        return (FLUSH << 20 if flush else 0) | DESCENDING[one]
    if four:
        return FOUR_OF_A_KIND << 20 | DESCENDING[four] | DESCENDING[one ^ four] >> 4
    if three:
        if two ^ three:
            return FULL_HOUSE << 20 | DESCENDING[three] | DESCENDING[two ^ three] >> 4
        return THREE_OF_A_KIND << 20 | DESCENDING[three] | DESCENDING[one ^ three] >> 4
    if two & (two - 1):
        return TWO_PAIR << 20 | DESCENDING[two] | DESCENDING[one ^ two] >> 8
    return PAIR << 20 | DESCENDING[two] | DESCENDING[one ^ two] >> 4


@njit(cache=True)
def best3_mask(mask: int) -> tuple[int, int]:
    """The best 3-card hand of a holding of at least 3 cards: (value, mask of the chosen cards)."""
    _, counts, jokers = _census(mask)
    value, chosen = _grouped(mask, counts, jokers, THREE_OF_A_KIND, 3, 0, 0)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, PAIR, 2, 0, 1)
    if value < 0:
        value, chosen = _grouped(mask, counts, jokers, HIGH_CARD, 0, 0, 3)
    return value, chosen


@njit(cache=True, inline="always")
def value3_mask(mask: int) -> int:
    """The value of exactly three cards: best3_mask's, straight from the held ranks (the house way's
    front, once per candidate setting, so inlined there)."""
    ranks = (mask | mask >> 16 | mask >> 32 | mask >> 48) & ALL_RANKS
    top = HIGHEST_RANK[ranks]
    rest = ranks ^ (1 << top)
    if not rest:  # one natural rank: three of it, the jokers standing in
        return (THREE_OF_A_KIND << 4 | (top + 1)) << 16
    if mask & JOKERS:  # one joker and two ranks: it pairs the top one
        return ((PAIR << 4 | (top + 1)) << 4 | (HIGHEST_RANK[rest] + 1)) << 12
    if rest & (rest - 1):
        return DESCENDING[ranks]
    low = HIGHEST_RANK[rest]
    top_cards = (mask >> top) & COLUMN
    pair, kicker = (top, low) if top_cards & (top_cards - 1) else (low, top)
    return ((PAIR << 4 | (pair + 1)) << 4 | (kicker + 1)) << 12


@njit(cache=True)
def mask_of(cards: np.ndarray) -> int:
    """The card-set mask of an array of card indices (uint8, 0..53)."""
    mask = np.int64(0)
    for card in cards:
        mask |= np.int64(1) << CARD_BITS[card]
    return mask


@njit(cache=True)
def best5_many(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """best5_mask over an array of holdings: (values, chosen masks)."""
    values = np.empty(masks.size, np.int64)
    chosen = np.empty(masks.size, np.int64)
    for i in range(masks.size):
        values[i], chosen[i] = best5_mask(masks[i])
    return values, chosen

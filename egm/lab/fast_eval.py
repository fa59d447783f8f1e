"""Compiled poker evaluation for the lab's kernels: best 5 (or 3) of up to 54 cards, straight from bitmasks.

A holding is a card-set mask (`int64`, bit i = the card with index i of egm.cards: rank * 4 + suit,
jokers 52 and 53). The functions compute, with no subset enumeration, the value of the best hand in
exactly egm.poker's encoding, and the mask of the cards that make it, chosen by exactly the canonical
rule egm.poker.best_hand documents (natural cards before jokers, joker 52 first; lowest suits first
within a rank; highest kickers; a straight flush or flush from the suit that needs fewer jokers, then the
lowest suit; a flush takes every joker as an extra ace). tests/test_fast_eval.py proves value and cards
equal to the reference on random holdings of 3 to 13 cards, with and without jokers.

>>> from egm.cards import Card, parse_cards
>>> from egm.poker import describe
>>> cards = mask_of(np.array([c.index for c in parse_cards("Ac Ad Kh Ks Kc 7d 2c JK")], np.uint8))
>>> value, chosen = best5_mask(cards)
>>> describe(value), [str(Card(i)) for i in range(54) if chosen >> i & 1]
('Four Kings', ['Kc', 'Kh', 'Ks', 'Ac', 'JK'])
>>> value, chosen = best3_mask(cards & ~chosen)
>>> describe(value), [str(Card(i)) for i in range(54) if chosen >> i & 1]
('Ace High', ['2c', '7d', 'Ad'])

All functions are `numba.njit(cache=True)`; call them from other compiled code or from Python.
"""

from __future__ import annotations

import numpy as np

from egm.lab.jit import njit

JOKERS = np.int64(3) << np.int64(52)
ALL_RANKS = 0x1FFF
NIBBLE_LOW_BITS = 0x1111111111111  # bit 4r: the clubs card of each rank

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

# HIGHEST_RANK[x]: the highest set bit of a 13-bit rank set x (x > 0).
HIGHEST_RANK = np.array([max(r for r in range(13) if x >> r & 1) if x else -1 for x in range(1 << 13)],
                        np.int8)
# STRAIGHT_RANKS[top]: the rank set of the straight with `top` on top (3 = the wheel, A-2-3-4-5).
STRAIGHT_RANKS = np.array([0x100F if top == 3 else 31 << (top - 4) if top > 3 else 0 for top in range(13)],
                          np.int64)


@njit(cache=True)
def _popcount(x: int) -> int:
    """Set bits of a value below 2^16."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(cache=True)
def _popcount64(x: int) -> int:
    """Set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


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


@njit(cache=True)
def _naturals(mask: int, rank: int, k: int) -> int:
    """The k cards of `rank` with the lowest suits."""
    return _lowest_bits((mask >> (4 * rank)) & 15, k) << (4 * rank)


@njit(cache=True)
def _suit_ranks(mask: int, suit: int) -> int:
    """The ranks (13-bit set) held in `suit`: bits 4r + suit gathered to bits r."""
    x = (mask >> suit) & NIBBLE_LOW_BITS
    x = (x | (x >> 3)) & 0x0303030303030303
    x = (x | (x >> 6)) & 0x000F000F000F000F
    x = (x | (x >> 12)) & 0x000000FF000000FF
    return (x | (x >> 24)) & 0xFFFF


@njit(cache=True)
def _at_least(counts: tuple[int, int, int, int, int, int], k: int) -> int:
    """The ranks held k or more times (all ranks for k <= 0). counts[i] = ranks held i+ times, i=0..5."""
    return counts[max(k, 0)] if k <= 5 else 0


@njit(cache=True)
def _count(counts: tuple[int, int, int, int, int, int], rank: int) -> int:
    return ((counts[1] >> rank) & 1) + ((counts[2] >> rank) & 1) + ((counts[3] >> rank) & 1) + (
        (counts[4] >> rank) & 1)


# From here to _census, best5_mask's helpers are inlined in numba's IR (inline="always"): each call site
# then has its constant category, group sizes and k folded in (best5_mask about 35 % faster).
@njit(cache=True, inline="always")
def _singles(mask: int, held: int, used: int, k: int, jokers_left: int) -> tuple[bool, int, int, int]:
    """k kickers of distinct unused ranks, highest first, a natural card (lowest suit) where one is held
    and a joker otherwise: (found, ranks + 1 as k nibbles, natural cards, jokers used)."""
    packed = 0
    chosen = 0
    jokers = 0
    got = 0
    if jokers_left == 0:
        left = held & ~used
        while got < k and left:
            rank = HIGHEST_RANK[left]
            left ^= 1 << rank
            chosen |= _naturals(mask, rank, 1)
            packed = packed << 4 | (rank + 1)
            got += 1
        return got == k, packed, chosen, 0
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
    """The highest straight that `ranks` and the jokers make: (top, jokers needed), or (-1, 9)."""
    extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit r + 1 = rank r; bit 0 = the ace, low
    if jokers_held == 0:  # bit b of `runs`: ranks b - 1 .. b + 3 all held
        runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4)
        return (HIGHEST_RANK[runs] + 3, 0) if runs else (-1, 9)
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
    chosen = _lowest_bits(mask & JOKERS, best_need)
    wanted = STRAIGHT_RANKS[best_top]
    for rank in range(13):
        if (wanted >> rank) & 1:
            chosen |= mask & (np.int64(1) << (4 * rank + best_suit))
    return (STRAIGHT_FLUSH << 4 | (best_top + 1)) << 16, chosen


@njit(cache=True, inline="always")
def _flush(mask: int, suits: tuple[int, int, int, int], jokers_held: int) -> tuple[int, int]:
    best_value, best_suit = -1, -1
    for suit in range(4):
        ranks = suits[suit]
        if _popcount(ranks) + jokers_held < 5:
            continue
        value = FLUSH
        for _ in range(jokers_held):
            value = value << 4 | 13
        for _ in range(5 - jokers_held):
            rank = HIGHEST_RANK[ranks]
            ranks ^= 1 << rank
            value = value << 4 | (rank + 1)
        if value > best_value:
            best_value, best_suit = value, suit
    if best_value < 0:
        return -1, 0
    chosen = mask & JOKERS
    ranks = suits[best_suit]
    for _ in range(5 - jokers_held):
        rank = HIGHEST_RANK[ranks]
        ranks ^= 1 << rank
        chosen |= np.int64(1) << (4 * rank + best_suit)
    return best_value, chosen


@njit(cache=True, inline="always")
def _straight(mask: int, held: int, jokers_held: int) -> tuple[int, int]:
    top, need = _straight_top(held, jokers_held)
    if top < 0:
        return -1, 0
    chosen = _lowest_bits(mask & JOKERS, need)
    wanted = STRAIGHT_RANKS[top] & held
    while wanted:
        rank = HIGHEST_RANK[wanted]
        wanted ^= 1 << rank
        chosen |= _naturals(mask, rank, 1)
    return (STRAIGHT << 4 | (top + 1)) << 16, chosen


@njit(cache=True, inline="always")
def _census(mask: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int, int, int], int]:
    """(rank set of each suit, ranks held at least 0..5 times, jokers held)."""
    s0, s1, s2, s3 = _suit_ranks(mask, 0), _suit_ranks(mask, 1), _suit_ranks(mask, 2), _suit_ranks(mask, 3)
    one = s0 | s1 | s2 | s3
    two = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3))
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    four = s0 & s1 & s2 & s3
    return (s0, s1, s2, s3), (ALL_RANKS, one, two, three, four, 0), _popcount((mask >> 52) & 3)


@njit(cache=True, inline="always")
def _descending(value: int, ranks: int, k: int) -> int:
    """`value` followed by the k highest ranks of `ranks` (rank + 1 per nibble), highest first."""
    for _ in range(k):
        rank = HIGHEST_RANK[ranks]
        ranks ^= 1 << rank
        value = value << 4 | (rank + 1)
    return value


@njit(cache=True, inline="always")
def _five(suits: tuple[int, int, int, int], counts: tuple[int, int, int, int, int, int]) -> int:
    """The value of exactly five natural cards, straight from the rank sets (no search: every card
    plays). The house way's middles around three-card seeds are such holdings."""
    one, two, three = counts[1], counts[2], counts[3]
    if not two:  # five ranks: a straight, a flush, both or neither
        flush = one == suits[0] or one == suits[1] or one == suits[2] or one == suits[3]
        top, _ = _straight_top(one, 0)
        if top >= 0:
            return ((STRAIGHT_FLUSH if flush else STRAIGHT) << 4 | (top + 1)) << 16
        return _descending(FLUSH if flush else HIGH_CARD, one, 5)
    if counts[4]:
        quad = HIGHEST_RANK[counts[4]]
        return _descending(FOUR_OF_A_KIND << 4 | (quad + 1), one ^ (1 << quad), 1) << 12
    if three:
        trips = HIGHEST_RANK[three]
        if two ^ (1 << trips):
            return _descending(FULL_HOUSE << 4 | (trips + 1), two ^ (1 << trips), 1) << 12
        return _descending(THREE_OF_A_KIND << 4 | (trips + 1), one ^ (1 << trips), 2) << 8
    if two & (two - 1):
        return _descending(_descending(TWO_PAIR, two, 2), one ^ two, 1) << 8
    return _descending(PAIR << 4 | (HIGHEST_RANK[two] + 1), one ^ two, 3) << 4


@njit(cache=True, inline="always")
def _best5(mask: int, suits: tuple[int, int, int, int], counts: tuple[int, int, int, int, int, int],
           jokers: int) -> tuple[int, int]:
    """best5_mask's search, category by category, best first."""
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


@njit(cache=True)
def best5_mask(mask: int) -> tuple[int, int]:
    """The best 5-card hand of a holding of at least 5 cards: (value, mask of the chosen cards)."""
    suits, counts, jokers = _census(mask)
    if jokers:
        return _best5(mask, suits, counts, jokers)
    if _popcount64(mask) == 5:
        return _five(suits, counts), mask
    # the common joker-free holding: a copy of the search with the joker count a constant 0, so the
    # compiler folds the joker paths away
    return _best5(mask, suits, counts, 0)


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
    """The value of exactly three cards: best3_mask's, straight from the held ranks when no joker is
    held (the house way's front, once per candidate setting, so inlined there: one rank gather, not a
    full census)."""
    if mask & JOKERS:
        return best3_mask(mask)[0]
    ranks = _suit_ranks(mask | mask >> 1 | mask >> 2 | mask >> 3, 0)  # the ranks held
    top = HIGHEST_RANK[ranks]
    rest = ranks ^ (1 << top)
    if not rest:
        return (THREE_OF_A_KIND << 4 | (top + 1)) << 16
    if rest & (rest - 1):
        return _descending(HIGH_CARD, ranks, 3) << 8
    low = HIGHEST_RANK[rest]
    top_cards = (mask >> (4 * top)) & 15
    pair, kicker = (top, low) if top_cards & (top_cards - 1) else (low, top)
    return ((PAIR << 4 | (pair + 1)) << 4 | (kicker + 1)) << 12


@njit(cache=True)
def mask_of(cards: np.ndarray) -> int:
    """The card-set mask of an array of card indices (uint8, 0..53)."""
    mask = np.int64(0)
    for card in cards:
        mask |= np.int64(1) << np.int64(card)
    return mask


@njit(cache=True)
def best5_many(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """best5_mask over an array of holdings: (values, chosen masks)."""
    values = np.empty(masks.size, np.int64)
    chosen = np.empty(masks.size, np.int64)
    for i in range(masks.size):
        values[i], chosen[i] = best5_mask(masks[i])
    return values, chosen

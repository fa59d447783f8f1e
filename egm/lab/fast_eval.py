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
from numba import njit

JOKERS = np.int64(3) << np.int64(52)
ALL_RANKS = 0x1FFF

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


@njit(cache=True)
def _naturals(mask: int, rank: int, k: int) -> int:
    """The k cards of `rank` with the lowest suits."""
    return _lowest_bits((mask >> (4 * rank)) & 15, k) << (4 * rank)


@njit(cache=True)
def _count(mask: int, rank: int) -> int:
    return _popcount((mask >> (4 * rank)) & 15)


@njit(cache=True)
def _suit_ranks(mask: int, suit: int) -> int:
    """The ranks (13-bit) held in `suit`."""
    out = 0
    for rank in range(13):
        out |= ((mask >> (4 * rank + suit)) & 1) << rank
    return out


@njit(cache=True)
def _singles(mask: int, used: int, k: int, jokers_left: int) -> tuple[bool, int, int, int]:
    """k kickers of distinct unused ranks, highest first, a natural card (lowest suit) where one is held
    and a joker otherwise: (found, ranks + 1 as k nibbles, natural cards, jokers used)."""
    packed = 0
    chosen = 0
    jokers = 0
    got = 0
    rank = 12
    while got < k and rank >= 0:
        if not (used >> rank) & 1:
            nib = (mask >> (4 * rank)) & 15
            if nib:
                chosen |= (nib & -nib) << (4 * rank)
                packed = packed << 4 | (rank + 1)
                got += 1
            elif jokers < jokers_left:
                jokers += 1
                packed = packed << 4 | (rank + 1)
                got += 1
        rank -= 1
    return got == k, packed, chosen, jokers


@njit(cache=True)
def _grouped(mask: int, cat: int, a: int, b: int, k: int) -> tuple[int, int]:
    """The best hand of `cat` made of a group of a cards (0: none), a group of b cards (0: none) and k
    kickers, all of distinct ranks; (-1, 0) if the holding cannot make it. Mirrors egm.poker's search:
    the highest first rank whose hand can be completed, then the highest second, then kickers."""
    jokers_held = _popcount((mask >> 52) & 3)
    for ra in range(12, -1 if a else 11, -1):
        need_a = a - min(_count(mask, ra), a) if a else 0
        if need_a > jokers_held:
            continue
        for rb in range(12, -1 if b else 11, -1):
            if b and rb == ra:
                continue
            need_b = b - min(_count(mask, rb), b) if b else 0
            if need_a + need_b > jokers_held:
                continue
            used = (1 << ra if a else 0) | (1 << rb if b else 0)
            found, packed, kickers, jokers = _singles(mask, used, k, jokers_held - need_a - need_b)
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


@njit(cache=True)
def _straight_window(ranks: int, top: int) -> int:
    """How many of the five ranks of the straight with `top` on top (3 = the wheel) `ranks` holds."""
    extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit r + 1 = rank r; bit 0 = the ace, low
    return _popcount((extended >> (top - 3)) & 31)


@njit(cache=True)
def _straight_ranks(top: int) -> int:
    return 0x100F if top == 3 else 31 << (top - 4)


@njit(cache=True)
def _straight_flush(mask: int, jokers_held: int) -> tuple[int, int]:
    best_top, best_need, best_suit = -1, 9, -1
    for suit in range(4):
        ranks = _suit_ranks(mask, suit)
        if _popcount(ranks) + jokers_held < 5:
            continue
        for top in range(12, 2, -1):
            need = 5 - _straight_window(ranks, top)
            if need <= jokers_held:
                if top > best_top or (top == best_top and need < best_need):
                    best_top, best_need, best_suit = top, need, suit
                break
    if best_top < 0:
        return -1, 0
    chosen = _lowest_bits(mask & JOKERS, best_need)
    wanted = _straight_ranks(best_top)
    for rank in range(13):
        if (wanted >> rank) & 1:
            chosen |= mask & (np.int64(1) << (4 * rank + best_suit))
    return (STRAIGHT_FLUSH << 4 | (best_top + 1)) << 16, chosen


@njit(cache=True)
def _flush(mask: int, jokers_held: int) -> tuple[int, int]:
    best_value, best_suit = -1, -1
    for suit in range(4):
        ranks = _suit_ranks(mask, suit)
        if _popcount(ranks) + jokers_held < 5:
            continue
        value = FLUSH
        for _ in range(jokers_held):
            value = value << 4 | 13
        taken = jokers_held
        for rank in range(12, -1, -1):
            if taken < 5 and (ranks >> rank) & 1:
                value = value << 4 | (rank + 1)
                taken += 1
        if value > best_value:
            best_value, best_suit = value, suit
    if best_value < 0:
        return -1, 0
    chosen = mask & JOKERS
    taken = jokers_held
    for rank in range(12, -1, -1):
        card = np.int64(1) << (4 * rank + best_suit)
        if taken < 5 and mask & card:
            chosen |= card
            taken += 1
    return best_value, chosen


@njit(cache=True)
def _straight(mask: int, jokers_held: int) -> tuple[int, int]:
    held = 0
    for rank in range(13):
        if (mask >> (4 * rank)) & 15:
            held |= 1 << rank
    for top in range(12, 2, -1):
        need = 5 - _straight_window(held, top)
        if need <= jokers_held:
            chosen = _lowest_bits(mask & JOKERS, need)
            wanted = _straight_ranks(top) & held
            for rank in range(13):
                if (wanted >> rank) & 1:
                    chosen |= _naturals(mask, rank, 1)
            return (STRAIGHT << 4 | (top + 1)) << 16, chosen
    return -1, 0


@njit(cache=True)
def best5_mask(mask: int) -> tuple[int, int]:
    """The best 5-card hand of a holding of at least 5 cards: (value, mask of the chosen cards)."""
    jokers_held = _popcount((mask >> 52) & 3)
    value, chosen = _grouped(mask, FIVE_OF_A_KIND, 5, 0, 0)
    if value < 0:
        value, chosen = _straight_flush(mask, jokers_held)
    if value < 0:
        value, chosen = _grouped(mask, FOUR_OF_A_KIND, 4, 0, 1)
    if value < 0:
        value, chosen = _grouped(mask, FULL_HOUSE, 3, 2, 0)
    if value < 0:
        value, chosen = _flush(mask, jokers_held)
    if value < 0:
        value, chosen = _straight(mask, jokers_held)
    if value < 0:
        value, chosen = _grouped(mask, THREE_OF_A_KIND, 3, 0, 2)
    if value < 0:
        value, chosen = _grouped(mask, TWO_PAIR, 2, 2, 1)
    if value < 0:
        value, chosen = _grouped(mask, PAIR, 2, 0, 3)
    if value < 0:
        value, chosen = _grouped(mask, HIGH_CARD, 0, 0, 5)
    return value, chosen


@njit(cache=True)
def best3_mask(mask: int) -> tuple[int, int]:
    """The best 3-card hand of a holding of at least 3 cards: (value, mask of the chosen cards)."""
    value, chosen = _grouped(mask, THREE_OF_A_KIND, 3, 0, 0)
    if value < 0:
        value, chosen = _grouped(mask, PAIR, 2, 0, 1)
    if value < 0:
        value, chosen = _grouped(mask, HIGH_CARD, 0, 0, 3)
    return value, chosen


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

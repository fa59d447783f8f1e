"""The compiled twin of the house way "house-way/2" (egm.games.dragon_poker.house_way), for the lab.

Same algorithm, same candidate order, same integer score and the same tables as the reference, on
card-set masks (int64, bit i = card index i) with egm.lab.fast_eval, whose best5_mask / best3_mask
choose exactly the cards `egm.poker.best_hand` chooses. tests/test_lab_house_way.py proves values
and cards identical to the reference.

>>> from egm.cards import parse_cards
>>> from egm.lab.fast_eval import mask_of
>>> cards = parse_cards("As Ah Ad Kc Kd Qs Qh 9c 8d 7h 5s 4c 2d")
>>> hand = mask_of(np.array([c.index for c in cards], np.uint8))
>>> front, middle, back, *_ = house_way(hand)
>>> back >= middle >= front
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from egm.games.dragon_poker.house_way import (
    BACK_WINS,
    BONUS_POINTS,
    FRONT_WINS,
    MIDDLE_WINS,
    POINT,
    SWEEP_DIVISOR,
    WIN_SCALE,
)
from egm.lab.fast_eval import best3_mask, best5_mask
from egm.poker import Category

MAX_SEEDS = 64  # a hand has at most 45 seeds (six pairs and a single: 1 + 6 x 7 + 2)


def front_table(front_wins: dict[Category, tuple[tuple[int, ...], ...]]) -> np.ndarray:
    """FRONT_WINS as a flat array indexed by a 3-card value >> 12 (category, r1, r2)."""
    table = np.zeros(16 << 8, np.int64)
    for category, by_top in front_wins.items():
        for top, by_second in enumerate(by_top, start=1):
            for second, wins in enumerate(by_second):
                table[category << 8 | top << 4 | second] = wins
    return table


def row_table(row_wins: dict[Category, tuple[int, ...]]) -> np.ndarray:
    """MIDDLE_WINS or BACK_WINS as a flat array indexed by a 5-card value >> 16 (category, r1)."""
    table = np.zeros(16 << 4, np.int64)
    for category, by_top in row_wins.items():
        for top, wins in enumerate(by_top, start=1):
            table[category << 4 | top] = wins
    return table


FRONT_TABLE = front_table(FRONT_WINS)
MIDDLE_TABLE = row_table(MIDDLE_WINS)
BACK_TABLE = row_table(BACK_WINS)


# BONUS[row * 16 + category]: the bonus points the house way counts (house_way.BONUS_POINTS).
BONUS = np.array([BONUS_POINTS[row].get(Category(c), 0) if c < len(Category) else 0
                  for row in ("front", "middle", "back") for c in range(16)], np.int64)


@njit(cache=True)
def _score(front: int, middle: int, back: int, front_wins: np.ndarray, middle_wins: np.ndarray,
           back_wins: np.ndarray) -> int:
    wf, wm, wb = front_wins[front >> 12], middle_wins[middle >> 16], back_wins[back >> 16]
    qf, qm, qb = wf * wf, wm * wm, wb * wb
    sweep = qf * qm * qb
    two_or_more = (qf * qm + qf * qb + qm * qb) * (WIN_SCALE * WIN_SCALE) - 2 * sweep
    bonus = BONUS[front >> 20] + BONUS[16 + (middle >> 20)] + BONUS[32 + (back >> 20)]
    return two_or_more + sweep // SWEEP_DIVISOR + bonus * POINT


@njit(cache=True)
def _rank_cards(mask: int, rank: int) -> int:
    """The cards of `rank` in `mask`, as 4 suit bits."""
    return (mask >> (4 * rank)) & 15


@njit(cache=True)
def _held(cards: int) -> int:
    """How many of the 4 suit bits are set."""
    return (cards & 1) + (cards >> 1 & 1) + (cards >> 2 & 1) + (cards >> 3 & 1)


@njit(cache=True)
def _suit_order(mask: int) -> np.ndarray:
    """The four suits by how many cards of them the hand holds, fewest first (ties: lowest suit)."""
    held = np.zeros(4, np.int64)
    for suit in range(4):
        for rank in range(13):
            held[suit] += (mask >> (4 * rank + suit)) & 1
    order = np.arange(4)
    for i in range(1, 4):  # insertion sort by (held, suit)
        j = i
        while j > 0 and held[order[j - 1]] > held[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    return order


@njit(cache=True)
def _pick(mask: int, rank: int, k: int, order: np.ndarray) -> int:
    """k cards of `rank`, from the suits the hand holds fewest of first."""
    out = np.int64(0)
    got = 0
    for suit in order:
        card = np.int64(1) << (4 * rank + suit)
        if got < k and mask & card:
            out |= card
            got += 1
    return out


@njit(cache=True)
def _seeds(mask: int, seeds: np.ndarray) -> int:
    """Fill `seeds` with the seed masks of step 2, in order; return how many."""
    order = _suit_order(mask)
    singles = np.empty(13, np.int64)  # single cards, highest rank first
    n_singles = 0
    for rank in range(12, -1, -1):
        cards = _rank_cards(mask, rank)
        if _held(cards) == 1:
            singles[n_singles] = cards << (4 * rank)
            n_singles += 1
    seeds[0] = 0
    n = 1
    highest_paired = -1
    for rank in range(13):
        if _held(_rank_cards(mask, rank)) >= 2:
            highest_paired = rank
    for rank in range(highest_paired, -1, -1):
        cards = _rank_cards(mask, rank)
        if _held(cards) >= 2:
            pair = _pick(mask, rank, 2, order)
            if n_singles:
                seeds[n] = pair | singles[0]
                n += 1
            seeds[n] = pair
            n += 1
            for breaker in range(13):
                if breaker != rank and _held(_rank_cards(mask, breaker)) >= 2:
                    seeds[n] = pair | _pick(mask, breaker, 1, order)
                    n += 1
    for rank in range(12, -1, -1):
        cards = _rank_cards(mask, rank)
        if _held(cards) >= 3:
            seeds[n] = _pick(mask, rank, 3, order)
            n += 1
    if n_singles >= 3:
        seeds[n] = singles[0] | singles[1] | singles[2]
        n += 1
    if n_singles >= 4:
        seeds[n] = singles[0] | singles[n_singles - 2] | singles[n_singles - 1]
        n += 1
    if n_singles >= 2:
        seeds[n] = singles[0] | singles[1]
        n += 1
    if n_singles >= 1:
        seeds[n] = singles[0]
        n += 1
        if highest_paired >= 0 and singles[0] < (np.int64(1) << (4 * highest_paired)):
            seeds[n] = singles[0] | _pick(mask, highest_paired, 1, order)
            n += 1
    jokers = mask >> 52
    if jokers and n_singles >= 2:
        seeds[n] = (np.int64(jokers & -jokers) << 52) | singles[0] | singles[1]
        n += 1
    if jokers and n_singles >= 1:
        seeds[n] = (np.int64(jokers & -jokers) << 52) | singles[0]
        n += 1
    return n


@njit(cache=True)
def house_way_with(mask: int, front_wins: np.ndarray, middle_wins: np.ndarray, back_wins: np.ndarray
                   ) -> tuple[int, int, int, int, int, int]:
    """The house way with the given win tables (tools/house_way_tables.py generates them):
    (front, middle, back values, front, middle, back card masks)."""
    seeds = np.empty(MAX_SEEDS, np.int64)
    best = np.int64(-1)
    front = middle = back = front_cards = middle_cards = back_cards = np.int64(0)
    for i in range(_seeds(mask, seeds)):
        rest = mask & ~seeds[i]
        b, b_cards = best5_mask(rest)
        rest &= ~b_cards
        m, m_cards = best5_mask(rest)
        f_cards = seeds[i] | (rest & ~m_cards)
        f, _ = best3_mask(f_cards)
        if b < m or m < f:
            continue
        candidate = _score(f, m, b, front_wins, middle_wins, back_wins)
        if candidate > best:
            best = candidate
            front, middle, back, front_cards, middle_cards, back_cards = f, m, b, f_cards, m_cards, b_cards
    return front, middle, back, front_cards, middle_cards, back_cards


@njit(cache=True)
def house_way(mask: int) -> tuple[int, int, int, int, int, int]:
    """A 13-card hand set by the house way: (front, middle, back values, their card masks)."""
    return house_way_with(mask, FRONT_TABLE, MIDDLE_TABLE, BACK_TABLE)

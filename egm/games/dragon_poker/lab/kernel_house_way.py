"""The compiled twin of the house way "house-way/2" (egm.games.dragon_poker.house_way), for the lab.

Same algorithm, same candidate order, same integer score and the same tables as the reference, on
card-set masks (int64, egm.lab.fast_eval's lane layout) with egm.lab.fast_eval, whose best5_mask / best3_mask
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

from egm.games.dragon_poker.house_way import (
    BACK_WINS,
    BONUS_POINTS,
    FRONT_WINS,
    MIDDLE_WINS,
    POINT,
    SWEEP_DIVISOR,
    WIN_SCALE,
)
from egm.lab.fast_eval import (
    ALL_RANKS,
    COLUMN,
    HIGHEST_RANK,
    JOKER_BIT,
    _census,
    _popcount,
    best5_mask,
    value3_mask,
    value5_mask,
)
from egm.lab.jit import njit
from egm.poker import Category


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
def _suit_order(mask: int) -> int:
    """The four suits by how many natural cards of them the hand holds, fewest first (ties: lowest
    suit), packed 2 bits per suit."""
    k0 = _popcount(mask & ALL_RANKS) << 2
    k1 = _popcount((mask >> 16) & ALL_RANKS) << 2 | 1
    k2 = _popcount((mask >> 32) & ALL_RANKS) << 2 | 2
    k3 = _popcount((mask >> 48) & ALL_RANKS) << 2 | 3
    # a sorting network on (held, suit) keys: no arrays in the hot path
    k0, k1 = min(k0, k1), max(k0, k1)
    k2, k3 = min(k2, k3), max(k2, k3)
    k0, k2 = min(k0, k2), max(k0, k2)
    k1, k3 = min(k1, k3), max(k1, k3)
    k1, k2 = min(k1, k2), max(k1, k2)
    return (k0 & 3) | (k1 & 3) << 2 | (k2 & 3) << 4 | (k3 & 3) << 6


@njit(cache=True)
def _picks(mask: int, ranks: int, order: int) -> tuple[int, int, int]:
    """The first, second and third card of each rank in `ranks`, from the suits the hand holds fewest of
    first (`order`): all the ranks at once, a lane per suit."""
    first, second, third = np.int64(0), np.int64(0), np.int64(0)
    taken1, taken2, taken3 = 0, 0, 0  # the ranks that have a first, a second, a third card
    for i in range(4):
        suit = (order >> (2 * i)) & 3
        lane = (mask >> (16 * suit)) & ranks
        to_third = lane & taken2 & ~taken3
        to_second = lane & taken1 & ~taken2
        to_first = lane & ~taken1
        first |= np.int64(to_first) << (16 * suit)
        second |= np.int64(to_second) << (16 * suit)
        third |= np.int64(to_third) << (16 * suit)
        taken3 |= to_third
        taken2 |= to_second
        taken1 |= to_first
    return first, second, third


@njit(cache=True)
def _single(mask: int, rank: int) -> int:
    """The one card of `rank` in `mask`."""
    return mask & (COLUMN << rank)


@njit(cache=True)
def _highest_single(mask: int, ranks: int) -> tuple[int, int]:
    """(the card of the highest rank in `ranks`, the other ranks); (0, 0) when `ranks` is empty."""
    if not ranks:
        return np.int64(0), 0
    rank = HIGHEST_RANK[ranks]
    return _single(mask, rank), ranks ^ (1 << rank)


@njit(cache=True, inline="always")
def _setting(mask: int, seed: int, added: int, parent: tuple[int, int, int, int], full_front: bool = False
             ) -> tuple[int, int, int, int]:
    """(back value, back cards, middle value, middle cards) around `seed`, from `parent`'s: the setting
    around seed minus the cards `added`. Exact: best5_mask chooses the unique best subset under one
    fixed order (docs/cards-and-rng.md), so a holding that lost only cards it did not choose keeps the
    same value and cards. `full_front`: the seed has 3 cards, so the middle is the five left after the
    back, valued without a search (and always: one branch fewer to mispredict)."""
    back, back_cards, middle, middle_cards = parent
    moves_back = (added & back_cards) != 0
    if moves_back:
        back, back_cards = best5_mask(mask & ~seed)
    if full_front:
        middle_cards = mask & ~seed & ~back_cards
        middle = value5_mask(middle_cards)
    elif moves_back or added & middle_cards:
        middle, middle_cards = best5_mask(mask & ~seed & ~back_cards)
    return back, back_cards, middle, middle_cards


@njit(cache=True, inline="always")
def _moves(added: int, parent: tuple[int, int, int, int]) -> bool:
    """Whether the setting around a seed differs from its parent's (else it is the same setting, with
    the same score: when the parent came first in the seed order, the seed can only tie, and lose)."""
    return (added & (parent[1] | parent[3])) != 0


@njit(cache=True, inline="always")
def _offer(best: tuple[int, int, int, int, int, int, int], mask: int, setting: tuple[int, int, int, int],
           front_wins: np.ndarray, middle_wins: np.ndarray, back_wins: np.ndarray
           ) -> tuple[int, int, int, int, int, int, int]:
    """`best` (score, front, middle, back values, their cards), replaced by `setting` when it does not
    foul and scores higher: offered in the seed order, so ties go to the earlier seed."""
    back, back_cards, middle, middle_cards = setting
    front_cards = mask & ~back_cards & ~middle_cards
    front = value3_mask(front_cards)
    if back < middle or middle < front:
        return best
    candidate = _score(front, middle, back, front_wins, middle_wins, back_wins)
    if candidate > best[0]:
        return candidate, front, middle, back, front_cards, middle_cards, back_cards
    return best


@njit(cache=True, inline="always")
def house_way_with(mask: int, front_wins: np.ndarray, middle_wins: np.ndarray, back_wins: np.ndarray
                   ) -> tuple[int, int, int, int, int, int]:
    """The house way with the given win tables (tools/house_way_tables.py generates them):
    (front, middle, back values, front, middle, back card masks).

    The seeds of step 2 are offered in their order, each setting derived from that of a seed it
    contains (`_setting`), which is set first: most seeds then reuse a back, often a middle too."""
    greedy_back, greedy_back_cards = best5_mask(mask)
    greedy_middle, greedy_middle_cards = best5_mask(mask & ~greedy_back_cards)
    greedy = (greedy_back, greedy_back_cards, greedy_middle, greedy_middle_cards)
    zero = np.int64(0)
    best = _offer((np.int64(-1), zero, zero, zero, zero, zero, zero), mask, greedy, front_wins, middle_wins,
                  back_wins)
    _, counts, _ = _census(mask)
    paired, tripled = counts[2], counts[3]
    # each paired rank's cards, by the seeds' suit order: a pair is its first two, trips its first three
    first, second, third = _picks(mask, paired, _suit_order(mask))
    single_ranks = counts[1] & ~paired
    n_singles = _popcount(single_ranks)
    # the three highest singles and the two lowest (0 where the hand has fewer)
    high0, left = _highest_single(mask, single_ranks)
    high1, left = _highest_single(mask, left)
    high2, left = _highest_single(mask, left)
    lowest = single_ranks & -single_ranks
    second_lowest = (single_ranks ^ lowest) & -(single_ranks ^ lowest)
    left = paired
    while left:
        rank = HIGHEST_RANK[left]
        left ^= 1 << rank
        pair = (first | second) & (COLUMN << rank)
        around_pair = _setting(mask, pair, pair, greedy)
        if n_singles:
            best = _offer(best, mask, _setting(mask, pair | high0, high0, around_pair, True), front_wins,
                          middle_wins, back_wins)
        if _moves(pair, greedy):
            best = _offer(best, mask, around_pair, front_wins, middle_wins, back_wins)
        breakers = paired ^ (1 << rank)
        while breakers:  # lowest rank first
            breaker = HIGHEST_RANK[breakers & -breakers]
            breakers ^= 1 << breaker
            card = first & (COLUMN << breaker)
            if _moves(card, around_pair):
                best = _offer(best, mask, _setting(mask, pair | card, card, around_pair, True), front_wins,
                              middle_wins, back_wins)
    left = tripled
    while left:
        rank = HIGHEST_RANK[left]
        left ^= 1 << rank
        trips = (first | second | third) & (COLUMN << rank)
        if _moves(trips, greedy):
            best = _offer(best, mask, _setting(mask, trips, trips, greedy, True), front_wins, middle_wins,
                          back_wins)
    if not n_singles:
        return best[1:]
    # the single seeds' settings grow from the highest single's, then the two highest singles'
    around_high = _setting(mask, high0, high0, greedy)
    around_two = _setting(mask, high0 | high1, high1, around_high) if n_singles >= 2 else around_high
    if n_singles >= 3:
        best = _offer(best, mask, _setting(mask, high0 | high1 | high2, high2, around_two, True), front_wins,
                      middle_wins, back_wins)
    if n_singles >= 4:
        lows = _single(mask, HIGHEST_RANK[second_lowest]) | _single(mask, HIGHEST_RANK[lowest])
        best = _offer(best, mask, _setting(mask, high0 | lows, lows, around_high, True), front_wins,
                      middle_wins, back_wins)
    if n_singles >= 2 and _moves(high0 | high1, greedy):
        best = _offer(best, mask, around_two, front_wins, middle_wins, back_wins)
    if _moves(high0, greedy):
        best = _offer(best, mask, around_high, front_wins, middle_wins, back_wins)
    highest_paired = HIGHEST_RANK[paired] if paired else -1
    if highest_paired > HIGHEST_RANK[single_ranks]:
        card = first & (COLUMN << highest_paired)
        if _moves(card, around_high):
            best = _offer(best, mask, _setting(mask, high0 | card, card, around_high), front_wins,
                          middle_wins, back_wins)
    jokers = mask >> JOKER_BIT
    joker = np.int64(jokers & -jokers) << JOKER_BIT
    if joker and n_singles >= 2 and _moves(joker, around_two):
        best = _offer(best, mask, _setting(mask, joker | high0 | high1, joker, around_two, True), front_wins,
                      middle_wins, back_wins)
    if joker and _moves(joker, around_high):
        best = _offer(best, mask, _setting(mask, joker | high0, joker, around_high), front_wins, middle_wins,
                      back_wins)
    return best[1:]


@njit(cache=True)
def house_way(mask: int) -> tuple[int, int, int, int, int, int]:
    """A 13-card hand set by the house way: (front, middle, back values, their card masks)."""
    return house_way_with(mask, FRONT_TABLE, MIDDLE_TABLE, BACK_TABLE)

"""Which lines of tiles are proper poker hands, and what a scored line is worth.

A line is 2 to 5 tiles in a row (a maximal run along a row or a column), read left to right or top to
bottom, each tile as the card it plays as (a joker as its declared card). It is a *proper hand* when
every tile belongs to the hand and the hand is not intermixed (docs/poker-tiles.md):

=====  ==============================================================================================
tiles  proper hands (the cards as they stand in the line)
=====  ==============================================================================================
2      a pair: X X
3      three of a kind: X X X
4      four of a kind: X X X X; two pair: X X Y Y
5      five of a kind; a straight or straight flush in rank order, rising or falling (A-2-3-4-5 and
       10-J-Q-K-A; no K-A-2); a full house X X X Y Y or X X Y Y Y; a flush (five of one suit, any
       order)
=====  ==============================================================================================

Two decks are in play, so a line may hold two identical cards (a pair of K♠). A 5-tile line that is
several hands at once scores the best of them (a suited straight in order is a straight flush; a
suited full house is a full house). Anything else is not a hand: a pair with a kicker, three of a kind
beside another card, four of a kind with a kicker.

Every function here is compiled by numba: the rules engine, the move generator and the lab run the
same code. Cards are egm.cards indices (rank * 4 + suit, rank 0 = deuce .. 12 = ace).

>>> from egm.cards import parse_cards
>>> def named(text):
...     index = classify(np.array([c.index for c in parse_cards(text)], dtype=np.int64), len(text.split()))
...     return HANDS[index] if index >= 0 else None
>>> named("9c 9d"), named("Kc Kd 5h"), named("7c 7d 2s 2h"), named("7c 2s 7d 2h")
('pair', None, 'two_pair', None)
>>> named("5h 4h 3h 2h Ah"), named("Ts Js Qs Ks As"), named("Qs 2s 9s Qs 5s"), named("9c 9d 9h 4c 4s")
('straight_flush', 'royal_flush', 'flush', 'full_house')
>>> named("3c 4d 5h 6s 7c"), named("3c 5d 4h 6s 7c"), named("Kc Ad 2h 3s 4c")
('straight', None, None)
"""

from __future__ import annotations

import numpy as np

from egm.jit import njit

# Hand indices, lowest first: the pay table gives each its base value.
HANDS = (
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
    "five_of_a_kind",
)
PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_KIND = range(10)
NOT_A_HAND = -1
MAX_LINE = 5
ACE = 12

# Rank patterns by line length: equal group numbers mean equal ranks, different ones different ranks.
# Row k of a length's table is one pattern; unused rows are -9.
_PATTERNS = np.full((6, 3, 5), -9, dtype=np.int64)
_PATTERNS[2, 0, :2] = (0, 0)
_PATTERNS[3, 0, :3] = (0, 0, 0)
_PATTERNS[4, 0, :4] = (0, 0, 0, 0)
_PATTERNS[4, 1, :4] = (0, 0, 1, 1)
_PATTERNS[5, 0, :5] = (0, 0, 0, 0, 0)
_PATTERNS[5, 1, :5] = (0, 0, 0, 1, 1)
_PATTERNS[5, 2, :5] = (0, 0, 1, 1, 1)
# The hand each pattern makes.
_PATTERN_HANDS = np.full((6, 3), NOT_A_HAND, dtype=np.int64)
_PATTERN_HANDS[2, 0] = PAIR
_PATTERN_HANDS[3, 0] = TRIPS
_PATTERN_HANDS[4, 0] = QUADS
_PATTERN_HANDS[4, 1] = TWO_PAIR
_PATTERN_HANDS[5, 0] = FIVE_KIND
_PATTERN_HANDS[5, 1] = FULL_HOUSE
_PATTERN_HANDS[5, 2] = FULL_HOUSE
# The ten straights by top rank (3 = the five of the wheel .. 12 = ace), ranks from the bottom card.
STRAIGHTS = np.array([[(top - 4 + i) % 13 for i in range(5)] for top in range(3, 13)], dtype=np.int64)
# The shapes a line can still take, as bits: 0..2 the rank patterns of its length, 3..22 a straight
# rising (3 + s) or falling (13 + s), 23 the flush.
_STRAIGHT_BITS = 3
FLUSH_BIT = 1 << 23
# _STRAIGHT_RANKS[position, rank]: the straight bits that allow that rank at that position.
_STRAIGHT_RANKS = np.zeros((MAX_LINE, 13), dtype=np.int64)
for _s in range(10):
    for _i in range(MAX_LINE):
        _STRAIGHT_RANKS[_i, STRAIGHTS[_s, _i]] |= 1 << (_STRAIGHT_BITS + _s)
        _STRAIGHT_RANKS[_i, STRAIGHTS[_s, 4 - _i]] |= 1 << (_STRAIGHT_BITS + 10 + _s)


@njit(cache=True)
def _pattern_fits(faces: np.ndarray, n: int, length: int, k: int) -> bool:
    """Whether the first n cards of a line of `length` can follow rank pattern k of that length."""
    pattern = _PATTERNS[length, k]
    if pattern[0] < 0:
        return False
    for i in range(n):
        for j in range(i):
            same = (faces[i] >> 2) == (faces[j] >> 2)
            if same != (pattern[i] == pattern[j]):
                return False
    return True


@njit(cache=True)
def _straight_top(faces: np.ndarray, n: int) -> int:
    """The top rank of a straight whose first n cards in line order these are, rising or falling
    (the highest such straight); -1 if none."""
    for s in range(9, -1, -1):
        rising = True
        falling = True
        for i in range(n):
            rank = faces[i] >> 2
            if rank != STRAIGHTS[s, i]:
                rising = False
            if rank != STRAIGHTS[s, 4 - i]:
                falling = False
        if rising or falling:
            return s + 3
    return -1


@njit(cache=True)
def one_suit(faces: np.ndarray, n: int) -> bool:
    for i in range(1, n):
        if (faces[i] & 3) != (faces[0] & 3):
            return False
    return True


@njit(cache=True)
def classify(faces: np.ndarray, n: int) -> int:
    """The hand index of a line of n cards in line order, or NOT_A_HAND (see the module doc)."""
    if n < 2 or n > MAX_LINE:
        return NOT_A_HAND
    best = NOT_A_HAND
    for k in range(3):
        if _pattern_fits(faces, n, n, k) and _PATTERN_HANDS[n, k] > best:
            best = _PATTERN_HANDS[n, k]
    if n == MAX_LINE and best < STRAIGHT_FLUSH:
        top = _straight_top(faces, n)
        suited = one_suit(faces, n)
        if top >= 0 and suited:
            best = ROYAL_FLUSH if top == ACE else STRAIGHT_FLUSH
        elif suited and best < FLUSH:
            best = FLUSH
        elif top >= 0 and best < STRAIGHT:
            best = STRAIGHT
    return best


@njit(cache=True)
def start_shapes(length: int) -> int:
    """Every shape a line of `length` tiles may take, before any card of it is known."""
    shapes = 0
    for k in range(3):
        if _PATTERN_HANDS[length, k] >= 0:
            shapes |= 1 << k
    if length == MAX_LINE:
        shapes |= ((1 << 20) - 1) << _STRAIGHT_BITS | FLUSH_BIT
    return shapes


@njit(cache=True)
def extend_shapes(shapes: int, faces: np.ndarray, pos: int, length: int) -> int:
    """The shapes still open once the card at `pos` joins the line's first `pos` cards (which left
    `shapes` open). A whole line is a proper hand exactly when some shape is still open; the move
    generator prunes a line the moment none is."""
    card = faces[pos]
    rank = card >> 2
    out = 0
    for k in range(3):
        if shapes >> k & 1:
            group = _PATTERNS[length, k, pos]
            fits = True
            for j in range(pos):
                if ((faces[j] >> 2) == rank) != (_PATTERNS[length, k, j] == group):
                    fits = False
                    break
            if fits:
                out |= 1 << k
    if length == MAX_LINE:
        out |= shapes & _STRAIGHT_RANKS[pos, rank]
        if shapes & FLUSH_BIT and (pos == 0 or (card & 3) == (faces[0] & 3)):
            out |= FLUSH_BIT
    return out


@njit(cache=True)
def best_value(shapes: int, length: int, values: np.ndarray) -> int:
    """The highest base value of a hand a line of `length` that can still take `shapes` may make (a
    bound for the best-play search: a straight still open in one suit might be a royal flush)."""
    best = 0
    for k in range(3):
        if shapes >> k & 1:
            best = max(best, values[_PATTERN_HANDS[length, k]])
    if length == MAX_LINE:
        straight = shapes & (((1 << 20) - 1) << _STRAIGHT_BITS) != 0
        flush = shapes & FLUSH_BIT != 0
        if straight:
            best = max(best, values[STRAIGHT])
        if flush:
            best = max(best, values[FLUSH])
        if straight and flush:
            best = max(best, values[STRAIGHT_FLUSH], values[ROYAL_FLUSH])
    return best


@njit(cache=True)
def open_cards(shapes: int, faces: np.ndarray, pos: int, length: int) -> int:
    """The cards (a 52-bit mask, bit = card index) that keep some of `shapes` open at `pos`, after the
    line's first `pos` cards: exactly those for which `extend_shapes` leaves a shape open. The move
    generator tries a joker only as these."""
    if length < 2:
        return (1 << 52) - 1
    ranks = 0
    for k in range(3):
        if shapes >> k & 1:
            group = _PATTERNS[length, k, pos]
            required = -1
            for j in range(pos):
                if _PATTERNS[length, k, j] == group:
                    required = faces[j] >> 2
                    break
            if required >= 0:
                ranks |= 1 << required
            else:  # a new group: any rank but those of the other groups so far
                free = (1 << 13) - 1
                for j in range(pos):
                    free &= ~(1 << (faces[j] >> 2))
                ranks |= free
    if length == MAX_LINE:
        for rank in range(13):
            if shapes & _STRAIGHT_RANKS[pos, rank]:
                ranks |= 1 << rank
    cards = 0
    for rank in range(13):
        if ranks >> rank & 1:
            cards |= 15 << (4 * rank)
    if length == MAX_LINE and shapes & FLUSH_BIT:
        if pos == 0:
            return (1 << 52) - 1
        suit = faces[0] & 3
        for rank in range(13):
            cards |= 1 << (4 * rank + suit)
    return cards


@njit(cache=True)
def could_be_hand(faces: np.ndarray, n: int, length: int) -> bool:
    """Whether the first n cards (in line order) of a line of `length` tiles can still be completed
    into a proper hand; with n == length, whether the line is one."""
    shapes = start_shapes(length)
    for pos in range(n):
        shapes = extend_shapes(shapes, faces, pos, length)
    return shapes != 0


@njit(cache=True)
def classify_any_order(faces: np.ndarray, n: int) -> int:
    """The best hand these n cards make in some order (rank order, or the wheel with its ace first);
    tells a line that is out of order from one that is no hand at all."""
    ordered = np.sort(faces[:n])
    best = classify(ordered, n)
    if ordered[n - 1] >> 2 == ACE:  # the wheel: the ace below the deuce
        wheel = np.empty(n, dtype=np.int64)
        wheel[0] = ordered[n - 1]
        wheel[1:] = ordered[: n - 1]
        best = max(best, classify(wheel, n))
    return best


@njit(cache=True)
def line_points(values: np.ndarray, hand: int, doubles: int) -> int:
    """Points of a scored line: its base value times the multiplier, 1 + the number of doublings
    (one double x2, "double, double" x3, three doubles x4)."""
    return values[hand] * (1 + doubles)

"""Poker Grid's compiled hot paths (numba): line scoring with the wild spaces, the machine strategies'
search, and a whole game for the lab. The cabinet's engine calls these same functions: `scoring.score`
scores each placement with `best_play`, `strategy.machine_move` and `lookahead_move` choose with
`choose`, and the lab's `play_game` strings them into a game with the table's own rules (deal, turns,
draw). One engine: tests/test_poker_grid_recorded.py replays games recorded from the pure-Python engine
that came before, move for move and score for score, and tests/test_poker_grid_compiled.py holds the
lab's game to the cabinet's `Table`.

Representation: a position is an int64 array with one entry per square (a card 0..53, EMPTY or WILD,
as in `board`); the legal squares are a boolean array kept incrementally (a placement clears its square
and opens its empty neighbours). Card keys: a natural card is its index (rank * 4 + suit), both jokers
and a wild space are JOKER.

The hands a placement can score are the *windows* of `scoring`'s rules: per line (row, then column),
per size 2..5, reaching further back first. `_reach` fills a workspace row per window with the other
cards' statistics (jokers, rank counts, largest group, pairs, ranks held, the one suit if all share it)
so that any card's points there are a few integer operations (`_window_points`).

The threat's expectation over the unseen cards uses counts, not combinations: the cards' points on a
square are tallied by value (0..10), and the sorted values' weights C(unseen - i - 1, held - 1) are
summed in blocks from a prefix table. The strategies' other shortcut is exact too: a placement on x
changes the reach of a square T only when x lies in T's arm; any other square keeps its value, so its
rise is 0 and its follow-up points are the ones already scored this turn.

>>> import numpy as np
>>> position = np.full(56, EMPTY, np.int64); position[[12, 43]] = WILD
>>> position[[26, 27, 29]] = [36, 37, 40]  # Jc Jd on (3, 2) (3, 3); Qc on (3, 5)
>>> best_play(position, 28, 7, 8, 38)[:4]  # Jh on (3, 4): three jacks, row, 2 back, 0 forward
(3, 0, 2, 0)
"""

from __future__ import annotations

import numpy as np

from egm.jit import njit

EMPTY = -1
WILD = -2
JOKER = 52
CARDS = 54
ACE = 12
FIVE = 3  # the top card of the wheel, A-2-3-4-5
MAX_HAND = 5
MAX_WINDOWS = 2 * (2 + 3 + 4 + 5)  # per line: 2 windows of 2 cards, 3 of 3, 4 of 4, 5 of 5
CANDIDATES = 6

# Workspace columns, one row per window.
W_SIZE, W_JOKERS, W_TOP, W_PAIRS, W_MASK, W_SUIT, W_BASE, W_LINE, W_BACK, W_FORWARD, W_COUNTS = range(11)
W_COLUMNS = W_COUNTS + 13


def _straight_tops() -> np.ndarray:
    """For each set of ranks (a 13-bit mask), the top card of the highest straight that holds them all,
    or -1 (the wheel's top is the five)."""
    tops = np.full(1 << 13, -1, np.int64)
    windows = [(top, sum(1 << r for r in range(top - 4, top + 1))) for top in range(ACE, FIVE, -1)]
    windows.append((FIVE, (1 << ACE) | 0b1111))
    for mask in range(1 << 13):
        for top, window in windows:
            if mask & ~window == 0:
                tops[mask] = top
                break
    return tops


STRAIGHT_TOPS = _straight_tops()


def workspace() -> np.ndarray:
    return np.empty((MAX_WINDOWS, W_COLUMNS), np.int64)


@njit(cache=True)
def _arm(position: np.ndarray, square: int, step: int, count: int) -> int:
    """How many squares from `square` going `step` (at most `count`, the board's edge) join a hand:
    cards, and a wild space only right next to the square; at most 4."""
    n = 0
    for _ in range(count):
        square += step
        held = position[square]
        if held == EMPTY or (held == WILD and n > 0) or n == MAX_HAND - 1:
            break
        n += 1
    return n


@njit(cache=True)
def _matching(largest: int, jokers: int, pairs: int) -> int:
    """Points of a hand of 1 to 4 cards (matching ranks only): `largest` group with the jokers."""
    if largest >= 4:
        return 7
    if largest == 3:
        return 3
    if largest == 2:
        return 2 if jokers == 0 and pairs == 2 else 1
    return 0


@njit(cache=True)
def _reach(position: np.ndarray, square: int, rows: int, cols: int, ws: np.ndarray) -> int:
    """Fill `ws` with the windows a card placed on `square` could score in; return their number."""
    row, col = square // cols, square % cols
    n = 0
    for line in range(2):
        if line == 0:
            step = 1
            back, forward = _arm(position, square, -1, col), _arm(position, square, 1, cols - 1 - col)
        else:
            step = cols
            back, forward = _arm(position, square, -cols, row), _arm(position, square, cols, rows - 1 - row)
        for size in range(2, MAX_HAND + 1):
            for taken_back in range(min(back, size - 1), -1, -1):
                taken_forward = size - 1 - taken_back
                if taken_forward > forward:
                    break
                w = ws[n]
                w[W_COUNTS:] = 0
                jokers = top = pairs = mask = 0
                suit = -2  # no natural card yet
                for k in range(size - 1):
                    other = -(k + 1) if k < taken_back else k - taken_back + 1
                    card = position[square + step * other]
                    if card >= JOKER or card == WILD:
                        jokers += 1
                        continue
                    rank = card >> 2
                    w[W_COUNTS + rank] += 1
                    held = w[W_COUNTS + rank]
                    top = max(top, held)
                    pairs += 1 if held == 2 else -1 if held == 3 else 0
                    mask |= 1 << rank
                    suit = card & 3 if suit == -2 or suit == card & 3 else -1
                w[W_SIZE], w[W_JOKERS], w[W_TOP], w[W_PAIRS], w[W_MASK] = size, jokers, top, pairs, mask
                w[W_SUIT] = suit
                w[W_BASE] = _matching(top + jokers, jokers, pairs)
                w[W_LINE], w[W_BACK], w[W_FORWARD] = line, taken_back, taken_forward
                n += 1
    return n


@njit(cache=True)
def _window_points(w: np.ndarray, card: int, suit: int) -> int:
    """Points of `card` (a key; JOKER for a joker) placed in window `w`, 0 unless it contributes. For a
    natural card, `suit` is its suit or -1 where only its rank matters (it cannot make a flush here)."""
    jokers, top, pairs, mask = w[W_JOKERS], w[W_TOP], w[W_PAIRS], w[W_MASK]
    flush = w[W_SUIT] >= 0
    if card >= JOKER:
        jokers += 1
    else:
        rank = card >> 2
        held = w[W_COUNTS + rank]
        top = max(top, held + 1)
        pairs += 1 if held == 1 else -1 if held == 2 else 0
        mask |= 1 << rank
        flush = flush and suit == w[W_SUIT]
    if w[W_SIZE] < MAX_HAND:
        points = _matching(top + jokers, jokers, pairs)
    else:
        points = _five(top, jokers, pairs, mask, flush)
    return points if points > w[W_BASE] else 0


@njit(cache=True)
def _five(top: int, jokers: int, pairs: int, mask: int, flush: bool) -> int:
    """Points of a 5-card hand: `top` the largest group of natural ranks, `jokers` wild, `mask` the
    natural ranks, `flush` whether every natural card shares one suit (egm.poker's ranking)."""
    straight = -1 if top >= 2 else STRAIGHT_TOPS[mask]
    if top + jokers >= 5:
        return 10
    if flush and straight >= 0:
        return 9 if straight == ACE else 8
    if top + jokers >= 4:
        return 7
    distinct = 0
    while mask:
        mask &= mask - 1
        distinct += 1
    if distinct <= 2:
        return 6
    if flush:
        return 5
    if straight >= 0:
        return 4
    if top + jokers >= 3:
        return 3
    if jokers == 0 and pairs == 2:
        return 2
    return 1 if top + jokers >= 2 else 0


@njit(cache=True)
def _points(ws: np.ndarray, windows: int, card: int) -> int:
    """The most points `card` (an index 0..53) scores in the windows."""
    key, suit = (JOKER, -1) if card >= JOKER else (card, card & 3)
    best = 0
    for i in range(windows):
        best = max(best, _window_points(ws[i], key, suit))
    return best


@njit(cache=True)
def best_play(position: np.ndarray, square: int, rows: int, cols: int,
              card: int) -> tuple[int, int, int, int]:
    """The play of `card` onto the empty `square`: (points, line 0 row / 1 column, cards taken back,
    cards taken forward) of the first window with the most points; (0, 0, 0, 0) when nothing scores."""
    ws = np.empty((MAX_WINDOWS, W_COLUMNS), np.int64)
    windows = _reach(position, square, rows, cols, ws)
    key, suit = (JOKER, -1) if card >= JOKER else (card, card & 3)
    best, line, back, forward = 0, 0, 0, 0
    for i in range(windows):
        points = _window_points(ws[i], key, suit)
        if points > best:
            best, line, back, forward = points, ws[i, W_LINE], ws[i, W_BACK], ws[i, W_FORWARD]
    return best, line, back, forward


@njit(cache=True)
def _expected_best(position: np.ndarray, square: int, rows: int, cols: int, ws: np.ndarray,
                   unseen: np.ndarray, unseen_count: int, prefix: np.ndarray) -> int:
    """The next seat's expected best reply on `square`, times C(unseen, held): its cards' points here
    tallied by value, each block of equal values weighted from the prefix sums of the order weights."""
    windows = _reach(position, square, rows, cols, ws)
    by_rank = np.zeros(14, np.int64)  # ranks 0..12 where the suit does not matter; 13 the joker
    by_card = np.zeros(JOKER, np.int64)  # a card of a 5-card window's one suit
    for i in range(windows):
        w = ws[i]
        for rank in range(13):
            by_rank[rank] = max(by_rank[rank], _window_points(w, rank << 2, -1))
        by_rank[13] = max(by_rank[13], _window_points(w, JOKER, -1))
        if w[W_SIZE] == MAX_HAND and w[W_SUIT] >= 0:
            for rank in range(13):
                card = rank << 2 | w[W_SUIT]
                by_card[card] = max(by_card[card], _window_points(w, card, w[W_SUIT]))
    tally = np.zeros(11, np.int64)
    for i in range(unseen_count):
        card = unseen[i]
        tally[by_rank[13] if card >= JOKER else max(by_rank[card >> 2], by_card[card])] += 1
    total, at = 0, 0
    for value in range(10, 0, -1):
        if tally[value]:
            total += value * (prefix[at + tally[value]] - prefix[at])
            at += tally[value]
    return total


@njit(cache=True)
def _comb(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@njit(cache=True)
def _reaches(position: np.ndarray, target: int, square: int, rows: int, cols: int) -> bool:
    """Whether `square` lies in one of `target`'s arms (so a card there can change target's hands)."""
    if target == square:
        return False
    t_row, t_col, row, col = target // cols, target % cols, square // cols, square % cols
    if t_row == row:
        distance, step = abs(col - t_col), 1 if col > t_col else -1
        edge = cols - 1 - t_col if step > 0 else t_col
    elif t_col == col:
        distance, step = abs(row - t_row), cols if row > t_row else -cols
        edge = rows - 1 - t_row if step > 0 else t_row
    else:
        return False
    return distance < MAX_HAND and _arm(position, target, step, edge) >= distance


@njit(cache=True)
def _next_to(a: int, b: int, cols: int) -> bool:
    return (abs(a - b) == 1 and a // cols == b // cols) or abs(a - b) == cols


@njit(cache=True)
def choose(position: np.ndarray, legal: np.ndarray, rows: int, cols: int, hand: np.ndarray,
           next_held: int, lookahead: bool) -> tuple[int, int]:
    """The seat's placement (card, square) by grid-opponent/1, or grid-lookahead/1 with `lookahead`
    (egm.games.poker_grid.strategy says how they choose). `next_held`: how many cards the next seat
    still holding cards holds. `position` is restored before returning."""
    ws = np.empty((MAX_WINDOWS, W_COLUMNS), np.int64)
    size = rows * cols
    # The hand's cards that play differently (the second joker plays as the first).
    cards = np.sort(hand)
    has_first_joker = False
    for c in cards:
        has_first_joker |= c == JOKER
    distinct = cards[~((cards == JOKER + 1) & has_first_joker)]
    squares = np.nonzero(legal)[0]
    points = np.zeros((size, distinct.size), np.int64)  # this turn's points, by square and card
    # The best CANDIDATES placements by (points, a natural card, the lower card, the lower square).
    keys = np.full(CANDIDATES, -1, np.int64)
    for square in squares:
        windows = _reach(position, square, rows, cols, ws)
        for j in range(distinct.size):
            card = distinct[j]
            points[square, j] = _points(ws, windows, card)
            key = (((points[square, j] * 2 + (card < JOKER)) * 64 + 63 - card) * 64) + 63 - square
            if key > keys[-1]:
                at = CANDIDATES - 1
                while at > 0 and keys[at - 1] < key:
                    keys[at] = keys[at - 1]
                    at -= 1
                keys[at] = key
    # The cards the seat cannot see, and the order weights of the next seat's best one.
    seen = np.zeros(CARDS, np.bool_)
    for c in hand:
        seen[c] = True
    for s in range(size):
        if position[s] >= 0:
            seen[position[s]] = True
    unseen = np.nonzero(~seen)[0]
    count = unseen.size
    held = min(next_held, count)
    prefix = np.zeros(count + 1, np.int64)
    if held:
        for i in range(count):
            prefix[i + 1] = prefix[i] + _comb(count - i - 1, held - 1)
    scale = _comb(count, held)
    before = np.full(size, -1, np.int64)

    best_value, best_key, best_card, best_square = 0, -1, -1, -1
    for key in keys:
        if key < 0:
            break
        square, card, scored = 63 - key % 64, 63 - (key // 64) % 64, key // 8192
        position[square] = card
        threat = 0
        for target in range(size):
            opened = position[target] == EMPTY and _next_to(target, square, cols)
            if not (legal[target] and target != square) and not opened:
                continue
            if legal[target] and not _reaches(position, target, square, rows, cols):
                continue  # unchanged by the placement: its rise is 0, its points this turn's
            same_row, same_col = target // cols == square // cols, target % cols == square % cols
            if (same_row and abs(target - square) < MAX_HAND) or (
                    same_col and abs(target - square) < MAX_HAND * cols):
                after = _expected_best(position, target, rows, cols, ws, unseen, count, prefix)
                if legal[target] and before[target] < 0:
                    position[square] = EMPTY
                    before[target] = _expected_best(position, target, rows, cols, ws, unseen, count, prefix)
                    position[square] = card
                threat = max(threat, after - (before[target] if legal[target] else 0))
        value = 2 * (scored * scale - threat)
        if lookahead:
            value += _follow_up(position, legal, rows, cols, ws, hand, distinct, points, card, square) * scale
        if best_key < 0 or value > best_value or (value == best_value and key % 8192 > best_key % 8192):
            best_value, best_key, best_card, best_square = value, key, card, square
        position[square] = EMPTY
    return best_card, best_square


@njit(cache=True)
def _follow_up(position: np.ndarray, legal: np.ndarray, rows: int, cols: int, ws: np.ndarray,
               hand: np.ndarray, distinct: np.ndarray, points: np.ndarray, card: int, square: int) -> int:
    """The most points the seat's other cards could score next turn, `card` being on `square` in
    `position`: on a square the placement leaves alone, the points already scored this turn."""
    both_jokers = 0
    for c in hand:
        both_jokers += c >= JOKER
    rest = np.zeros(distinct.size, np.bool_)  # the other cards' distinct columns
    for j in range(distinct.size):
        rest[j] = distinct[j] != card or (card >= JOKER and both_jokers == 2)
    best = 0
    for target in range(rows * cols):
        opened = position[target] == EMPTY and _next_to(target, square, cols)
        if not (legal[target] and target != square) and not opened:
            continue
        if legal[target] and not _reaches(position, target, square, rows, cols):
            for j in range(distinct.size):
                if rest[j]:
                    best = max(best, points[target, j])
            continue
        windows = _reach(position, target, rows, cols, ws)
        for j in range(distinct.size):
            if rest[j]:
                best = max(best, _points(ws, windows, distinct[j]))
    return best


@njit(cache=True)
def play_game(deck: np.ndarray, seats: int, hand_size: int, rows: int, cols: int, starters: np.ndarray,
              wilds: np.ndarray, customer_lookahead: bool, moves: np.ndarray) -> np.ndarray:
    """One whole game from a shuffled `deck`, dealt and played as `table.Table` does, every seat by
    grid-opponent/1 but the customer (seat 0) by grid-lookahead/1 with `customer_lookahead`. Each
    placement goes into a row of `moves`: (seat, card, square, points). Returns the seats' scores."""
    size = rows * cols
    position = np.full(size, EMPTY, np.int64)
    legal = np.zeros(size, np.bool_)
    position[wilds] = WILD
    hands = np.full((seats, hand_size), -1, np.int64)
    held = np.full(seats, hand_size, np.int64)
    dealt = seats * hand_size
    for i in range(dealt):
        hands[i % seats, i // seats] = deck[i]
    for k in range(starters.size):
        position[starters[k]] = deck[dealt + k]
    for k in range(starters.size):
        _open(position, legal, starters[k], rows, cols)
    draw = dealt + starters.size
    scores = np.zeros(seats, np.int64)
    ws = np.empty((MAX_WINDOWS, W_COLUMNS), np.int64)
    turn, played = 0, 0
    while held[turn]:
        next_held = 0
        for k in range(1, seats):
            if held[(turn + k) % seats]:
                next_held = held[(turn + k) % seats]
                break
        hand = hands[turn, : held[turn]]
        card, square = choose(position, legal, rows, cols, hand, next_held, customer_lookahead and turn == 0)
        if turn == 0 and card >= JOKER:  # the customer's decision names "JK": the first joker in the hand
            at = 0
            while hand[at] < JOKER:
                at += 1
            card = hand[at]
        points = _points(ws, _reach(position, square, rows, cols, ws), card)
        position[square] = card
        _open(position, legal, square, rows, cols)
        at = 0
        while hand[at] != card:
            at += 1
        hands[turn, at : held[turn] - 1] = hands[turn, at + 1 : held[turn]].copy()
        if draw < deck.size:
            hands[turn, held[turn] - 1] = deck[draw]
            draw += 1
        else:
            held[turn] -= 1
        scores[turn] += points
        moves[played, 0], moves[played, 1], moves[played, 2], moves[played, 3] = turn, card, square, points
        played += 1
        for step in range(1, seats + 1):
            if held[(turn + step) % seats]:
                turn = (turn + step) % seats
                break
    return scores


@njit(cache=True)
def _open(position: np.ndarray, legal: np.ndarray, square: int, rows: int, cols: int) -> None:
    """A card is on `square`: it is no longer legal, and its empty neighbours become legal."""
    legal[square] = False
    row, col = square // cols, square % cols
    for n, inside in ((square - cols, row > 0), (square - 1, col > 0), (square + 1, col < cols - 1),
                      (square + cols, row < rows - 1)):
        if inside and position[n] == EMPTY:
            legal[n] = True


def warm_up() -> None:
    """Compile (or load from numba's cache) what the cabinet calls, before the first move needs it: at
    game start-up, not during a customer's game (a machine move must take at most 150 ms)."""
    position = np.full(56, EMPTY, np.int64)
    position[[12, 43]] = WILD
    position[[26, 29]] = [0, 51]
    legal = np.zeros(56, np.bool_)
    legal[[18, 21, 25, 27, 28, 30, 34, 37]] = True
    choose(position, legal, 7, 8, np.array([1, 2, 3, 52, 53], np.int64), 5, False)
    choose(position, legal, 7, 8, np.array([1, 2, 3, 52, 53], np.int64), 5, True)
    best_play(position, 27, 7, 8, 1)

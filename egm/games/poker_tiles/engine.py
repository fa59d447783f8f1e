"""The compiled core of the rules engine: the lines a play makes and what they score, and every legal
play of a rack. The table (egm.games.poker_tiles.table) checks and applies a customer's play with
`score_lines`; the machine strategy and the lab choose among `generate`'s plays. Both score with the
same `classify` and `line_points` (egm.games.poker_tiles.hands), and a differential test proves that
every generated play is accepted by the table with exactly the generated score, and that the table
accepts nothing the generator leaves out.

A board is two flat arrays, one entry per square (square = row * cols + col): `face`, the card each
tile plays as (a joker's declared card) or EMPTY, and `joker`, 1 where the tile is a joker. The layout
gives `doubling` (per square and card, 1 where that natural tile counts a doubling) and `in_start`
(1 inside the starting area).
A rack is an array of tile codes: a card index 0..51, or JOKER (52).

Which lines a play scores (docs/poker-tiles.md): every line it changes, that is the maximal run of 2
or more tiles through each placed tile along its row and along its column, each line once. Each must
be a proper hand of at most 5 tiles, or the play is illegal. A line's multiplier is 1 + its doublings:
one if all its squares lie in the starting area, and one for each natural tile placed by this play, in
the line, that counts a doubling where it lies (egm.games.poker_tiles.board: in the starting area, any
card marked in the area; elsewhere, the card marked on its square).
"""

from __future__ import annotations

import numpy as np

from egm.games.poker_tiles.hands import (
    ACE,
    MAX_LINE,
    NOT_A_HAND,
    PAIR,
    STRAIGHTS,
    TWO_PAIR,
    best_value,
    classify,
    classify_any_order,
    extend_shapes,
    line_points,
    one_suit,
    open_cards,
    start_shapes,
)
from egm.jit import njit

EMPTY = -1
JOKER = 52
CARDS = 52

# score_lines results below 0: the rule a changed line breaks (the line is the row after the last good).
LINE_TOO_LONG = -1
NOT_PROPER = -2
OUT_OF_ORDER = -3
# Columns of a line row: first square, step (1 along a row, cols down a column), length, hand index,
# doublings, points.
LINE_FIELDS = 6


@njit(cache=True)
def _run(face: np.ndarray, rows: int, cols: int, square: int, horizontal: bool) -> tuple[int, int]:
    """(first square, length) of the maximal run of tiles through `square` along its row or column;
    `square` itself counts as a tile."""
    row, col = square // cols, square % cols
    if horizontal:
        lo = col
        while lo > 0 and face[row * cols + lo - 1] != EMPTY:
            lo -= 1
        hi = col
        while hi < cols - 1 and face[row * cols + hi + 1] != EMPTY:
            hi += 1
        return row * cols + lo, hi - lo + 1
    lo = row
    while lo > 0 and face[(lo - 1) * cols + col] != EMPTY:
        lo -= 1
    hi = row
    while hi < rows - 1 and face[(hi + 1) * cols + col] != EMPTY:
        hi += 1
    return lo * cols + col, hi - lo + 1


@njit(cache=True)
def score_lines(face: np.ndarray, joker: np.ndarray, placed: np.ndarray, doubling: np.ndarray,
                in_start: np.ndarray, rows: int, cols: int, values: np.ndarray, squares: np.ndarray,
                out: np.ndarray) -> int:
    """The lines a play changes and their scores. `face`/`joker` already hold the placed tiles,
    `placed` is 1 on the squares this play covered, `squares` lists them. Writes one row per changed
    line to `out` (LINE_FIELDS columns) and returns the number of lines, or a negative rule code with
    the offending line in the row after the last good one."""
    count = 0
    for i in range(len(squares)):
        for direction in range(2):
            horizontal = direction == 0
            first, length = _run(face, rows, cols, squares[i], horizontal)
            if length < 2:
                continue
            step = 1 if horizontal else cols
            seen = False
            for j in range(count):
                if out[j, 0] == first and out[j, 1] == step:
                    seen = True
            if seen:
                continue
            out[count, 0] = first
            out[count, 1] = step
            out[count, 2] = length
            if length > MAX_LINE:
                return LINE_TOO_LONG
            cards = np.empty(length, dtype=np.int64)
            all_start = 1
            doubles = 0
            for k in range(length):
                square = first + k * step
                cards[k] = face[square]
                all_start &= in_start[square]
                if placed[square] and not joker[square] and doubling[square, face[square]]:
                    doubles += 1
            hand = classify(cards, length)
            if hand == NOT_A_HAND:
                return OUT_OF_ORDER if classify_any_order(cards, length) >= 0 else NOT_PROPER
            doubles += all_start
            out[count, 3] = hand
            out[count, 4] = doubles
            out[count, 5] = line_points(values, hand, doubles)
            count += 1
    return count


@njit(cache=True)
def _cross_tables(face: np.ndarray, doubling: np.ndarray, in_start: np.ndarray, rows: int, cols: int,
                  values: np.ndarray, horizontal: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each empty square, the line a tile there would make along `horizontal` (the cross line of a
    play along the other direction): its length (1: no line), which cards may stand there, and the
    points of the line for a natural tile and for a joker declared as each card."""
    size = rows * cols
    length_of = np.ones(size, dtype=np.int64)
    allowed = np.ones((size, CARDS), dtype=np.bool_)
    natural_points = np.zeros((size, CARDS), dtype=np.int64)
    joker_points = np.zeros((size, CARDS), dtype=np.int64)
    cards = np.empty(MAX_LINE, dtype=np.int64)
    step = 1 if horizontal else cols
    for square in range(size):
        if face[square] != EMPTY:
            continue
        first, length = _run(face, rows, cols, square, horizontal)
        length_of[square] = length
        if length == 1:
            continue
        if length > MAX_LINE:
            allowed[square, :] = False
            continue
        all_start = 1
        at = 0
        for k in range(length):
            s = first + k * step
            all_start &= in_start[s]
            if s == square:
                at = k
            else:
                cards[k] = face[s]
        for card in range(CARDS):
            cards[at] = card
            hand = classify(cards, length)
            if hand == NOT_A_HAND:
                allowed[square, card] = False
                continue
            natural_points[square, card] = line_points(values, hand, all_start + doubling[square, card])
            joker_points[square, card] = line_points(values, hand, all_start)
    return length_of, allowed, natural_points, joker_points


@njit(cache=True)
def _same_as_lower_suit(square: int, card: int, allowed: np.ndarray, joker_points: np.ndarray) -> bool:
    """Whether a joker declared as `card` on `square` plays exactly as one declared as a card of the
    same rank in a lower suit, given that the main line cannot be a flush (it has at most 4 tiles, or
    cards of two suits): then only the cross line could tell them apart, by allowing or scoring them
    differently. Such a joker is listed once, in the lowest suit."""
    for lower in range(card - (card & 3), card):
        same_cross = joker_points[square, lower] == joker_points[square, card]
        if allowed[square, lower] == allowed[square, card] and same_cross:
            return True
    return False


@njit(cache=True)
def _straight_possible(length: int, span: np.ndarray, face: np.ndarray, line: np.ndarray, pos: int) -> bool:
    """Whether the line can still be a straight: some straight, rising or falling, agrees with the
    cards chosen so far (the first `pos`) and the tiles already on the board further along."""
    if length != MAX_LINE:
        return False
    for s in range(10):
        for falling in range(2):
            fits = True
            for k in range(length):
                card = line[k] if k < pos else face[span[k]]
                if card == EMPTY:
                    continue
                if card >> 2 != STRAIGHTS[s, 4 - k if falling else k]:
                    fits = False
                    break
            if fits:
                return True
    return False


@njit(cache=True)
def _relevant_ranks(length: int, span: np.ndarray, face: np.ndarray, rack: np.ndarray, line: np.ndarray,
                    pos: int, relevant: np.ndarray) -> None:
    """The ranks a joker at `pos` could relate to: those of the tiles already in the span and of the
    rack's natural tiles (equal ranks make pairs and more), and, while the line can still be a
    straight, every rank within a straight's reach of them or of the cards chosen so far. A joker of
    any other rank makes the same hands as one of any other such rank, as long as the line's jokers
    keep their pattern of equal and different ranks. Fills `relevant` (13 flags)."""
    relevant[:] = False
    reach = 4 if _straight_possible(length, span, face, line, pos) else 0
    for k in range(length + pos + len(rack)):
        if k < length:
            card = face[span[k]]
        elif k < length + pos:
            card = line[k - length]
        else:
            card = rack[k - length - pos]
        if card == EMPTY or card == JOKER:
            continue
        rank = card >> 2
        for other in range(max(0, rank - reach), min(12, rank + reach) + 1):
            relevant[other] = True
        if reach and rank == ACE:  # the ace is low in the wheel too
            relevant[0:4] = True
        if reach and rank <= 3:
            relevant[ACE] = True


@njit(cache=True)
def _repeats_a_lower_rank(rank: int, pos: int, length: int, span: np.ndarray, face: np.ndarray,
                          line: np.ndarray, codes: np.ndarray, relevant: np.ndarray, allowed: np.ndarray,
                          joker_points: np.ndarray) -> bool:
    """Whether a joker at `pos` declared with `rank` repeats plays the generator already lists. Ranks
    no card of the line or the rack relates to (`relevant`) and no earlier joker of the line took are
    interchangeable when every square to fill allows and scores them alike in its cross line: renaming
    one to the other changes no hand. Such a joker takes the lowest of them."""
    if relevant[rank]:
        return False
    for k in range(pos):
        if codes[k] == JOKER and line[k] >> 2 == rank:
            return False  # the same rank as an earlier joker: a pattern of its own
    for lower in range(rank):
        if relevant[lower]:
            continue
        taken = False
        for k in range(pos):
            if codes[k] == JOKER and line[k] >> 2 == lower:
                taken = True
        if taken:
            continue
        alike = True
        for k in range(length):
            square = span[k]
            if face[square] != EMPTY:
                continue
            for suit in range(4):
                a, b = rank * 4 + suit, lower * 4 + suit
                if allowed[square, a] != allowed[square, b]:
                    alike = False
                if joker_points[square, a] != joker_points[square, b]:
                    alike = False
        if alike:
            return True
    return False


@njit(cache=True)
def _record(length: int, span: np.ndarray, line: np.ndarray, codes: np.ndarray, used: int,
            doubling: np.ndarray, values: np.ndarray, all_start: int, centre: int,
            natural_points: np.ndarray, joker_points: np.ndarray, out_square: np.ndarray,
            out_code: np.ndarray, out_face: np.ndarray, out_count: np.ndarray, out_score: np.ndarray,
            out_used: np.ndarray, count: int, leave: np.ndarray, best: np.ndarray) -> int:
    """Score a filled span (its main line and the cross line of each placed tile) and record it as
    play number `count` if the out arrays have room; returns the new count. With a `leave` table (the
    best-play search), the play is recorded in row 0 only if its value beats `best[0]`."""
    score = 0
    if length >= 2:
        hand = classify(line, length)
        doubles = all_start
        covers_centre = False
        for k in range(length):
            if codes[k] != EMPTY and codes[k] != JOKER and doubling[span[k], line[k]]:
                doubles += 1
            if span[k] == centre:
                covers_centre = True
        if centre >= 0 and (hand == PAIR or hand == TWO_PAIR) and not covers_centre:
            return count  # the first play: a pair or two pair must cover the centre
        score = line_points(values, hand, doubles)
    for k in range(length):
        if codes[k] == JOKER:
            score += joker_points[span[k], line[k]]
        elif codes[k] != EMPTY:
            score += natural_points[span[k], line[k]]
    row = count
    if len(leave):
        value = 2 * score + leave[used]
        if value <= best[0]:
            return count + 1  # the first of equal values stands
        best[0] = value
        row = 0
    if row < len(out_count):
        placed = 0
        for k in range(length):
            if codes[k] != EMPTY:
                out_square[row, placed] = span[k]
                out_code[row, placed] = codes[k]
                out_face[row, placed] = line[k]
                placed += 1
        out_count[row] = placed
        out_score[row] = score
        out_used[row] = used
    return count + 1


@njit(cache=True)
def _bound(length: int, shapes: int, values: np.ndarray, all_start: int, doubles: int, rest: int,
           cross: int, leave: int) -> int:
    """The most a play can be worth (2 x points + leave, in half points) whose line can still take
    `shapes`, with `doubles` doublings placed, `rest` more it might make, `cross` the most its cross
    lines can score and `leave` the most its leave can be."""
    main = best_value(shapes, length, values) * (1 + all_start + doubles + rest) if length >= 2 else 0
    return 2 * (main + cross) + leave


@njit(cache=True)
def _fill(length: int, span: np.ndarray, rack: np.ndarray, face: np.ndarray, doubling: np.ndarray,
          values: np.ndarray, all_start: int, centre: int, allowed: np.ndarray,
          natural_points: np.ndarray, joker_points: np.ndarray, cross_best: np.ndarray,
          out_square: np.ndarray, out_code: np.ndarray, out_face: np.ndarray, out_count: np.ndarray,
          out_score: np.ndarray, out_used: np.ndarray, count: int, leave: np.ndarray,
          leave_best: np.ndarray, best: np.ndarray, work: np.ndarray, relevant: np.ndarray,
          repeats: np.ndarray) -> int:
    """Fill the span's empty squares with rack tiles in every legal way (depth first along the line,
    pruning a line that can no longer be a hand, and squares whose cross line would not be one) and
    record each play; returns the new play count.

    With a `leave` table (the best-play search, `best_play`) it also skips every branch whose plays
    cannot beat the best value found so far: a bound on the line's points (the best hand its open
    shapes allow, doubled by every square left to fill), the cross lines' (`cross_best` for the squares
    left) and the leave (`leave_best`, the best of any rack slots the branch may still use)."""
    # the walk's state per depth, in the caller's workspace (no allocation per span)
    line, codes, slot, card, used = work[0], work[1], work[2], work[3], work[4]
    open_mask, shapes, relevant_ready = work[5], work[6], work[7]
    doubles, cross, rest, rest_cross = work[8], work[9], work[10], work[11]
    work[:, :] = 0
    codes[:] = EMPTY
    slot[:] = -1  # the rack slot tried at each depth
    card[:] = -1  # the card tried (a joker's declaration); used: rack slots used above each depth
    suit = -1
    mixed = False  # the board's tiles in the span are of two suits: the line cannot be a flush
    for k in range(length):
        if face[span[k]] != EMPTY:
            if suit >= 0 and face[span[k]] & 3 != suit:
                mixed = True
            suit = face[span[k]] & 3
    # relevant: per depth, once a joker is tried there; repeats: per depth and rank, _repeats_a_lower_rank
    # open_mask: per depth, the cards that keep the line a hand; shapes: the hand shapes it can still take
    shapes[0] = start_shapes(length)
    search = len(leave) > 0
    # the search: doublings placed above each depth and the placed tiles' cross-line points; from each
    # depth on, the squares a natural tile of the rack might double and their best cross-line points
    if search:
        for k in range(length - 1, -1, -1):
            square = span[k]
            empty = face[square] == EMPTY
            doubles_here = False
            for tile in rack:
                if empty and tile != JOKER and doubling[square, tile]:
                    doubles_here = True
            rest[k] = rest[k + 1] + doubles_here
            rest_cross[k] = rest_cross[k + 1] + (cross_best[square] if empty else 0)
        if _bound(length, shapes[0], values, all_start, 0, rest[0], rest_cross[0], leave_best[0]) <= best[0]:
            return count
    pos = 0
    while pos >= 0:
        if pos == length:
            count = _record(length, span, line, codes, used[pos], doubling, values, all_start, centre,
                            natural_points, joker_points, out_square, out_code, out_face, out_count,
                            out_score, out_used, count, leave, best)
            pos -= 1
            continue
        square = span[pos]
        if face[square] != EMPTY:
            if slot[pos] < 0:  # first visit: the tile on the board stands in the line
                slot[pos] = 0
                line[pos] = face[square]
                codes[pos] = EMPTY
                shapes[pos + 1] = extend_shapes(shapes[pos], line, pos, length)
                if length < 2 or shapes[pos + 1]:
                    used[pos + 1] = used[pos]
                    doubles[pos + 1] = doubles[pos]
                    cross[pos + 1] = cross[pos]
                    slot[pos + 1] = -1
                    card[pos + 1] = -1
                    pos += 1
                    continue
            slot[pos] = -1
            pos -= 1
            continue
        s = slot[pos]
        c = card[pos] + 1
        if s < 0:
            if search and _bound(length, shapes[pos], values, all_start, doubles[pos], rest[pos],
                                 cross[pos] + rest_cross[pos], leave_best[used[pos]]) <= best[0]:
                pos -= 1  # nothing from here on can beat the best play found
                continue
            s = 0
            c = -1
            relevant_ready[pos] = 0
            repeats[pos, :] = -1
            open_mask[pos] = open_cards(shapes[pos], line, pos, length)
        found = False
        while s < len(rack):
            free = not used[pos] >> s & 1
            for other in range(s):  # an identical tile in an earlier free slot makes the same plays
                if free and not used[pos] >> other & 1 and rack[other] == rack[s]:
                    free = False
            if not free:
                s += 1
                c = -1
                continue
            code = rack[s]
            lo = 0 if code == JOKER else code
            hi = CARDS if code == JOKER else code + 1
            if c < lo:
                c = lo
            while c < hi:
                if open_mask[pos] >> c & 1 and allowed[square, c]:
                    line[pos] = c
                    shapes[pos + 1] = extend_shapes(shapes[pos], line, pos, length)
                    open_line = length < 2 or shapes[pos + 1] != 0
                    if open_line and search:  # the bound first: it is cheaper than the checks below
                        natural = code != JOKER
                        doubles[pos + 1] = doubles[pos] + (doubling[square, c] if natural else 0)
                        cross[pos + 1] = cross[pos] + (natural_points[square, c] if natural
                                                       else joker_points[square, c])
                        open_line = _bound(length, shapes[pos + 1], values, all_start, doubles[pos + 1],
                                           rest[pos + 1], cross[pos + 1] + rest_cross[pos + 1],
                                           leave_best[used[pos] | 1 << s]) > best[0]
                    if open_line and code == JOKER:  # a declaration that repeats listed plays is skipped
                        if not relevant_ready[pos]:
                            _relevant_ranks(length, span, face, rack, line, pos, relevant[pos])
                            relevant_ready[pos] = 1
                        suit_free = length < MAX_LINE or mixed or not one_suit(line, pos)
                        if suit_free and _same_as_lower_suit(square, c, allowed, joker_points):
                            open_line = False
                        else:
                            rank = c >> 2
                            if repeats[pos, rank] < 0:  # the same for each suit of the rank
                                repeats[pos, rank] = _repeats_a_lower_rank(
                                    rank, pos, length, span, face, line, codes, relevant[pos], allowed,
                                    joker_points)
                            open_line = repeats[pos, rank] == 0
                    if open_line:
                        found = True
                        break
                c += 1
            if found:
                break
            s += 1
            c = -1
        if found:
            slot[pos] = s
            card[pos] = c
            codes[pos] = rack[s]
            used[pos + 1] = used[pos] | 1 << s
            slot[pos + 1] = -1
            card[pos + 1] = -1
            pos += 1
        else:
            slot[pos] = -1
            card[pos] = -1
            codes[pos] = EMPTY
            pos -= 1
    return count


@njit(cache=True)
def generate(face: np.ndarray, doubling: np.ndarray, in_start: np.ndarray, rows: int, cols: int,
             start_squares: np.ndarray, centre: int, values: np.ndarray, rack: np.ndarray,
             out_square: np.ndarray, out_code: np.ndarray, out_face: np.ndarray, out_count: np.ndarray,
             out_score: np.ndarray, out_used: np.ndarray) -> int:
    """Every legal play of `rack` on the board, written to the out arrays (one row a play, up to their
    length); returns how many there are (more than the arrays hold: call again with larger ones).

    A play is the tiles it places (square, tile code, card played as; in line order), its points and
    the rack slots it used (a bit mask). Plays of identical tiles are listed once; a joker is listed
    with every declaration that is legal. An empty board takes only first plays: 2 to 5 tiles in the
    starting area (a pair or two pair covering the centre)."""
    no_leave = np.zeros(0, dtype=np.int64)
    return _plays(face, doubling, in_start, rows, cols, start_squares, centre, values, rack, out_square,
                  out_code, out_face, out_count, out_score, out_used, no_leave, no_leave,
                  np.zeros(1, dtype=np.int64))


@njit(cache=True)
def best_play(face: np.ndarray, doubling: np.ndarray, in_start: np.ndarray, rows: int, cols: int,
              start_squares: np.ndarray, centre: int, values: np.ndarray, rack: np.ndarray,
              leave: np.ndarray, out_square: np.ndarray, out_code: np.ndarray, out_face: np.ndarray,
              out_count: np.ndarray, out_score: np.ndarray, out_used: np.ndarray) -> int:
    """The play of highest value, 2 x points + leave[rack slots used], the first of equals in
    `generate`'s order (what the machine strategy takes of that list), written to row 0 of the out
    arrays; returns 1, or 0 if the rack has no legal play. The same walk as `generate`, skipping the
    branches that cannot beat the best found so far. `leave` has an entry per bit mask of rack slots."""
    leave_best = leave.copy()  # per mask: the best leave of the mask or any mask that adds slots to it
    for mask in range(len(leave) - 1, -1, -1):
        for slot in range(len(rack)):
            if not mask >> slot & 1:
                leave_best[mask] = max(leave_best[mask], leave_best[mask | 1 << slot])
    best = np.full(1, -(1 << 62), dtype=np.int64)
    count = _plays(face, doubling, in_start, rows, cols, start_squares, centre, values, rack, out_square,
                   out_code, out_face, out_count, out_score, out_used, leave, leave_best, best)
    return 1 if count else 0


@njit(cache=True)
def _plays(face: np.ndarray, doubling: np.ndarray, in_start: np.ndarray, rows: int, cols: int,
           start_squares: np.ndarray, centre: int, values: np.ndarray, rack: np.ndarray,
           out_square: np.ndarray, out_code: np.ndarray, out_face: np.ndarray, out_count: np.ndarray,
           out_score: np.ndarray, out_used: np.ndarray, leave: np.ndarray, leave_best: np.ndarray,
           best: np.ndarray) -> int:
    """The walk of `generate` (every play) and `best_play` (with a `leave` table: the best one)."""
    size = rows * cols
    first_play = True
    for square in range(size):
        if face[square] != EMPTY:
            first_play = False
            break
    span = np.empty(MAX_LINE, dtype=np.int64)
    work = np.empty((12, MAX_LINE + 1), dtype=np.int64)  # _fill's workspace
    relevant = np.zeros((MAX_LINE, 13), dtype=np.bool_)
    repeats = np.empty((MAX_LINE, 13), dtype=np.int64)
    count = 0
    if first_play:
        none_allowed = np.ones((size, CARDS), dtype=np.bool_)
        no_points = np.zeros((size, CARDS), dtype=np.int64)
        no_cross = np.zeros(size, dtype=np.int64)
        n = len(start_squares)
        for a in range(n):
            for b in range(a + 1, min(a + MAX_LINE, n)):
                length = b - a + 1
                if length > len(rack):
                    continue
                for k in range(length):
                    span[k] = start_squares[a + k]
                count = _fill(length, span, rack, face, doubling, values, 1, centre, none_allowed, no_points,
                              no_points, no_cross, out_square, out_code, out_face, out_count, out_score,
                              out_used, count, leave, leave_best, best, work, relevant, repeats)
        return count
    for direction in range(2):
        horizontal = direction == 0
        # the lines across this direction's plays run the other way
        cross_length, allowed, natural_points, joker_points = _cross_tables(
            face, doubling, in_start, rows, cols, values, not horizontal)
        cross_best = np.zeros(size, dtype=np.int64)  # the search's bound: the most a cross line scores
        if len(leave):
            for square in range(size):
                for card in range(CARDS):
                    if allowed[square, card]:
                        top = max(natural_points[square, card], joker_points[square, card])
                        cross_best[square] = max(cross_best[square], top)
        lines, along = (rows, cols) if horizontal else (cols, rows)
        for index in range(lines):
            for a in range(along):
                for b in range(a, min(a + MAX_LINE, along)):
                    length = b - a + 1
                    before = index * cols + a - 1 if horizontal else (a - 1) * cols + index
                    after = index * cols + b + 1 if horizontal else (b + 1) * cols + index
                    if a > 0 and face[before] != EMPTY:
                        continue
                    if b < along - 1 and face[after] != EMPTY:
                        continue  # not the whole run: the longer span that takes in that tile is
                    empties = 0
                    touches = False
                    all_start = 1
                    for k in range(length):
                        square = index * cols + a + k if horizontal else (a + k) * cols + index
                        span[k] = square
                        all_start &= in_start[square]
                        if face[square] == EMPTY:
                            empties += 1
                            if cross_length[square] >= 2:
                                touches = True
                        else:
                            touches = True
                    if empties == 0 or empties > len(rack) or not touches:
                        continue
                    if not horizontal and empties < 2:
                        continue  # a single tile is listed once, by its row
                    count = _fill(length, span, rack, face, doubling, values, all_start if length >= 2 else 0,
                                  -1, allowed, natural_points, joker_points, cross_best, out_square, out_code,
                                  out_face, out_count, out_score, out_used, count, leave, leave_best, best,
                                  work, relevant, repeats)
    return count

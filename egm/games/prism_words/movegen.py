"""The compiled move generator: every legal play of a rack on a grid, scored (numba).

Anchors and cross-checks, as in Appel and Jacobson's generator, over the lexicon's flat DAWG:

* an *anchor* is an empty square next to a block on the grid (on the first play, only the centre
  pocket); a play is connected exactly when it puts a block on an anchor;
* a square's *cross-check* is the set of letters that complete a word with the blocks above and
  below it (left and right of it, for plays down a column), found by walking the DAWG once per
  letter; with no such neighbours every letter passes. The cross word's existing numerals, length
  and faces are kept beside it, so the cross word scores in one step when a face lands there.

For each line (every row, then every column) and each start square that follows an empty square
(or the edge) and reaches an anchor with the rack's blocks, a depth-first walk extends the word to
the right (down), following the DAWG: a filled square must continue the word with its letter; an
empty one takes any unused rack block, either face, a star face as any letter, when the letter
passes the square's cross-check and continues a word. Each time the word ends (an empty square or
the edge follows) at a word of the lexicon with at least one block placed on an anchor, the play is
recorded with its score. A single block is recorded only along the line where it forms a word of two
or more letters (its row first), so each play appears once (no two blocks of the set are alike).

Scoring is the rules' four phases (board.py) computed along the way, in integers; the engine's
Python rules check (`board.score_play`) rescoring a generated play gives the same points, which
tests prove on many games, and a brute-force search on small grids proves no legal play is missed.
"""

from __future__ import annotations

import numpy as np

from egm.jit import njit

STAR = 26
ALL_LETTERS = (1 << 26) - 1
LONG_WORD = 6
BONUS = 25
MAX_TILES = 6

# Columns of the `meta` output: direction (0 across, 1 down), line, start, blocks placed, points,
# main word length, rack slots used (bit mask), awards earned (a word with the pattern bonus, the
# depleted rack: 0, 1 or 2).
M_DIR, M_LINE, M_START, M_PLACED, M_POINTS, M_LEN, M_USED, M_AWARDS = range(8)
META_COLUMNS = 8
# Per placed block in `tiles`: position along the line, rack slot, side, letter.
T_POS, T_SLOT, T_SIDE, T_LETTER = range(4)


@njit(cache=True, nogil=True)
def _child(mask: np.ndarray, first: np.ndarray, target: np.ndarray, node: int, letter: int) -> int:
    """The node after `letter` from `node`, or -1: the edge's rank is the popcount of the node's
    letters below it (a branch-free bit count)."""
    bits = np.int64(mask[node])
    if not (bits >> letter) & 1:
        return -1
    x = bits & ((np.int64(1) << letter) - 1)
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return target[first[node] + (((x * 0x01010101) >> 24) & 0xFF)]


@njit(cache=True, nogil=True)
def _word_points(basic: int, length: int, sides: int, doubling: bool) -> int:
    """A word's points: basic, doubled at 6+ letters (under the rules), plus the pattern bonus for
    6+ letters all on one side (sides: bit 0 a left face present, bit 1 a right face present)."""
    if length < LONG_WORD:
        return basic
    points = basic * 2 if doubling else basic
    if sides == 1 or sides == 2:
        points += BONUS
    return points


@njit(cache=True, nogil=True)
def _cross_checks(letter: np.ndarray, value: np.ndarray, side: np.ndarray, rows: int, cols: int,
                  d_row: int, d_col: int, mask: np.ndarray, first: np.ndarray, target: np.ndarray,
                  terminal: np.ndarray, root: int, cmask: np.ndarray, clen: np.ndarray,
                  csum: np.ndarray, csides: np.ndarray) -> None:
    """For every empty square, the letters allowed by its neighbours along (d_row, d_col) and the
    existing part of the word they form: its length with the square, numeral sum and faces."""
    for r in range(rows):
        for c in range(cols):
            sq = r * cols + c
            cmask[sq] = ALL_LETTERS
            clen[sq] = 1
            csum[sq] = 0
            csides[sq] = 0
            if letter[sq] >= 0:
                cmask[sq] = 0
                continue
            # the run before the square
            br, bc = r - d_row, c - d_col
            while br >= 0 and bc >= 0 and letter[br * cols + bc] >= 0:
                br -= d_row
                bc -= d_col
            ar, ac = r + d_row, c + d_col
            while ar < rows and ac < cols and letter[ar * cols + ac] >= 0:
                ar += d_row
                ac += d_col
            length = (ar - br) // d_row if d_row else (ac - bc) // d_col
            length -= 1
            if length == 1:
                continue
            clen[sq] = length
            node = root
            pr, pc = br + d_row, bc + d_col
            while pr != r or pc != c:
                s = pr * cols + pc
                csum[sq] += value[s]
                csides[sq] |= 1 << side[s]
                if node >= 0:
                    node = _child(mask, first, target, node, letter[s])
                pr += d_row
                pc += d_col
            allowed = 0
            if node >= 0:
                for candidate in range(26):
                    walk = _child(mask, first, target, node, candidate)
                    qr, qc = r + d_row, c + d_col
                    while walk >= 0 and (qr != ar or qc != ac):
                        walk = _child(mask, first, target, walk, letter[qr * cols + qc])
                        qr += d_row
                        qc += d_col
                    if walk >= 0 and terminal[walk]:
                        allowed |= 1 << candidate
            sr, sc = r + d_row, c + d_col
            while sr != ar or sc != ac:
                s = sr * cols + sc
                csum[sq] += value[s]
                csides[sq] |= 1 << side[s]
                sr += d_row
                sc += d_col
            cmask[sq] = allowed


@njit(cache=True, nogil=True)
def _walk(lletter: np.ndarray, lvalue: np.ndarray, lside: np.ndarray, lanchor: np.ndarray,
          lcmask: np.ndarray, lclen: np.ndarray, lcsum: np.ndarray, lcsides: np.ndarray, n: int,
          options: np.ndarray, nrack: int, mask: np.ndarray, first: np.ndarray,
          target: np.ndarray, terminal: np.ndarray, root: int, start: int, doubling: bool,
          rack_size: int, min_len: int, single_ok: np.ndarray, direction: int, line: int,
          state: np.ndarray, choice: np.ndarray, scratch: np.ndarray, leave: np.ndarray, award_value: int,
          keep_all: bool, best: np.ndarray, meta: np.ndarray, tiles: np.ndarray, count: int) -> int:
    """Every play whose main word starts at `start` on one line: a depth-first walk, depth k at
    square start + k, with an explicit stack (`state` rows: node, used slots, blocks placed,
    anchored, main numerals, main sides, main length, cross-word points, a cross word with the
    pattern bonus; `choice`: the next rack
    option to try at that depth, -1 on first entry)."""
    nopt = options.shape[0]
    state[0, 0] = root
    for k in range(1, 9):
        state[0, k] = 0
    choice[0] = -1
    k = 0
    while k >= 0:
        pos = start + k
        node, used, placed = state[k, 0], state[k, 1], state[k, 2]
        if choice[k] == -1:
            choice[k] = 0
            if pos < n and lletter[pos] >= 0:
                choice[k] = nopt  # one way on: the letter already there
                child = _child(mask, first, target, node, lletter[pos])
                if child < 0:
                    k -= 1
                    continue
                state[k + 1, 0] = child
                state[k + 1, 1] = used
                state[k + 1, 2] = placed
                state[k + 1, 3] = state[k, 3]
                state[k + 1, 4] = state[k, 4] + lvalue[pos]
                state[k + 1, 5] = state[k, 5] | (1 << lside[pos])
                state[k + 1, 6] = state[k, 6] + 1
                state[k + 1, 7] = state[k, 7]
                state[k + 1, 8] = state[k, 8]
                k += 1
                choice[k] = -1
                continue
            mlen = state[k, 6]
            if (placed > 0 and state[k, 3] and mlen >= min_len and terminal[node]
                    and (placed > 1 or single_ok[scratch[0, T_POS]])):
                points = _word_points(state[k, 4], mlen, state[k, 5], doubling) + state[k, 7]
                sides = state[k, 5]
                pattern = state[k, 8] == 1 or (mlen >= LONG_WORD and (sides == 1 or sides == 2))
                awards = 1 if pattern else 0
                if placed == rack_size:
                    points += BONUS
                    awards += 1
                row = count
                if not keep_all:
                    row = 0  # only the best so far is kept, in row 0
                    value = points * 10 + leave[used] + award_value * awards
                    if count > 0 and value <= best[0]:
                        row = -1
                    else:
                        best[0] = value
                if row >= 0 and row < meta.shape[0]:
                    meta[row, M_DIR] = direction
                    meta[row, M_LINE] = line
                    meta[row, M_START] = start
                    meta[row, M_PLACED] = placed
                    meta[row, M_POINTS] = points
                    meta[row, M_LEN] = mlen
                    meta[row, M_USED] = used
                    meta[row, M_AWARDS] = awards
                    for t in range(placed):
                        for col in range(4):
                            tiles[row, t, col] = scratch[t, col]
                count += 1
            if pos >= n or placed == nrack:
                k -= 1
                continue
        if pos >= n or lletter[pos] >= 0:
            k -= 1
            continue
        allowed = lcmask[pos] & mask[node]
        o = choice[k]
        pushed = False
        while o < nopt:
            slot, side, letter = options[o, 0], options[o, 1], options[o, 2]
            o += 1
            if used & (1 << slot) or not (allowed >> letter) & 1:
                continue
            value = options[o - 1, 3]
            cross = 0
            if lclen[pos] > 1:
                cross = _word_points(lcsum[pos] + value, lclen[pos], lcsides[pos] | (1 << side), doubling)
            scratch[placed, T_POS] = pos
            scratch[placed, T_SLOT] = slot
            scratch[placed, T_SIDE] = side
            scratch[placed, T_LETTER] = letter
            state[k + 1, 0] = _child(mask, first, target, node, letter)
            state[k + 1, 1] = used | (1 << slot)
            state[k + 1, 2] = placed + 1
            state[k + 1, 3] = 1 if state[k, 3] or lanchor[pos] else 0
            state[k + 1, 4] = state[k, 4] + value
            state[k + 1, 5] = state[k, 5] | (1 << side)
            state[k + 1, 6] = state[k, 6] + 1
            state[k + 1, 7] = state[k, 7] + cross
            cross_sides = lcsides[pos] | (1 << side)
            long_cross = lclen[pos] >= LONG_WORD and (cross_sides == 1 or cross_sides == 2)
            state[k + 1, 8] = 1 if state[k, 8] or long_cross else 0
            pushed = True
            break
        choice[k] = o
        if pushed:
            k += 1
            choice[k] = -1
        else:
            k -= 1
    return count


@njit(cache=True, nogil=True)
def rack_options(faces: np.ndarray) -> np.ndarray:
    """Each (slot, side, letter, numeral) a rack can put down: a letter face once, a star face once
    per letter A..Z (numeral 0)."""
    total = 0
    for slot in range(faces.shape[0]):
        for side in range(2):
            total += 26 if faces[slot, 2 * side] == STAR else 1
    options = np.empty((total, 4), np.int64)
    o = 0
    for slot in range(faces.shape[0]):
        for side in range(2):
            face_letter = faces[slot, 2 * side]
            low, high = (0, 26) if face_letter == STAR else (face_letter, face_letter + 1)
            for letter in range(low, high):
                options[o, 0] = slot
                options[o, 1] = side
                options[o, 2] = letter
                options[o, 3] = faces[slot, 2 * side + 1]
                o += 1
    return options


@njit(cache=True, nogil=True)
def generate(letter: np.ndarray, value: np.ndarray, side: np.ndarray, rows: int, cols: int,
             centre: int, faces: np.ndarray, mask: np.ndarray, first: np.ndarray,
             target: np.ndarray, terminal: np.ndarray, root: int, doubling: bool, rack_size: int,
             first_word_min: int, leave: np.ndarray, award_value: int, keep_all: bool, meta: np.ndarray,
             tiles: np.ndarray) -> int:
    """Every legal play of the rack `faces` ([slot] = left letter, left numeral, right letter,
    right numeral; letter 26 a star) on the grid (row-major letter / numeral / side, letter -1
    empty); returns how many exist. With `keep_all`, the plays are written to `meta` and `tiles` in
    the order generated, up to their capacity (call again with larger arrays when the count exceeds
    it); otherwise only row 0 is written: the first play of the highest value, 10 x points +
    leave[slots used] + award_value x awards."""
    size = rows * cols
    nrack = faces.shape[0]
    empty_grid = True
    for sq in range(size):
        if letter[sq] >= 0:
            empty_grid = False
            break
    anchor = np.zeros(size, np.bool_)
    if empty_grid:
        anchor[centre] = True
    else:
        for r in range(rows):
            for c in range(cols):
                sq = r * cols + c
                if letter[sq] >= 0:
                    continue
                if ((r > 0 and letter[sq - cols] >= 0) or (r < rows - 1 and letter[sq + cols] >= 0)
                        or (c > 0 and letter[sq - 1] >= 0) or (c < cols - 1 and letter[sq + 1] >= 0)):
                    anchor[sq] = True
    min_len = first_word_min if empty_grid else 2
    count = 0
    options = rack_options(faces)
    state = np.zeros((rows + cols + 2, 9), np.int64)
    choice = np.zeros(rows + cols + 2, np.int64)
    scratch = np.zeros((MAX_TILES, 4), np.int64)
    best = np.zeros(1, np.int64)
    cmask = np.zeros(size, np.int64)
    clen = np.zeros(size, np.int64)
    csum = np.zeros(size, np.int64)
    csides = np.zeros(size, np.int64)
    for direction in range(2):
        # cross-checks run perpendicular to the line: down the column for plays across
        d_row, d_col = (1, 0) if direction == 0 else (0, 1)
        _cross_checks(letter, value, side, rows, cols, d_row, d_col, mask, first, target, terminal,
                      root, cmask, clen, csum, csides)
        lines, n = (rows, cols) if direction == 0 else (cols, rows)
        lletter = np.empty(n, np.int64)
        lvalue = np.empty(n, np.int64)
        lside = np.empty(n, np.int64)
        lanchor = np.empty(n, np.bool_)
        lcmask = np.empty(n, np.int64)
        lclen = np.empty(n, np.int64)
        lcsum = np.empty(n, np.int64)
        lcsides = np.empty(n, np.int64)
        single_ok = np.empty(n, np.bool_)
        for line in range(lines):
            has_anchor = False
            for j in range(n):
                sq = line * cols + j if direction == 0 else j * cols + line
                lletter[j] = letter[sq]
                lvalue[j] = value[sq]
                lside[j] = side[sq]
                lanchor[j] = anchor[sq]
                has_anchor = has_anchor or anchor[sq]
                lcmask[j] = cmask[sq]
                lclen[j] = clen[sq]
                lcsum[j] = csum[sq]
                lcsides[j] = csides[sq]
                # a single block goes down a column only when its row forms no word
                single_ok[j] = direction == 0 or clen[sq] == 1
            if not has_anchor:
                continue
            for start in range(n):
                if start > 0 and lletter[start - 1] >= 0:
                    continue
                empties = 0
                reach = False
                for j in range(start, n):
                    if lletter[j] < 0:
                        empties += 1
                        if empties > nrack:
                            break
                    if lanchor[j]:
                        reach = True
                        break
                if not reach:
                    continue
                count = _walk(lletter, lvalue, lside, lanchor, lcmask, lclen, lcsum, lcsides, n,
                              options, nrack, mask, first, target, terminal, root, start,
                              doubling, rack_size, min_len, single_ok, direction, line, state,
                              choice, scratch, leave, award_value, keep_all, best, meta, tiles, count)
    return count

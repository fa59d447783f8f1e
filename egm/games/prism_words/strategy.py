"""How a seat chooses its move: the machine strategy, and the lab's random and award-seeking players
(the lab's best-available strategy, which searches the end of the game, is `endgame.py`).

Every strategy sees only what its seat may see: its own rack and the grid (never another rack or
the bag's order; the bag's size and the turns left are public), and all are pure functions of that,
in integers, so a game is exactly repeatable. All of them choose among the plays of the compiled
generator (`movegen.generate`): every legal play of the rack, each block either face, a star any
letter, scored by the rules' four phases.

`prism-greedy/1` (the machine opponent, and the reference strategy for the customer's seat):
1. Value each play as 10 x its points plus the *leave*, in tenths of a point, of the blocks it
   keeps: each kept block is worth the better of its two faces' keep values (`KEEP`: flexible
   letters such as E, S, R, T and the star are worth keeping, awkward ones such as Q, V, J cost),
   less 30 when two or more blocks are kept and none can show a vowel, or none a consonant. When
   no block will be drawn before the game ends (the bag is empty, or it is the seat's last turn of
   the short form) the leave is exactly what the kept blocks cost at the end: -10 x their numerals.
2. Play the highest value; ties go to the play generated first (rows before columns, top to bottom,
   left to right, rack order).
3. With no legal play: exchange the rack while the bag holds blocks, else pass.

`prism-pays/1` (the lab's former best-available strategy, kept for comparison): `prism-greedy/1`
playing for the pay table rather than for points alone: a play that earns an award (a word with
the pattern bonus, a depleted rack) is valued 10 points higher for each, about what a unit of pay
is worth in margin. Same search, same cost; measured no stronger than the reference
(docs/prism-words.md, Certification).

`random` (the lab's lower bound): a uniformly random legal play from the strategy's own random
stream; with none, exchange (or pass) as above.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from egm.games.prism_words import movegen
from egm.games.prism_words.blocks import LETTERS, letter_text
from egm.games.prism_words.board import Placement
from egm.games.prism_words.table import EXCHANGE, PASS, PLAY, Move, Table
from egm.rng import Rng

MACHINE_STRATEGY = "prism-greedy/1"
PAYS_STRATEGY = "prism-pays/1"
RANDOM_STRATEGY = "random"
AWARD_POINTS = 10  # what prism-pays/1 values an award at: about a unit of pay, as 10 points of margin

# Keep values of a face, in tenths of a point, by letter (the star: index 26).
KEEP = dict(zip(LETTERS + "*", (
    10, -5, 0, 5, 20, -5, 0, 5, 5, -20, -10, 5, 0, 8, 5, 0, -50, 10, 20, 10, -5, -20, -10, -5, -5, -10,
    60,
), strict=True))
VOWELS = {LETTERS.index(v) for v in "AEIOU"}
UNBALANCED = -30

INITIAL_CAPACITY = 8192
NO_LEAVE = np.zeros(64, np.int64)


@dataclass(frozen=True)
class Choice:
    """A strategy's move: "play" with its placements, "exchange" or "pass"."""

    kind: str
    placements: tuple[Placement, ...] = ()


Strategy = Callable[[Table], Choice]


@dataclass(frozen=True)
class Plays:
    """Every legal play of one seat's rack, as the generator wrote them (see movegen)."""

    meta: np.ndarray
    tiles: np.ndarray
    count: int
    slots: tuple[int, ...]  # rack slot -> block index

    def placements(self, index: int) -> tuple[Placement, ...]:
        row = self.meta[index]
        direction, line = int(row[movegen.M_DIR]), int(row[movegen.M_LINE])
        out = []
        for pos, slot, side, letter in self.tiles[index, : int(row[movegen.M_PLACED])]:
            r, c = (line, int(pos)) if direction == 0 else (int(pos), line)
            out.append(Placement(r, c, self.slots[int(slot)], int(side), int(letter)))
        return tuple(out)

    def points(self, index: int) -> int:
        return int(self.meta[index, movegen.M_POINTS])


def rack_faces(table: Table, rack: list[int]) -> np.ndarray:
    """The rack as the generator takes it: [slot] = (left letter, numeral, right letter, numeral)."""
    blocks = table.book.blocks
    return np.array([[blocks[b].left, blocks[b].left_value, blocks[b].right, blocks[b].right_value]
                     for b in rack], np.int64).reshape(len(rack), 4)


def _generate(table: Table, rack: list[int], grid_arrays: tuple[np.ndarray, ...] | None,
              leave: np.ndarray | None, award_value: int = 0) -> Plays:
    book, grid = table.book, table.grid
    faces = rack_faces(table, rack)
    if grid_arrays is None:
        grid_arrays = grid.arrays()
    letter, value, side = grid_arrays
    lexicon = book.lexicon
    keep_all = leave is None
    capacity = INITIAL_CAPACITY if keep_all else 1
    while True:
        meta = np.empty((capacity, movegen.META_COLUMNS), np.int64)
        tiles = np.empty((capacity, movegen.MAX_TILES, 4), np.int64)
        count = movegen.generate(letter, value, side, book.rows, book.cols, grid.square(*book.centre),
                                 faces, lexicon.mask, lexicon.first, lexicon.target,
                                 lexicon.terminal, lexicon.root, book.doubling, book.rack_size,
                                 book.first_word_min, NO_LEAVE if keep_all else leave, award_value,
                                 keep_all, meta, tiles)
        if count <= capacity or not keep_all:
            return Plays(meta, tiles, count if keep_all else min(count, 1), tuple(rack))
        capacity = count


def legal_plays(table: Table, rack: list[int] | None = None,
                grid_arrays: tuple[np.ndarray, ...] | None = None) -> Plays:
    """Every legal play of `rack` (default: the rack of the seat to move) on the table's grid (or on
    `grid_arrays`: the letter, numeral and side arrays of another position), in generation order."""
    return _generate(table, table.racks[table.turn] if rack is None else rack, grid_arrays, None)


def last_draw_passed(table: Table) -> bool:
    """Whether the seat to move will draw no more blocks before the end: the bag is empty, or this is
    its last turn of the short form."""
    book = table.book
    last_turn = bool(book.turns_per_seat) and table.turns_taken >= (book.turns_per_seat - 1) * table.seats
    return not table.bag or last_turn


def leave_values(table: Table, rack: list[int]) -> np.ndarray:
    """The leave value (tenths of a point) of keeping the blocks outside each used-slot mask."""
    blocks = [table.book.blocks[b] for b in rack]
    kept = 1 - ((np.arange(1 << len(rack))[:, None] >> np.arange(len(rack))) & 1)
    if last_draw_passed(table):
        return kept @ np.array([-10 * block.numeral_sum for block in blocks], np.int64)
    keep = np.array([max(KEEP[letter_text(block.left)], KEEP[letter_text(block.right)])
                     for block in blocks], np.int64)
    vowel = np.array([block.left in VOWELS or block.right in VOWELS or block.has_star for block in blocks],
                     np.int64)
    consonant = np.array([any(face not in VOWELS for face in (block.left, block.right)) for block in blocks],
                         np.int64)
    unbalanced = (kept.sum(axis=1) >= 2) & (((kept @ vowel) == 0) | ((kept @ consonant) == 0))
    return kept @ keep + UNBALANCED * unbalanced


def apply_choice(table: Table, seat: int, choice: Choice) -> Move:
    """Make a strategy's (or the customer's) move for `seat` on `table`; IllegalPlay when refused."""
    if choice.kind == PLAY:
        return table.play(seat, choice.placements)
    if choice.kind == EXCHANGE:
        return table.exchange(seat)
    return table.pass_turn(seat)


def _no_play(table: Table) -> Choice:
    return Choice(EXCHANGE) if table.bag else Choice(PASS)


def greedy_best(table: Table) -> Plays:
    """The prism-greedy/1 play of the seat to move, as the generator kept it (count 0: none)."""
    rack = table.racks[table.turn]
    return _generate(table, rack, None, leave_values(table, rack), 0)


def machine_move(table: Table) -> Choice:
    """prism-greedy/1: the most points plus leave (the generator keeps only the best play)."""
    best = greedy_best(table)
    if not best.count:
        return _no_play(table)
    return Choice(PLAY, best.placements(0))


def pays_move(table: Table) -> Choice:
    """prism-pays/1: prism-greedy/1 with each award the play earns valued as AWARD_POINTS points."""
    rack = table.racks[table.turn]
    best = _generate(table, rack, None, leave_values(table, rack), AWARD_POINTS * 10)
    if not best.count:
        return _no_play(table)
    return Choice(PLAY, best.placements(0))


def random_player(rng: Rng) -> Strategy:
    """A uniformly random legal play, from `rng` (the strategy's own stream)."""

    def choose(table: Table) -> Choice:
        plays = legal_plays(table)
        if not plays.count:
            return _no_play(table)
        return Choice(PLAY, plays.placements(rng.randbelow(plays.count)))

    return choose


MACHINE_STRATEGIES: dict[str, Strategy] = {MACHINE_STRATEGY: machine_move}

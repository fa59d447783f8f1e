"""The grid and the rules of one play: legality, the words formed, and the four scoring phases.

A play puts blocks from the rack in one row or column, each showing the face its player chose (a
star face with the letter its player declares). It is legal when the squares are empty and on the
grid, in one line with no gap (blocks already on the grid may fill the line between them), and
connected: the first play covers the centre pocket and spells at least `first_word_min` letters;
every later play touches a block already on the grid. Every word it forms or modifies, crossword
style, must be in the lexicon: the *main* word along the line (for a single block, its row; its
column when the row holds no word) and each perpendicular word through a placed block.

Scoring, per word: (1) basic = the sum of the shown faces' numerals, every letter counted (a letter
shared by two words counts in each; a star counts 0); (2) a word of 6 or more letters is doubled
(scoring "rules"; the seed's worked example, scoring "example", has no doubling); (3) plus 25 for a
word of 6 or more letters whose faces are all left (boxed) or all right (unboxed) faces, a star
counting as the face it is on; and per play (4) plus 25 for playing all 6 rack blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from egm.games.grid import square_name
from egm.games.prism_words.blocks import FACE_NAMES, LETTERS, STAR, Block, block_text, letter_text
from egm.games.prism_words.lexicon import Lexicon

EMPTY = -1
LONG_WORD = 6  # letters from which a word is doubled and may earn the pattern bonus
PATTERN_BONUS = 25
RACK_BONUS = 25  # the depleted-rack premium: all 6 rack blocks in one play


class IllegalPlay(ValueError):
    """A play the rules refuse; the message is one sentence naming the rule. Nothing changed."""


NO_SUCH_BLOCK = "That block is not one of the game's blocks; play blocks from your rack."


@dataclass(frozen=True)
class Placement:
    """One block put on the grid: its square, index in the block set, the face shown (0 left,
    1 right) and the letter it shows (0..25; for a star face, the letter declared)."""

    row: int
    col: int
    block: int
    side: int
    letter: int

    def to_json(self) -> dict[str, int | str]:
        return {"row": self.row, "col": self.col, "block": self.block, "face": FACE_NAMES[self.side],
                "letter": LETTERS[self.letter]}


@dataclass(frozen=True)
class Word:
    """One word a play formed or modified, with its scoring phases."""

    text: str
    cells: tuple[tuple[int, int], ...]
    basic: int
    doubled: bool
    pattern_bonus: int

    @property
    def points(self) -> int:
        return self.basic * (2 if self.doubled else 1) + self.pattern_bonus

    def to_json(self) -> dict[str, object]:
        return {"word": self.text, "cells": [list(cell) for cell in self.cells], "basic": self.basic,
                "doubled": self.doubled, "pattern_bonus": self.pattern_bonus, "points": self.points}


@dataclass(frozen=True)
class ScoredPlay:
    placements: tuple[Placement, ...]
    words: tuple[Word, ...]
    rack_bonus: int

    @property
    def points(self) -> int:
        return sum(word.points for word in self.words) + self.rack_bonus


class Grid:
    """What the grid shows: per square (row-major) the letter, numeral, face side and block, or EMPTY."""

    def __init__(self, rows: int, cols: int, centre: Sequence[int]) -> None:
        self.rows = rows
        self.cols = cols
        self.centre = (centre[0], centre[1])
        size = rows * cols
        self.letter = [EMPTY] * size
        self.value = [0] * size
        self.side = [EMPTY] * size
        self.block = [EMPTY] * size

    @property
    def empty(self) -> bool:
        return all(letter == EMPTY for letter in self.letter)

    def on_grid(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def square(self, row: int, col: int) -> int:
        return row * self.cols + col

    def filled(self, row: int, col: int) -> bool:
        return self.on_grid(row, col) and self.letter[self.square(row, col)] != EMPTY

    def put(self, placement: Placement, value: int) -> None:
        square = self.square(placement.row, placement.col)
        self.letter[square] = placement.letter
        self.value[square] = value
        self.side[square] = placement.side
        self.block[square] = placement.block

    def copy(self) -> Grid:
        """An independent copy (a strategy's look-ahead plays on it)."""
        other = Grid(self.rows, self.cols, self.centre)
        other.letter, other.value = list(self.letter), list(self.value)
        other.side, other.block = list(self.side), list(self.block)
        return other

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Copies of the letter, numeral and side of every square, as the move generator takes them."""
        return (np.array(self.letter, np.int64), np.array(self.value, np.int64),
                np.array(self.side, np.int64))

    def rows_text(self) -> list[str]:
        """The grid as text, one string per row, '.' for an empty square."""
        shown = ["." if letter == EMPTY else LETTERS[letter] for letter in self.letter]
        return ["".join(shown[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]


def _run(grid: Grid, new: dict[tuple[int, int], Placement], row: int, col: int, d_row: int, d_col: int
         ) -> list[tuple[int, int]]:
    """The squares of the maximal run of filled (or newly placed) squares through (row, col)."""

    def filled(r: int, c: int) -> bool:
        return (r, c) in new or grid.filled(r, c)

    while filled(row - d_row, col - d_col):
        row, col = row - d_row, col - d_col
    cells = []
    while filled(row, col):
        cells.append((row, col))
        row, col = row + d_row, col + d_col
    return cells


def _word(grid: Grid, blocks: Sequence[Block], new: dict[tuple[int, int], Placement],
          cells: list[tuple[int, int]], doubling: bool) -> Word:
    letters, values, sides = [], [], []
    for row, col in cells:
        placed = new.get((row, col))
        if placed is not None:
            _, value = blocks[placed.block].face(placed.side)
            letters.append(placed.letter)
            values.append(value)
            sides.append(placed.side)
        else:
            square = grid.square(row, col)
            letters.append(grid.letter[square])
            values.append(grid.value[square])
            sides.append(grid.side[square])
    long_word = len(cells) >= LONG_WORD
    return Word(
        text="".join(LETTERS[letter] for letter in letters),
        cells=tuple(cells),
        basic=sum(values),
        doubled=long_word and doubling,
        pattern_bonus=PATTERN_BONUS if long_word and len(set(sides)) == 1 else 0,
    )


def check_faces(blocks: Sequence[Block], placements: Sequence[Placement]) -> None:
    """Each placement's letter is the chosen face's letter, or any letter for a star face."""
    for p in placements:
        if not 0 <= p.block < len(blocks):
            raise IllegalPlay(NO_SUCH_BLOCK)
        block = block_text(blocks[p.block])
        if p.side not in (0, 1):
            raise IllegalPlay(f"The {block} has a left and a right face; choose one of them.")
        face_letter, _ = blocks[p.block].face(p.side)
        if face_letter == STAR:
            if not 0 <= p.letter < 26:
                raise IllegalPlay(f"The {FACE_NAMES[p.side]} face of the {block} is a star; declare the "
                                  "letter (A to Z) it stands for.")
        elif p.letter != face_letter:
            raise IllegalPlay(f"The {FACE_NAMES[p.side]} face of the {block} shows "
                              f"{letter_text(face_letter)}, not {letter_text(p.letter)}.")


def score_play(grid: Grid, blocks: Sequence[Block], lexicon: Lexicon, placements: Sequence[Placement], *,
               doubling: bool, rack_size: int, first_word_min: int) -> ScoredPlay:
    """The words and points of a play, or IllegalPlay naming the first rule it breaks."""
    if not placements:
        raise IllegalPlay("A play puts at least one block on the grid.")
    check_faces(blocks, placements)
    new: dict[tuple[int, int], Placement] = {}
    for p in placements:
        if not grid.on_grid(p.row, p.col):
            raise IllegalPlay(f"The square at {square_name(p.row, p.col)} is off the {grid.rows} x "
                              f"{grid.cols} grid.")
        if grid.filled(p.row, p.col):
            raise IllegalPlay(f"The square at {square_name(p.row, p.col)} already holds a block; blocks "
                              "never move.")
        if (p.row, p.col) in new:
            raise IllegalPlay(f"Two blocks are placed on the square at {square_name(p.row, p.col)}; one "
                              "block a square.")
        new[(p.row, p.col)] = p
    if len({p.block for p in placements}) != len(placements):
        raise IllegalPlay("A block is placed twice; each block goes on one square.")
    rows = {p.row for p in placements}
    cols = {p.col for p in placements}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("The blocks are not in one line; place them all in one row or one column.")
    across = len(rows) == 1 and (len(cols) > 1 or len(_run(grid, new, *next(iter(new)), 0, 1)) > 1)
    d_row, d_col = (0, 1) if across else (1, 0)
    first = min(new)
    main = _run(grid, new, first[0], first[1], d_row, d_col)
    if any(cell not in main for cell in new):
        raise IllegalPlay("The blocks leave a gap in their line; fill the line between them.")
    if grid.empty:
        if grid.centre not in new:
            raise IllegalPlay(f"The first word must cover the centre pocket {list(grid.centre)}.")
        if len(main) < first_word_min:
            raise IllegalPlay(f"The first word has {len(main)} letters; it needs at least {first_word_min}.")
    else:
        touches = len(main) > len(new) or any(
            grid.filled(r + dr, c + dc) for r, c in new for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
        )
        if not touches:
            raise IllegalPlay("The play is not connected to the blocks on the grid; join a word already "
                              "there.")
    words = []
    if len(main) > 1:
        words.append(_word(grid, blocks, new, main, doubling))
    for row, col in sorted(new):
        cross = _run(grid, new, row, col, d_col, d_row)
        if len(cross) > 1:
            words.append(_word(grid, blocks, new, cross, doubling))
    if not words:
        raise IllegalPlay("A single block alone spells no word; join it to a word.")
    for word in words:
        if not lexicon.contains(word.text):
            raise IllegalPlay(f"{word.text} is not in the lexicon; every word formed must be a listed word.")
    rack_bonus = RACK_BONUS if len(placements) == rack_size else 0
    return ScoredPlay(tuple(placements), tuple(words), rack_bonus)

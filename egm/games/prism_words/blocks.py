"""The 96 prismatic blocks: two lettered faces each, the left numeral boxed, the right unboxed.

The block set is a ROM asset (`paytables/assets/prism-words-blocks.txt`, named by SHA-256 in the pay
table): the seed's Block Tabulation as printed, one block per line, left face then right face, each
a letter and its numeral or `*` for a star. Letters are coded 0..25 (A..Z); a star face is `STAR`
(26) and has no numeral (0). The third face is blank and never shows, so it is not modelled.

>>> blocks = parse_blocks("A1 D2\\n# a comment\\n* B4\\n")
>>> blocks[0], blocks[1].faces()
(Block(left=0, left_value=1, right=3, right_value=2), ((26, 0), (1, 4)))
>>> blocks[1].text()
'*.B4'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STAR = 26  # a star face: stands for any letter its player declares, worth nothing
STAR_TEXT = "*"
LEFT, RIGHT = 0, 1  # the face shown: left (boxed numeral) or right (unboxed numeral)
FACE_NAMES = ("left", "right")

BLOCK_COUNT = 96
LETTER_FACES = 95  # per side: 95 letters with boxed numerals and 95 with unboxed ones

_FACE = re.compile(r"^(?:([A-Z])([0-9])|(\*))$")


@dataclass(frozen=True)
class Block:
    """One block: the letter code and numeral of its left (boxed) and right (unboxed) faces."""

    left: int
    left_value: int
    right: int
    right_value: int

    def faces(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """((letter, numeral) of the left face, (letter, numeral) of the right face)."""
        return (self.left, self.left_value), (self.right, self.right_value)

    def face(self, side: int) -> tuple[int, int]:
        return self.faces()[side]

    @property
    def has_star(self) -> bool:
        return STAR in (self.left, self.right)

    @property
    def numeral_sum(self) -> int:
        """Both numerals: what the block counts in the draw for first and against a rack at the end."""
        return self.left_value + self.right_value

    def text(self) -> str:
        """As the seed prints it, e.g. 'A1.D2' or 'B4.*'."""
        return ".".join(face_text(letter, value) for letter, value in self.faces())

    def to_json(self) -> list[str | int]:
        """[left_letter, left_value, right_letter, right_value], '*' for a star (the replay contract)."""
        return [letter_text(self.left), self.left_value, letter_text(self.right), self.right_value]


def letter_text(letter: int) -> str:
    return STAR_TEXT if letter == STAR else LETTERS[letter]


def block_text(block: Block) -> str:
    """A block as a player reads it, by its two faces' letters (a block's number is no word of theirs).

    >>> block_text(Block(0, 1, STAR, 0))
    'A/star block'
    """
    left, right = ("star" if letter == STAR else LETTERS[letter] for letter in (block.left, block.right))
    return f"{left}/{right} block"


def face_text(letter: int, value: int) -> str:
    return STAR_TEXT if letter == STAR else f"{LETTERS[letter]}{value}"


class BlockSetError(ValueError):
    """A block-set file that is not a valid tabulation; the message names the line."""


def _face(token: str, line_no: int) -> tuple[int, int]:
    match = _FACE.match(token)
    if match is None:
        raise BlockSetError(f"line {line_no}: face '{token}' is neither a letter and numeral (A1) nor '*'")
    if match.group(3):
        return STAR, 0
    return LETTERS.index(match.group(1)), int(match.group(2))


def parse_blocks(text: str) -> tuple[Block, ...]:
    """The blocks of a tabulation text: one block per line, '#' starts a comment."""
    blocks = []
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tokens = line.split()
        if len(tokens) != 2:
            raise BlockSetError(f"line {line_no}: a block is two faces, left then right, e.g. 'A1 D2'")
        (left, left_value), (right, right_value) = (_face(token, line_no) for token in tokens)
        blocks.append(Block(left, left_value, right, right_value))
    return tuple(blocks)


def check_block_set(blocks: tuple[Block, ...]) -> None:
    """The seed's counts and its scoring principle, or BlockSetError naming what differs.

    96 blocks; 95 letters on left faces, 95 on right faces and 2 stars (one on each side); a letter
    carries the same numeral wherever it appears ("always of the same numerical value")."""
    if len(blocks) != BLOCK_COUNT:
        raise BlockSetError(f"the block set has {len(blocks)} blocks; the seed's tabulation has 96")
    for side, name in ((LEFT, "left"), (RIGHT, "right")):
        stars = sum(block.face(side)[0] == STAR for block in blocks)
        if stars != 1 or BLOCK_COUNT - stars != LETTER_FACES:
            raise BlockSetError(f"{stars} stars on {name} faces; the seed has exactly one on each side")
    values: dict[int, int] = {}
    for block in blocks:
        for letter, value in block.faces():
            if letter != STAR and values.setdefault(letter, value) != value:
                raise BlockSetError(
                    f"{LETTERS[letter]} carries {values[letter]} and {value}; a letter has one numeral"
                )

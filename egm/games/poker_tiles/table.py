"""One game of Poker Tiles in progress: the board, the racks, the pool, the turn, the scores and moves.

A game is a pure function of its shuffled pool and its moves, so that is all its record holds;
`Table.from_record` replays the moves (checking and rescoring each) to rebuild the same game exactly.

Set-up (docs/poker-tiles.md): 5 tiles are dealt to each seat, one at a time, seat 0 first, from the
front of the pool. Each seat declares the best hand it holds (`declared_hand`); while no seat holds
one, every seat in order returns its whole rack to the back of the pool and draws 5 from the front.
The best declaration starts, ties to the lower seat; turns then go round in seat order.

A turn is exactly one of `play`, `swap_joker`, `pass_turn` or `exchange`. A seat draws back up to 5
after a play. The game ends when the pool is empty and a seat has played out; when no seat can move
(the pool is empty, so no exchange, and no seat has a legal play or joker swap); or after the pay
table's `rounds` rounds of turns (the cabinet's short form: a round is one turn of each seat).
Each seat then loses 1 point for each natural tile left in its rack and 5 for each joker; a seat
that played out gains what the others lose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from egm.cards import Card
from egm.games.grid import square_name
from egm.games.poker_tiles.board import Layout
from egm.games.poker_tiles.engine import (
    EMPTY,
    JOKER,
    LINE_FIELDS,
    LINE_TOO_LONG,
    OUT_OF_ORDER,
    best_play,
    generate,
    score_lines,
)
from egm.games.poker_tiles.hands import HANDS, MAX_LINE, PAIR, STRAIGHT, STRAIGHT_FLUSH, TWO_PAIR, classify
from egm.games.seats import possessive

RACK = 5
TILES = 108  # two 52-card decks and four jokers
JOKER_PENALTY = 5
NATURAL_PENALTY = 1


def full_pool() -> list[int]:
    """The 108 tile codes, unshuffled: each card twice, then the four jokers."""
    return [*range(52), *range(52), *[JOKER] * 4]


def tile_text(code: int) -> str:
    return str(Card(code))


def tile_points(code: int) -> int:
    """What an unplayed tile costs its seat at the end."""
    return JOKER_PENALTY if code == JOKER else NATURAL_PENALTY


class IllegalMove(ValueError):
    """A move the rules do not allow; the message names the rule. Nothing changed."""


@dataclass(frozen=True)
class Tile:
    """A tile of a play: its square, its code (a card index, or JOKER) and the card it plays as."""

    square: int
    code: int
    face: int


@dataclass(frozen=True)
class Line:
    """A line a play scored: its squares in order, the hand, its doublings and its points."""

    squares: tuple[int, ...]
    hand: int
    doubles: int
    points: int

    @property
    def multiplier(self) -> int:
        return 1 + self.doubles


@dataclass(frozen=True)
class Move:
    """One turn. kind: "play" (tiles, lines, points), "swap_joker" (square, card: the natural tile
    given for the joker), "pass", or "exchange" (returned: the tiles given back)."""

    seat: int
    kind: str
    tiles: tuple[Tile, ...] = ()
    lines: tuple[Line, ...] = ()
    square: int = EMPTY
    card: int = EMPTY
    returned: tuple[int, ...] = ()
    drawn: tuple[int, ...] = ()  # the tiles drawn from the pool after a play or an exchange

    @property
    def points(self) -> int:
        return sum(line.points for line in self.lines)

    def to_record(self) -> list[Any]:
        if self.kind == "play":
            args: Any = [[t.square, t.code, t.face] for t in self.tiles]
        elif self.kind == "swap_joker":
            args = [self.square, self.card]
        else:
            args = list(self.returned)
        return [self.seat, self.kind, args]


@dataclass(frozen=True)
class Plays:
    """Every legal play of a rack, as the generator lists them (one row a play)."""

    squares: np.ndarray  # (n, 5) squares covered, in line order
    codes: np.ndarray  # (n, 5) tile codes
    faces: np.ndarray  # (n, 5) cards played as
    counts: np.ndarray  # (n,) tiles placed
    scores: np.ndarray  # (n,) points
    used: np.ndarray  # (n,) rack slots used, a bit mask

    def __len__(self) -> int:
        return len(self.counts)

    def tiles(self, index: int) -> list[Tile]:
        return [Tile(int(self.squares[index, k]), int(self.codes[index, k]), int(self.faces[index, k]))
                for k in range(int(self.counts[index]))]


def legal_plays(layout: Layout, face: np.ndarray, rack: Sequence[int], capacity: int = 4096) -> Plays:
    """Every legal play of `rack` on the board `face` (egm.games.poker_tiles.engine.generate)."""
    codes = np.array(rack, dtype=np.int64)
    start = np.array(layout.start, dtype=np.int64)
    while True:
        squares = np.empty((capacity, MAX_LINE), dtype=np.int64)
        tiles = np.empty((capacity, MAX_LINE), dtype=np.int64)
        faces = np.empty((capacity, MAX_LINE), dtype=np.int64)
        counts = np.empty(capacity, dtype=np.int64)
        scores = np.empty(capacity, dtype=np.int64)
        used = np.empty(capacity, dtype=np.int64)
        n = generate(face, layout.doubling, layout.in_start, layout.rows, layout.cols, start, layout.centre,
                     layout.values, codes, squares, tiles, faces, counts, scores, used)
        if n <= capacity:
            return Plays(squares[:n], tiles[:n], faces[:n], counts[:n], scores[:n], used[:n])
        capacity = n


def highest_play(layout: Layout, face: np.ndarray, rack: Sequence[int], leave: np.ndarray) -> Plays:
    """The legal play of `rack` of highest value, 2 x points + leave[rack slots used] (the first of
    equals in `legal_plays`' order), as a Plays of one row; none if there is no legal play
    (egm.games.poker_tiles.engine.best_play)."""
    out = [np.empty((1, MAX_LINE), dtype=np.int64) for _ in range(3)]
    single = [np.empty(1, dtype=np.int64) for _ in range(3)]
    n = best_play(face, layout.doubling, layout.in_start, layout.rows, layout.cols,
                  np.array(layout.start, dtype=np.int64), layout.centre, layout.values,
                  np.array(rack, dtype=np.int64), leave, *out, *single)
    return Plays(*(a[:n] for a in out), *(a[:n] for a in single))


def hand_key(hand: int, faces: Sequence[int]) -> tuple[int, ...]:
    """A hand's rank for declaring who starts: the hand, then its ranks as poker breaks ties (the
    biggest group first, then the higher rank; a wheel's ace counts low)."""
    ranks = [f >> 2 for f in faces]
    if hand in (STRAIGHT, STRAIGHT_FLUSH) and 12 in ranks and 0 in ranks:
        ranks = [-1 if r == 12 else r for r in ranks]
    counts = Counter(ranks)
    return (hand, *sorted(ranks, key=lambda r: (counts[r], r), reverse=True))


def declared_hand(layout: Layout, rack: Sequence[int]) -> tuple[int, ...] | None:
    """The best hand the rack holds (any 2 to 5 of its tiles in a proper order, jokers as any card), as
    `hand_key`; None below a pair."""
    plays = legal_plays(layout, np.full(layout.size, EMPTY, dtype=np.int64), rack)
    best: tuple[int, ...] | None = None
    for index in range(len(plays)):
        faces = plays.faces[index, : plays.counts[index]]
        key = hand_key(classify(faces, len(faces)), [int(f) for f in faces])
        best = key if best is None or key > best else best
    return best


class Table:
    """The state of one game. Build it from a shuffled pool; change it only through the four turns."""

    def __init__(self, layout: Layout, seats: int, pool: Sequence[int], rounds: int) -> None:
        if sorted(pool) != sorted(full_pool()):
            raise ValueError("the pool must hold the 108 tiles: each card twice and four jokers")
        if not 2 <= seats <= 4:
            raise ValueError(f"Poker Tiles is played by 2 to 4 seats, not {seats}")
        self.layout = layout
        self.seats = seats
        self.rounds = rounds
        self.initial_pool = tuple(pool)
        self.pool = list(pool)
        self.face = np.full(layout.size, EMPTY, dtype=np.int64)
        self.joker = np.zeros(layout.size, dtype=np.int64)
        self.racks: list[list[int]] = [[] for _ in range(seats)]
        for _ in range(RACK):
            for seat in range(seats):
                self.racks[seat].append(self.pool.pop(0))
        self.dealt = [list(rack) for rack in self.racks]
        self.opening_swaps: list[list[list[int]]] = []  # per swap round, each seat's returned tiles
        self.declared = [declared_hand(layout, rack) for rack in self.racks]
        while not any(self.declared):
            self.opening_swaps.append([list(rack) for rack in self.racks])
            for seat in range(seats):
                returned, self.racks[seat] = self.racks[seat], self.pool[:RACK]
                self.pool = self.pool[RACK:] + returned
            self.declared = [declared_hand(layout, rack) for rack in self.racks]
        best = max(d for d in self.declared if d)
        self.starter = self.declared.index(best)
        self.opening_racks = [list(rack) for rack in self.racks]
        self.turn = self.starter
        self.turns_taken = 0
        self.scores = [0] * seats
        self.moves: list[Move] = []
        self.finished = False
        self.played_out: int | None = None
        self.end_adjustments = [0] * seats

    # --- queries ------------------------------------------------------------------------------------
    @property
    def board_empty(self) -> bool:
        return not bool((self.face != EMPTY).any())

    def plays(self, seat: int) -> Plays:
        """Every legal play of `seat`'s rack now."""
        return legal_plays(self.layout, self.face, self.racks[seat])

    def joker_swaps(self, seat: int) -> list[tuple[int, int]]:
        """(square, card) of every joker on the board whose declared card `seat` holds."""
        squares = np.flatnonzero(self.joker)
        return [(int(s), int(self.face[s])) for s in squares if int(self.face[s]) in self.racks[seat]]

    # --- the four turns ---------------------------------------------------------------------------
    def _check_turn(self, seat: int) -> None:
        if self.finished:
            raise IllegalMove("The game is over; no more moves can be made.")
        if seat != self.turn:
            raise IllegalMove(f"It is {possessive(self.turn, self.seats)} turn; wait for your turn.")

    def _check_holds(self, seat: int, codes: Sequence[int]) -> None:
        missing = Counter(codes) - Counter(self.racks[seat])
        if missing:
            tile = tile_text(next(iter(missing)))
            another = "Another " if tile in map(tile_text, self.racks[seat]) else ""
            raise IllegalMove(f"{another}{tile} is not in {possessive(seat, self.seats)} rack; play tiles "
                              "from your rack.")

    def check_play(self, seat: int, tiles: Sequence[Tile]) -> tuple[Line, ...]:
        """The lines the play scores, or IllegalMove naming the rule it breaks. Changes nothing."""
        self._check_turn(seat)
        layout = self.layout
        if not 1 <= len(tiles) <= RACK:
            raise IllegalMove(f"A play places 1 to {RACK} tiles, not {len(tiles)}.")
        self._check_holds(seat, [t.code for t in tiles])
        for tile in tiles:
            row, col = layout.row_col(tile.square)
            if tile.code == JOKER and not 0 <= tile.face < 52:
                raise IllegalMove(f"The joker at {square_name(row, col)} has no declared card; declare "
                                  "the card it stands for (rank and suit).")
            if tile.code != JOKER and tile.face != tile.code:
                raise IllegalMove(f"{tile_text(tile.code)} at {square_name(row, col)} plays as itself, not "
                                  f"as {tile_text(tile.face)}; only a joker is declared.")
            if self.face[tile.square] != EMPTY:
                raise IllegalMove(f"The square at {square_name(row, col)} already holds a tile; choose an "
                                  "empty square.")
        squares = sorted(t.square for t in tiles)
        if len(set(squares)) != len(squares):
            raise IllegalMove("Two tiles are placed on the same square; give each tile its own square.")
        rows = {layout.row_col(s)[0] for s in squares}
        cols = {layout.row_col(s)[1] for s in squares}
        if len(rows) > 1 and len(cols) > 1:
            raise IllegalMove("The tiles are not in one line; place every tile of a play in one row or "
                              "one column (never diagonally).")
        step = 1 if len(rows) == 1 else layout.cols
        gaps = [s for s in range(squares[0], squares[-1], step) if s not in squares and self.face[s] == EMPTY]
        if gaps:
            row, col = layout.row_col(gaps[0])
            raise IllegalMove(f"The tiles leave the square at {square_name(row, col)} empty between them; a "
                              "play fills one unbroken line.")
        first = self.board_empty
        if first:
            if len(tiles) < 2 or any(s not in layout.start for s in squares):
                raise IllegalMove("The first play must be a hand of 2 to 5 tiles inside the starting area.")
        elif not any(self.face[n] != EMPTY for s in squares for n in layout.neighbours(s)):
            raise IllegalMove("A play must build on the board: place tiles next to a tile already played.")
        face, joker, placed = self.face.copy(), self.joker.copy(), np.zeros(layout.size, dtype=np.int64)
        for tile in tiles:
            face[tile.square] = tile.face
            joker[tile.square] = tile.code == JOKER
            placed[tile.square] = 1
        out = np.zeros((2 * RACK + 1, LINE_FIELDS), dtype=np.int64)
        count = score_lines(face, joker, placed, layout.doubling, layout.in_start, layout.rows, layout.cols,
                            layout.values, np.array(squares, dtype=np.int64), out)
        if count < 0:
            bad = max(i for i in range(len(out)) if out[i, 2] > 0)
            start, line_step, length = (int(v) for v in out[bad, :3])
            cells = [start + k * line_step for k in range(length)]
            where = ", ".join(f"{tile_text(int(face[c]))}" for c in cells)
            if count == LINE_TOO_LONG:
                raise IllegalMove(f"The line {where} has {length} tiles; a hand is at most "
                                  f"{MAX_LINE} in a row.")
            if count == OUT_OF_ORDER:
                raise IllegalMove(f"The line {where} is not in order: a straight's cards stand in "
                                  "rank order, and the cards of a pair, three or four of a kind stand next "
                                  "to each other.")
            raise IllegalMove(f"The line {where} is not a proper poker hand; every line of tiles must be "
                              "one (a pair, two pair, three of a kind, a straight, ...).")
        lines = tuple(
            Line(tuple(int(out[i, 0] + k * out[i, 1]) for k in range(int(out[i, 2]))),
                 int(out[i, 3]), int(out[i, 4]), int(out[i, 5]))
            for i in range(count)
        )
        if first and lines[0].hand in (PAIR, TWO_PAIR) and layout.centre not in squares:
            row, col = layout.row_col(layout.centre)
            raise IllegalMove(f"A first play of {HANDS[lines[0].hand].replace('_', ' ')} must cover the "
                              f"STARTING ZONE centre, the square at {square_name(row, col)}.")
        return lines

    def play(self, seat: int, tiles: Sequence[Tile]) -> Move:
        """Place tiles from `seat`'s rack, score every line they change, draw back up to 5."""
        lines = self.check_play(seat, tiles)
        for tile in tiles:
            self.face[tile.square] = tile.face
            self.joker[tile.square] = tile.code == JOKER
            self.racks[seat].remove(tile.code)
        drawn = self.pool[: RACK - len(self.racks[seat])]
        del self.pool[: len(drawn)]
        self.racks[seat].extend(drawn)
        move = Move(seat, "play", tuple(sorted(tiles, key=lambda t: t.square)), lines, drawn=tuple(drawn))
        self.scores[seat] += move.points
        if not self.racks[seat]:
            self.played_out = seat
        return self._end_turn(move)

    def swap_joker(self, seat: int, square: int, card: int) -> Move:
        """Give the natural `card` for the joker on `square` that stands for it; the joker joins the rack."""
        self._check_turn(seat)
        if self.board_empty:
            raise IllegalMove("The first turn must be a play in the starting area.")
        row, col = self.layout.row_col(square)
        if not self.joker[square]:
            raise IllegalMove(f"The square at {square_name(row, col)} holds no joker; swap a joker on the "
                              "board.")
        declared = int(self.face[square])
        if card != declared:
            raise IllegalMove(f"The joker at {square_name(row, col)} stands for {tile_text(declared)}; swap "
                              f"it only with {tile_text(declared)}, not {tile_text(card)}.")
        self._check_holds(seat, [card])
        self.racks[seat].remove(card)
        self.racks[seat].append(JOKER)
        self.joker[square] = 0
        return self._end_turn(Move(seat, "swap_joker", square=square, card=card))

    def pass_turn(self, seat: int) -> Move:
        self._check_turn(seat)
        if self.board_empty:
            raise IllegalMove("The first turn must be a play in the starting area.")
        return self._end_turn(Move(seat, "pass"))

    def exchange(self, seat: int, codes: Sequence[int]) -> Move:
        """Return `codes` to the back of the pool after drawing as many from its front."""
        self._check_turn(seat)
        if self.board_empty:
            raise IllegalMove("The first turn must be a play in the starting area.")
        if not codes:
            raise IllegalMove("An exchange returns one or more tiles; choose the tiles to exchange.")
        self._check_holds(seat, codes)
        if len(codes) > len(self.pool):
            raise IllegalMove(f"The pool holds only {len(self.pool)} tiles; exchange at most that many.")
        for code in codes:
            self.racks[seat].remove(code)
        drawn = self.pool[: len(codes)]
        self.racks[seat].extend(drawn)
        self.pool = self.pool[len(codes):] + list(codes)
        return self._end_turn(Move(seat, "exchange", returned=tuple(codes), drawn=tuple(drawn)))

    def _end_turn(self, move: Move) -> Move:
        self.moves.append(move)
        self.turns_taken += 1
        self.turn = (self.turn + 1) % self.seats
        if self.played_out is not None or self.turns_taken >= self.rounds * self.seats or self._stuck():
            self._finish()
        return move

    def _stuck(self) -> bool:
        """No seat can move: the pool is empty (no exchange) and no seat can play or swap a joker."""
        if self.pool:
            return False
        return not any(len(self.plays(seat)) or self.joker_swaps(seat) for seat in range(self.seats))

    def _finish(self) -> None:
        self.finished = True
        left = [sum(tile_points(code) for code in rack) for rack in self.racks]
        for seat in range(self.seats):
            self.end_adjustments[seat] = -left[seat]
        if self.played_out is not None:
            self.end_adjustments[self.played_out] = sum(left)
        for seat in range(self.seats):
            self.scores[seat] += self.end_adjustments[seat]

    # --- record -------------------------------------------------------------------------------------
    def apply(self, seat: int, kind: str, args: Any) -> Move:
        """Apply a recorded move ([seat, kind, args] of `Move.to_record`)."""
        if kind == "play":
            return self.play(seat, [Tile(*tile) for tile in args])
        if kind == "swap_joker":
            return self.swap_joker(seat, *args)
        if kind == "pass":
            return self.pass_turn(seat)
        if kind == "exchange":
            return self.exchange(seat, args)
        raise IllegalMove(f"'{kind}' is not a turn; a turn is play, swap_joker, pass or exchange.")

    def to_record(self) -> dict[str, Any]:
        return {"seats": self.seats, "rounds": self.rounds, "pool": list(self.initial_pool),
                "moves": [move.to_record() for move in self.moves]}

    @classmethod
    def from_record(cls, layout: Layout, record: Mapping[str, Any]) -> Table:
        table = cls(layout, record["seats"], record["pool"], record["rounds"])
        for seat, kind, args in record["moves"]:
            table.apply(seat, kind, args)
        return table

"""The machine's moves shown on the board as they are made: the animation the board games share (Poker
Grid, Poker Tiles, Prism Words; Property plays its turns' events the same way, see
egm/games/property/turn_view.py).

The round's table holds the customer's latest move and the machine's moves after it (`last_moves`,
Poker Grid's `last_plays`): all of them are already made and recorded when the table arrives. When a
table the screen has not shown arrives in the middle of a round, the machine's pieces (cards, tiles,
blocks) are put down one every `piece_s` seconds in the order of play, the newest highlighted; one
tick after the last the board is settled and equals the round's table. A move with no piece (a pass,
an exchange) takes one tick of its own, so the log shows it in its turn.

Only presentation waits: the moves are in the wager memory already. A table seen on entering the
screen (a power-up after a power cut, the operator menu and back) is shown settled at once. While the
machine plays, the scene is `busy`: input is held (refused with a notice), never queued for later.

>>> move = MachineMove(piece_s=0.5)
>>> moves = [{"seat": 0, "squares": [(1, 1)]}, {"seat": 1, "squares": [(1, 2), (1, 3)]},
...          {"seat": 1, "squares": []}]
>>> move.follow(9.0, 7, moves[:2], lambda m: m["squares"])  # first sight: settled
>>> move.playing(9.0), move.shown(9.0)
(False, 2)
>>> move.follow(10.0, 7, moves, lambda m: m["squares"])  # the next table: played out
>>> [(move.shown(10.0 + t), move.newest(10.0 + t)) for t in (0.1, 0.6, 1.1, 1.6, 2.1)]
[(0, None), (1, (1, 2)), (2, (1, 3)), (3, None), (3, None)]
>>> move.hidden_squares(10.6), move.hidden_moves(10.6), move.playing(10.0 + 1.9), move.playing(12.1)
({(1, 3)}, {1, 2}, True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

PIECE_S = 0.45  # one machine piece put down every 450 ms (a six-block word in about 3 s)
HIGHLIGHT = (255, 255, 255)  # the ring round the machine's newest piece

Square = tuple[int, int]


@dataclass(frozen=True)
class Piece:
    """One thing the machine put down: its move's index in the table's moves and its square (None for
    a move with nothing on the board)."""

    move: int
    square: Any  # a board square (row, col), Property's space index, or None


def machine_pieces(moves: Sequence[Mapping[str, Any]],
                   squares_of: Callable[[Mapping[str, Any]], Sequence[Square]]) -> list[Piece]:
    """The pieces of the machine's moves after the customer's latest move, in the order of play."""
    customer = [i for i, move in enumerate(moves) if move["seat"] == 0]
    pieces: list[Piece] = []
    for index in range(customer[-1] + 1 if customer else 0, len(moves)):  # all the machine's
        squares = [tuple(square) for square in squares_of(moves[index])]
        pieces += [Piece(index, (square[0], square[1])) for square in squares] or [Piece(index, None)]
    return pieces


@dataclass
class MachineMove:
    """One table's animation of the machine's moves (`start` None: settled)."""

    piece_s: float = PIECE_S
    pieces: list[Piece] = field(default_factory=list)
    start: float | None = None
    key: Any = None
    seen: bool = False  # a table was shown: the next new one is played out

    def follow(self, now: float, round_number: int | None, moves: Sequence[Mapping[str, Any]],
               squares_of: Callable[[Mapping[str, Any]], Sequence[Square]]) -> None:
        """Take the table shown now: a new machine move of a table already on screen starts playing."""
        pieces = machine_pieces(moves, squares_of)
        self.take(now, (round_number, tuple(pieces), len(moves)), pieces)

    def take(self, now: float, key: Any, pieces: list[Piece]) -> None:
        """Take the pieces of the table shown now (`key` tells one table from the next): new pieces on
        a screen that showed the round's table before start playing."""
        if key == self.key:
            return
        self.key, self.pieces = key, pieces
        self.start = now if self.seen and pieces else None
        self.seen = True

    def settle(self) -> None:
        """Forget what was on screen: the next table is shown settled (the screen was left)."""
        self.start, self.seen, self.key = None, False, None

    def shown(self, now: float) -> int:
        """How many of the machine's pieces are on the board now."""
        if self.start is None:
            return len(self.pieces)
        return min(len(self.pieces), max(0, int((now - self.start) / self.piece_s)))

    def playing(self, now: float) -> bool:
        """True until one tick after the last piece is down (the newest stays highlighted that long)."""
        return self.start is not None and now - self.start < (len(self.pieces) + 1) * self.piece_s

    def progress(self, now: float) -> float:
        """How far into its tick the newest piece is (0 to 1; 1 when settled)."""
        if not self.playing(now) or self.start is None:
            return 1.0
        return min(1.0, ((now - self.start) / self.piece_s) % 1.0)

    def newest(self, now: float) -> Any:
        """The square of the piece put down last, highlighted while the machine plays."""
        shown = self.shown(now)
        return self.pieces[shown - 1].square if self.playing(now) and shown else None

    def hidden_squares(self, now: float) -> set[Any]:
        """The machine's squares not yet put down."""
        return {p.square for p in self.pieces[self.shown(now):] if p.square is not None}

    def hidden_moves(self, now: float) -> set[int]:
        """The indices of the machine's moves not yet wholly down (their log lines and points wait)."""
        return {p.move for p in self.pieces[self.shown(now):]}

    def table(self, table: Mapping[str, Any], now: float, moves_key: str,
              empty: Any = None) -> dict[str, Any]:
        """The round's table as it stood at this point of the animation: the machine's squares not yet
        put down `empty` on its "board" (rows of squares; a scene with another board hides them itself,
        see `hidden_squares`), the moves not yet made left out of `moves_key` and their points out of
        the scores; while playing, no result and no lit square yet."""
        if not self.playing(now):
            return dict(table)
        board = [list(row) for row in table.get("board", [])]
        for row, col in self.hidden_squares(now) if board else ():
            board[row][col] = empty
        hidden = self.hidden_moves(now)
        moves = list(table.get(moves_key, []))
        scores = list(table.get("scores", []))
        for index in hidden:
            scores[moves[index]["seat"]] -= moves[index].get("points") or 0
        for seat, points in enumerate(table.get("end_adjustments") or []):
            scores[seat] -= points  # the points for what is left count once the game is seen to end
        return {**table, moves_key: [m for i, m in enumerate(moves) if i not in hidden], "scores": scores,
                "board": board, "result": None, "legal": [], "end_adjustments": None}

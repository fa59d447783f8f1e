"""One game of Prism Words in progress: the bag, each seat's rack, the grid, scores and moves.

A game is a pure function of its set-up (the draw for first, the shuffled bag, the bag seed) and its
moves, so that is all its record holds; `Table.from_record` replays the moves (rescoring each) to
rebuild the same game exactly.

Set-up (drawn in `draw_for_first` and `Game.new_round`): each seat draws one block from the full bag;
the highest sum of its two numerals starts, and the seats tied for the highest draw again (all the
blocks back in the bag first). The blocks go back, the bag is shuffled, and each seat in turn, the
starter first, draws 6 from the top. Play passes to the next seat (seat + 1). After a play the seat
draws from the top of the bag back up to 6. An exchange returns the whole rack to the bag, which is
shuffled again (from a stream derived from the round's bag seed and the exchange's number, so the
round's randomness is all drawn at its start), and the seat draws the same number: it costs the turn.

The game ends when the bag is empty and a seat has played out; when two full rounds of turns pass
without a play (no play is possible); or, in the short form, once every seat has taken
`turns_per_seat` turns. Then each seat loses both numerals of every block left on its rack, and a
seat that played out gains what all the others lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from egm.games.margin import margin_of
from egm.games.prism_words.blocks import BLOCK_COUNT, Block, block_text
from egm.games.prism_words.board import NO_SUCH_BLOCK, Grid, IllegalPlay, Placement, ScoredPlay, score_play
from egm.games.prism_words.lexicon import Lexicon
from egm.games.seats import possessive
from egm.rng import Rng, derive_seed

PLAY, EXCHANGE, PASS = "play", "exchange", "pass"
AWARDS = ("pattern_bonus", "depleted_rack")


@dataclass(frozen=True)
class Rulebook:
    """Everything fixed for a game: the blocks, the lexicon, the grid and the pay table's options."""

    blocks: tuple[Block, ...]
    lexicon: Lexicon
    rows: int
    cols: int
    centre: tuple[int, int]
    scoring: str = "rules"
    rack_size: int = 6
    first_word_min: int = 4
    turns_per_seat: int = 0  # 0: the full game

    @property
    def doubling(self) -> bool:
        return self.scoring == "rules"


@dataclass(frozen=True)
class Move:
    """One turn: a play (with its scored words), an exchange or a pass."""

    seat: int
    kind: str
    play: ScoredPlay | None = None

    @property
    def points(self) -> int:
        return self.play.points if self.play is not None else 0

    def to_record(self) -> list[Any]:
        placements = [] if self.play is None else [
            [p.row, p.col, p.block, p.side, p.letter] for p in self.play.placements
        ]
        return [self.seat, self.kind, placements]


def draw_for_first(rng: Rng, seats: int, blocks: Sequence[Block]) -> tuple[list[list[list[int]]], int]:
    """Each contending seat draws one block from the full bag; the highest numeral sum starts, and the
    seats tied for it draw again. Returns every draw ([[seat, block], ...] per draw) and the starter."""
    contenders = list(range(seats))
    draws = []
    while True:
        bag = list(range(len(blocks)))
        draw = [[seat, bag.pop(rng.randbelow(len(bag)))] for seat in contenders]
        draws.append(draw)
        best = max(blocks[block].numeral_sum for _, block in draw)
        contenders = [seat for seat, block in draw if blocks[block].numeral_sum == best]
        if len(contenders) == 1:
            return draws, contenders[0]


class Table:
    """The state of one game. Build it from its set-up; change it only through `play`, `exchange`
    and `pass_turn`, which refuse (IllegalPlay) and change nothing when the rules do not allow."""

    def __init__(self, book: Rulebook, seats: int, starter: int, bag: Sequence[int], bag_seed: int) -> None:
        if sorted(bag) != list(range(len(book.blocks))) or len(bag) != BLOCK_COUNT:
            raise ValueError("the bag must hold each of the 96 blocks once")
        if not 0 <= starter < seats:
            raise ValueError(f"the starter must be a seat 0 to {seats - 1}")
        self.book = book
        self.seats = seats
        self.starter = starter
        self.initial_bag = tuple(bag)
        self.bag_seed = bag_seed
        self.bag = list(bag)
        self.grid = Grid(book.rows, book.cols, book.centre)
        self.racks: list[list[int]] = [[] for _ in range(seats)]
        for step in range(seats):
            self._refill((starter + step) % seats)
        self.turn = starter
        self.scores = [0] * seats
        self.moves: list[Move] = []
        self.exchanges = 0
        self.idle_turns = 0  # consecutive turns without a play
        self.finished = False
        self.played_out: int | None = None
        self.end_adjustments = [0] * seats

    def copy(self) -> Table:
        """An independent copy of the game as it stands, to play a line ahead on (a strategy's
        look-ahead): the same rules, the grid, racks, bag and scores copied."""
        other = Table.__new__(Table)
        other.__dict__.update(self.__dict__)
        other.bag = list(self.bag)
        other.grid = self.grid.copy()
        other.racks = [list(rack) for rack in self.racks]
        other.scores = list(self.scores)
        other.moves = list(self.moves)
        other.end_adjustments = list(self.end_adjustments)
        return other

    def _refill(self, seat: int) -> None:
        while len(self.racks[seat]) < self.book.rack_size and self.bag:
            self.racks[seat].append(self.bag.pop(0))

    def _check_turn(self, seat: int) -> None:
        if self.finished:
            raise IllegalPlay("The game is over; no move is taken after the end.")
        if seat != self.turn:
            raise IllegalPlay(f"It is {possessive(self.turn, self.seats)} turn; wait for your turn.")

    def score(self, seat: int, placements: Sequence[Placement]) -> ScoredPlay:
        """The scored play, or IllegalPlay naming the rule it breaks (nothing changes either way)."""
        self._check_turn(seat)
        for p in placements:
            if not 0 <= p.block < len(self.book.blocks):
                raise IllegalPlay(NO_SUCH_BLOCK)
            if p.block not in self.racks[seat]:
                raise IllegalPlay(f"The {block_text(self.book.blocks[p.block])} is not in "
                                  f"{possessive(seat, self.seats)} rack; play blocks from the rack.")
        book = self.book
        return score_play(self.grid, book.blocks, book.lexicon, placements, doubling=book.doubling,
                          rack_size=book.rack_size, first_word_min=book.first_word_min)

    def play(self, seat: int, placements: Sequence[Placement]) -> Move:
        scored = self.score(seat, placements)
        for p in placements:
            self.grid.put(p, self.book.blocks[p.block].face(p.side)[1])
            self.racks[seat].remove(p.block)
        self._refill(seat)
        self.scores[seat] += scored.points
        return self._close(Move(seat, PLAY, scored))

    def exchange(self, seat: int) -> Move:
        """Return the whole rack to the bag, shuffle, draw the same number: the turn is spent."""
        self._check_turn(seat)
        if not self.bag:
            raise IllegalPlay("The bag is empty, so there is nothing to exchange with; play or pass.")
        rack = self.racks[seat]
        self.bag.extend(rack)
        Rng.from_seed(derive_seed(self.bag_seed, "exchange", self.exchanges)).shuffle(self.bag)
        self.exchanges += 1
        count = len(rack)
        self.racks[seat] = self.bag[:count]
        del self.bag[:count]
        return self._close(Move(seat, EXCHANGE))

    def pass_turn(self, seat: int) -> Move:
        self._check_turn(seat)
        return self._close(Move(seat, PASS))

    @property
    def turns_taken(self) -> int:
        return len(self.moves)

    def _close(self, move: Move) -> Move:
        """Record the move, then end the game or pass the turn."""
        self.moves.append(move)
        self.idle_turns = 0 if move.kind == PLAY else self.idle_turns + 1
        seat = move.seat
        book = self.book
        if move.kind == PLAY and not self.racks[seat]:
            self._end(played_out=seat)
        elif self.idle_turns >= 2 * self.seats:
            self._end(played_out=None)
        elif book.turns_per_seat and self.turns_taken >= book.turns_per_seat * self.seats:
            self._end(played_out=None)
        else:
            self.turn = (seat + 1) % self.seats
        return move

    def margin(self, seat: int) -> int:
        """The seat's score minus the best other seat's."""
        return margin_of([self.scores[seat]] + [s for other, s in enumerate(self.scores) if other != seat])

    def awards(self, seat: int) -> list[str]:
        """The awards the seat's plays earned, in order of play: one per play with a pattern bonus,
        one per depleted rack."""
        earned = []
        for move in self.moves:
            if move.seat != seat or move.play is None:
                continue
            if any(word.pattern_bonus for word in move.play.words):
                earned.append("pattern_bonus")
            if move.play.rack_bonus:
                earned.append("depleted_rack")
        return earned

    def rack_numerals(self, seat: int) -> int:
        return sum(self.book.blocks[block].numeral_sum for block in self.racks[seat])

    def _end(self, played_out: int | None) -> None:
        losses = [self.rack_numerals(seat) for seat in range(self.seats)]
        self.end_adjustments = [-loss for loss in losses]
        if played_out is not None:
            self.end_adjustments[played_out] += sum(losses)
        self.scores = [score + adjust
                       for score, adjust in zip(self.scores, self.end_adjustments, strict=True)]
        self.finished = True
        self.played_out = played_out

    def to_record(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "starter": self.starter,
            "bag": list(self.initial_bag),
            "bag_seed": self.bag_seed,
            "moves": [move.to_record() for move in self.moves],
        }

    @classmethod
    def from_record(cls, book: Rulebook, record: Mapping[str, Any]) -> Table:
        table = cls(book, record["seats"], record["starter"], record["bag"], record["bag_seed"])
        for seat, kind, placements in record["moves"]:
            if kind == PLAY:
                table.play(seat, [Placement(*p) for p in placements])
            elif kind == EXCHANGE:
                table.exchange(seat)
            else:
                table.pass_turn(seat)
        return table


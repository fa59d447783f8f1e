"""How a seat chooses its turn: the machine strategy, and the lab's best-available and random players.

Each sees only what its seat may see: its own rack, the board, and the public counts (tiles left in
the pool, turns left in the short form); never another rack or the pool's order. Each is a pure
function of that in integer arithmetic (the random player also of its own random stream), so a game is
exactly repeatable. A turn is returned as a record `[kind, args]` (egm.games.poker_tiles.table.Move).

`tiles-greedy/1` (the machine opponent and the reference strategy for the customer's seat) values each
possible turn, in half points, as

    2 x points scored + leave(tiles kept) + 1 for each tile drawn,

and takes the best; ties go to the first in the order: plays (in the generator's order), joker swaps,
the exchange, the pass. The options are every legal play (egm.games.poker_tiles.engine.generate: all
placements of 1 to 5 tiles, jokers declared as any card), every joker swap the rack allows, exchanging
the tiles that are neither jokers nor part of a pair or better in the rack (when the pool has that
many), and passing. The leave values a joker at 10 (5 points) and each tile beyond the first of a rank
at 4 (2 points: pairs in the rack make plays), so a seat holds on to jokers unless a play earns them,
and swaps a joker when the joker is worth more than its best play. On the seat's last turn of the game
the leave is instead minus twice the end penalty of the tiles kept (1 point a natural tile, 5 a joker).

`tiles-lookahead/1` (the lab's best available, one ply deeper) takes the 8 best turns by that value
and adds to each the points of the seat's best play on its next turn with the tiles it keeps, on the
board the turn leaves (no draw assumed); the best sum wins, ties as above.

`random` (the lab's lower bound) makes a uniformly random legal play when there is one, otherwise
exchanges its whole rack when the pool allows, otherwise passes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from egm.games.poker_tiles.engine import JOKER
from egm.games.poker_tiles.table import Plays, Table, legal_plays, tile_points
from egm.rng import Rng

MACHINE_STRATEGY = "tiles-greedy/1"
LOOKAHEAD_STRATEGY = "tiles-lookahead/1"
RANDOM_STRATEGY = "random"
JOKER_LEAVE = 10
PAIR_LEAVE = 4
DRAW_VALUE = 1
LOOKAHEAD_CANDIDATES = 8

Turn = list[Any]  # [kind, args] as a move record holds them
Strategy = Callable[[Table], Turn]


def leave_value(tiles: Sequence[int], last_turn: bool) -> int:
    """What the tiles a seat keeps are worth, in half points (see the module doc)."""
    if last_turn:
        return -2 * sum(tile_points(code) for code in tiles)
    ranks = Counter(code >> 2 for code in tiles if code != JOKER)
    jokers = sum(1 for code in tiles if code == JOKER)
    return JOKER_LEAVE * jokers + PAIR_LEAVE * sum(count - 1 for count in ranks.values())


def dead_tiles(rack: Sequence[int]) -> list[int]:
    """The tiles an exchange gives back: the naturals of ranks held once."""
    ranks = Counter(code >> 2 for code in rack if code != JOKER)
    return [code for code in rack if code != JOKER and ranks[code >> 2] == 1]


def _last_turn(table: Table) -> bool:
    return table.turns_taken + table.seats >= table.rounds * table.seats


@dataclass(frozen=True)
class _Options:
    """Every turn the seat to move may take, valued: the plays (as the generator lists them) and then
    the joker swaps, the exchange and the pass (each a turn record with the tiles it keeps)."""

    plays: Plays
    play_values: np.ndarray
    kept_after: dict[int, list[int]]  # rack slots used -> tiles kept
    others: list[tuple[int, Turn, list[int]]]

    def __len__(self) -> int:
        return len(self.plays) + len(self.others)

    def value(self, index: int) -> int:
        if index < len(self.plays):
            return int(self.play_values[index])
        return self.others[index - len(self.plays)][0]

    def turn(self, index: int) -> Turn:
        if index < len(self.plays):
            return ["play", [[t.square, t.code, t.face] for t in self.plays.tiles(index)]]
        return self.others[index - len(self.plays)][1]

    def best(self) -> int:
        """The index of the highest value; the first of equals."""
        best = int(np.argmax(self.play_values)) if len(self.plays) else -1
        for index in range(len(self.plays), len(self)):
            if best < 0 or self.value(index) > self.value(best):
                best = index
        return best


def _options(table: Table) -> _Options:
    seat = table.turn
    rack = table.racks[seat]
    last = _last_turn(table)
    plays = table.plays(seat)
    extra = {}
    kept_after = {}
    for used in {int(u) for u in plays.used}:
        kept = [code for slot, code in enumerate(rack) if not used >> slot & 1]
        drawn = min(len(rack) - len(kept), len(table.pool))
        extra[used] = leave_value(kept, last) + DRAW_VALUE * drawn
        kept_after[used] = kept
    leave = np.array([extra[int(u)] for u in plays.used], dtype=np.int64)
    others: list[tuple[int, Turn, list[int]]] = []
    if not table.board_empty:
        for square, card in table.joker_swaps(seat):
            kept = list(rack)
            kept.remove(card)
            kept.append(JOKER)
            others.append((leave_value(kept, last), ["swap_joker", [square, card]], kept))
        dead = dead_tiles(rack)
        if dead and len(dead) <= len(table.pool):
            kept = [code for code in rack if code not in dead]
            others.append((leave_value(kept, last) + DRAW_VALUE * len(dead), ["exchange", dead], kept))
        others.append((leave_value(rack, last), ["pass", []], list(rack)))
    return _Options(plays, 2 * plays.scores + leave, kept_after, others)


def machine_turn(table: Table) -> Turn:
    """tiles-greedy/1."""
    options = _options(table)
    return options.turn(options.best())


def lookahead_turn(table: Table) -> Turn:
    """tiles-lookahead/1: the greedy value plus the seat's best next play with the tiles it keeps."""
    options = _options(table)
    values = [options.value(i) for i in range(len(options))]
    candidates = sorted(sorted(range(len(options)), key=lambda i: (-values[i], i))[:LOOKAHEAD_CANDIDATES])
    best, best_value = -1, 0
    for index in candidates:
        board = table.face
        if index < len(options.plays):
            board = table.face.copy()
            for tile in options.plays.tiles(index):
                board[tile.square] = tile.face
            kept = options.kept_after[int(options.plays.used[index])]
        else:
            kept = options.others[index - len(options.plays)][2]
        follow = legal_plays(table.layout, board, kept) if kept else None
        value = values[index] + 2 * (int(follow.scores.max()) if follow is not None and len(follow) else 0)
        if best < 0 or value > best_value:
            best, best_value = index, value
    return options.turn(best)


def random_player(rng: Rng) -> Strategy:
    """A uniformly random legal play from `rng` (the strategy's own stream), else an exchange or pass."""

    def choose(table: Table) -> Turn:
        seat = table.turn
        plays = table.plays(seat)
        if len(plays):
            tiles = plays.tiles(rng.randbelow(len(plays)))
            return ["play", [[t.square, t.code, t.face] for t in tiles]]
        rack = table.racks[seat]
        if len(rack) <= len(table.pool):
            return ["exchange", list(rack)]
        return ["pass", []]

    return choose


MACHINE_STRATEGIES: dict[str, Strategy] = {MACHINE_STRATEGY: machine_turn}

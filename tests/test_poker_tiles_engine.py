"""The compiled move generator against the rules engine, move for move.

On every position of several games (machine strategy on every seat, 2 and 4 seats):
* every play the generator lists is accepted by the table's own check (`Table.check_play`) and scores
  exactly the generator's points; no play is listed twice;
* every play the table accepts among many random candidate placements of the rack (1 to 5 tiles in
  a row or column next to the board, jokers declared at random) is listed by the generator: a play
  without a joker exactly; a play with jokers as the same placement with a declaration that scores
  the same (declarations that cannot change any hand are listed once, by their lowest card);
* the machine strategy's compiled best-play search (`highest_play`) finds exactly the play the full
  list's first highest value is, with the strategy's own leave values and with random ones, racks of
  0 to 4 jokers.
"""

from __future__ import annotations

import numpy as np
import pytest

from egm.games.poker_tiles.engine import EMPTY, JOKER
from egm.games.poker_tiles.game import PokerTiles
from egm.games.poker_tiles.strategy import leave_table
from egm.games.poker_tiles.table import IllegalMove, Table, Tile, highest_play
from egm.rng import Rng
from tests.tiles_support import code, paytable, table_with


def positions(seed: int, opponents: int, games: int) -> list[Table]:
    """Snapshots (restored tables) of every turn of `games` machine games."""
    game = PokerTiles(paytable())
    rng = Rng.from_seed(seed)
    out = []
    for _ in range(games):
        round_ = game.new_round(game.default_wager(1), rng, {}, opponents=opponents)
        record = round_.to_record()
        pool_record = {**record, "moves": []}
        for index in range(len(record["moves"]) + 1):
            out.append(Table.from_record(game.layout, {**pool_record, "moves": record["moves"][:index]}))
        while not round_.finished:
            round_.decide(round_.reference_decision())
            record = round_.to_record()
        for index in range(len(record["moves"])):
            out.append(Table.from_record(game.layout, {**record, "moves": record["moves"][:index]}))
    return [t for t in out if not t.finished]


def key(tiles: list[Tile], canonical: bool) -> tuple:
    """A play's identity; `canonical` forgets what its jokers are declared as (the placement)."""
    return tuple(sorted((t.square, t.code, -1 if canonical and t.code == JOKER else t.face) for t in tiles))


@pytest.mark.parametrize(("seed", "opponents", "games", "jokers"), [(1, 1, 3, 0), (2, 3, 1, 0), (3, 1, 1, 2)])
def test_every_generated_play_is_legal_and_scores_the_same(seed: int, opponents: int, games: int,
                                                           jokers: int) -> None:
    checked = 0
    for table in positions(seed, opponents, games):
        table.racks[table.turn][:jokers] = [JOKER] * jokers
        plays = table.plays(table.turn)
        seen = set()
        for index in range(len(plays)):
            tiles = plays.tiles(index)
            lines = table.check_play(table.turn, tiles)
            assert sum(line.points for line in lines) == plays.scores[index]
            seen.add(key(tiles, canonical=False))
            checked += 1
        assert len(seen) == len(plays)
    assert checked > 300


def random_candidates(table: Table, rng: np.random.Generator, count: int) -> list[list[Tile]]:
    layout = table.layout
    rack = table.racks[table.turn]
    filled = np.flatnonzero(table.face != EMPTY)
    out = []
    for _ in range(count):
        n = int(rng.integers(1, len(rack) + 1))
        slots = rng.permutation(len(rack))[:n]
        if len(filled):
            anchor = int(filled[rng.integers(len(filled))])
            row, col = layout.row_col(anchor)
            row += int(rng.integers(-2, 3))
            col += int(rng.integers(-2, 3))
        else:
            row, col = layout.row_col(layout.start[int(rng.integers(5))])
        horizontal = bool(rng.integers(2))
        squares = []
        r, c = row, col
        while len(squares) < n and 0 <= r < layout.rows and 0 <= c < layout.cols:
            if table.face[r * layout.cols + c] == EMPTY:
                squares.append(r * layout.cols + c)
            r, c = (r, c + 1) if horizontal else (r + 1, c)
        if len(squares) < n:
            continue
        tiles = []
        for square, slot in zip(squares, slots, strict=True):
            code = rack[slot]
            face = int(rng.integers(52)) if code == JOKER else code
            tiles.append(Tile(square, code, face))
        out.append(tiles)
    return out


@pytest.mark.parametrize("jokers", [0, 2])
def test_the_generator_lists_every_play_the_table_accepts(jokers: int) -> None:
    """With the racks as dealt, and with two of each rack's tiles made jokers."""
    rng = np.random.default_rng(3 + jokers)
    accepted = 0
    for table in positions(4, 1, 6 if not jokers else 2):
        if jokers:
            table.racks[table.turn][:jokers] = [JOKER] * jokers
        plays = table.plays(table.turn)
        listed = {key(plays.tiles(i), canonical=False): int(plays.scores[i]) for i in range(len(plays))}
        placements: dict[tuple, set[int]] = {}
        for i in range(len(plays)):
            placements.setdefault(key(plays.tiles(i), canonical=True), set()).add(int(plays.scores[i]))
        for tiles in random_candidates(table, rng, 600):
            try:
                lines = table.check_play(table.turn, tiles)
            except IllegalMove:
                continue
            accepted += 1
            points = sum(line.points for line in lines)
            exact = key(tiles, canonical=False)
            if exact in listed:
                assert listed[exact] == points
            else:
                assert any(t.code == JOKER for t in tiles), f"a legal play is missing: {tiles}"
                assert points in placements[key(tiles, canonical=True)]
    assert accepted > (100 if not jokers else 40)


def test_a_joker_whose_suit_changes_nothing_is_listed_once_in_the_lowest_suit() -> None:
    table = table_with("JK 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    plays = table.plays(0)
    declared: dict[int, set[int]] = {}
    for i in range(len(plays)):
        if int(plays.counts[i]) == 2 and JOKER in plays.codes[i, :2]:
            natural = int(plays.codes[i, 0] if plays.codes[i, 1] == JOKER else plays.codes[i, 1])
            joker = int(plays.faces[i, 0] if plays.codes[i, 0] == JOKER else plays.faces[i, 1])
            declared.setdefault(natural, set()).add(joker)
    assert declared == {code(t): {code(t[0] + "c")} for t in ("9d", "2s", "7h", "4c")}
    # each pair two ways round, on the two placements covering the centre
    pairs = [i for i in range(len(plays)) if int(plays.counts[i]) == 2 and JOKER in plays.codes[i, :2]]
    assert len(pairs) == 16


@pytest.mark.parametrize(("seed", "jokers"), [(4, 0), (5, 1), (6, 2), (7, 3), (8, 4)])
def test_the_best_play_search_finds_the_first_highest_play_of_the_full_list(seed: int, jokers: int) -> None:
    rng = np.random.default_rng(seed)
    searched = 0
    for table in positions(seed, 1, 1):
        rack = table.racks[table.turn]
        rack[:jokers] = [JOKER] * min(jokers, len(rack))
        plays = table.plays(table.turn)
        own = leave_table(table)
        for leave in (own, own + rng.integers(-6, 7, len(own))):
            best = highest_play(table.layout, table.face, rack, leave)
            if not len(plays):
                assert not len(best)
                continue
            first = int(np.argmax(2 * plays.scores + leave[plays.used]))
            assert best.tiles(0) == plays.tiles(first)
            assert (best.scores[0], best.used[0]) == (plays.scores[first], plays.used[first])
            searched += 1
    assert searched > 20

"""The compiled move generator against the rules: brute force on small grids proves it misses no
legal play and invents none, and the engine's own rules check rescored every play it chose."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest

from egm.games.prism_words.blocks import STAR
from egm.games.prism_words.board import IllegalPlay, Placement
from egm.games.prism_words.strategy import greedy_best, legal_plays, machine_move, random_player
from egm.games.prism_words.table import PLAY, Table
from egm.rng import Rng
from tests.prism_support import block_index, book, shipped_blocks

Key = tuple[frozenset[tuple[int, int, int, int, int]], int]


def brute_force(table: Table, rack: Sequence[int]) -> set[Key]:
    """Every legal play of `rack` by trying every choice of blocks, faces, star letters and squares
    of every line through the engine's rules check."""
    grid, blocks = table.grid, table.book.blocks
    found: set[Key] = set()
    lines = [[(r, c) for c in range(grid.cols)] for r in range(grid.rows)]
    lines += [[(r, c) for r in range(grid.rows)] for c in range(grid.cols)]
    for count in range(1, len(rack) + 1):
        for chosen in itertools.permutations(rack, count):
            for sides in itertools.product((0, 1), repeat=count):
                letter_sets = [range(26) if blocks[b].face(s)[0] == STAR else [blocks[b].face(s)[0]]
                               for b, s in zip(chosen, sides, strict=True)]
                for letters in itertools.product(*letter_sets):
                    for line in lines:
                        empty = [sq for sq in line if not grid.filled(*sq)]
                        for squares in itertools.combinations(empty, count):
                            play = [Placement(r, c, b, s, letter) for (r, c), b, s, letter
                                    in zip(squares, chosen, sides, letters, strict=True)]
                            try:
                                scored = table.score(table.turn, play)
                            except IllegalPlay:
                                continue
                            found.add((frozenset((p.row, p.col, p.block, p.side, p.letter) for p in play),
                                       scored.points))
    return found


def generated(table: Table, rack: list[int]) -> set[Key]:
    plays = legal_plays(table, rack)
    keys = {(frozenset((p.row, p.col, p.block, p.side, p.letter) for p in plays.placements(i)),
             plays.points(i)) for i in range(plays.count)}
    assert len(keys) == plays.count  # each play generated once
    return keys


def small_table(rack: list[str], grid_words: Sequence[tuple[str, str, int, int, bool]]) -> Table:
    """A 7 x 7 table (centre (3, 3)) whose seat 0 holds `rack`, with words already on the grid:
    (block texts with sides 'A1.D2:0', word, row, col, across)."""
    taken: set[int] = set()
    rack_blocks = [block_index(text, taken) for text in rack]
    bag = rack_blocks + [i for i in range(96) if i not in taken]
    table = Table(book(rows=7, cols=7), 2, 0, bag, bag_seed=3)
    for faces, word, row, col, across in grid_words:
        for i, (face, char) in enumerate(zip(faces.split(), word, strict=True)):
            text, side = face.split(":")
            block = block_index(text, taken)
            placement = Placement(row + (0 if across else i), col + (i if across else 0), block, int(side),
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(char))
            table.grid.put(placement, shipped_blocks()[block].face(int(side))[1])
    return table


CASES = {
    "first play": (["T1.A1", "E1.S1", "A1.T1", "R1.S1"], []),
    "crossing and parallel": (["A1.T1", "O1.S1", "E1.D2"],
                              [("H4.O1:0 O1.C4:0 C4.E1:0 K4.E1:0", "HOCK", 3, 1, True)]),
    "star": (["*.B4", "A1.T1"], [("H4.O1:0 E1.S1:0 N1.T1:0", "HEN", 2, 2, False)]),
    "two words on the grid": (["S1.A1", "E1.D2", "O1.T1"],
                              [("C4.O1:1 A1.T1:0 T1.R1:0", "OAT", 3, 2, True),
                               ("W4.E1:0 I1.T1:0 N1.T1:0", "WIN", 1, 4, False)]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_legal_play_is_missed(case: str) -> None:
    rack_texts, grid_words = CASES[case]
    table = small_table(rack_texts, grid_words)
    rack = table.racks[0][: len(rack_texts)]
    expected = brute_force(table, rack)
    assert expected, "the case must have legal plays"
    assert generated(table, rack) == expected


@pytest.mark.parametrize("seed", range(4))
def test_every_chosen_play_scores_as_the_rules_say(seed: int) -> None:
    """Whole games (heads-up and with three opponents): the points the generator gave each chosen
    play are the engine's rescoring of it, and random plays are all legal."""
    rng = Rng.from_seed(seed)
    bag = list(range(96))
    rng.shuffle(bag)
    seats = 2 if seed % 2 == 0 else 4
    table = Table(book(), seats, 0, bag, bag_seed=seed)
    chooser = random_player(Rng.from_seed(seed + 100))
    while not table.finished:
        if table.turn == 1:  # one seat plays at random: odd plays the greedy player would never make
            choice = chooser(table)
        else:
            best = greedy_best(table)
            choice = machine_move(table)
            if best.count:
                assert table.score(table.turn, best.placements(0)).points == best.points(0)
        if choice.kind == PLAY:
            table.play(table.turn, choice.placements)
        elif choice.kind == "exchange":
            table.exchange(table.turn)
        else:
            table.pass_turn(table.turn)
    assert sum(move.kind == PLAY for move in table.moves) > 5


def test_the_greedy_play_has_the_highest_value() -> None:
    """The compiled best-only search keeps the first play of highest 10 x points + leave."""
    from egm.games.prism_words import movegen
    from egm.games.prism_words.strategy import leave_values

    rng = Rng.from_seed(11)
    bag = list(range(96))
    rng.shuffle(bag)
    table = Table(book(), 2, 0, bag, bag_seed=1)
    for _ in range(6):
        rack = table.racks[table.turn]
        plays = legal_plays(table, rack)
        meta = plays.meta[: plays.count]
        values = meta[:, movegen.M_POINTS] * 10 + leave_values(table, rack)[meta[:, movegen.M_USED]]
        best = greedy_best(table)
        assert best.placements(0) == plays.placements(int(np.argmax(values)))
        table.play(table.turn, best.placements(0))


def test_the_awards_a_play_earns_are_counted_as_the_rules_say() -> None:
    """The generator's award count of every play (pattern-bonus word, depleted rack) against the
    engine's scoring of the same play, over the plays of a few positions."""
    from egm.games.prism_words import movegen

    rng = Rng.from_seed(3)
    bag = list(range(96))
    rng.shuffle(bag)
    table = Table(book(), 2, 0, bag, bag_seed=2)
    checked = earned = 0
    for _ in range(5):
        plays = legal_plays(table)
        for index in range(0, plays.count, max(1, plays.count // 300)):
            scored = table.score(table.turn, plays.placements(index))
            awards = int(any(w.pattern_bonus for w in scored.words)) + int(bool(scored.rack_bonus))
            assert plays.meta[index, movegen.M_AWARDS] == awards
            checked += 1
            earned += awards
        table.play(table.turn, machine_move(table).placements)
    assert checked > 500 and earned > 20

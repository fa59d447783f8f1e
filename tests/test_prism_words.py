"""Prism Words: the block set (seed 002's Block Tabulation), the signed lexicon, and the rules of a
play, with the seed's worked example (HENCE, WHITER, PACT, HOCK + OR) as tests."""

from __future__ import annotations

import doctest
import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from egm.games.prism_words.blocks import (
    LETTERS,
    STAR,
    BlockSetError,
    check_block_set,
    parse_blocks,
)
from egm.games.prism_words.board import IllegalPlay, Placement
from egm.games.prism_words.lexicon import AssetError, Lexicon, load_lexicon, words_of
from egm.games.prism_words.table import Table, draw_for_first
from egm.rng import Rng
from tests.prism_support import (
    BLOCKS_FILE,
    LEXICON_FILE,
    block_index,
    book,
    sha256_of,
    shipped_blocks,
    shipped_lexicon,
    table_with_racks,
)

SEED = Path("/work/shared/seeds/002_cbb7dc14db783bac.txt")

# --- the blocks ---------------------------------------------------------------------------------


def test_the_seed_counts() -> None:
    """96 blocks; 95 letters with boxed numerals, 95 with unboxed ones, 2 stars; 192 faces."""
    blocks = shipped_blocks()
    assert len(blocks) == 96
    left = [b.left for b in blocks]
    right = [b.right for b in blocks]
    assert sum(letter != STAR for letter in left) == 95
    assert sum(letter != STAR for letter in right) == 95
    assert left.count(STAR) == 1 and right.count(STAR) == 1  # "in one instance the left face ..."
    assert 2 * len(blocks) == 192  # "192 total letter possibilities"
    stars = [b.text() for b in blocks if b.has_star]
    assert stars == ["B4.*", "*.B4"]


def test_a_letter_always_has_the_same_numeral() -> None:
    values: dict[int, set[int]] = {}
    for block in shipped_blocks():
        for letter, value in block.faces():
            values.setdefault(letter, set()).add(value)
    assert values[STAR] == {0}
    by_letter = {LETTERS[letter]: next(iter(v)) for letter, v in values.items() if letter != STAR}
    assert all(len(v) == 1 for v in values.values())
    assert by_letter == dict(zip(LETTERS, (1, 4, 4, 2, 1, 4, 4, 4, 1, 6, 4, 1, 2, 1, 1, 4, 9, 1, 1, 1, 1, 4,
                                           4, 9, 4, 9), strict=True))


def test_common_letters_are_duplicated_more_and_worth_less() -> None:
    faces = Counter(letter for block in shipped_blocks() for letter, _ in block.faces() if letter != STAR)
    assert faces[LETTERS.index("E")] == max(faces.values())
    for rare in "QXZJ":
        assert faces[LETTERS.index(rare)] <= 3


def test_irregularities_kept_as_printed() -> None:
    """94 blocks form 47 mirrored pairs (A1.D2 and D2.A1); F4.E1 and I1.F4 have no mirror (no E1.F4,
    no F4.I1). No block is printed twice, and I1.Q9 is printed after I1.T1, out of letter order."""
    texts = [b.text() for b in shipped_blocks()]
    assert len(set(texts)) == 96
    mirrored = {".".join(reversed(t.split("."))) for t in texts}
    assert sorted(t for t in texts if t not in mirrored) == ["F4.E1", "I1.F4"]
    assert texts.index("I1.Q9") == texts.index("I1.T1") + 1


@pytest.mark.skipif(not SEED.exists(), reason="the seed document is not on this machine")
def test_the_asset_is_the_seed_tabulation_as_printed() -> None:
    """Parse the seed's two printed table parts; read column by column they are the asset."""
    superscript = str.maketrans("¹²⁴⁶⁹", "12469")
    rows = [line for line in SEED.read_text(encoding="utf-8").splitlines()
            if re.match(r"^\| [A-Z*] ?[¹²⁴⁶⁹]? ?\.", line)]
    assert len(rows) == 32
    columns: list[list[str]] = [[], [], []]
    for row in rows:
        for column, cell in enumerate(row.strip("|").split("|")):
            columns[column].append(cell.translate(superscript).replace(" ", ""))
    assert [b.text() for b in shipped_blocks()] == [cell for column in columns for cell in column]


@pytest.mark.parametrize(("text", "why"), [
    ("A1 D2\n" * 96, "stars on left faces"),
    ("A1 D2\n" * 95, "95 blocks"),
    ("A1\n", "line 1: a block is two faces"),
    ("A1 d2\n", "line 1: face 'd2'"),
])
def test_a_bad_block_set_is_refused(text: str, why: str) -> None:
    with pytest.raises(BlockSetError, match=why):
        check_block_set(parse_blocks(text))


def test_a_letter_with_two_numerals_is_refused() -> None:
    lines = BLOCKS_FILE.read_text(encoding="utf-8").replace("A1 D2", "A2 D2", 1)
    with pytest.raises(BlockSetError, match="A carries 2 and 1"):
        check_block_set(parse_blocks(lines))


# --- the lexicon --------------------------------------------------------------------------------


def test_the_lexicon_holds_exactly_the_list() -> None:
    words = words_of(LEXICON_FILE.read_bytes())
    assert len(words) == 173_528
    lexicon = shipped_lexicon()
    assert all(lexicon.contains(word) for word in words[::50])
    for word in ("hence", "WHITER", "pact", "hock", "or", "noise", "rot", "house", "hocked", "chew"):
        assert lexicon.contains(word), word
    for not_word in ("hen'", "a", "xq", "whitr", "hocks-", "", "london", "usa"):
        assert not lexicon.contains(not_word), not_word


def test_the_dawg_is_minimal_and_matches_a_set() -> None:
    words = ["car", "card", "cards", "cart", "carts", "bar", "bard", "bards", "bart", "barts"]
    lexicon = Lexicon.from_words(words)
    # minimal: c and b lead to one node, d and t to one: root, -a, -r, car/bar, -d/-t, -s
    assert lexicon.node_count == 6
    probes = {w[:i] for w in words for i in range(len(w) + 1)} | {"cars", "bars", "cardt", "z"}
    assert {p for p in probes if lexicon.contains(p)} == set(words)


def test_a_lexicon_whose_hash_differs_is_refused(tmp_path: Path) -> None:
    tampered = tmp_path / "enable2k.txt.gz"
    tampered.write_bytes(LEXICON_FILE.read_bytes() + b"\n")
    with pytest.raises(AssetError, match="differs from the pay table's"):
        load_lexicon(tampered, sha256_of(LEXICON_FILE), cache_dir=None)


def test_the_cache_is_keyed_by_the_hash(tmp_path: Path) -> None:
    lexicon = load_lexicon(LEXICON_FILE, sha256_of(LEXICON_FILE), cache_dir=tmp_path)
    cached = list(tmp_path.glob("lexicon-*.npz"))
    assert [p.name for p in cached] == [f"lexicon-{sha256_of(LEXICON_FILE)[:32]}.npz"]
    again = load_lexicon(LEXICON_FILE, sha256_of(LEXICON_FILE), cache_dir=tmp_path)
    assert again.node_count == lexicon.node_count and (again.target == lexicon.target).all()


# --- set-up ---------------------------------------------------------------------------------------


def test_draw_for_first_highest_sum_starts_and_ties_draw_again() -> None:
    blocks = shipped_blocks()
    redraws = 0
    for seed in range(200):
        draws, starter = draw_for_first(Rng.from_seed(seed), 3, blocks)
        last = draws[-1]
        sums = {seat: blocks[block].numeral_sum for seat, block in last}
        assert sums[starter] == max(sums.values())
        assert list(sums.values()).count(sums[starter]) == 1
        for earlier in draws[:-1]:  # every earlier draw was a tie at the top; the tied seats drew again
            top = max(blocks[b].numeral_sum for _, b in earlier)
            tied = [seat for seat, b in earlier if blocks[b].numeral_sum == top]
            assert len(tied) > 1
            redraws += 1
        assert len({b for _, b in last}) == len(last)  # one bag: no block drawn twice at once
    assert redraws > 0


def test_racks_of_six_the_starter_draws_first() -> None:
    table = Table(book(), 3, 2, list(range(96)), bag_seed=1)
    assert table.racks == [[6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17], [0, 1, 2, 3, 4, 5]]
    assert table.turn == 2 and len(table.bag) == 96 - 18


# --- the worked example ---------------------------------------------------------------------------

EXAMPLE_RACKS = [
    ["H4.N1", "E1.S1", "N1.T1", "E1.C4", "E1.T1", "A1.D2"],  # west
    ["W4.E1", "H4.O1", "I1.D2", "T1.A1", "R1.G4", "A1.G4"],  # north
    ["N1.P4", "S1.A1", "A1.T1", "Z9.A1", "X9.N1", "Q9.I1"],  # east
    ["O1.D2", "C4.O1", "K4.E1", "B4.*", "U1.I1", "S1.E1"],  # south
]


def placements(table: Table, seat: int, word: str, row: int, col: int, across: bool,
               faces: list[str | None]) -> list[Placement]:
    """The placements spelling `word` from (row, col); faces[i] is 'TEXT:side' of the rack block for
    letter i, or None for a letter already on the grid."""
    out = []
    for i, (char, face) in enumerate(zip(word, faces, strict=True)):
        if face is None:
            continue
        text, side = face.split(":")
        block = next(b for b in table.racks[seat] if table.book.blocks[b].text() == text)
        out.append(Placement(row + (0 if across else i), col + (i if across else 0), block, int(side),
                             LETTERS.index(char)))
    return out


def worked_example(scoring: str) -> Table:
    """The seed's first three plays: HENCE down through the pocket, WHITER across it, PACT."""
    table = table_with_racks(EXAMPLE_RACKS, scoring=scoring)
    table.play(0, placements(table, 0, "HENCE", 6, 7, False,
                             ["H4.N1:0", "E1.S1:0", "N1.T1:0", "E1.C4:1", "E1.T1:0"]))
    table.play(1, placements(table, 1, "WHITER", 7, 3, True,
                             ["W4.E1:0", "H4.O1:0", "I1.D2:0", "T1.A1:0", None, "R1.G4:0"]))
    table.play(2, placements(table, 2, "PACT", 9, 5, True, ["N1.P4:1", "S1.A1:1", None, "A1.T1:1"]))
    return table


def words(scored: object) -> list[tuple[str, int]]:
    return [(w.text, w.points) for w in scored.words]  # type: ignore[attr-defined]


def test_worked_example_as_printed() -> None:
    table = worked_example("example")
    hence, whiter, pact = table.moves
    assert words(hence.play) == [("HENCE", 11)]
    assert words(whiter.play) == [("WHITER", 37)]  # 12 + the pattern bonus 25: all boxed
    assert whiter.play.words[0].basic == 12 and whiter.play.words[0].pattern_bonus == 25
    assert words(pact.play) == [("PACT", 10)]  # all unboxed, but only 4 letters: no bonus
    assert table.scores[:3] == [11, 37, 10]
    assert table.grid.rows_text()[6:11] == [".......H.......", "...WHITER......", ".......N.......",
                                             ".....PACT......", ".......E......."]
    # The first player drew 5, the second 5 (WHITER used the pocket's E), the third 3.
    assert [len(rack) for rack in table.racks] == [6, 6, 6, 6] and len(table.bag) == 96 - 24 - 13


def test_the_south_players_choices() -> None:
    table = worked_example("example")
    hock = table.score(3, placements(table, 3, "HOCK", 6, 7, True, [None, "O1.D2:0", "C4.O1:0", "K4.E1:0"]))
    assert words(hock) == [("HOCK", 13), ("OR", 2)] and hock.points == 15
    house = table.score(3, placements(table, 3, "HOUSE", 6, 7, True,
                                      [None, "O1.D2:0", "U1.I1:0", "S1.E1:0", "K4.E1:1"]))
    assert words(house) == [("HOUSE", 8), ("OR", 2)] and house.points == 10
    noise = table.score(3, placements(table, 3, "NOISE", 8, 7, True,
                                      [None, "O1.D2:0", "U1.I1:1", "S1.E1:0", "K4.E1:1"]))
    assert words(noise) == [("NOISE", 5), ("ROT", 3)] and noise.points == 8
    hocked = table.score(3, placements(table, 3, "HOCKED", 6, 7, True,
                                       [None, "O1.D2:0", "C4.O1:0", "K4.E1:0", "S1.E1:1", "B4.*:1"]))
    assert words(hocked) == [("HOCKED", 14), ("OR", 2)]  # the star as D counts nothing: 1 more
    assert hocked.words[0].basic - hock.words[0].basic == 1
    assert hocked.placements[-1].letter == LETTERS.index("D")


def test_the_rules_double_six_letter_words() -> None:
    """Rule 2, as stated: WHITER is doubled (24) before its pattern bonus: 49, not the example's 37."""
    table = worked_example("rules")
    whiter = table.moves[1].play
    assert whiter.words[0].doubled and whiter.points == 2 * 12 + 25
    assert table.moves[0].points == 11 and table.moves[2].points == 10
    hocked = table.score(3, placements(table, 3, "HOCKED", 6, 7, True,
                                       [None, "O1.D2:0", "C4.O1:0", "K4.E1:0", "S1.E1:1", "B4.*:1"]))
    assert words(hocked) == [("HOCKED", 28), ("OR", 2)]  # mixed faces: doubled, no pattern bonus


def test_the_depleted_rack_premium() -> None:
    """All 6 rack blocks in one play: +25 (here PLANET across the pocket, mixed faces, doubled)."""
    table = table_with_racks([["P4.N1", "L1.I1", "A1.D2", "N1.H4", "E1.B4", "T1.A1"], ["A1.G4"] * 0 + [
        "G4.A1", "G4.E1", "G4.R1", "H4.N1", "H4.O1", "I1.D2"]])
    play = table.play(0, placements(table, 0, "PLANET", 7, 4, True,
                                    ["P4.N1:0", "L1.I1:0", "A1.D2:0", "N1.H4:0", "E1.B4:0", "T1.A1:0"]))
    assert play.play.rack_bonus == 25
    assert words(play.play) == [("PLANET", 2 * 9 + 25)]  # all left faces: doubled and the pattern bonus
    assert play.points == 2 * 9 + 25 + 25
    assert len(table.racks[0]) == 6  # drawn back up to 6


# --- refusals -------------------------------------------------------------------------------------


def refusal(table: Table, seat: int, plays: list[Placement]) -> str:
    before = (list(table.grid.letter), [list(r) for r in table.racks], list(table.scores), table.turn)
    with pytest.raises(IllegalPlay) as info:
        table.play(seat, plays)
    assert (list(table.grid.letter), [list(r) for r in table.racks], list(table.scores), table.turn) == before
    return str(info.value)


def test_refusals_name_the_rule() -> None:
    table = table_with_racks(EXAMPLE_RACKS, scoring="example")
    hence = ["H4.N1:0", "E1.S1:0", "N1.T1:0", "E1.C4:1", "E1.T1:0"]
    assert "HENCE" not in refusal(table, 0, placements(table, 0, "HENCE", 0, 0, False, hence))
    assert "centre pocket" in refusal(table, 0, placements(table, 0, "HENCE", 0, 0, False, hence))
    short = placements(table, 0, "HEN", 6, 7, False, hence[:3])
    assert refusal(table, 0, short) == "The first word has 3 letters; it needs at least 4."
    bad = placements(table, 0, "HENCE", 6, 7, False, hence)
    bad[3] = Placement(9, 7, bad[3].block, 0, LETTERS.index("E"))  # E1.C4's left face: HENEE
    assert refusal(table, 0, bad) == "HENEE is not in the lexicon; every word formed must be a listed word."
    stranger = [Placement(7, 7, block_index("Z9.A1"), 0, 25)]
    assert refusal(table, 0, stranger) == "The Z/A block is not in your rack; play blocks from the rack."
    assert "turn" in refusal(table, 1, placements(table, 1, "WHIT", 7, 7, True,
                                                  ["W4.E1:0", "H4.O1:0", "I1.D2:0", "T1.A1:0"]))
    table.play(0, placements(table, 0, "HENCE", 6, 7, False, hence))
    gap = placements(table, 1, "WHITER", 7, 3, True, ["W4.E1:0", "H4.O1:0", "I1.D2:0", "T1.A1:0", None,
                                                       "R1.G4:0"])
    assert "gap" in refusal(table, 1, [gap[0], gap[2], gap[3]])
    assert "not in one line" in refusal(table, 1, [gap[0], Placement(8, 4, gap[1].block, 0, 7)])
    far = placements(table, 1, "WHIT", 1, 1, True, ["W4.E1:0", "H4.O1:0", "I1.D2:0", "T1.A1:0"])
    assert "not connected" in refusal(table, 1, far)
    assert "blocks never move" in refusal(table, 1, [Placement(7, 7, gap[0].block, 0, 22)])


def test_a_star_needs_its_letter_and_a_face_its_own_letter() -> None:
    table = table_with_racks([["B4.*", "E1.S1", "A1.D2", "T1.A1", "S1.E1", "E1.T1"], ["H4.O1"]])
    star = block_index("B4.*")
    with pytest.raises(IllegalPlay, match="star; declare the letter"):
        table.play(0, [Placement(7, 7, star, 1, 26)])
    with pytest.raises(IllegalPlay, match="shows E, not S"):
        table.play(0, [Placement(7, 7, block_index("E1.S1"), 0, LETTERS.index("S"))])


def test_exchange_returns_the_rack_and_costs_the_turn() -> None:
    table = table_with_racks([["Q9.I1", "X9.N1", "Z9.A1", "J6.I1", "V4.A1", "W4.E1"], ["H4.O1"]])
    held = list(table.racks[0])
    table.exchange(0)
    assert table.turn == 1 and table.moves[-1].kind == "exchange" and table.scores == [0, 0]
    assert len(table.racks[0]) == 6 and len(table.bag) == 96 - 12
    everything = sorted(table.bag + table.racks[0] + table.racks[1])
    assert everything == list(range(96)) and table.racks[0] != held
    # the exchange's shuffle comes from the bag seed: the same record rebuilds the same racks
    again = Table.from_record(table.book, table.to_record())
    assert again.racks == table.racks and again.bag == table.bag


def test_the_end_adjustments() -> None:
    """Short form of one turn each: the game ends, each seat loses both numerals of its rack."""
    table = table_with_racks(EXAMPLE_RACKS[:2], scoring="example", turns_per_seat=1)
    table.play(0, placements(table, 0, "HENCE", 6, 7, False,
                             ["H4.N1:0", "E1.S1:0", "N1.T1:0", "E1.C4:1", "E1.T1:0"]))
    table.pass_turn(1)
    assert table.finished and table.played_out is None
    losses = [sum(shipped_blocks()[b].numeral_sum for b in rack) for rack in table.racks]
    assert table.end_adjustments == [-losses[0], -losses[1]]
    assert table.scores == [11 - losses[0], -losses[1]]
    with pytest.raises(IllegalPlay, match="The game is over"):
        table.pass_turn(0)


def test_a_seat_that_plays_out_gains_the_others_racks() -> None:
    table = table_with_racks(EXAMPLE_RACKS[:2], scoring="example")
    table.bag.clear()  # as late in a game: nothing left to draw
    table.racks[0] = [block_index(t) for t in ("H4.N1", "E1.S1", "N1.T1", "E1.C4", "E1.T1")]
    table.play(0, placements(table, 0, "HENCE", 6, 7, False,
                             ["H4.N1:0", "E1.S1:0", "N1.T1:0", "E1.C4:1", "E1.T1:0"]))
    other = sum(shipped_blocks()[b].numeral_sum for b in table.racks[1])
    assert table.finished and table.played_out == 0
    assert table.end_adjustments == [other, -other]
    assert table.scores == [11 + other, -other]


def test_two_rounds_without_a_play_end_the_game() -> None:
    table = table_with_racks(EXAMPLE_RACKS[:2])
    for _ in range(3):
        table.pass_turn(table.turn)
    assert not table.finished
    table.pass_turn(table.turn)
    assert table.finished and table.played_out is None


@pytest.mark.parametrize("module", ["blocks", "lexicon", "paytable"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"egm.games.prism_words.{module}"))
    assert result.attempted > 0 and result.failed == 0

"""The live table's roads (egm.live.roads): the bead plate and the big road, splits drawn as baccarat
draws ties, long streaks tailing right, and the board scrolling to its newest columns."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import egm.live.roads
from egm.live.roads import CODES, DEPTH, bead_plate, big_road, last_columns, side_of, totals

codes_lists = st.lists(st.sampled_from(CODES), max_size=120)


def test_doctests() -> None:
    assert doctest.testmod(egm.live.roads).failed == 0


def test_an_unknown_code_is_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="'X9' is not a Dragon Poker result"):
        big_road(["P2", "X9"])


def test_p_h_s_s_p_opens_a_new_column() -> None:
    """baccarat-engine PR #7's case: the splits mark H; the last P is a new streak after H."""
    road = big_road(["P2", "H2", "S", "S", "P3"])
    assert [(c.column, c.row, c.side, c.splits) for c in road] == [
        (0, 0, "P", 0), (1, 0, "H", 2), (2, 0, "P", 0)]


def test_splits_before_the_first_winner_mark_the_first_cell() -> None:
    road = big_road(["S", "S", "D2", "S"])
    assert [(c.column, c.row, c.side, c.splits) for c in road] == [(0, 0, "D", 3)]


def test_a_streak_longer_than_the_column_tails_right() -> None:
    road = big_road(["H3"] * 8)
    assert [(c.column, c.row) for c in road] == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5),
                                               (1, 5), (2, 5)]


def test_a_streak_meeting_an_older_tail_turns_above_it() -> None:
    # P runs 8 (tails along row 5 into columns 1 and 2), then H runs 7 down column 1: it meets the P
    # tail at row 5 and turns right along row 4.
    road = big_road(["P2"] * 8 + ["H2"] * 7)
    h = [(c.column, c.row) for c in road if c.side == "H"]
    assert h == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4)]


def test_a_tail_along_the_top_row_pushes_the_next_streak_right() -> None:
    # Each streak meets the tail of the one before one row higher, until D (column 5) can only tail
    # along the top row, through columns 6 and 7; the next side then starts at column 8.
    codes = ["P2"] * 10 + ["H2"] * 7 + ["D2"] * 5 + ["P2"] * 4 + ["H2"] * 3 + ["D2"] * 3 + ["P3"]
    road = big_road(codes)
    assert [(c.column, c.row) for c in road if c.side == "D"][-3:] == [(5, 0), (6, 0), (7, 0)]
    assert (road[-1].column, road[-1].row, road[-1].streak) == (8, 0, 8)


def test_the_bead_plate_fills_columns_top_down_in_dealing_order() -> None:
    plate = bead_plate(["P2", "S", "H3"] * 3)
    assert [(c.column, c.row, c.code) for c in plate][5:8] == [(0, 5, "H3"), (1, 0, "P2"), (1, 1, "S")]


@given(codes_lists)
@example(["P2", "H2", "S", "S", "P3"])
@example(["P2"] * 8 + ["H2"] * 7 + ["D3"] * 9)
@example(["S"] * 3)
def test_every_won_hand_is_one_cell_and_every_split_one_slash(codes: list[str]) -> None:
    road = big_road(codes)
    places = [(c.column, c.row) for c in road]
    assert len(set(places)) == len(places), "no two hands share a cell"
    assert all(0 <= c.row < DEPTH for c in road)
    assert [c.index for c in road] == [i for i, code in enumerate(codes) if side_of(code) != "S"]
    won = [c for c in codes if c != "S"]
    splits = sum(c.splits for c in road)
    assert splits == (codes.count("S") if won else 0), "splits are kept only once a hand is won"
    assert totals(codes) == {side: sum(1 for c in codes if side_of(c) == side) for side in "PHDS"}


@given(codes_lists)
@example(["P2"] * 8 + ["H2"] * 7)
def test_a_streak_moves_down_or_right_and_a_new_side_starts_on_the_top_row(codes: list[str]) -> None:
    road = big_road(codes)
    for before, after in zip(road, road[1:], strict=False):
        if after.side == before.side:
            assert (after.column, after.row) in {(before.column, before.row + 1),
                                                 (before.column + 1, before.row)}
            assert after.streak == before.streak
        else:
            assert after.row == 0 and after.column > before.streak


@given(codes_lists, st.integers(min_value=1, max_value=30))
def test_the_board_scrolls_to_its_newest_columns(codes: list[str], columns: int) -> None:
    for cells in (bead_plate(codes), big_road(codes)):
        shown = last_columns(cells, columns)
        if not cells:
            assert shown == []
            continue
        assert max(c.column for c in shown) == min(columns, max(c.column for c in cells) + 1) - 1
        assert all(0 <= c.column < columns for c in shown)
        assert shown[-1].index == cells[-1].index, "the newest hand is always on the board"

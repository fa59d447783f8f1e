"""Poker Tiles rules: hands, lines, multipliers (the seed's worked examples), jokers, the four turns, who
starts, the end and its adjustments, and every refusal of the issue's bad-input list."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

from egm.cards import parse_cards
from egm.games.poker_tiles.engine import EMPTY, JOKER
from egm.games.poker_tiles.hands import (
    HANDS,
    classify,
    classify_any_order,
    could_be_hand,
    extend_shapes,
    open_cards,
    start_shapes,
)
from egm.games.poker_tiles.table import IllegalMove, Table, declared_hand, full_pool
from tests.tiles_support import LAYOUT, code, put, stacked_pool, table_with, tiles


def hand_of(text: str) -> str | None:
    cards = np.array([code(t) for t in text.split()], dtype=np.int64)
    index = classify(cards, len(cards))
    return HANDS[index] if index >= 0 else None


@pytest.mark.parametrize(("line", "hand"), [
    ("Kc Kd", "pair"),
    ("Kc Qd", None),
    ("Kc Kd Kh", "three_of_a_kind"),
    ("Kc Kd 5h", None),  # a pair with a kicker is not a proper hand
    ("7c 7d 2s 2h", "two_pair"),
    ("7c 2s 7d 2h", None),
    ("7c 7d 7s 7h", "four_of_a_kind"),
    ("7c 7d 7s 7h 2c", None),  # four of a kind with a kicker
    ("9c 9d 9h 4c 4s", "full_house"),
    ("4c 4s 9c 9d 9h", "full_house"),
    ("9c 4s 9d 4c 9h", None),
    ("3c 4d 5h 6s 7c", "straight"),
    ("7c 6s 5h 4d 3c", "straight"),  # falling order is rank order too
    ("Ac 2d 3h 4s 5c", "straight"),
    ("5c 4d 3h 2s Ac", "straight"),
    ("Kc Ad 2h 3s 4c", None),  # no wrap-around
    ("Tc Jd Qh Ks Ac", "straight"),
    ("Qs 2s 9s Qs 5s", "flush"),  # two decks: a pair of Q♠ in a flush
    ("5h 4h 3h 2h Ah", "straight_flush"),
    ("Ts Js Qs Ks As", "royal_flush"),
    ("8d 8d 8c 8s 8h", "five_of_a_kind"),
    ("Ks Ks Ks Qs Qs", "full_house"),  # suited, but a full house beats a flush
])
def test_proper_hands(line: str, hand: str | None) -> None:
    assert hand_of(line) == hand


def test_a_line_out_of_order_is_told_from_no_hand() -> None:
    def any_order(text: str) -> int:
        cards = np.array([c.index for c in parse_cards(text)], dtype=np.int64)
        return classify_any_order(cards, len(cards))

    assert HANDS[any_order("3c 5d 4h 6s 7c")] == "straight"
    assert any_order("Kc 5d Kh") < 0  # K 5 K: three tiles are never a pair with a kicker
    assert HANDS[any_order("7c 2s 7d 2h")] == "two_pair"
    assert HANDS[any_order("2c 5d Ah 3s 4c")] == "straight"  # the wheel, out of order


def test_the_shapes_the_generator_prunes_with_agree_with_the_hands() -> None:
    """A whole line keeps a shape open exactly when it is a proper hand, and every prefix of a proper
    line keeps one open (the generator prunes a line the moment none is)."""
    rng = np.random.default_rng(1)
    for _ in range(20000):
        length = int(rng.integers(2, 6))
        cards = rng.integers(0, 52, size=length).astype(np.int64)
        if rng.random() < 0.5:  # make hands likely: copy ranks or suits around
            cards[1:] = (cards[0] & ~3) | (cards[1:] & 3)
        assert could_be_hand(cards, length, length) == (classify(cards, length) >= 0)
        shapes = start_shapes(length)
        for pos in range(length):  # the cards open at each step are exactly those that keep a shape
            opened = open_cards(shapes, cards, pos, length)
            keeps = extend_shapes(shapes, cards, pos, length) != 0
            assert bool(opened >> int(cards[pos]) & 1) == keeps
            shapes = extend_shapes(shapes, cards, pos, length)
            if not shapes:
                break
        if classify(cards, length) >= 0:
            assert all(could_be_hand(cards, n, length) for n in range(length + 1))


# --- the seed's worked examples: the first play, starting zone and card squares -------------------

def test_first_play_in_the_starting_area_is_doubled() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    assert table.starter == 0
    move = table.play(0, tiles("6 6 9c", "6 7 9d"))
    (line,) = move.lines
    assert (HANDS[line.hand], line.multiplier, line.points) == ("pair", 2, 2)


def test_double_double_for_the_jack_of_diamonds_on_its_square() -> None:
    """The seed: a Jack of Diamonds on its marked square in the starting area, "double, double": x3."""
    table = table_with("Jd Jc 2s 7h 4c", "3c 8d Ks 6h Qc")
    assert LAYOUT.marked[LAYOUT.square(6, 5)] == code("Jd")
    move = table.play(0, tiles("6 5 Jd", "6 6 Jc"))
    assert (move.lines[0].multiplier, move.points) == (3, 3)


def test_three_doubles_score_four_times() -> None:
    """Starting zone, J♦ on its square and T♥ on its square: three doubles, x4 (full house 6 x 4)."""
    table = table_with("Jc Jd Js Th Td", "3c 8d Ks 6h Qc")
    move = table.play(0, tiles("6 4 Jc", "6 5 Jd", "6 6 Js", "6 7 Th", "6 8 Td"))
    (line,) = move.lines
    assert (HANDS[line.hand], line.multiplier, line.points) == ("full_house", 4, 24)


def test_the_seeds_worked_example_as_written() -> None:
    """Seed 000: "If the starting player also plays one card in the starting zone which corresponds to
    that which has been designated by a marked square 16, in the example a Jack of Diamonds, the hand
    also is a double hand. With a double, double as the illustrated embodiment, the hand scores three
    times its original score. If both Jack of Diamonds had been played at the starting area, the score
    would be accorded three doubles, and in accordance with the games rules would be scored at four
    times the original score." One J♦ in the zone (here off its own square (6, 5)): x3; both: x4."""
    assert LAYOUT.marked[LAYOUT.square(6, 5)] == code("Jd")
    one = table_with("Jd Jc 2s 7h 4c", "3c 8d Ks 6h Qc")
    (line,) = one.play(0, tiles("6 6 Jc", "6 7 Jd")).lines
    assert (HANDS[line.hand], line.multiplier, line.points) == ("pair", 3, 3)
    both = table_with("Jd Jd 2s 7h 4c", "3c 8d Ks 6h Qc")
    (line,) = both.play(0, tiles("6 6 Jd", "6 7 Jd")).lines
    assert (HANDS[line.hand], line.multiplier, line.points) == ("pair", 4, 4)
    assert both.scores == [4, 0]


def test_a_zone_card_placed_in_the_zone_doubles_each_of_its_lines() -> None:
    """T♥ is marked in the zone at (6, 7); one played later at (6, 8), off its square, counts one
    doubling in the zone's row (doubled for the zone as well: x3) and one in its column (x2)."""
    table = table_with("Tc Td 2s 7h 4c", "Th Ts Ks 6h Jc")
    table.play(0, tiles("6 6 Tc", "6 7 Td"))
    move = table.play(1, tiles("6 8 Th", "7 8 Ts"))
    assert [(HANDS[line.hand], line.multiplier, line.points) for line in move.lines] == [
        ("three_of_a_kind", 3, 9), ("pair", 2, 2)]


def test_outside_the_zone_a_card_doubles_only_on_its_own_square() -> None:
    """Claim 9 stands elsewhere: J♦ below the zone, off its own square, counts no doubling."""
    table = table_with("Jc Jh 2s 7h 4c", "Jd Js Ks 6h Qc")
    table.play(0, tiles("6 6 Jc", "6 7 Jh"))
    move = table.play(1, tiles("7 6 Jd", "7 7 Js"))
    assert [line.multiplier for line in move.lines] == [1, 1, 1]


def test_a_joker_never_matches_a_card_square() -> None:
    table = table_with("JK Jc 2s 7h 4c", "3c 8d Ks 6h Qc")
    move = table.play(0, tiles("6 5 JK Jd", "6 6 Jc"))
    assert move.lines[0].multiplier == 2


def test_first_pair_must_cover_the_centre_but_trips_need_not_be_checked_for_it() -> None:
    table = table_with("9c 9d 9s 7h 4c", "3c 8d Ks 6h Jc")
    with pytest.raises(IllegalMove, match="must cover the STARTING ZONE centre"):
        table.play(0, tiles("6 4 9c", "6 5 9d"))
    assert table.play(0, tiles("6 4 9c", "6 5 9d", "6 6 9s")).points == 6


def test_a_pair_becomes_three_of_a_kind_and_two_pair_a_full_house() -> None:
    table = table_with("9c 9d 5s 5h 4c", "9h 5c Ks 6h Jc")
    table.play(0, tiles("6 5 9c", "6 6 9d", "6 7 5s", "6 8 5h"))  # two pair, doubled: 4
    table.racks[1] = [code(t) for t in "9h 5c Ks 6h Jc".split()]
    move = table.play(1, tiles("6 4 9h"))
    assert [(HANDS[line.hand], line.points) for line in move.lines] == [("full_house", 12)]


def test_every_changed_line_scores_once_and_a_matching_tile_doubles_each_of_its_lines() -> None:
    """9h 9s laid above the opening 9c 9d: the row they make and the two columns they close all score;
    9h stands on its own marked square, (5, 6), so both lines through it are doubled."""
    table = table_with("9c 9d 2s 7h 4c", "9h 9s Ks 6h Jc")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    assert LAYOUT.marked[LAYOUT.square(5, 6)] == code("9h")
    move = table.play(1, tiles("5 6 9h", "5 7 9s"))
    scored = [([LAYOUT.row_col(s) for s in line.squares], HANDS[line.hand], line.multiplier, line.points)
              for line in move.lines]
    assert scored == [
        ([(5, 6), (5, 7)], "pair", 2, 2),
        ([(5, 6), (6, 6)], "pair", 2, 2),
        ([(5, 7), (6, 7)], "pair", 1, 1),
    ]
    assert move.points == 5 and table.scores == [2, 5]


def test_a_later_line_inside_the_starting_area_is_doubled_again() -> None:
    table = table_with("9c 9d 2s 7h 4c", "9h 5c Ks 6h Jc")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    move = table.play(1, tiles("6 8 9h"))
    assert [(HANDS[line.hand], line.multiplier, line.points) for line in move.lines] == [
        ("three_of_a_kind", 2, 6)]


# --- bad input: each refused with the rule, nothing moves -----------------------------------------

def snapshot(table: Table) -> tuple:
    return (table.face.tobytes(), table.joker.tobytes(), [list(r) for r in table.racks], list(table.pool),
            table.turn, list(table.scores), len(table.moves))


def refused(table: Table, match: str, call, *args) -> None:
    before = snapshot(table)
    with pytest.raises(IllegalMove, match=match):
        call(*args)
    assert snapshot(table) == before


@pytest.fixture
def opened() -> Table:
    """Seat 0 has opened with a pair of nines; it is seat 1's turn, holding 9h 9s JK 5c 6c (three
    nines with the joker, as seat 0 holds: the tie goes to seat 0)."""
    table = table_with("9c 9d 9s 7h 4c", "9h 9s JK 5c 6c")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    return table


def test_refuses_a_line_that_is_not_a_proper_hand(opened: Table) -> None:
    refused(opened, "not a proper poker hand", opened.play, 1, tiles("5 6 5c"))


def test_refuses_a_line_of_more_than_five(opened: Table) -> None:
    put(opened, "6 4 9h", "6 5 9s")  # 9 9 9 9 in the row: cols 4..7
    opened.racks[1] = [code(t) for t in "9h 9s JK 5c 6c".split()]
    refused(opened, "at most 5 in a row", opened.play, 1, tiles("6 3 9h", "6 8 9s"))


def test_refuses_a_hand_not_in_order(opened: Table) -> None:
    put(opened, "5 6 5d", "4 6 9d")  # column 6 from row 4: 9d 5d 9c (9 5 9)
    refused(opened, "not in order", opened.play, 1, tiles("3 6 5c"))


def test_refuses_tiles_not_in_one_line(opened: Table) -> None:
    refused(opened, "not in one line", opened.play, 1, tiles("5 6 9h", "7 7 9s"))


def test_refuses_a_gap(opened: Table) -> None:
    refused(opened, "empty between them", opened.play, 1, tiles("4 6 9h", "7 6 9s"))


def test_refuses_a_first_play_outside_the_starting_area() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    refused(table, "inside the starting area", table.play, 0, tiles("5 6 9c", "5 7 9d"))
    refused(table, "inside the starting area", table.play, 0, tiles("6 8 9c", "6 9 9d"))


def test_refuses_a_tile_the_seat_does_not_hold(opened: Table) -> None:
    refused(opened, "Kd is not in the machine's rack", opened.play, 1, tiles("5 6 Kd"))
    refused(opened, "Another 9h is not in the machine's rack", opened.play, 1, tiles("5 6 9h", "4 6 9h"))


def test_refuses_a_joker_without_a_declaration(opened: Table) -> None:
    joker = tiles("5 6 JK 9s")[0]
    undeclared = type(joker)(joker.square, JOKER, EMPTY)
    refused(opened, "no declared card", opened.play, 1, [undeclared])


def test_refuses_a_natural_tile_declared_as_another_card(opened: Table) -> None:
    refused(opened, "plays as itself", opened.play, 1, tiles("5 6 9h 9s"))


def test_joker_declared_then_swapped_with_the_right_card_only(opened: Table) -> None:
    move = opened.play(1, tiles("6 8 JK 9s"))
    assert HANDS[move.lines[0].hand] == "three_of_a_kind"
    square = LAYOUT.square(6, 8)
    assert opened.joker[square] and opened.face[square] == code("9s")
    opened.racks[0] = [code(t) for t in "9h 9s 2s 7h 4c".split()]
    refused(opened, "stands for 9s; swap it only with 9s, not 9h", opened.swap_joker, 0, square, code("9h"))
    refused(opened, "holds no joker", opened.swap_joker, 0, LAYOUT.square(6, 6), code("9c"))
    swap = opened.swap_joker(0, square, code("9s"))
    assert swap.kind == "swap_joker" and swap.points == 0
    assert JOKER in opened.racks[0] and code("9s") not in opened.racks[0]
    assert not opened.joker[square] and opened.face[square] == code("9s")


def test_refuses_a_move_out_of_turn_and_after_the_end(opened: Table) -> None:
    refused(opened, "It is the machine's turn; wait for your turn", opened.play, 0, tiles("5 6 9h"))
    refused(opened, "the machine's turn", opened.pass_turn, 0)
    opened.finished = True
    refused(opened, "The game is over", opened.pass_turn, 1)


def test_refuses_anything_but_a_play_on_the_first_turn() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    refused(table, "first turn must be a play", table.pass_turn, 0)
    refused(table, "first turn must be a play", table.exchange, 0, [code("2s")])


# --- who starts, turns, the end -------------------------------------------------------------------

def test_the_best_declared_hand_starts() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 3d 3s 6h Jc")
    assert table.declared[0][0] == HANDS.index("pair")
    assert table.declared[1][0] == HANDS.index("three_of_a_kind")
    assert table.starter == 1 and table.turn == 1


def test_ties_go_to_the_higher_hand_then_the_lower_seat() -> None:
    assert table_with("9c 9d 2s 7h 4c", "Tc Td 3s 6h Jc").starter == 1  # tens beat nines
    assert table_with("9c 9d 2s 7h 4c", "9h 9s 3s 6h Jc").starter == 0


def test_a_joker_is_a_pair_with_any_card_for_the_declaration() -> None:
    assert declared_hand(LAYOUT, [code(t) for t in "JK Ah 2s 7h 4c".split()])[:2] == (HANDS.index("pair"), 12)


def test_without_a_hand_every_seat_swaps_its_rack_until_one_holds_one() -> None:
    pool = stacked_pool("2c 4d 6h 8s Tc", "3c 5d 7h 9s Jc")
    next_racks = [code(t) for t in "Kc 2d Qc 5h Ks 7s Kd 9d Ah 3h".split()]  # seat 0: Kc Qc Ks Kd Ah
    for tile in next_racks:
        pool.remove(tile)
    pool = pool[:10] + next_racks + pool[10:]
    table = Table(LAYOUT, 2, pool, 10)
    assert table.dealt[0] == [code(t) for t in "2c 4d 6h 8s Tc".split()]
    assert len(table.opening_swaps) == 1
    assert table.racks[0] == [code(t) for t in "Kc 2d Qc 5h Ks".split()]
    assert table.starter == 0
    assert table.pool[-10:] == [code(t) for t in "2c 4d 6h 8s Tc 3c 5d 7h 9s Jc".split()]
    assert sorted(table.pool + table.racks[0] + table.racks[1]) == sorted(full_pool())


def test_a_play_draws_back_up_to_five_and_passes_the_turn() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    top = table.pool[0]
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    assert len(table.racks[0]) == 5 and top in table.racks[0] and table.turn == 1


def test_exchange_draws_first_then_returns_to_the_back() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    front = table.pool[:2]
    table.exchange(1, [code("3c"), code("8d")])
    assert table.racks[1][-2:] == front and table.pool[-2:] == [code("3c"), code("8d")]
    refused(table, "one or more tiles", table.exchange, 0, [])


def test_the_short_form_ends_after_its_rounds_with_end_adjustments() -> None:
    table = table_with("9c 9d 9s 7h 4c", "3c 8d Ks JK Jc", rounds=1)
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    table.pass_turn(1)
    assert table.finished
    # seat 0 keeps 5 naturals (1 each); seat 1 keeps 4 naturals and a joker (5)
    assert table.end_adjustments == [-5, -9]
    assert table.scores == [2 - 5, -9]


def test_a_seat_that_plays_out_gains_the_others_unplayed_tiles() -> None:
    table = table_with("9c 9d 9s 7h 4c", "3c 8d Ks JK Jc")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    table.pool.clear()
    table.racks[1] = [code("9h")]
    table.racks[0] = [code("2s"), code("JK")]
    table.play(1, tiles("6 8 9h"))
    assert table.finished and table.played_out == 1
    assert table.end_adjustments == [-6, 6]


def test_the_game_ends_when_no_seat_can_move() -> None:
    table = table_with("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc", rounds=50)
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    table.pool.clear()
    table.racks[0] = [code(t) for t in "2s 7h".split()]
    table.racks[1] = [code(t) for t in "3c 8d".split()]
    table.pass_turn(1)
    assert table.finished and table.end_adjustments == [-2, -2]


def test_a_record_replays_to_the_same_game() -> None:
    table = table_with("9c 9d 9s 7h 4c", "9h 9s JK 5c 6c")
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    table.play(1, tiles("6 8 JK 9s", "6 5 9h"))
    table.exchange(0, [code("7h")])
    again = Table.from_record(LAYOUT, table.to_record())
    assert snapshot(again) == snapshot(table)
    assert [m.points for m in again.moves] == [m.points for m in table.moves]


@pytest.mark.parametrize("module", ["hands", "paytable", "board", "game"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"egm.games.poker_tiles.{module}"))
    assert result.attempted > 0 and result.failed == 0

"""Poker Grid rules: scoring of every hand, wild spaces, the contribute and one-way rules, legal squares,
and the pay-table model."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from egm.cards import Card, parse_cards
from egm.games.poker_grid.board import EMPTY, WILD, Layout
from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
from egm.games.poker_grid.scoring import HAND_POINTS, hand_name, score

RULES = PokerGridRules.model_validate(EXAMPLE)
LAYOUT = Layout.from_rules(RULES)  # wild spaces at (1, 4) and (5, 3)


def board(cards: dict[tuple[int, int], str]) -> list[int]:
    """A position with the given cards placed (the starters are not placed unless listed)."""
    position = LAYOUT.empty_position()
    jokers = 0
    for (row, col), text in cards.items():
        if text == "JK":
            position[LAYOUT.square(row, col)] = 52 + jokers
            jokers += 1
        else:
            position[LAYOUT.square(row, col)] = Card.parse(text).index
    return position


def play(cards: dict[tuple[int, int], str], at: tuple[int, int], card: str):
    held = 53 if card == "JK" and "JK" in cards.values() else Card.parse(card).index
    return score(LAYOUT, board(cards), LAYOUT.square(*at), held)


def cells(result) -> list[tuple[int, int]]:
    return [LAYOUT.row_col(s) for s in result.squares]


def test_points_are_the_seeds_table() -> None:
    assert HAND_POINTS == {
        "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5, "full_house": 6,
        "four_of_a_kind": 7, "straight_flush": 8, "royal_flush": 9, "five_of_a_kind": 10,
    }


@pytest.mark.parametrize(
    ("row_cards", "placed", "hand", "points"),
    [
        ("9d", "9c", "pair", 1),
        ("9d 4s", "4c", "pair", 1),  # the shortest hand of the most points: 4s 4c
        ("9d 9s", "9c", "three_of_a_kind", 3),
        ("9d 9s 4h", "4c", "two_pair", 2),
        ("9d 9s 9h", "9c", "four_of_a_kind", 7),
        ("2d 3s 4h 5c", "6c", "straight", 4),
        ("Ad 2s 3h 4c", "5c", "straight", 4),  # the wheel
        ("2c 9c Jc Kc", "4c", "flush", 5),
        ("9d 9s 4h 4d", "9c", "full_house", 6),
        ("5c 6c 7c 8c", "9c", "straight_flush", 8),
        ("Tc Jc Qc Kc", "Ac", "royal_flush", 9),
        ("9d 9s 9h JK", "9c", "five_of_a_kind", 10),
        ("2d 3s 4h", "5c", None, 0),  # no straight with fewer than 5 cards
        ("2c 9c Jc", "4c", None, 0),  # no flush with fewer than 5 cards
        ("Kd Qs 3h 3c", "7c", None, 0),  # the pair is there without the placed card
    ],
)
def test_each_hand_scores_its_points(row_cards: str, placed: str, hand: str | None, points: int) -> None:
    """The row reads left to right up to (3, 3) on a row clear of starters; the placed card ends it."""
    texts = row_cards.split()
    start = 4 - len(texts)
    cards = {(4, start + i): text for i, text in enumerate(texts)}
    result = play(cards, (4, 4), placed)
    assert (result.hand, result.points) == (hand, points)
    if points:
        first = 3 if row_cards == "9d 4s" else start
        assert result.line == "row"
        assert cells(result) == [(4, c) for c in range(first, 5)]
    else:
        assert (result.line, result.squares) == ("row", ())


def test_placed_card_may_sit_inside_the_hand() -> None:
    result = play({(4, 0): "9d", (4, 1): "4s", (4, 3): "4h", (4, 4): "9s"}, (4, 2), "9c")
    assert (result.hand, cells(result)) == ("full_house", [(4, c) for c in range(5)])


def test_kicker_does_not_contribute_but_a_shorter_hand_scores() -> None:
    # Kd Kh on the board, 7c placed after them: the pair does not need the 7c.
    assert play({(4, 0): "Kd", (4, 1): "Kh"}, (4, 2), "7c").points == 0
    # 7c between a 7 and the pair: the 7s pair with it; the kings are a second pair it also needs.
    result = play({(4, 0): "Kd", (4, 1): "Kh", (4, 3): "7s"}, (4, 2), "7c")
    assert (result.hand, result.points) == ("two_pair", 2)


def test_one_way_only_never_adds_row_and_column() -> None:
    # A nine to the left and a nine above: a pair each way, never three of a kind or 2 points.
    result = play({(4, 1): "9d", (3, 2): "9h"}, (4, 2), "9c")
    assert (result.hand, result.points, result.line) == ("pair", 1, "row")
    # The better line wins even when it is the column.
    result = play({(4, 1): "9d", (3, 2): "9h", (2, 2): "9s"}, (4, 2), "9c")
    assert (result.hand, result.line, cells(result)) == ("three_of_a_kind", "col", [(2, 2), (3, 2), (4, 2)])


def test_at_most_four_other_cards_and_an_empty_square_ends_the_line() -> None:
    # Six cards in a row: the hand is at most 5 long.
    result = play({(4, c): t for c, t in enumerate(["9d", "2s", "3h", "4c", "5d"])}, (4, 5), "6c")
    assert (result.hand, cells(result)) == ("straight", [(4, c) for c in range(1, 6)])
    # A gap: the 9d beyond the empty square does not pair with the 9c.
    assert play({(4, 4): "9d", (4, 6): "3h"}, (4, 7), "9c").points == 0


def test_wild_space_is_wild_for_the_card_next_to_it() -> None:
    # Wild space (1, 4); a card placed at (1, 3) pairs with it in the row.
    result = play({(0, 3): "2c"}, (1, 3), "8h")
    assert (result.hand, result.line, cells(result)) == ("pair", "row", [(1, 3), (1, 4)])
    # The line runs on past the wild space: 8h, wild, 8d make three of a kind.
    result = play({(0, 3): "2c", (1, 5): "8d"}, (1, 3), "8h")
    assert (result.hand, cells(result)) == ("three_of_a_kind", [(1, 3), (1, 4), (1, 5)])
    # The wild space stands for a different card in a later play: here a flush card.
    result = play({(1, 0): "2h", (1, 1): "9h", (1, 2): "Jh"}, (1, 3), "5h")
    assert (result.hand, cells(result)) == ("flush", [(1, c) for c in range(5)])


def test_wild_space_further_away_ends_the_line() -> None:
    # (1, 4) is wild; a card at (1, 2) is two away from it, so 8h and 8d beyond the wild do not pair.
    result = play({(1, 3): "3c", (1, 5): "8d"}, (1, 2), "8h")
    assert result.points == 0


def test_jokers_are_fully_wild_even_three_wilds_in_a_line() -> None:
    assert play({(4, 0): "Kd", (4, 1): "Kh"}, (4, 2), "JK").hand == "three_of_a_kind"
    # Joker placed next to the wild space (1, 4), with the other joker and two sevens beyond:
    # three wilds and two sevens are five sevens.
    result = play({(1, 5): "JK", (1, 6): "7c", (1, 7): "7d", (0, 3): "2c"}, (1, 3), "JK")
    assert (result.hand, result.points) == ("five_of_a_kind", 10)
    assert cells(result) == [(1, c) for c in range(3, 8)]


def test_hand_name_of_short_lines() -> None:
    def named(text: str) -> str | None:
        return hand_name([c.index for c in parse_cards(text)])

    assert named("9c 9d") == "pair" and named("JK 2c") == "pair" and named("9c Td") is None
    assert named("9c 9d 9h 9s") == "four_of_a_kind" and named("9c JK JK 2d") == "three_of_a_kind"
    assert hand_name([Card.parse("9c").index, WILD, WILD]) == "three_of_a_kind"


def test_legal_squares_are_next_to_a_card_not_diagonal_not_wild() -> None:
    position = board({(3, 2): "2c", (3, 5): "3c"})
    legal = {LAYOUT.row_col(s) for s in LAYOUT.legal_squares(position)}
    assert legal == {(2, 2), (4, 2), (3, 1), (3, 3), (2, 5), (4, 5), (3, 4), (3, 6)}
    # A square next to a wild space and no card is not legal: (0, 4) touches only the wild (1, 4).
    position = board({(1, 3): "2c"})
    legal = {LAYOUT.row_col(s) for s in LAYOUT.legal_squares(position)}
    assert (0, 4) not in legal and (1, 4) not in legal and (0, 3) in legal
    assert position[LAYOUT.square(1, 4)] == WILD and position[LAYOUT.square(0, 4)] == EMPTY


def test_paytable_model_checks_the_board() -> None:
    def refused(**change: object) -> str:
        with pytest.raises(ValidationError) as info:
            PokerGridRules.model_validate({**EXAMPLE, **change})
        return str(info.value)

    assert "equal 54" in refused(rows=8)
    assert "off the 7 x 8 board" in refused(starter_spaces=[[3, 2], [7, 0]])
    assert "both a starter space and a wild space" in refused(wild_spaces=[[3, 2], [5, 3]])
    assert "two apart in one line" in refused(wild_spaces=[[1, 4], [1, 6]])
    assert "reached through a wild space" in refused(wild_spaces=[[0, 1], [1, 0]])
    assert "opponents_default exceeds" in refused(opponents_default=3, opponents_max=2)
    assert "certified for 1 opponent(s) only, so this pay table has no pays for 2, 3 opponents" in refused(
        opponents_max=3)
    assert "rising min_margin" in refused(
        result_pays=[{"min_margin": 1, "pays": 20}, {"min_margin": 1, "pays": 30}]
    )
    assert "at least the one before" in refused(
        result_pays=[{"min_margin": 0, "pays": 20}, {"min_margin": 1, "pays": 10}]
    )
    assert "Extra inputs are not permitted" in refused(bonus=1)
    rules = PokerGridRules.model_validate(EXAMPLE)
    margins = (-9, -8, -1, 0, 1, 5, 6, 24, 25)
    assert [rules.result_units(m) for m in margins] == [0, 4, 4, 10, 16, 16, 18, 18, 20]
    assert rules.hand_awards.for_hand("royal_flush") == 50 and rules.hand_awards.for_hand("pair") == 0

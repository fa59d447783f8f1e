"""Poker Tiles on the cabinet interface: decisions and refusals, power-loss recovery at every move,
the view, the outcome and its pays, opponents, and the strategies."""

from __future__ import annotations

import pytest

from egm.games.base import Decision, DecisionRefused
from egm.games.poker_tiles.engine import EMPTY
from egm.games.poker_tiles.game import CUSTOMER, PokerTiles, PokerTilesRound
from egm.games.poker_tiles.lab import PokerTilesLab
from egm.games.poker_tiles.strategy import (
    MACHINE_STRATEGY,
    dead_tiles,
    leave_value,
    lookahead_turn,
    machine_turn,
    random_player,
)
from egm.games.poker_tiles.table import Table
from egm.rng import Rng
from tests.tiles_support import LAYOUT, code, paytable, put, stacked_pool


def new_round(seed: int = 7, opponents: int | None = None) -> PokerTilesRound:
    game = PokerTiles(paytable(opponents_max=3))
    return game.new_round(game.default_wager(1), Rng.from_seed(seed), {}, opponents=opponents)


def round_from_pool(*racks: str) -> PokerTilesRound:
    game = PokerTiles(paytable())
    return PokerTilesRound(game, game.default_wager(1), Table(LAYOUT, len(racks), stacked_pool(*racks), 10))


def test_the_stake_buys_the_game() -> None:
    game = PokerTiles(paytable())
    wager = game.default_wager(5)
    assert (wager.bet_credits, wager.stake_credits, wager.denom_cents) == (1, 20, 5)


def test_the_round_waits_only_for_the_customer() -> None:
    round_ = new_round()
    while not round_.finished:
        assert round_.table.turn == CUSTOMER and round_.step == "play" and round_.view().decision_awaited
        round_.decide(round_.reference_decision())
    assert round_.step == "complete"
    assert round_.table.turns_taken == 2 * 10  # heads-up, 10 rounds


def test_a_customer_play_through_a_decision() -> None:
    round_ = round_from_pool("9c 9d 9s 7h 4c", "3c 8d Ks 6h Jc")
    round_.decide(Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "9c"},
                                              {"row": 6, "col": 7, "card": "9d"}]}))
    first = round_.table.moves[0]
    assert (first.seat, first.kind, first.points) == (0, "play", 2)
    assert len(round_.table.moves) == 2 and round_.table.turn == CUSTOMER  # the machine answered


@pytest.mark.parametrize(("decision", "message"), [
    (Decision("fold"), "takes 'play', 'swap_joker', 'pass' or 'exchange'"),
    (Decision("play", {"tiles": "9c"}), "a list of {row, col, card}"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "9x"}]}), "is not a card"),
    (Decision("play", {"tiles": [{"row": 6, "col": 66, "card": "9c"}]}), "off the 13 x 13 board"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "Kd"}, {"row": 6, "col": 7, "card": "Kd"}]}),
     "Kd is not in your rack"),
    (Decision("play", {"tiles": [{"row": 5, "col": 6, "card": "9c"}, {"row": 5, "col": 7, "card": "9d"}]}),
     "inside the starting area"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "9c"}, {"row": 7, "col": 7, "card": "9d"}]}),
     "not in one line"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "9c"}, {"row": 6, "col": 7, "card": "4c"}]}),
     "not a proper poker hand"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "JK"}, {"row": 6, "col": 7, "card": "9d"}]}),
     "no declared card"),
    (Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "JK", "as": "JK"}]}), "not as JK"),
    (Decision("pass"), "first turn must be a play"),
    (Decision("pass", {"seat": 1}), "MACHINE plays its own turns"),
])
def test_bad_decisions_are_refused_and_nothing_moves(decision: Decision, message: str) -> None:
    round_ = round_from_pool("9c 9d 9s JK 4c", "3c 8d Ks 6h Jc")
    before = round_.to_record(), round_.view()
    with pytest.raises(DecisionRefused, match=message):
        round_.decide(decision)
    assert (round_.to_record(), round_.view()) == before


def test_a_joker_swap_with_the_wrong_card_is_refused_through_the_cabinet() -> None:
    round_ = round_from_pool("9c 9d 9s JK 4c", "3c 8d Ks 6h Jc")
    round_.decide(Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "9c"},
                                              {"row": 6, "col": 7, "card": "JK", "as": "9h"}]}))
    round_.table.racks[CUSTOMER] = [code(t) for t in "9h 9s 2c 3c 4c".split()]
    round_.table.turn = CUSTOMER
    if round_.table.joker[LAYOUT.square(6, 7)]:
        with pytest.raises(DecisionRefused, match="swap it only with 9h, not 9s"):
            round_.decide(Decision("swap_joker", {"row": 6, "col": 7, "card": "9s"}))
        round_.decide(Decision("swap_joker", {"row": 6, "col": 7, "card": "9h"}))
        assert round_.table.moves[-2].kind == "swap_joker" or round_.table.moves[-1].kind == "swap_joker"
    else:  # the machine swapped it first
        assert any(move.kind == "swap_joker" for move in round_.table.moves)


def test_after_the_end_every_decision_is_refused() -> None:
    round_ = new_round(3)
    while not round_.finished:
        round_.decide(round_.reference_decision())
    with pytest.raises(DecisionRefused, match="The game is over"):
        round_.decide(Decision("pass"))


def test_power_loss_recovery_at_every_move() -> None:
    """The record after every decision restores the same round: same view, same next reference move,
    and the same outcome when played out."""
    game = PokerTiles(paytable())
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(12), {})
    records = [round_.to_record()]
    while not round_.finished:
        restored = game.restore(round_.to_record())
        assert restored.view() == round_.view()
        assert restored.reference_decision() == round_.reference_decision()
        round_.decide(round_.reference_decision())
        records.append(round_.to_record())
    final = round_.outcome()
    for record in records:
        again = game.restore(record)
        while not again.finished:
            again.decide(again.reference_decision())
        assert again.outcome() == final


def test_the_view_hides_the_opponents_racks_and_the_pool() -> None:
    round_ = new_round(5)
    view = round_.view().table
    assert len(view["rack"]) == 5 and view["opponent_tiles"] == [5]
    assert isinstance(view["pool"], int)
    assert len(view["card_squares"]) == 52 and view["centre"] == [6, 6] and len(view["start"]) == 5
    text = str(view)
    assert str(round_.table.racks[1]) not in text


def test_the_view_lights_the_starting_area_then_the_squares_next_to_a_tile() -> None:
    seen = set()
    for seed in range(1, 9):
        round_ = new_round(seed)
        for _ in range(2):
            table, layout = round_.table, round_.game.layout
            lit = [tuple(square) for square in round_.view().table["legal"]]
            held = {layout.row_col(s) for s in range(layout.size) if table.face[s] != EMPTY}
            if not held:
                seen.add("opening")
                assert lit == [layout.row_col(s) for s in layout.start]
            else:
                seen.add("building")
                assert lit and not held & set(lit)
                assert all({(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & held for r, c in lit)
                assert len(lit) == sum(1 for s in range(layout.size) if table.face[s] == EMPTY
                                       and any(table.face[n] != EMPTY for n in layout.neighbours(s)))
            round_.decide(round_.reference_decision())
    assert seen == {"opening", "building"}


def test_the_outcome_pays_the_margin_tier_plus_awards() -> None:
    for seed in range(1, 6):
        round_ = new_round(seed)
        while not round_.finished:
            round_.decide(round_.reference_decision())
        rules = round_.game.rules
        outcome = round_.outcome()
        units = rules.result_units(round_.margin) + sum(rules.award_units(h) for h in round_.awards())
        assert outcome.win_credits == units
        assert outcome.summary["scores"] == round_.table.scores
        code_letter = {"win": "W", "tie": "T", "loss": "L"}[round_.result]
        assert outcome.result_code == f"{code_letter}{round_.margin:+d}"


@pytest.mark.parametrize("opponents", [1, 2, 3])
def test_one_to_three_opponents(opponents: int) -> None:
    round_ = new_round(8, opponents)
    assert round_.table.seats == 1 + opponents
    while not round_.finished:
        round_.decide(round_.reference_decision())
    assert len(round_.outcome().summary["scores"]) == 1 + opponents


def test_more_opponents_than_the_pay_table_allows_is_refused() -> None:
    game = PokerTiles(paytable(opponents_max=1))
    with pytest.raises(ValueError, match="allows 1 to 1 opponents"):
        game.new_round(game.default_wager(1), Rng.from_seed(1), {}, opponents=2)


def test_an_unknown_machine_strategy_is_refused() -> None:
    table = paytable()
    table.header.strategy = "tiles-greedy/0"
    with pytest.raises(ValueError, match="not a Poker Tiles machine strategy"):
        PokerTiles(table)


def test_strategies_are_deterministic_and_legal() -> None:
    for seed in range(3):
        one, two = new_round(seed), new_round(seed)
        while not one.finished:
            assert machine_turn(one.table) == machine_turn(two.table)
            turn = lookahead_turn(one.table)
            PokerTilesRound(one.game, one.wager, Table.from_record(LAYOUT, one.to_record()))  # still legal
            one.decide(one.decision_for(turn))
            two.decide(two.decision_for(turn))
        assert one.outcome() == two.outcome()
    chooser = random_player(Rng.from_seed(4))
    round_ = new_round(4)
    while not round_.finished:
        round_.decide(round_.decision_for(chooser(round_.table)))
    assert round_.finished


def test_the_leave_values_jokers_and_pairs() -> None:
    assert leave_value([code(t) for t in "JK 9c 9d 2s".split()], last_turn=False) == 10 + 4
    assert leave_value([code(t) for t in "JK 9c".split()], last_turn=True) == -2 * (5 + 1)
    assert dead_tiles([code(t) for t in "JK 9c 9d 2s 3h".split()]) == [code("2s"), code("3h")]


def test_the_machine_swaps_a_joker_when_it_pays() -> None:
    """Holding the declared card and nothing that plays better, the machine takes the joker back."""
    round_ = round_from_pool("9c 9d 9s JK 4c", "3c 8d Ks 6h Jc")
    table = round_.table
    put(table, "6 4 9d", "6 5 9c", "6 6 JK 9h", "6 7 9s", "6 8 9c")  # five nines: the row is full
    table.turn = 1
    table.racks[1] = [code(t) for t in "9h 2c 5d 7s Qh".split()]
    # its best play, 9h over a nine on its own square (5, 6), is worth less than the joker
    kind, args = machine_turn(table)
    assert kind == "swap_joker" and args == [LAYOUT.square(6, 6), code("9h")]
    table.racks[1] = [code(t) for t in "9h 9h 9h 7s Qh".split()]  # three nines: play them instead
    assert machine_turn(table)[0] == "play"


def test_the_lab_adapter_tallies_a_chunk() -> None:
    lab = PokerTilesLab()
    tally = lab.run_chunk(paytable(), MACHINE_STRATEGY, 21, 3)
    assert tally.games == 3 and tally.stake == 60
    assert sum(tally.returns.values()) == 3 and sum(tally.results.values()) == 3
    assert lab.awards(paytable()) == ("four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")
    assert lab.theoretical_max_win(paytable()).value == 20 + 8 * 60

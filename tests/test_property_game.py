"""Property on the cabinet: the customer's decisions, every refusal of bad input (nothing moves),
recovery at every decision, and what the result pays."""

from __future__ import annotations

import json
from typing import Any

import pytest

from egm.games.base import Decision, DecisionRefused
from egm.games.property.board import HOTEL
from egm.games.property.game import PropertyGame, PropertyRound
from egm.games.property.paytable import PropertyRules, example_rules
from egm.games.property.strategy import RandomStrategy
from egm.rng import Rng
from tests.property_support import shipped_paytable

RULES = PropertyRules.model_validate(example_rules())
MED, BALTIC, ORIENTAL, BOARDWALK, PARK = 1, 3, 6, 39, 37


def game(rules: PropertyRules = RULES) -> PropertyGame:
    return PropertyGame(shipped_paytable(rules))


def new_round(seed: int = 3) -> PropertyRound:
    g = game()
    return g.new_round(g.default_wager(1), Rng.from_seed(seed), {})


def snapshot(round_: PropertyRound) -> str:
    return json.dumps([round_.to_record(), round_.table_view(), round_.table.bank], sort_keys=True)


def refused(round_: PropertyRound, kind: str, match: str, **args: Any) -> None:
    before = snapshot(round_)
    with pytest.raises(DecisionRefused, match=match):
        round_.decide(Decision(kind, args))
    assert snapshot(round_) == before


def at_turn(seed: int = 3) -> PropertyRound:
    round_ = new_round(seed)
    while round_.awaiting != "turn":
        round_.decide(round_.reference_decision())
    return round_


def test_the_round_waits_on_the_customers_turn_and_machines_move_by_themselves() -> None:
    round_ = new_round()
    assert round_.awaiting in ("turn", "buy") and round_.step == "play"
    assert round_.table_view()["waiting"]["seat"] == 0
    moves = 0
    while not round_.finished:
        assert round_.request is not None and round_.request.seat == 0
        round_.decide(round_.reference_decision())
        moves += 1
    assert moves > 20 and round_.step == "complete"
    assert set(round_.table.turns_played) == {RULES.short_form.rounds} or any(
        seat.bankrupt for seat in round_.table.seats)


def test_building_unevenly_or_without_the_group_or_on_mortgaged_land_is_refused() -> None:
    round_ = at_turn()
    table = round_.table
    table.owner[MED] = 0
    refused(round_, "build", "without owning the whole purple group", space=MED)
    table.owner[BALTIC] = 0
    table.mortgaged[BALTIC] = True
    refused(round_, "build", "while any of it is mortgaged", space=MED)
    table.mortgaged[BALTIC] = False
    round_.decide(Decision("build", {"space": MED}))
    assert table.houses[MED] == 1
    refused(round_, "build", "Build evenly", space=MED)
    refused(round_, "mortgage", "sell them to the Bank before mortgaging", space=MED)
    refused(round_, "build", "whole-number index", space="Mediterranean")
    refused(round_, "build", "not yours", space=ORIENTAL)


def test_buying_without_the_cash_is_refused_until_cash_is_raised() -> None:
    for seed in range(200):
        round_ = new_round(seed)
        while not round_.finished and round_.awaiting != "buy":
            round_.decide(round_.reference_decision())
        if round_.awaiting == "buy":
            break
    table = round_.table
    space = round_.request.space
    price = table.board.price[space]
    table.bank += table.seats[0].cash - (price - 1)
    table.seats[0].cash = price - 1
    refused(round_, "buy", "you have", )
    refused(round_, "roll", "not a decision now")


def test_a_trade_with_buildings_or_titles_not_held_is_refused_and_a_fair_one_accepted() -> None:
    round_ = at_turn()
    table = round_.table
    table.owner[ORIENTAL] = 0
    refused(round_, "trade", "Buildings are never traded", **{"with": 1, "give": [ORIENTAL], "get": [],
                                                              "cash": 0, "buildings": [ORIENTAL]})
    refused(round_, "trade", "not the machine's title", **{"with": 1, "give": [], "get": [BOARDWALK],
                                                           "cash": 0})
    refused(round_, "trade", "not your title", **{"with": 1, "give": [PARK], "get": [], "cash": 0})
    refused(round_, "trade", "needs 'with'", **{"with": "one", "give": [ORIENTAL]})
    # An offer the machine refuses: Oriental for nothing back but $300 from it.
    round_.decide(Decision("trade", {"with": 1, "give": [ORIENTAL], "get": [], "cash": -300}))
    assert table.owner[ORIENTAL] == 0 and round_.table_view()["last_trade"]["accepted"] is False
    # Oriental for $50 only: the machine gains $50 of value and the customer loses it.
    round_.decide(Decision("trade", {"with": 1, "give": [ORIENTAL], "get": [], "cash": -50}))
    assert table.owner[ORIENTAL] == 1 and round_.table_view()["last_trade"]["accepted"] is True
    assert table.events[-1]["kind"] == "trade" and table.events[-1]["amount"] == 50


def test_decisions_out_of_turn_or_of_the_wrong_kind_are_refused() -> None:
    round_ = at_turn()
    refused(round_, "roll", "MACHINE plays its own turns", seat=1)
    refused(round_, "pay_fine", "not a decision now")
    refused(round_, "bid", "not a decision now", amount=10)
    refused(round_, "use_card", "not a decision now")
    while not round_.finished:
        round_.decide(round_.reference_decision())
    refused(round_, "roll", "The game is over")


def in_jail(seed: int) -> PropertyRound | None:
    round_ = new_round(seed)
    while not round_.finished and round_.awaiting != "jail":
        round_.decide(round_.reference_decision())
    return None if round_.finished else round_


def test_jail_decisions_fine_card_or_roll() -> None:
    round_ = next(r for r in map(in_jail, range(50)) if r is not None)
    table = round_.table
    refused(round_, "use_card", "no Get out of Jail Free card")
    round_.decide(Decision("pay_fine"))
    assert round_.awaiting == "turn" and not table.seats[0].in_jail
    assert table.events[-1]["kind"] == "jail" and table.events[-1]["amount"] == 50
    round_ = next(r for r in map(in_jail, range(50)) if r is not None)
    table = round_.table
    table.bank += table.seats[0].cash - 10
    table.seats[0].cash = 10
    refused(round_, "pay_fine", "roll instead")
    before = len(table.events)
    round_.decide(Decision("roll"))
    assert table.events[before]["kind"] == "roll" and table.events[before]["in_jail"]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_recovery_at_every_decision_gives_back_the_same_game(seed: int) -> None:
    """Restore from the record after every decision (a power loss at any point) and compare."""
    g = game()
    random_customer = RandomStrategy(Rng.from_seed(seed + 100))
    round_ = g.new_round(g.default_wager(1), Rng.from_seed(seed), {})
    steps = 0
    while not round_.finished:
        decision = round_.strategy_decision(random_customer)
        try:
            round_.decide(decision)
        except DecisionRefused:
            round_.decide(round_.reference_decision())
        steps += 1
        restored = g.restore(json.loads(json.dumps(round_.to_record())))
        assert restored.table_view() == round_.table_view()
        assert restored.table.events == round_.table.events
    assert steps > 10
    assert round_.outcome() == g.restore(round_.to_record()).outcome()


def test_the_result_pays_place_margin_and_awards() -> None:
    round_ = new_round(11)
    while not round_.finished:
        round_.decide(round_.reference_decision())
    table = round_.table
    worths = round_.net_worths()
    assert worths == [table.net_worth(0), table.net_worth(1)] or any(s.bankrupt for s in table.seats)
    margin = worths[0] - worths[1]
    expected = RULES.place_pays[0 if margin >= 0 else 1] + RULES.margin_units(margin)
    outcome = round_.outcome()
    awards = outcome.summary["awards"]
    assert outcome.win_credits == expected + sum(getattr(RULES.awards, a) for a in awards)
    assert outcome.result_code == f"P{1 if margin >= 0 else 2}{margin:+d}"
    # A hotel and a whole group held add their awards.
    table.owner[MED] = table.owner[BALTIC] = 0
    table.houses[MED] = HOTEL
    table.seats[0].built_hotel = True
    assert round_.awards() == ["hotel", "monopoly"]


def test_net_worth_counts_cash_titles_mortgaged_at_half_and_buildings_at_cost() -> None:
    round_ = new_round(4)
    table = round_.table
    for space in table.board.titles:
        table.owner[space] = -1
    table.owner[BOARDWALK] = table.owner[PARK] = 0
    table.mortgaged[PARK] = True
    table.houses[BOARDWALK] = 3
    assert table.net_worth(0) == table.seats[0].cash + 400 + 175 + 3 * 200


@pytest.mark.parametrize("step", ["turn", "jail"])
def test_a_scarce_house_the_customer_asks_for_goes_to_auction(step: str) -> None:
    round_ = next(r for r in map(in_jail, range(50)) if r is not None) if step == "jail" else at_turn()
    table = round_.table
    for space in table.board.titles:
        table.owner[space] = -1
    table.owner[MED] = table.owner[BALTIC] = 0
    table.owner[ORIENTAL] = table.owner[ORIENTAL + 2] = table.owner[ORIENTAL + 3] = 1
    table.bank_houses = 1
    for seat in table.seats:  # both can pay: the Bank makes up the difference, so money is conserved
        table.bank += seat.cash - 1000
        seat.cash = 1000
    before = len(table.events)
    round_.decide(Decision("build", {"space": MED}))
    assert round_.awaiting == "auction" and round_.request.lot == "house"
    refused(round_, "bid", "cannot bid", amount=10**6)
    round_.decide(Decision("bid", {"amount": 60}))
    auction = next(e for e in table.events[before:] if e["kind"] == "auction")
    # The machine bids twice the $50 cost, $100, and wins: its house goes up at once on its group.
    assert auction["winner"] == 1 and auction["price"] == 100
    build = next(e for e in table.events[before:] if e["kind"] == "build")
    assert build["seat"] == 1 and build["amount"] == 100 and table.houses[MED] == 0

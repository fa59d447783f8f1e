"""Property's rules engine: money, rent, building, the Bank's stock, mortgages, taxes, jail, cards,
auctions, trades and bankruptcy. Dice are set by the test where a rule needs a particular throw."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from egm.games.property.board import HOTEL, Board
from egm.games.property.paytable import PropertyRules, example_rules
from egm.games.property.strategy import MACHINE_STRATEGIES
from egm.games.property.table import BANK, Refused, Request, Table, Trade

SHIPPED = PropertyRules.model_validate(example_rules())
# The rules tests start from an empty board: no quick-start deal.
NO_DEAL = SHIPPED.short_form.model_copy(update={"quick_start_deeds": 0})
RULES = SHIPPED.model_copy(update={"short_form": NO_DEAL})
BOARD = Board(RULES)
MACHINE = MACHINE_STRATEGIES["property-reserve/1"]
NAMES = {name: i for i, name in reversed(list(enumerate(BOARD.names)))}
MED, BALTIC = NAMES["Mediterranean Avenue"], NAMES["Baltic Avenue"]
ORIENTAL, VERMONT = NAMES["Oriental Avenue"], NAMES["Vermont Avenue"]
CONNECTICUT = NAMES["Connecticut Avenue"]
READING, ELECTRIC, WATER = NAMES["Reading Railroad"], NAMES["Electric Company"], NAMES["Water Works"]
BOARDWALK, PARK = NAMES["Boardwalk"], NAMES["Park Place"]
ILLINOIS, JAIL, GO_TO_JAIL = NAMES["Illinois Avenue"], NAMES["Jail"], NAMES["Go to Jail"]


def table(seats: int = 2, seed: int = 1, rules: PropertyRules = RULES) -> Table:
    return Table(BOARD, rules, seats, seed, [MACHINE] * seats)


def dice(t: Table, throws: Iterable[int]) -> None:
    """Fix the dice the table throws next (each value one die)."""
    t._die = iter(throws).__next__  # type: ignore[method-assign]


def run(flow: object) -> None:
    for request in flow:  # type: ignore[attr-defined]
        raise AssertionError(f"a machine-only table asked for {request}")


def conserved(t: Table) -> bool:
    return t.bank + sum(seat.cash for seat in t.seats) == t.money_total


def set_cash(t: Table, seat: int, cash: int) -> None:
    """Set a seat's cash, the difference going to (or from) the Bank, so money stays conserved."""
    t.bank += t.seats[seat].cash - cash
    t.seats[seat].cash = cash


def give(t: Table, seat: int, *spaces: int) -> None:
    for space in spaces:
        t.owner[space] = seat


def land(t: Table, seat: int, space: int, throw: int = 7) -> None:
    t.seats[seat].position = space
    run(t._land(seat, throw))


# -- rent ------------------------------------------------------------------------------------------

def test_rent_is_doubled_on_unimproved_property_of_a_whole_group() -> None:
    t = table()
    give(t, 1, MED)
    land(t, 0, MED)
    assert t.seats[0].cash == 1500 - 2 and t.seats[1].cash == 1502
    give(t, 1, BALTIC)
    land(t, 0, MED)
    assert t.seats[0].cash == 1498 - 4
    assert t.events[-1] == {"seat": 0, "kind": "rent", "payer": 0, "payee": 1, "amount": 4, "space": MED,
                            "cash_after": [1494, 1506]}
    assert conserved(t)


def test_mortgaged_property_collects_no_rent_and_houses_set_the_rent() -> None:
    t = table()
    give(t, 1, MED, BALTIC)
    t.mortgaged[MED] = True
    land(t, 0, MED)
    assert t.seats[0].cash == 1500
    t.houses[BALTIC] = 3
    land(t, 0, BALTIC)
    assert t.seats[0].cash == 1500 - 180


def test_railroad_and_utility_rents() -> None:
    t = table()
    give(t, 1, READING, NAMES["Pennsylvania Railroad"], NAMES["B. & O. Railroad"])
    land(t, 0, READING)
    assert t.seats[0].cash == 1500 - 100
    give(t, 1, ELECTRIC)
    land(t, 0, ELECTRIC, throw=9)
    assert t.seats[0].cash == 1400 - 36
    give(t, 1, WATER)
    land(t, 0, WATER, throw=9)
    assert t.seats[0].cash == 1364 - 90


# -- building ----------------------------------------------------------------------------------------

def test_building_needs_the_whole_group_unmortgaged_and_goes_evenly() -> None:
    t = table()
    give(t, 0, ORIENTAL, VERMONT)
    with pytest.raises(Refused, match="without owning the whole light_blue group"):
        t.build(0, ORIENTAL)
    give(t, 0, CONNECTICUT)
    t.mortgaged[VERMONT] = True
    with pytest.raises(Refused, match="mortgaged"):
        t.build(0, ORIENTAL)
    t.mortgaged[VERMONT] = False
    t.build(0, ORIENTAL)
    with pytest.raises(Refused, match="Build evenly"):
        t.build(0, ORIENTAL)
    cash, houses = t.seats[0].cash, list(t.houses)
    with pytest.raises(Refused):
        t.build(0, ORIENTAL)
    assert t.seats[0].cash == cash and t.houses == houses  # a refusal moves nothing
    t.build(0, VERMONT)
    t.build(0, CONNECTICUT)
    t.build(0, ORIENTAL)
    assert [t.houses[s] for s in (ORIENTAL, VERMONT, CONNECTICUT)] == [2, 1, 1]
    assert t.seats[0].cash == 1500 - 4 * 50 and t.bank_houses == 32 - 4 and conserved(t)


def test_a_hotel_needs_four_houses_on_each_property_and_returns_them() -> None:
    t = table()
    give(t, 0, MED, BALTIC)
    for _ in range(4):
        t.build(0, MED)
        t.build(0, BALTIC)
    assert t.bank_houses == 24
    t.build(0, MED)
    assert t.houses[MED] == HOTEL and t.bank_houses == 28 and t.bank_hotels == 11
    assert t.seats[0].built_hotel
    land(t, 1, MED)
    assert t.seats[1].cash == 1500 - 250
    assert t.net_worth(0) == t.seats[0].cash + 2 * 60 + 9 * 50


def test_the_banks_houses_run_out() -> None:
    rules = RULES.model_copy(update={"bank_houses": 1})
    t = table(rules=rules)
    give(t, 0, MED, BALTIC)
    t.build(0, MED)
    with pytest.raises(Refused, match="no house left"):
        t.build(0, BALTIC)


def test_scarce_houses_go_to_auction_among_the_seats_able_to_build() -> None:
    rules = RULES.model_copy(update={"bank_houses": 1})
    t = table(rules=rules)
    give(t, 0, MED, BALTIC)
    give(t, 1, ORIENTAL, VERMONT, CONNECTICUT)
    assert t.building_scarce(0, MED)
    run(t.building_auction(0, MED))
    auction = next(e for e in t.events if e["kind"] == "auction")
    # Both bid twice the cost within their reserve: seat 0 (a $50 house) bids $100, seat 1 the same;
    # the DRBG settles the tie, and the winner pays its bid and builds at once.
    assert auction["price"] == 100
    winner = auction["winner"]
    assert sum(t.houses) == 1 and t.seats[winner].cash == 1400 and t.bank_houses == 0 and conserved(t)


def test_selling_buildings_back_pays_half_and_goes_evenly() -> None:
    t = table()
    give(t, 0, MED, BALTIC)
    t.build(0, MED)
    t.build(0, BALTIC)
    t.build(0, MED)
    with pytest.raises(Refused, match="Sell evenly"):
        t.sell_building(0, BALTIC)
    t.sell_building(0, MED)
    assert t.seats[0].cash == 1500 - 150 + 25 and t.houses[MED] == 1


# -- mortgages ------------------------------------------------------------------------------------

def test_mortgage_at_printed_value_lift_at_ten_percent_more() -> None:
    t = table()
    give(t, 0, BOARDWALK, PARK)
    t.build(0, BOARDWALK)
    with pytest.raises(Refused, match="sell them to the Bank before mortgaging"):
        t.mortgage(0, BOARDWALK)
    t.mortgage(0, PARK)
    assert t.seats[0].cash == 1500 - 200 + 175
    with pytest.raises(Refused, match="already mortgaged"):
        t.mortgage(0, PARK)
    t.unmortgage(0, PARK)
    assert t.seats[0].cash == 1475 - 193  # 175 + 17.50 interest, rounded up to the dollar
    assert conserved(t)


def test_a_traded_mortgaged_title_costs_its_new_owner_the_interest_at_once() -> None:
    t = table()
    give(t, 1, READING)
    t.mortgaged[READING] = True
    t.trade(Trade(0, 1, (), (READING,), 50))
    assert t.owner[READING] == 0 and t.mortgaged[READING]
    assert t.seats[0].cash == 1500 - 50 - 10 and t.seats[1].cash == 1550
    assert [e["kind"] for e in t.events[-2:]] == ["trade", "mortgage"] and t.events[-1]["interest"]


# -- trades --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("offer", "reason"), [
    (Trade(0, 1, (MED,), (), 0), "not your title"),
    (Trade(0, 1, (), (BALTIC,), 0), "not the machine's title"),
    (Trade(0, 1, (4,), (), 0), "not a title card"),
    (Trade(0, 0, (ORIENTAL,), (), 0), "another player still in the game"),
    (Trade(0, 1, (ORIENTAL,), (), 5000), "would owe"),
])
def test_bad_trades_are_refused(offer: Trade, reason: str) -> None:
    t = table()
    give(t, 0, ORIENTAL)
    with pytest.raises(Refused, match=reason):
        t.trade(offer)
    assert t.owner[ORIENTAL] == 0 and t.seats[0].cash == 1500


def test_a_group_with_buildings_cannot_be_traded() -> None:
    t = table()
    give(t, 0, MED, BALTIC)
    t.build(0, MED)
    with pytest.raises(Refused, match="buildings are never traded"):
        t.trade(Trade(0, 1, (BALTIC,), (), -10))


# -- taxes ---------------------------------------------------------------------------------------

def test_income_tax_is_ten_percent_of_total_worth_as_the_seed_defines_it() -> None:
    t = table()
    give(t, 0, BOARDWALK, PARK)
    t.mortgaged[PARK] = True
    t.houses[BOARDWALK] = 2
    land(t, 0, NAMES["Income Tax"])
    worth = 1500 + 200 + 175 + 2 * 200  # cash + mortgage values (mortgaged or not) + buildings at cost
    assert t.seats[0].cash == 1500 - worth // 10


def test_income_tax_counts_the_salary_of_the_same_move() -> None:
    t = table()
    t.seats[0].position = 38
    dice(t, [])
    run(t._move(0, 6, 6))
    assert t.seats[0].cash == 1700 - 170


def test_luxury_tax_is_flat() -> None:
    t = table()
    land(t, 0, NAMES["Luxury Tax"])
    assert t.seats[0].cash == 1425


# -- jail ----------------------------------------------------------------------------------------

def test_three_doubles_send_to_jail_without_moving_on() -> None:
    t = table()
    t.order = [0, 1]
    dice(t, [1, 1, 2, 2, 3, 3])
    run(t._turn(0))
    assert t.seats[0].in_jail and t.seats[0].position == JAIL
    assert t.events[-1]["kind"] == "jail" and t.events[-1]["reason"] == "three doubles"


def test_go_to_jail_space_collects_no_salary() -> None:
    t = table()
    t.seats[0].position = 25
    dice(t, [2, 3])
    t.order = [0, 1]
    run(t._turn(0))
    assert t.seats[0].position == JAIL and t.seats[0].in_jail and t.seats[0].cash == 1500
    assert t.owner[GO_TO_JAIL] == BANK


def test_jail_leave_on_doubles_or_pay_on_the_third_turn() -> None:
    t = table()
    t._send_to_jail(0, "test")
    t.strategies[0] = type("Stay", (), {"jail": lambda self, table, seat: "roll",
                                        "next_action": lambda self, table, seat: None,
                                        "buy": lambda self, table, seat, space: False,
                                        "bid": lambda self, table, seat, request: 0})()
    dice(t, [1, 2, 1, 3])
    run(t._turn(0))
    run(t._turn(0))
    assert t.seats[0].in_jail and t.seats[0].position == JAIL and t.seats[0].jail_turns == 2
    dice(t, [1, 2])  # the third turn: no doubles, so the fine is paid and the seat moves 3
    run(t._turn(0))
    assert not t.seats[0].in_jail and t.seats[0].position == JAIL + 3 and t.seats[0].cash == 1450 - 0
    t._send_to_jail(0, "test")
    dice(t, [4, 4])  # doubles: out, moving 8, and no second throw
    run(t._turn(0))
    assert not t.seats[0].in_jail and t.seats[0].position == JAIL + 8


def test_a_get_out_of_jail_card_is_kept_then_returned_to_the_bottom() -> None:
    t = table()
    deck = t.decks["chance"]
    card = next(i for i, c in enumerate(BOARD.decks["chance"]) if c.action == "get_out_of_jail")
    deck.remove(card)
    deck.appendleft(card)
    t.seats[0].position = 7
    run(t._land(0, 7))
    assert t.seats[0].jail_cards == ["chance"] and card not in deck and len(deck) == 15
    t._send_to_jail(0, "test")
    t.use_jail_card(0)
    assert not t.seats[0].in_jail and deck[-1] == card and len(deck) == 16
    with pytest.raises(Refused, match="no Get out of Jail Free card"):
        t.use_jail_card(0)


# -- cards -----------------------------------------------------------------------------------------

def _top(t: Table, deck: str, card_id: str) -> None:
    cards = t.decks[deck]
    index = next(i for i, c in enumerate(BOARD.decks[deck]) if c.id == card_id)
    cards.remove(index)
    cards.appendleft(index)


def test_cards_are_drawn_from_the_top_and_returned_to_the_bottom() -> None:
    t = table()
    _top(t, "community_chest", "doctor")
    order = list(t.decks["community_chest"])
    t.seats[0].position = 2
    run(t._land(0, 7))
    assert list(t.decks["community_chest"]) == order[1:] + order[:1]
    assert t.events[0]["kind"] == "card" and t.events[0]["card"] == "doctor"
    assert t.events[1] == {"seat": 0, "kind": "card", "payer": 0, "payee": "bank", "amount": 50,
                           "card": "doctor", "cash_after": [1450, 1500]}


def test_advance_cards_pay_salary_when_passing_go_and_back_three_does_not() -> None:
    t = table()
    _top(t, "chance", "advance_st_charles")
    t.seats[0].position = 36
    run(t._land(0, 7))
    assert t.seats[0].position == 11 and t.seats[0].cash == 1700 - 140  # salary, then bought it
    _top(t, "chance", "back_three")
    t.seats[1].position = 7
    run(t._land(1, 7))
    assert t.seats[1].position == 4 and t.seats[1].cash == 1500 - 150  # back onto Income Tax


def test_nearest_railroad_pays_double_and_nearest_utility_ten_times_a_fresh_throw() -> None:
    t = table()
    give(t, 1, NAMES["Short Line Railroad"], WATER)
    _top(t, "chance", "nearest_railroad_1")
    t.seats[0].position = 22
    run(t._land(0, 7))
    assert t.seats[0].position == 25  # B. & O., unowned: bought
    assert t.owner[25] == 0
    _top(t, "chance", "nearest_railroad_2")
    t.seats[0].position = 7
    cash = t.seats[0].cash
    run(t._land(0, 7))
    assert t.seats[0].position == 15 and t.owner[15] == 0  # Pennsylvania RR, bought too
    _top(t, "chance", "nearest_utility")
    t.seats[0].position = 22
    dice(t, [3, 4])
    cash = t.seats[0].cash
    run(t._land(0, 7))
    assert t.seats[0].position == WATER and t.seats[0].cash == cash - 70


def test_collect_from_every_player_and_repairs() -> None:
    t = table(seats=3)
    t.order = [0, 1, 2]
    _top(t, "community_chest", "opera")
    t.seats[0].position = 2
    run(t._land(0, 7))
    assert [s.cash for s in t.seats] == [1600, 1450, 1450]
    give(t, 0, MED, BALTIC)
    t.houses[MED], t.houses[BALTIC] = 2, HOTEL
    _top(t, "community_chest", "street_repairs")
    run(t._land(0, 7))
    assert t.seats[0].cash == 1600 - (2 * 40 + 115)


# -- auctions and buying -----------------------------------------------------------------------------

def test_a_declined_title_goes_to_a_sealed_bid_auction() -> None:
    t = table()
    set_cash(t, 0, 100)  # cannot pay $400 for Boardwalk
    land(t, 0, BOARDWALK)
    event = t.events[-1]
    assert event["kind"] == "auction" and event["winner"] == 1 and event["price"] == 400
    assert t.owner[BOARDWALK] == 1 and t.seats[1].cash == 1100 and conserved(t)


def test_an_auction_without_bids_leaves_the_title_with_the_bank() -> None:
    t = table()
    for seat in (0, 1):
        set_cash(t, seat, 100)
    land(t, 0, BOARDWALK)
    assert t.owner[BOARDWALK] == BANK and t.events[-1]["winner"] is None


def test_an_outside_seat_is_asked_and_the_flow_waits() -> None:
    t = Table(BOARD, RULES, 2, 1, [None, MACHINE])
    t.seats[0].position = BOARDWALK
    flow = t._land(0, 7)
    request = next(flow)
    assert request == Request(0, "buy", BOARDWALK)
    request = flow.send(False)
    assert request == Request(0, "auction", BOARDWALK, "property")
    with pytest.raises(StopIteration):
        flow.send(401)
    assert t.owner[BOARDWALK] == 0 and t.seats[0].cash == 1099


# -- bankruptcy -----------------------------------------------------------------------------------

def test_a_seat_short_of_cash_mortgages_then_sells_then_goes_bankrupt_to_its_creditor() -> None:
    t = table()
    give(t, 0, MED, BALTIC, READING)
    t.houses[MED] = t.houses[BALTIC] = 1
    give(t, 1, BOARDWALK, PARK)
    t.houses[BOARDWALK] = HOTEL
    set_cash(t, 0, 100)
    with pytest.raises(Exception) as stopped:
        land(t, 0, BOARDWALK)
    assert type(stopped.value).__name__ == "GameOver"
    kinds = [e["kind"] for e in t.events]
    assert kinds == ["mortgage", "sell_building", "sell_building", "mortgage", "mortgage", "bankrupt",
                     "mortgage", "mortgage", "mortgage"]
    assert t.seats[0].bankrupt and t.seats[0].cash == 0
    assert all(t.owner[s] == 1 for s in (MED, BALTIC, READING))
    assert t.houses[MED] == t.houses[BALTIC] == 0
    # The creditor took the cash (100 + 100 + 25 + 25 + 30 + 30 = 310) and paid the interest at once.
    assert t.seats[1].cash == 1500 + 310 - (10 + 3 + 3) and conserved(t)


def test_the_quick_start_deal_gives_each_seat_its_titles_free() -> None:
    t = Table(BOARD, SHIPPED, 3, 8, [MACHINE] * 3)
    dealt = [sum(1 for s in BOARD.titles if t.owner[s] == seat) for seat in range(3)]
    assert dealt == [SHIPPED.short_form.quick_start_deeds] * 3
    assert [seat.cash for seat in t.seats] == [1500] * 3 and t.bank == 0
    assert [e["kind"] for e in t.events] == ["buy"] * 6 and all(e["price"] == 0 for e in t.events)
    again = Table(BOARD, SHIPPED, 3, 8, [MACHINE] * 3)
    assert again.owner == t.owner  # drawn from the game's DRBG: the same seed deals the same titles


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_whole_game_conserves_money_and_ends_by_the_short_form(seats: int) -> None:
    for seed in range(12):
        t = Table(BOARD, SHIPPED, seats, seed, [MACHINE] * seats)
        run(t.play())
        assert t.finished and conserved(t)
        cash = [RULES.starting_cash] * seats
        for event in t.events:
            if event.get("amount"):
                if event["payer"] != "bank":
                    cash[event["payer"]] -= event["amount"]
                if event["payee"] != "bank":
                    cash[event["payee"]] += event["amount"]
            assert event["cash_after"] == cash
        bankrupt = any(seat.bankrupt for seat in t.seats)
        assert bankrupt or t.turns_played == [RULES.short_form.rounds] * seats

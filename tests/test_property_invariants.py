"""Whole games with random legal play on every seat (hypothesis picks the seeds and seat counts): the
Bank's buildings are conserved, no seat's cash goes negative, money is conserved event by event, and
buildings stand only on whole groups held."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from egm.games.property.board import HOTEL, Board
from egm.games.property.paytable import PropertyRules, example_rules
from egm.games.property.strategy import MACHINE_STRATEGIES, RandomStrategy
from egm.games.property.table import Table
from egm.rng import Rng

RULES = PropertyRules.model_validate(example_rules())
BOARD = Board(RULES)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), seats=st.integers(2, 4), machines=st.integers(0, 4),
       scarce=st.booleans())
def test_random_games_keep_every_invariant(seed: int, seats: int, machines: int, scarce: bool) -> None:
    rules = RULES.model_copy(update={"bank_houses": 6, "bank_hotels": 2}) if scarce else RULES
    strategies = [MACHINE_STRATEGIES["property-reserve/1"] if k < machines else
                  RandomStrategy(Rng.from_seed(seed + k)) for k in range(seats)]
    table = Table(BOARD, rules, seats, seed, strategies)
    for request in table.play():
        raise AssertionError(f"no outside seat, yet asked {request}")
    cash = [rules.starting_cash] * seats
    bank = 0
    for event in table.events:
        if event.get("amount"):
            for party, sign in ((event["payer"], -1), (event["payee"], 1)):
                if party == "bank":
                    bank += sign * event["amount"]
                else:
                    cash[party] += sign * event["amount"]
        assert event["cash_after"] == cash and min(cash) >= 0
    assert bank == table.bank and bank + sum(cash) == table.money_total
    houses = sum(h for h in table.houses if h < HOTEL)
    hotels = sum(1 for h in table.houses if h == HOTEL)
    assert houses + table.bank_houses == rules.bank_houses
    assert hotels + table.bank_hotels == rules.bank_hotels
    for space in BOARD.titles:
        if table.houses[space]:
            assert table.owns_group(table.owner[space], space) and not table.mortgaged[space]
    assert table.finished

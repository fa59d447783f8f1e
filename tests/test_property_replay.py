"""The replay contract of Property: an outside check replays the money of every event from the JSON
alone and finds it conserved (the Bank plus the seats), event by event and at the end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from egm.games.property.paytable import PropertyRules, example_rules
from egm.games.property.replay import replay_game
from tests.property_support import shipped_paytable

RULES = PropertyRules.model_validate(example_rules())
EVENT_KINDS = {"roll", "move", "buy", "auction", "rent", "tax", "card", "build", "sell_building", "mortgage",
               "unmortgage", "jail", "trade", "bankrupt", "salary"}
NEEDS = {"roll": {"dice"}, "move": {"from", "to"}, "buy": {"space", "price"}, "auction": {"space", "price"},
         "rent": {"space", "amount", "payer", "payee"}, "tax": {"space", "amount"}, "card": {"card"},
         "build": {"space", "amount"}, "sell_building": {"space", "amount"}, "mortgage": {"space", "amount"},
         "unmortgage": {"space", "amount"}, "salary": {"amount"}, "bankrupt": {"payee"}}


def paytable() -> Any:
    return shipped_paytable()


def replay(seed: int) -> dict[str, Any]:
    return json.loads(json.dumps(replay_game(paytable(), seed)))


def check_money(report: dict[str, Any]) -> None:
    """The outside check: only the JSON, only the contract's fields."""
    seats = len(report["final"])
    cash = [report["starting_cash"]] * seats
    bank = 0
    for event in report["events"]:
        assert event["kind"] in EVENT_KINDS
        assert NEEDS.get(event["kind"], set()) <= set(event), event
        amount = event.get("amount") or 0
        if amount:
            payer, payee = event["payer"], event["payee"]
            assert payer != payee and amount > 0 and isinstance(amount, int)
            if payer == "bank":
                bank -= amount
            else:
                cash[payer] -= amount
                assert cash[payer] >= 0, f"seat {payer} paid money it did not have: {event}"
            if payee == "bank":
                bank += amount
            else:
                cash[payee] += amount
        assert event["cash_after"] == cash, event
        assert bank + sum(cash) == report["starting_cash"] * seats
    assert [seat["cash"] for seat in report["final"]] == cash
    assert report["bank"] == bank


@pytest.mark.parametrize("seed", range(12))
def test_the_money_of_every_event_replays_from_the_json_alone(seed: int) -> None:
    check_money(replay(seed))


def test_the_contract_fields() -> None:
    report = replay(7)
    assert len(report["board"]) == 40
    assert set(report["board"][0]) == {"index", "name", "kind", "group", "price", "rents", "mortgage",
                                       "house_cost"}
    assert report["board"][39] == {"index": 39, "name": "Boardwalk", "kind": "property", "group": "dark_blue",
                                   "price": 400, "rents": [50, 200, 600, 1400, 1700, 2000], "mortgage": 200,
                                   "house_cost": 200}
    assert report["short_form"] == {"rounds": 20, "quick_start_deeds": 2, "ends_on": "first bankruptcy"}
    for seat in report["final"]:
        assert set(seat) >= {"cash", "properties", "net_worth"}
        for held in seat["properties"]:
            assert set(held) >= {"space", "houses", "hotel", "mortgaged"}
    assert report["result"] in ("win", "tie", "loss")
    assert report["win_cents"] == report["win_credits"] * 1
    # Net worth from the JSON alone: cash + price (mortgaged: half) + buildings at cost.
    board = report["board"]
    for seat in report["final"]:
        if not seat["bankrupt"]:
            worth = seat["cash"] + sum(
                (board[p["space"]]["price"] // 2 if p["mortgaged"] else board[p["space"]]["price"])
                + (5 if p["hotel"] else p["houses"]) * (board[p["space"]]["house_cost"] or 0)
                for p in seat["properties"])
            assert worth == seat["net_worth"]


def test_the_same_seed_replays_the_same_game_and_another_seed_does_not() -> None:
    assert replay(5) == replay(5)
    assert replay(5)["events"] != replay(6)["events"]

"""The replay contract: one full game from a seed, every seat on the machine strategy, as one JSON
object (what `egm replay --game property --seed S --json` prints).

* `board`: 40 entries `{index, name, kind, group, price, rents, mortgage, house_cost}`.
* `short_form`: the pay table's limits (`rounds`, `quick_start_deeds`, `ends_on` "first bankruptcy").
* `events` in order, each with `seat`, `kind`, the fields its kind needs (`dice`, `from`, `to`,
  `space`, `amount`, `payer`, `payee`, `card`, `price`) and `cash_after` (every seat's cash). A
  payment names `payer` and `payee` (a seat, or "bank") and its `amount` in whole dollars.
* `final`: per seat `cash`, `properties` (`space`, `name`, `houses`, `hotel`, `mortgaged`),
  `net_worth` and `bankrupt`.
* `result` (the customer's, seat 0: "win", "tie" or "loss"), `place`, `margin`, `awards`,
  `win_credits` and `win_cents` (at the pay table's first denomination unless one is given).
"""

from __future__ import annotations

from typing import Any

from egm.games.property.board import HOTEL
from egm.games.property.game import CUSTOMER, PropertyGame
from egm.games.replay import replay_opening, replay_pays, replay_round


def replay_game(paytable: Any, seed: int, opponents: int | None = None,
                denom_cents: int | None = None) -> dict[str, Any]:
    """Play one game from the cabinet seed `seed` with the machine strategy on every seat."""
    game = PropertyGame(paytable)
    round_, outcome = replay_round(game, seed, opponents, denom_cents)
    table, board = round_.table, game.board
    worths = round_.net_worths()
    final = []
    for s, seat in enumerate(table.seats):
        properties = [
            {"space": space, "name": board.names[space],
             "houses": table.houses[space] if table.houses[space] < HOTEL else 0,
             "hotel": table.houses[space] == HOTEL, "mortgaged": table.mortgaged[space]}
            for space in board.titles if table.owner[space] == s
        ]
        final.append({"seat": s, "cash": seat.cash, "properties": properties, "net_worth": worths[s],
                      "bankrupt": seat.bankrupt})
    short_form = game.rules.short_form
    return {
        **replay_opening(game, seed),
        "game_seed": round_.seed,
        "customer_seat": CUSTOMER,
        "seats": len(table.seats),
        "strategy": game.strategy.name,
        "board": [board.space_json(i) for i in range(len(board.names))],
        "short_form": {"rounds": short_form.rounds, "quick_start_deeds": short_form.quick_start_deeds,
                       "ends_on": "first bankruptcy"},
        "starting_cash": game.rules.starting_cash,
        "events": table.events,
        "final": final,
        "bank": table.bank,
        "result": round_.result,
        "place": round_.place,
        "margin": round_.margin,
        **replay_pays(round_, outcome),
    }

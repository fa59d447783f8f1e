"""Poker Grid's replay: one full game from a seed with the machine strategy on every seat
(`egm replay --game poker-grid`, and its alias `egm poker-grid replay`).

The JSON is the outside check's contract: `board` (rows, cols, starters [[row, col, card]],
wild_spaces [[row, col]]), `moves` in order (seat, card, row, col, line, cells, category, points),
`scores` per seat, `result` (the customer's, seat 0: "win", "tie" or "loss") and `win_cents`.
"""

from __future__ import annotations

from typing import Any

from egm.cards import Card
from egm.games.poker_grid.game import CUSTOMER, PokerGrid, move_json
from egm.games.replay import replay_opening, replay_pays, replay_round


def replay_game(paytable: Any, seed: int, opponents: int | None = None, denom_cents: int | None = None
                ) -> dict[str, Any]:
    """Play one game from `seed` with the machine strategy on every seat; the contract's JSON object."""
    game = PokerGrid(paytable)
    round_, outcome = replay_round(game, seed, opponents, denom_cents)
    layout, table = game.layout, round_.table
    return {
        **replay_opening(game, seed),
        "board": {
            "rows": layout.rows,
            "cols": layout.cols,
            "starters": [[*layout.row_col(s), str(Card(table.position[s]))] for s in layout.starter_squares],
            "wild_spaces": [list(layout.row_col(s)) for s in layout.wild_squares],
        },
        "moves": [move_json(layout, move) for move in table.moves],
        "scores": list(table.scores),
        "customer_seat": CUSTOMER,
        "result": round_.result,
        "margin": round_.margin,
        **replay_pays(round_, outcome),
    }

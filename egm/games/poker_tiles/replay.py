"""Replay: one full game from a seed with every seat on the machine strategy, as the outside check's
JSON contract (`egm replay --game poker-tiles --seed S --json`).

The object holds `board` (rows, cols, start: the [row, col] squares of the starting area, centre,
card_squares: [row, col, card]), `racks` (each seat's rack when play begins, after any opening swaps),
`moves` in order (each with seat and kind; a play with tiles [{row, col, card, as}], hands [{cells,
category, base, multiplier, points}] and points; a joker swap with row, col, card; an exchange with
the tiles given back; plays and exchanges also list the tiles `drawn`), `end_adjustments` and
`scores` per seat, `result` (the customer's, seat 0:
"win", "tie" or "loss"), `win_credits` and `win_cents` (at the pay table's first denomination), plus
`opening` (the deal, the swaps and who started), `margin`, `place`, `awards`, `seed` and `paytable`.
"""

from __future__ import annotations

from typing import Any

from egm.games.poker_tiles.game import CUSTOMER, PokerTiles, move_json
from egm.games.poker_tiles.table import tile_text
from egm.games.replay import replay_opening, replay_pays, replay_round


def replay_game(paytable: Any, seed: int, opponents: int | None = None) -> dict[str, Any]:
    """Play one game from `seed` with the machine strategy on every seat; the contract's JSON object."""
    game = PokerTiles(paytable)
    round_, outcome = replay_round(game, seed, opponents)
    layout, table = game.layout, round_.table

    def texts(tiles: list[int]) -> list[str]:
        return [tile_text(code) for code in tiles]

    return {
        **replay_opening(game, seed),
        "board": {
            "rows": layout.rows,
            "cols": layout.cols,
            "start": [list(layout.row_col(s)) for s in layout.start],
            "centre": list(layout.row_col(layout.centre)),
            "card_squares": [list(entry) for entry in layout.card_squares],
        },
        "opening": {
            "dealt": [texts(rack) for rack in table.dealt],
            "swaps": [[texts(rack) for rack in swap] for swap in table.opening_swaps],
            "starter": table.starter,
        },
        "racks": [texts(rack) for rack in table.opening_racks],
        "moves": [move_json(layout, move) for move in table.moves],
        "end_adjustments": list(table.end_adjustments),
        "scores": list(table.scores),
        "customer_seat": CUSTOMER,
        "result": round_.result,
        "margin": round_.margin,
        "place": round_.place,
        **replay_pays(round_, outcome),
    }

"""One full game of Prism Words from a seed, every seat on the machine strategy: the JSON an outside
check rescores with its own lexicon and scorer.

Keys (the contract): `board` {rows, cols, centre [row, col]}; `blocks`, the 96 blocks as
[left_letter, left_value, right_letter, right_value] ("*" for a star, value 0); `lexicon_sha256`;
`scoring` ("rules" or "example"); `moves` in order, each {seat, kind: "play" | "exchange" | "pass"},
a play also with `placements` [{row, col, block, face: "left" | "right", letter}] (`block` indexes
`blocks`; `letter` is the shown letter, for a star the declared one), `words` [{word, cells [[row,
col]...], basic, doubled, pattern_bonus, points}], `rack_bonus` and `points`; `end_adjustments` per
seat; `scores` (final, adjustments included); `result` (the customer's, seat 0: "win", "tie" or
"loss"); `win_credits` and `win_cents`. Also: game, paytable, seed, seats, starter, first_draws,
customer_seat, margin, awards.
"""

from __future__ import annotations

from typing import Any

from egm.games.prism_words.game import CUSTOMER, PrismWords, move_json
from egm.games.replay import replay_opening, replay_pays, replay_round


def replay_game(paytable: Any, seed: int, opponents: int | None = None, denom_cents: int | None = None
                ) -> dict[str, Any]:
    """Play one game from `seed` with the machine strategy on every seat; the contract's JSON object."""
    game = PrismWords(paytable)
    round_, outcome = replay_round(game, seed, opponents, denom_cents)
    book, table = game.book, round_.table
    return {
        **replay_opening(game, seed),
        "board": {"rows": book.rows, "cols": book.cols, "centre": list(book.centre)},
        "blocks": [block.to_json() for block in book.blocks],
        "lexicon_sha256": book.lexicon.sha256,
        "scoring": book.scoring,
        "seats": table.seats,
        "first_draws": round_.first_draws,
        "starter": table.starter,
        "moves": [move_json(move) for move in table.moves],
        "end_adjustments": list(table.end_adjustments),
        "scores": list(table.scores),
        "customer_seat": CUSTOMER,
        "result": round_.result,
        "margin": round_.margin,
        **replay_pays(round_, outcome),
    }


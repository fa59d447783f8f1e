"""What the board games' replays share (`egm replay --game ID`: Poker Grid, Poker Tiles, Prism Words,
Property): one game from a seed with the machine strategy on every seat, and the keys every replay
object opens and ends with. Each game's `replay.py` adds its own table in between (the contract of
each is in its module doc).
"""

from __future__ import annotations

from typing import Any

from egm.games.base import Game, Outcome, play_reference
from egm.rng import Rng


def replay_round(game: Game, seed: int, opponents: int | None = None, denom_cents: int | None = None
                 ) -> tuple[Any, Outcome]:
    """The round played from `Rng.from_seed(seed)` by the reference decisions (the machine strategy
    on the customer's seat too) at the default wager of `denom_cents` (default: the pay table's first
    denomination), against `opponents` (default: the pay table's), and its outcome."""
    wager = game.default_wager(denom_cents or game.paytable.header.denominations_cents[0])
    round_ = game.new_round(wager, Rng.from_seed(seed), {}, opponents=opponents)
    return round_, play_reference(round_)


def replay_opening(game: Game, seed: int) -> dict[str, Any]:
    """The keys a replay object opens with: `game`, `paytable` (its id) and `seed`."""
    return {"game": game.game_id, "paytable": game.paytable.id, "seed": seed}


def replay_pays(round_: Any, outcome: Outcome) -> dict[str, Any]:
    """The keys a replay object ends with: the customer's `awards`, `win_credits` and `win_cents` (at
    the round's denomination)."""
    return {
        "awards": list(outcome.summary["awards"]),
        "win_credits": outcome.win_credits,
        "win_cents": outcome.win_credits * round_.wager.denom_cents,
    }

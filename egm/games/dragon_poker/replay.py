"""Dragon Poker's replay: deal and settle one hand from a seed (`egm replay --game dragon-poker`,
and its alias `egm dragon replay`).

The hand is dealt from `Rng.from_seed(S)` with the given pay table, designated A = player,
B = dealer, C = Dragon, D = discard, with every seat set by the house way and the jackpot starting at
the pay table's seed. It runs the cabinet's own engine (the game plug-in with its reference
decisions), so the replay is what the cabinet would have done. The JSON object (docs/dragon-poker.md,
"Replay") has the keys hands, bonus_cards, settings, rows, winner, bonus_points, ledger (points) and
paytable, plus seed, paytable_id, strategy and result_code.
"""

from __future__ import annotations

from typing import Any

from egm.games.base import play_reference
from egm.games.dragon_poker.game import DragonPoker
from egm.games.dragon_poker.house_way import HOUSE_WAY_VERSION
from egm.rng import Rng

ROLE_SIDES = {"player": "P", "dealer": "H", "dragon": "D"}


def replay(paytable: Any, seed: int) -> dict[str, Any]:
    """The replay object for one seed (see the module doc)."""
    game = DragonPoker(paytable)
    round_ = game.new_round(game.default_wager(paytable.header.denominations_cents[0]),
                            Rng.from_seed(seed), {})
    summary = play_reference(round_).summary
    return {
        "seed": seed,
        "paytable_id": paytable.id,
        "paytable_version": paytable.version,
        "strategy": HOUSE_WAY_VERSION,
        "hands": summary["hands"],
        "bonus_cards": summary["bonus_cards"],
        "settings": {role: summary["settings"][side] for role, side in ROLE_SIDES.items()},
        "hand_descriptions": {role: summary["hand_descriptions"][side] for role, side in ROLE_SIDES.items()},
        "rows": summary["rows"],
        "player_vs_dealer": summary["player_vs_dealer"],
        "winner": summary["winner"],
        "result_code": summary["result_code"],
        "bonus_points": summary["bonus_points"],
        "bonus_points_by_row": summary["bonus_points_by_row"],
        "ledger": summary["ledger"],
        "paytable": game.rules.model_dump(),
    }

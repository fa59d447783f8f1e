"""`egm dragon replay --seed S [--json]`: deal and settle one Dragon Poker hand from a seed.

The hand is dealt from `Rng.from_seed(S)` with the default pay table (through the pay-table ROM),
designated A = player, B = dealer, C = Dragon, D = discard, with every seat set by the house way and
the jackpot starting at the pay table's seed. It runs the cabinet's own engine (the game plug-in with
its reference decisions), so the replay is what the cabinet would have done. The JSON object
(docs/dragon-poker.md, "Replay") has the keys hands, bonus_cards, settings, rows, winner,
bonus_points, ledger (points) and paytable, plus seed, paytable_id, strategy and result_code.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

ROLE_SIDES = {"player": "P", "dealer": "H", "dragon": "D"}


def replay(seed: int) -> dict[str, Any]:
    """The replay object for one seed (see the module doc)."""
    from egm.games.dragon_poker.game import DragonPoker, load_default_paytable
    from egm.games.dragon_poker.house_way import HOUSE_WAY_VERSION
    from egm.rng import Rng

    paytable = load_default_paytable()
    game = DragonPoker(paytable)
    round_ = game.new_round(game.default_wager(paytable.header.denominations_cents[0]),
                            Rng.from_seed(seed), {})
    while not round_.finished:
        round_.decide(round_.reference_decision())
    summary = round_.outcome().summary
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


def _text(result: dict[str, Any]) -> str:
    lines = [f"Dragon Poker replay, seed {result['seed']} ({result['paytable_id']}, {result['strategy']})",
             f"bonus cards: {' '.join(result['bonus_cards'])}"]
    for role, rows in result["settings"].items():
        described = result["hand_descriptions"][role]
        lines.append(f"{role:>7}: " + " | ".join(
            f"{row} {' '.join(cards)} ({described[row]})" for row, cards in rows.items()))
    lines.append("rows: " + ", ".join(f"{row} {r['winner']}" for row, r in result["rows"].items()))
    ledger = result["ledger"]
    lines.append(f"winner {result['winner']} ({result['result_code']}); "
                 f"bonus points {result['bonus_points']}")
    lines.append(f"player net {ledger['player_net']:+d}, house net {ledger['house_net']:+d}, jackpot "
                 f"{ledger['jackpot_before']} -> {ledger['jackpot_after']} points")
    return "\n".join(lines)


def _replay_command(args: argparse.Namespace) -> int:
    result = replay(args.seed)
    print(json.dumps(result, sort_keys=False) if args.json else _text(result))
    return 0


def _seed(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("a seed is a non-negative whole number")
    return value


def register(subparsers: Any) -> None:
    dragon = subparsers.add_parser("dragon", help="Dragon Poker tools (replay)")
    commands = dragon.add_subparsers(dest="dragon_command", required=True, metavar="COMMAND")
    replay_parser = commands.add_parser("replay", help="deal and settle one hand from a seed")
    replay_parser.add_argument("--seed", type=_seed, required=True, help="the RNG seed (whole number >= 0)")
    replay_parser.add_argument("--json", action="store_true", help="print one JSON object")
    replay_parser.set_defaults(handler=_replay_command)

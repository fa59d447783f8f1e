"""`egm dragon replay --seed S [--json]`: deal and settle one Dragon Poker hand from a seed, with the
default pay table (through the pay-table ROM). Kept as an alias of `egm replay --game dragon-poker`
(outside checks use it); the replay itself is `egm.games.dragon_poker.replay`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


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
    from egm.games.dragon_poker.game import load_default_paytable
    from egm.games.dragon_poker.replay import replay

    result = replay(load_default_paytable(), args.seed)
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

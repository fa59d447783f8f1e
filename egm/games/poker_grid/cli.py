"""`egm poker-grid replay`: one full game with every seat on the machine strategy, as JSON or text
(kept as an alias of `egm replay --game poker-grid`: outside checks use it; the replay itself is
`egm.games.poker_grid.replay`); `egm poker-grid simulate`: the RTP of the customer's seat under one lab
strategy (e.g. the random lower bound, which `egm certify` does not run).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

DEFAULT_PAYTABLE = "paytables/poker-grid.toml"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("poker-grid", help="Poker Grid tools (replay a game)")
    commands = parser.add_subparsers(dest="poker_grid_command", required=True, metavar="COMMAND")
    replay = commands.add_parser(
        "replay", help="play one full game from a seed, machine strategy on every seat"
    )
    replay.add_argument("--seed", type=int, required=True, help="the game's RNG seed (same seed, same game)")
    replay.add_argument("--json", action="store_true", help="print one JSON object (the rescoring contract)")
    replay.add_argument("--paytable", default=DEFAULT_PAYTABLE, help="pay table file (must be signed)")
    replay.add_argument("--opponents", type=int, default=None, help="machine opponents (pay table default)")
    replay.add_argument("--denom", type=int, default=None, help="denomination in cents (pay table's first)")
    replay.set_defaults(handler=run_replay)
    simulate = commands.add_parser(
        "simulate", help="RTP of the customer's seat under one strategy (the lab's chunked runner)"
    )
    simulate.add_argument("--strategy", default="grid-opponent/1",
                          help="grid-opponent/1 (reference), grid-lookahead/1 (best available) or random")
    simulate.add_argument("--games", type=int, default=1000, help="games to simulate")
    simulate.add_argument("--seed", type=int, default=1, help="run seed (chunks derive theirs from it)")
    simulate.add_argument("--workers", type=int, default=0, help="worker processes (default: all cores)")
    simulate.add_argument("--paytable", default=DEFAULT_PAYTABLE, help="pay table file (must be signed)")
    simulate.set_defaults(handler=run_simulate)


def run_replay(args: argparse.Namespace) -> int:
    from egm.games.poker_grid.replay import replay_game
    from egm.rom import load_paytable
    from egm.rom.signing import RomError

    try:
        paytable = load_paytable(args.paytable)
    except RomError as exc:
        print(f"egm poker-grid replay: {exc}")
        return 2
    try:
        report = replay_game(paytable, args.seed, args.opponents, args.denom)
    except ValueError as exc:
        print(f"egm poker-grid replay: {exc}")
        return 2
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Poker Grid, seed {args.seed}, pay table {report['paytable']}")
    for number, move in enumerate(report["moves"], 1):
        scored = f"{move['category']} {move['points']}" if move["points"] else "-"
        square = f"({move['row']}, {move['col']})"
        print(f"{number:2d}. seat {move['seat']} {move['card']:>2} at {square}: {scored}")
    print(f"scores {report['scores']}: {report['result']} by {report['margin']}, "
          f"win {report['win_cents']} cents")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Simulate the customer's seat under one lab strategy and print its RTP with the 95% interval."""
    from egm.games.poker_grid.lab import PokerGridLab
    from egm.lab.adapters import LabError
    from egm.lab.runner import plan_chunks, run
    from egm.lab.stats import summarize
    from egm.rom import load_paytable
    from egm.rom.signing import RomError

    try:
        paytable = load_paytable(args.paytable)
        lab = PokerGridLab()
        chunks = plan_chunks(args.seed, args.games, lab.chunk_games(args.strategy))
        result = run(lab.game_id, paytable, args.strategy, chunks, workers=args.workers)
    except (RomError, LabError) as exc:
        print(f"egm poker-grid simulate: {exc}")
        return 2
    summary = summarize(result.tally)
    report = {
        "strategy": args.strategy,
        **summary.to_dict(),
        "results": dict(result.tally.results),
        "awards": dict(result.tally.awards),
        "games_per_second": result.games_per_second,
    }
    print(json.dumps(report, indent=2))
    return 0

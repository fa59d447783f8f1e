"""Record Poker Grid games (moves and scores) played by the engine, for the strategy-identity test.

    python tools/record_poker_grid_games.py [--out tests/data/poker_grid_games.json]

Each recorded game names its customer strategy, its opponent count and its seed: the deck is the one
`PokerGrid.new_round` shuffles from `Rng.from_seed(seed)` with the shipped pay table's rules, the customer
plays the named strategy and every opponent `grid-opponent/1`. The record keeps every placement (seat,
card, square), the points it scored, and the final scores. tests/test_poker_grid_recorded.py replays
them and requires the same moves and scores: the machine strategies must never change behaviour under
their version names (a changed strategy is a new version name, and a new recording).

The file was first written before the strategies were compiled (issue 19), by the pure-Python engine.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from egm.config import PROJECT_ROOT
from egm.games.poker_grid.game import PokerGrid
from egm.games.poker_grid.paytable import PokerGridRules
from egm.games.poker_grid.strategy import LOOKAHEAD_STRATEGY, MACHINE_STRATEGY, lookahead_move, machine_move
from egm.rng import Rng

DATA = PROJECT_ROOT / "tests" / "data" / "poker_grid_games.json"
# (customer strategy, opponents, first seed, games)
PLAN = (
    (MACHINE_STRATEGY, 1, 1_000, 200),
    (LOOKAHEAD_STRATEGY, 1, 2_000, 60),
    (MACHINE_STRATEGY, 2, 3_000, 40),
    (MACHINE_STRATEGY, 3, 4_000, 40),
    (LOOKAHEAD_STRATEGY, 2, 5_000, 20),
    (LOOKAHEAD_STRATEGY, 3, 6_000, 20),
)
CUSTOMER_MOVES = {MACHINE_STRATEGY: machine_move, LOOKAHEAD_STRATEGY: lookahead_move}


def recording_game(opponents: int) -> PokerGrid:
    """The game on the shipped board against `opponents` (the pays do not matter to the moves)."""
    text = tomllib.loads((PROJECT_ROOT / "paytables" / "poker-grid.toml").read_text())
    rules = PokerGridRules.model_validate({**text["game"], "opponents_default": opponents,
                                           "opponents_max": opponents})
    header = SimpleNamespace(strategy=MACHINE_STRATEGY, denominations_cents=[1], bets_credits=[1],
                             default_bet_credits=1)
    return PokerGrid(SimpleNamespace(header=header, rules=rules))


def play(game: PokerGrid, strategy: str, opponents: int, seed: int) -> dict[str, Any]:
    """One game from `seed`, the customer playing `strategy`: its moves, points and scores."""
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {}, opponents)
    customer = CUSTOMER_MOVES[strategy]
    while not round_.finished:
        round_.decide(round_.decision_for(*customer(round_.table)))
    moves = round_.table.moves
    return {
        "strategy": strategy,
        "opponents": opponents,
        "seed": seed,
        "moves": [[m.seat, m.card, m.square] for m in moves],
        "points": [m.play.points for m in moves],
        "scores": list(round_.table.scores),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args()
    games = [play(recording_game(opponents), strategy, opponents, seed)
             for strategy, opponents, first, count in PLAN for seed in range(first, first + count)]
    args.out.write_text("[\n" + ",\n".join(json.dumps(g, separators=(",", ":")) for g in games) + "\n]\n")
    print(f"{len(games)} games recorded in {args.out}")


if __name__ == "__main__":
    main()

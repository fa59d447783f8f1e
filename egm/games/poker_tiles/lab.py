"""Poker Tiles in the lab: simulation of the customer's seat under three strategies.

* `tiles-greedy/1` (the reference): the customer's seat plays the machine strategy, like the
  opponents (egm.games.poker_tiles.strategy).
* `tiles-lookahead/1` (the best available): the greedy value less the next seat's expected reply.
* `random` (the lower bound): a uniformly random legal play each turn, from a stream derived from the
  chunk seed, separate from the shuffle, so the pools are the reference run's.

Games run through the cabinet's own `Game`; its hot paths (the line scorer and the move generator) are
compiled by numba inside the engine itself (egm.games.poker_tiles.engine), so the lab and the cabinet
run one engine. The pool is shuffled from `Rng.from_seed(chunk seed)` game after game, heads-up (the
pay table's default opponent count). Awards are counted as games in which the customer scored the
hand at least once.
"""

from __future__ import annotations

from typing import Any

from egm.games.poker_tiles.game import PokerTiles
from egm.games.poker_tiles.paytable import PokerTilesRules
from egm.games.poker_tiles.strategy import (
    LOOKAHEAD_STRATEGY,
    MACHINE_STRATEGY,
    RANDOM_STRATEGY,
    Strategy,
    lookahead_turn,
    random_player,
)
from egm.games.poker_tiles.table import RACK
from egm.lab.adapters import ExactFigure, GameProgress, LabAdapter, LabError
from egm.lab.board_games import award_outcomes, deciding_by, engine_chunk, tier_outcome
from egm.lab.stats import Tally
from egm.rng import Rng, derive_seed

STRATEGY_METHODS = {
    MACHINE_STRATEGY: (
        "Reference strategy: the customer's seat plays the machine opponent's own strategy: of every "
        "legal play (all placements of 1 to 5 tiles, jokers declared as any card), joker swap, the "
        "exchange of its unpaired tiles and the pass, the one of the highest 2 x points + leave value "
        "(jokers 10, each extra tile of a rank 4, 1 a tile drawn; on its last turn minus twice the end "
        "penalty of the tiles kept). Exact integer arithmetic; deterministic given the pool."
    ),
    LOOKAHEAD_STRATEGY: (
        "Best available (one ply deeper than the reference): of the reference's 8 best turns, the one "
        "with the highest reference value less the next seat's expected best reply on the board it "
        "leaves (the mean over 6 racks drawn from the tiles the seat cannot see, by a stream seeded "
        "with the position). It never peeks at another rack or the pool."
    ),
    RANDOM_STRATEGY: (
        "Lower bound: a uniformly random legal play each turn (an exchange of the whole rack, or a pass, "
        "when there is none), from a stream derived from the chunk seed (the pools are the reference "
        "run's)."
    ),
}


def rules_of(paytable: Any) -> PokerTilesRules:
    rules = paytable.rules
    if not isinstance(rules, PokerTilesRules):
        raise LabError(f"pay table {paytable.id} is not a Poker Tiles pay table")
    return rules


class PokerTilesLab(LabAdapter):
    game_id = "poker-tiles"
    pays_by_margin = True
    reference_strategy = MACHINE_STRATEGY
    best_strategy = LOOKAHEAD_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    # The default run follows the measured sigma to a 95% half-width of 0.1 RTP points: 5,000 games
    # first (sigma to a few per cent), then as many more as that sigma needs, (1.96 sigma / 0.001)^2:
    # about 26,000 games at the shipped pay table's sigma of 0.08, four times that at twice the sigma.
    games_default = 5_000
    games_default_half_width = 0.1
    games_follow_sigma = True
    # The lookahead samples 6 replies to each of 8 candidates every turn: about 50 times the
    # reference's work, so its run is shorter (its interval is wider, and reported as such).
    best_games_default = 300

    def chunk_games(self, strategy: str) -> int:
        return 100

    def _customer(self, strategy: str, seed: int) -> Strategy | None:
        """The customer seat's strategy; None for the reference (the round's own reference decision)."""
        if strategy == MACHINE_STRATEGY:
            return None
        if strategy == LOOKAHEAD_STRATEGY:
            return lookahead_turn
        if strategy == RANDOM_STRATEGY:
            return random_player(Rng.from_seed(derive_seed(seed, "random-player")))
        raise LabError(f"Poker Tiles has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        rules = rules_of(paytable)

        def itemise(summary: Any) -> list[tuple[str, int]]:
            return [tier_outcome(rules.result_pays, summary["margin"]),
                    *award_outcomes(summary["awards"], rules.award_units)]

        return engine_chunk(PokerTiles(paytable), seed, games, deciding_by(self._customer(strategy, seed)),
                            itemise, progress)

    def awards(self, paytable: Any) -> tuple[str, ...]:
        """The premium hands with an award in the pay table."""
        rules = rules_of(paytable)
        return tuple(name for name, units in rules.hand_awards.items() if units)

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        return []

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        rules = rules_of(paytable)
        bet = paytable.header.default_bet_credits
        top_result = max(tier.pays for tier in rules.result_pays)
        top_award = max(rules.hand_awards.values(), default=0)
        # each customer turn places at most 5 tiles, and each tile makes at most 2 lines (its row and
        # column): at most 1 + 5 = 6 lines a play score
        lines = rules.rounds * (1 + RACK)
        units = top_result + top_award * lines
        return ExactFigure(
            "theoretical_max_win",
            units * bet,
            f"upper bound: ({top_result} units for the top result + {top_award} units for the top award "
            f"on each of at most {lines} lines the customer scores in {rules.rounds} turns) x bet {bet}",
        )

    def warm_up(self, paytable: Any) -> None:
        """Compile (or load from numba's cache) the engine before timing starts: one short game."""
        self.run_chunk(paytable, MACHINE_STRATEGY, 0, 1)

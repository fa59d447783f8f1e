"""Prism Words in the lab: simulation of the customer's seat under four strategies.

* `prism-greedy/1` (the reference): the customer's seat plays the machine strategy, like the
  opponents (egm.games.prism_words.strategy).
* `prism-endgame/1` (the best available): the reference until the bag holds 6 blocks or fewer, then
  a search of the rest of the game for what the pay table pays (egm.games.prism_words.endgame).
* `prism-pays/1` (the former best available, still runnable by name): the reference valuing each
  award a play earns as 10 points.
* `random` (the lower bound): a uniformly random legal play each turn, from a stream derived from
  the chunk seed, separate from the deal, so the deals are the reference run's.

Games run through the cabinet's own `Game`, whose move generation is compiled (numba) in the engine
itself, so there is no separate kernel to prove identical: the lab runs the cabinet's code. The deal
is drawn from `Rng.from_seed(chunk seed)` game after game, with the pay table's default opponent
count. Awards are counted as games in which the customer earned the award at least once.
"""

from __future__ import annotations

from typing import Any

from egm.games.prism_words.endgame import ENDGAME_STRATEGY, endgame_player
from egm.games.prism_words.game import PrismWords
from egm.games.prism_words.paytable import PrismWordsRules
from egm.games.prism_words.strategy import (
    MACHINE_STRATEGIES,
    MACHINE_STRATEGY,
    PAYS_STRATEGY,
    RANDOM_STRATEGY,
    Strategy,
    pays_move,
    random_player,
)
from egm.games.prism_words.table import AWARDS
from egm.lab.adapters import ExactFigure, GameProgress, LabAdapter, LabError
from egm.lab.board_games import award_outcomes, deciding_by, engine_chunk, tier_outcome
from egm.lab.stats import Tally
from egm.rng import Rng, derive_seed

STRATEGY_METHODS = {
    MACHINE_STRATEGY: (
        "Reference strategy: the customer's seat plays the machine opponent's own strategy: every legal "
        "play is generated (anchor/cross-check move generator over the lexicon's DAWG, each block either "
        "face, a star any letter) and scored; the play with the most 10 x points + leave value (the kept "
        "blocks' keep values, or their end-of-game cost when no draw remains) is made; with no play, an "
        "exchange (or a pass when the bag is empty). Integer arithmetic; deterministic given the deal."
    ),
    ENDGAME_STRATEGY: (
        "Best available: the reference until the bag holds 6 blocks or fewer; then, heads-up, it plays "
        "out the 8 plays of the highest reference value (and, once the bag is empty, passing) to the "
        "end, the opponent on the published machine strategy and itself on the reference, and makes "
        "the one whose lines pay the most (margin tier plus awards), then the larger margin. The "
        "opponent's rack is inferred: with the bag empty it is exactly the blocks neither on the grid "
        "nor on the seat's rack; before that, 8 deals of those blocks between the opponent's rack and "
        "the bag are drawn from the strategy's own stream (derived from the chunk seed). It never "
        "reads another rack or the bag."
    ),
    PAYS_STRATEGY: (
        "Former best available (no stronger than the reference, measured): the reference's search and "
        "leave, playing for the pay table rather than for points alone: each award a play earns (a "
        "word with the pattern bonus, a depleted rack) adds "
        "10 points to its value, about what a unit of pay is worth in margin. It never looks at another "
        "rack or the bag."
    ),
    RANDOM_STRATEGY: (
        "Lower bound: a uniformly random legal play each turn (an exchange, or a pass, when there is "
        "none), from a stream derived from the chunk seed (the deals are the reference run's)."
    ),
}


def rules_of(paytable: Any) -> PrismWordsRules:
    rules = paytable.rules
    if not isinstance(rules, PrismWordsRules):
        raise LabError(f"pay table {paytable.id} is not a Prism Words pay table")
    return rules


class PrismWordsLab(LabAdapter):
    game_id = "prism-words"
    pays_by_margin = True
    reference_strategy = MACHINE_STRATEGY
    best_strategy = ENDGAME_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    # The shipped pay table needs about 3,300 games for a 95% half-width of 0.2 points (sigma 0.058);
    # the reference engine plays about 15 games a CPU-second, so 4,000 take about 2 minutes on 2 cores.
    # The best-available strategy searches the last turns (about 5 games a CPU-second): 1,000 games, a
    # half-width of about 0.36 points, take about 2 minutes more (docs/prism-words.md, Certification).
    games_default = 4_000
    best_games_default = 1_000
    best_games_default_half_width = 0.4

    def chunk_games(self, strategy: str) -> int:
        return 50

    def customer_strategy(self, paytable: Any, strategy: str, seed: int) -> Strategy | None:
        """The customer seat's strategy; None for the reference (the round's own reference decision)."""
        if strategy == MACHINE_STRATEGY:
            return None
        if strategy == ENDGAME_STRATEGY:
            return endgame_player(rules_of(paytable), MACHINE_STRATEGIES[paytable.header.strategy],
                                  Rng.from_seed(derive_seed(seed, "endgame-player")))
        if strategy == PAYS_STRATEGY:
            return pays_move
        if strategy == RANDOM_STRATEGY:
            return random_player(Rng.from_seed(derive_seed(seed, "random-player")))
        raise LabError(f"Prism Words has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        rules = rules_of(paytable)
        customer = self.customer_strategy(paytable, strategy, seed)

        def itemise(summary: Any) -> list[tuple[str, int]]:
            return [tier_outcome(rules.result_pays, summary["margin"]),
                    *award_outcomes(summary["awards"], rules.awards.for_award)]

        return engine_chunk(PrismWords(paytable), seed, games, deciding_by(customer), itemise, progress)

    def awards(self, paytable: Any) -> tuple[str, ...]:
        """The awards the pay table pays."""
        pays = rules_of(paytable).awards
        return tuple(name for name in AWARDS if pays.for_award(name))

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        return []

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        rules = rules_of(paytable)
        bet = paytable.header.default_bet_credits
        # A seat draws at most 96 blocks' worth of plays: at most 96 plays, each at most both awards.
        plays = 96
        top_result = max(tier.pays for tier in rules.result_pays)
        per_play = rules.awards.pattern_bonus + rules.awards.depleted_rack
        units = top_result + per_play * plays
        return ExactFigure(
            "theoretical_max_win",
            units * bet,
            f"upper bound: ({top_result} units for the top result + {per_play} units of awards on each of "
            f"at most {plays} plays of the customer) x bet {bet}",
        )

    def warm_up(self, paytable: Any) -> None:
        """Build (or load) the lexicon's DAWG and compile the move generator once, before timing (the
        game builds the DAWG; `prepare` compiles)."""
        PrismWords(paytable).prepare()

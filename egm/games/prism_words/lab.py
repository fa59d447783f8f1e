"""Prism Words in the lab: simulation of the customer's seat under three strategies.

* `prism-greedy/1` (the reference): the customer's seat plays the machine strategy, like the
  opponents (egm.games.prism_words.strategy).
* `prism-pays/1` (the best available): the reference's search, valuing each award a play earns as 10
  points, so it plays for the pay table rather than for points alone.
* `random` (the lower bound): a uniformly random legal play each turn, from a stream derived from
  the chunk seed, separate from the deal, so the deals are the reference run's.

Games run through the cabinet's own `Game`, whose move generation is compiled (numba) in the engine
itself, so there is no separate kernel to prove identical: the lab runs the cabinet's code. The deal
is drawn from `Rng.from_seed(chunk seed)` game after game, with the pay table's default opponent
count. Awards are counted as games in which the customer earned the award at least once.
"""

from __future__ import annotations

from typing import Any

from egm.games.prism_words.game import AWARDS, PrismWords
from egm.games.prism_words.paytable import PrismWordsRules
from egm.games.prism_words.strategy import (
    MACHINE_STRATEGY,
    PAYS_STRATEGY,
    RANDOM_STRATEGY,
    Strategy,
    pays_move,
    random_player,
)
from egm.lab.adapters import ExactFigure, LabAdapter, LabError
from egm.lab.board_games import deciding_by, engine_chunk
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
    PAYS_STRATEGY: (
        "Best available: the reference's search and leave, playing for the pay table rather than for "
        "points alone: each award a play earns (a word with the pattern bonus, a depleted rack) adds "
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
    reference_strategy = MACHINE_STRATEGY
    best_strategy = PAYS_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    # The shipped pay table needs about 3,300 games for a 95% half-width of 0.2 points (sigma 0.058);
    # the reference engine plays about 16 games a CPU-second, so 4,000 take about 2 minutes on 2 cores.
    games_default = 4_000
    best_games_default = 2_000

    def chunk_games(self, strategy: str) -> int:
        return 50

    def _customer(self, strategy: str, seed: int) -> Strategy | None:
        """The customer seat's strategy; None for the reference (the round's own reference decision)."""
        if strategy == MACHINE_STRATEGY:
            return None
        if strategy == PAYS_STRATEGY:
            return pays_move
        if strategy == RANDOM_STRATEGY:
            return random_player(Rng.from_seed(derive_seed(seed, "random-player")))
        raise LabError(f"Prism Words has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int) -> Tally:
        rules_of(paytable)
        customer = self._customer(strategy, seed)
        return engine_chunk(PrismWords(paytable), seed, games, deciding_by(customer))

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
        game does both when it is built)."""
        PrismWords(paytable)

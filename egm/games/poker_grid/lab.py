"""Poker Grid in the lab: simulation of the customer's seat under three strategies.

* `grid-opponent/1` (the reference): the customer's seat plays the machine strategy, like the
  opponents (egm.games.poker_grid.strategy).
* `grid-lookahead/1` (the best available): the machine strategy plus the seat's own follow-up.
* `random` (the lower bound): a uniformly random legal placement each turn, from a stream derived
  from the chunk seed, separate from the deal, so the deals are the reference run's.

Games run through the cabinet's own `Game` (the reference engine; there is no compiled kernel), the
deal drawn from `Rng.from_seed(chunk seed)` game after game, heads-up (the pay table's default
opponent count). Awards are counted as games in which the customer made the hand at least once.
"""

from __future__ import annotations

from typing import Any

from egm.games.poker_grid.game import PokerGrid
from egm.games.poker_grid.paytable import HandAwards, PokerGridRules
from egm.games.poker_grid.strategy import (
    LOOKAHEAD_STRATEGY,
    MACHINE_STRATEGY,
    RANDOM_STRATEGY,
    Strategy,
    lookahead_move,
    random_player,
)
from egm.lab.adapters import ExactFigure, LabAdapter, LabError
from egm.lab.stats import Tally, segment_trace
from egm.rng import Rng, derive_seed

STRATEGY_METHODS = {
    MACHINE_STRATEGY: (
        "Reference strategy: the customer's seat plays the machine opponent's own strategy: of the 6 "
        "placements scoring the most points now, the one with the most points minus the rise it gives "
        "the next seat's expected best reply on the squares in line with it (expected over the cards "
        "the seat cannot see). Exact integer arithmetic; deterministic given the deal."
    ),
    LOOKAHEAD_STRATEGY: (
        "Best available (a lookahead better than the reference): the reference value plus half the "
        "points the seat's own remaining cards could score on its next turn after the placement. It "
        "never peeks at another hand or the draw pile."
    ),
    RANDOM_STRATEGY: (
        "Lower bound: a uniformly random card of the hand onto a uniformly random legal square, from "
        "a stream derived from the chunk seed (the deals are the reference run's)."
    ),
}


def rules_of(paytable: Any) -> PokerGridRules:
    rules = paytable.rules
    if not isinstance(rules, PokerGridRules):
        raise LabError(f"pay table {paytable.id} is not a Poker Grid pay table")
    return rules


class PokerGridLab(LabAdapter):
    game_id = "poker-grid"
    reference_strategy = MACHINE_STRATEGY
    best_strategy = LOOKAHEAD_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    games_default = 5_000  # the reference engine plays about 5-10 games/s a core: about 10 minutes
    best_games_default = 2_000  # the lookahead plays about 5 games/s a core

    def chunk_games(self, strategy: str) -> int:
        return 100

    def _customer(self, strategy: str, seed: int) -> Strategy | None:
        """The customer seat's strategy; None for the reference (the round's own reference decision)."""
        if strategy == MACHINE_STRATEGY:
            return None
        if strategy == LOOKAHEAD_STRATEGY:
            return lookahead_move
        if strategy == RANDOM_STRATEGY:
            return random_player(Rng.from_seed(derive_seed(seed, "random-player")))
        raise LabError(f"Poker Grid has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int) -> Tally:
        rules_of(paytable)
        customer = self._customer(strategy, seed)
        game = PokerGrid(paytable)
        wager = game.default_wager(1)
        rng = Rng.from_seed(seed)
        tally = Tally()
        returns = []
        for _ in range(games):
            round_ = game.new_round(wager, rng, {})
            while not round_.finished:
                if customer is None:
                    round_.decide(round_.reference_decision())
                else:
                    round_.decide(round_.decision_for(*customer(round_.table)))
            outcome = round_.outcome()
            tally.games += 1
            tally.stake += wager.stake_credits
            tally.returns[outcome.win_credits] += 1
            tally.results[round_.result] += 1
            tally.awards.update(set(round_.awards()))
            returns.append(outcome.win_credits)
        tally.trace = segment_trace(returns)
        return tally

    def awards(self, paytable: Any) -> tuple[str, ...]:
        """The premium hands with an award in the pay table."""
        awards = rules_of(paytable).hand_awards
        return tuple(name for name in HandAwards.model_fields if awards.for_hand(name))

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        return []

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        rules = rules_of(paytable)
        bet = paytable.header.default_bet_credits
        placements = -(-52 // (1 + rules.opponents_default))
        top_result = max(tier.pays for tier in rules.result_pays)
        top_award = max(rules.hand_awards.model_dump().values())
        units = top_result + top_award * placements
        return ExactFigure(
            "theoretical_max_win",
            units * bet,
            f"upper bound: ({top_result} units for the top result + {top_award} units for the top award "
            f"on each of the customer's {placements} placements) x bet {bet}",
        )

"""Property in the lab: the customer's seat simulated under three strategies, and the exact check of
the movement rules.

* `property-reserve/1` (the reference): the customer's seat plays the machine opponents' strategy.
* `property-investor/1` (the best available): no cash reserve, buying every title it can pay for,
  bidding half the price for a title of no use to a group (the best point of a grid search over the
  strategy's parameters; docs/property.md).
* `random` (the lower bound): every decision uniformly among the legal ones, from a stream derived
  from the chunk seed (the games' own randomness is the reference run's).

Games run through the cabinet's own `PropertyGame` (`new_round` from `Rng.from_seed(chunk seed)`,
game after game, with the event log off), heads-up or with the pay table's default opponents.
Awards count the games in which the customer hit them.

The exact figures are the landing frequencies of the 40 spaces from the movement chain
(egm.games.property.lab.markov), each with the walk's simulated frequency and its interval in the
method text, and `landing_check_agrees`, the number of spaces whose simulation agrees.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from egm.games.property.board import Board
from egm.games.property.game import PropertyGame
from egm.games.property.lab.markov import landing_check
from egm.games.property.paytable import PropertyRules
from egm.games.property.strategy import (
    INVESTOR_STRATEGY,
    MACHINE_STRATEGIES,
    MACHINE_STRATEGY,
    RANDOM_STRATEGY,
    RandomStrategy,
)
from egm.lab.adapters import ExactFigure, GameProgress, LabAdapter, LabError
from egm.lab.board_games import Decide, award_outcomes, engine_chunk, reference_decision, tier_outcome
from egm.lab.stats import Tally
from egm.rng import Rng, derive_seed

LANDING_SEED = 3  # the walks' seed: the check is part of the certified figures, so it is fixed
LANDING_WALKS = 32
LANDING_THROWS = 25_000

STRATEGY_METHODS = {
    MACHINE_STRATEGY: (
        "Reference strategy: the customer's seat plays the machine opponents' own strategy "
        "(property-reserve/1: buy keeping a $200 reserve or to complete or block a group, sealed bids up "
        "to the title's value, build where the rent gains most with the third house first, lift "
        "mortgages above $400, leave Jail early in the game and stay late). Deterministic."
    ),
    INVESTOR_STRATEGY: (
        "Best available: the reference with no cash reserve (buys every title it can pay for, builds "
        "whenever it can) and plain bids at half the price; the best point of a grid search over the "
        "strategy's reserve, buying rule and bids, against the reference opponents."
    ),
    RANDOM_STRATEGY: (
        "Lower bound: every decision (buy, bid, jail, building, lifting mortgages) uniformly among the "
        "legal ones, from a stream derived from the chunk seed."
    ),
}


def rules_of(paytable: Any) -> PropertyRules:
    rules = paytable.rules
    if not isinstance(rules, PropertyRules):
        raise LabError(f"pay table {paytable.id} is not a Property pay table")
    return rules


class PropertyLab(LabAdapter):
    game_id = "property"
    pays_by_margin = True
    reference_strategy = MACHINE_STRATEGY
    best_strategy = INVESTOR_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    # sigma is about 0.18 of the stake, so 40,000 games give a 95% half-width of about 0.17 RTP points.
    games_default = 40_000
    best_games_default = 20_000

    def chunk_games(self, strategy: str) -> int:
        return 1_000

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        rules = rules_of(paytable)

        def itemise(summary: Any) -> list[tuple[str, int]]:
            place = summary["place"]
            return [(f"place {place}", rules.place_pays[place - 1]),
                    tier_outcome(rules.margin_pays, summary["margin"], "margin (dollars)"),
                    *award_outcomes(summary["awards"], lambda name: getattr(rules.awards, name))]

        return engine_chunk(PropertyGame(paytable), seed, games, customer_decision(strategy, seed), itemise,
                            progress, log=False)

    def awards(self, paytable: Any) -> tuple[str, ...]:
        awards = rules_of(paytable).awards
        return tuple(name for name in ("hotel", "monopoly") if getattr(awards, name))

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        rules = rules_of(paytable)
        board = Board(rules)
        checks = landing_check(board, rules, LANDING_SEED, LANDING_WALKS, LANDING_THROWS)
        figures = [
            ExactFigure(
                f"landing {c.space:02d} {board.names[c.space]}",
                Fraction(c.exact).limit_denominator(10**12),
                f"stationary distribution of the movement chain (numpy); simulated through the engine "
                f"{c.simulated:.5f} +- {c.half_width:.5f} (95% family-wise, {LANDING_WALKS} walks of "
                f"{LANDING_THROWS:,} throws): {'agrees' if c.agrees else 'DISAGREES'}",
            )
            for c in checks
        ]
        agree = sum(c.agrees for c in checks)
        figures.append(ExactFigure(
            "landing_check_agrees", agree,
            f"spaces of 40 whose simulated landing frequency agrees with the exact chain "
            f"({'all agree' if agree == len(checks) else 'CHECK FAILED'})",
        ))
        return figures

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        rules = rules_of(paytable)
        bet = paytable.header.default_bet_credits
        units = rules.place_pays[0] + max(t.pays for t in rules.margin_pays) + rules.awards.hotel + \
            rules.awards.monopoly
        return ExactFigure("theoretical_max_win", units * bet,
                           f"first place {rules.place_pays[0]} + the top margin tier + every award, "
                           f"in units, x bet {bet}")


def customer_decision(strategy: str, seed: int) -> Decide:
    """The customer's seat under `strategy` (the random player on a stream of its own, from `seed`)."""
    if strategy not in STRATEGY_METHODS:
        raise LabError(f"Property has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")
    if strategy == MACHINE_STRATEGY:
        return reference_decision
    customer = (RandomStrategy(Rng.from_seed(derive_seed(seed, "random-player")))
                if strategy == RANDOM_STRATEGY else MACHINE_STRATEGIES[strategy])
    return lambda round_: round_.strategy_decision(customer)

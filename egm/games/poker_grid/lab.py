"""Poker Grid in the lab: simulation of the customer's seat under three strategies.

* `grid-opponent/1` (the reference): the customer's seat plays the machine strategy, like the
  opponents (egm.games.poker_grid.strategy).
* `grid-lookahead/1` (the best available): the machine strategy plus the seat's own follow-up.
* `random` (the lower bound): a uniformly random legal placement each turn, from a stream derived
  from the chunk seed, separate from the deal, so the deals are the reference run's.

The reference and best-available games are whole games of the engine's compiled hot paths
(`compiled.play_game`: the cabinet's own scoring and strategies, dealt and played as `table.Table`
does; tests/test_poker_grid_compiled.py holds it to the cabinet's `Game`, move for move and score for
score). The random player draws from a Python stream, so its games run through the cabinet's `Game`
itself (its opponents' moves compiled). Each deal is `game.shuffled_deck` from `Rng.from_seed(chunk
seed)`, game after game, against the pay table's opponent count. Awards are counted as games in which
the customer made the hand at least once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from egm.cards import DECK_SIZE
from egm.games.base import Wager
from egm.games.margin import margin_of, result_of
from egm.games.poker_grid import compiled
from egm.games.poker_grid.game import CUSTOMER, PokerGrid, shuffled_deck
from egm.games.poker_grid.paytable import HandAwards, PokerGridRules
from egm.games.poker_grid.scoring import HAND_NAMES
from egm.games.poker_grid.strategy import (
    LOOKAHEAD_STRATEGY,
    MACHINE_STRATEGY,
    RANDOM_STRATEGY,
    random_player,
)
from egm.lab.adapters import ExactFigure, GameProgress, LabAdapter, LabError
from egm.lab.board_games import GameResult, award_outcomes, engine_chunk, tally_games, tier_outcome
from egm.lab.stats import Tally
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
    pays_by_margin = True
    reference_strategy = MACHINE_STRATEGY
    best_strategy = LOOKAHEAD_STRATEGY
    lower_strategy = RANDOM_STRATEGY
    strategy_methods = STRATEGY_METHODS
    # The reference reaches a 95% half-width of 0.1 RTP points (sigma about 0.45: 760,000 games) in
    # about 10 minutes on 2 cores; the bounding runs about 0.3 points (docs/poker-grid.md).
    games_default = 800_000
    best_games_default = 120_000
    games_default_half_width = 0.1
    best_games_default_half_width = 0.3

    def chunk_games(self, strategy: str) -> int:
        return 100 if strategy == RANDOM_STRATEGY else 1_000

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        rules = rules_of(paytable)
        if strategy not in STRATEGY_METHODS:
            raise LabError(f"Poker Grid has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")
        game = PokerGrid(paytable)
        if strategy == RANDOM_STRATEGY:
            choose = random_player(Rng.from_seed(derive_seed(seed, "random-player")))
            return engine_chunk(game, seed, games, lambda round_: round_.decision_for(*choose(round_.table)),
                                lambda summary: itemised(rules, summary["margin"], summary["awards"]),
                                progress)
        wager = game.default_wager(1)
        played = _compiled_games(game, seed, games, lookahead=strategy == LOOKAHEAD_STRATEGY)
        settled = (_settled(rules, wager, scores, hands) for scores, hands in played)
        return tally_games(wager, settled, progress)

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


def itemised(rules: PokerGridRules, margin: int, awarded: list[str]) -> list[tuple[str, int]]:
    """A game's pay in units, item by item: its margin tier, then each award it earned."""
    return [tier_outcome(rules.result_pays, margin), *award_outcomes(awarded, rules.hand_awards.for_hand)]


Played = Iterator[tuple[list[int], list[str]]]  # each game's scores and the customer's scoring hands


def _settled(rules: PokerGridRules, wager: Wager, scores: list[int], hands: list[str]) -> GameResult:
    """A compiled game settled by the pay table's own code, as the cabinet's round settles it."""
    margin = margin_of(scores)
    awarded = [hand for hand in hands if rules.hand_awards.for_hand(hand)]
    parts = [(name, units * wager.bet_credits) for name, units in itemised(rules, margin, awarded)]
    return GameResult(rules.won_units(margin, awarded) * wager.bet_credits, result_of(margin), awarded, parts)


def _compiled_games(game: PokerGrid, seed: int, games: int, lookahead: bool) -> Played:
    """Whole games of the compiled engine, the customer at grid-opponent/1 or grid-lookahead/1."""
    layout, rules = game.layout, game.rules
    rng = Rng.from_seed(seed)
    starters = np.array(layout.starter_squares, np.int64)
    wilds = np.array(layout.wild_squares, np.int64)
    moves = np.empty((DECK_SIZE, 4), np.int64)
    for _ in range(games):
        deck = np.array(shuffled_deck(rng), np.int64)
        scores = compiled.play_game(deck, 1 + rules.opponents_default, rules.hand_size, layout.rows,
                                    layout.cols, starters, wilds, lookahead, moves)
        placed = moves[: DECK_SIZE - starters.size]
        hands = [HAND_NAMES[int(p)] for seat, _, _, p in placed if seat == CUSTOMER and p]
        yield [int(s) for s in scores], hands

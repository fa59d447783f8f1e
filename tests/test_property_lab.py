"""Property in the lab: chunk simulation under the three strategies, and the exact check of the
movement rules (the Markov chain against walks through the engine)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from egm.games.property.board import Board
from egm.games.property.lab import PropertyLab
from egm.games.property.lab.markov import MovementChain, landing_check, walk_counts
from egm.games.property.paytable import PropertyRules, example_rules
from tests.property_support import shipped_paytable

RULES = PropertyRules.model_validate(example_rules())
BOARD = Board(RULES)


def paytable() -> Any:
    return shipped_paytable()


@pytest.mark.parametrize("strategy", ["property-reserve/1", "property-investor/1", "random"])
def test_a_chunk_is_a_pure_function_of_its_seed(strategy: str) -> None:
    lab = PropertyLab()
    first = lab.run_chunk(paytable(), strategy, 11, 15)
    assert first.to_dict() == lab.run_chunk(paytable(), strategy, 11, 15).to_dict()
    assert first.games == 15 and first.stake == 15 * RULES.stake_units
    assert sum(first.returns.values()) == 15 and sum(first.results.values()) == 15
    low = RULES.place_pays[-1]
    high = RULES.place_pays[0] + RULES.margin_pays[-1].pays + RULES.awards.hotel + RULES.awards.monopoly
    assert all(low <= value <= high for value in first.returns)


def test_the_reference_chunk_pays_what_the_round_outcomes_pay() -> None:
    from egm.games.property.game import PropertyGame
    from egm.rng import Rng

    game = PropertyGame(paytable())
    rng = Rng.from_seed(4)
    total = 0
    for _ in range(6):
        round_ = game.new_round(game.default_wager(1), rng, {})
        while not round_.finished:
            round_.decide(round_.reference_decision())
        total += round_.outcome().win_credits
    assert PropertyLab().run_chunk(paytable(), "property-reserve/1", 4, 6).total_return == total


def test_the_movement_chain_is_a_stochastic_matrix_with_the_known_shape() -> None:
    chain = MovementChain(BOARD)
    assert np.allclose(chain.matrix.sum(axis=1), 1.0)
    landing = chain.landing()
    assert landing.sum() == pytest.approx(1.0)
    assert landing[30] == pytest.approx(0.0, abs=1e-12)  # Go to Jail is never a resting place
    assert int(np.argmax(landing)) == BOARD.jail
    # Chance spaces rest less than their neighbours: 10 of 16 cards move the token on.
    assert landing[7] < landing[6] / 2 and landing[36] < landing[37] / 2
    assert 0.10 < landing[BOARD.jail] < 0.11


def test_walks_through_the_engine_agree_with_the_chain() -> None:
    checks = landing_check(BOARD, RULES, seed=5, walks=30, throws=1_200)
    assert [c.space for c in checks if not c.agrees] == []
    assert sum(c.simulated for c in checks) == pytest.approx(1.0)


def test_a_wrong_chain_would_be_caught() -> None:
    """The check has teeth: a chain without the cards' moves disagrees with the same walks."""
    checks = landing_check(BOARD, RULES, seed=5, walks=30, throws=1_200)
    no_cards = np.full(40, 1 / 39)
    no_cards[30] = 0.0
    assert sum(abs(c.simulated - no_cards[c.space]) > c.half_width for c in checks) >= 5


def test_a_walk_counts_every_throw() -> None:
    counts = walk_counts(BOARD, RULES, 9, 500)
    assert counts.sum() >= 500 and counts[30] == 0


@pytest.mark.soak
def test_long_walks_agree_with_the_chain() -> None:
    checks = landing_check(BOARD, RULES, seed=3, walks=64, throws=25_000)
    assert [c.space for c in checks if not c.agrees] == []


def test_exact_figures_and_max_win() -> None:
    lab = PropertyLab()
    top = lab.theoretical_max_win(paytable())
    assert top.value == 17 + 6 + 3 + 1
    assert lab.awards(paytable()) == ("hotel", "monopoly")

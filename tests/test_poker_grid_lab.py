"""Poker Grid in the lab: the adapter's chunks match the cabinet's game and the strategies differ."""

from __future__ import annotations

from typing import Any

import pytest

from egm.config import PROJECT_ROOT
from egm.games.base import play_reference
from egm.games.poker_grid.game import PokerGrid
from egm.games.poker_grid.strategy import (
    LOOKAHEAD_STRATEGY,
    MACHINE_STRATEGY,
    RANDOM_STRATEGY,
    lookahead_move,
    machine_move,
)
from egm.lab.adapters import LabError, adapter_for
from egm.rng import Rng
from egm.rom import load_paytable


@pytest.fixture
def paytable(signed_tree: Any) -> Any:
    return load_paytable(
        PROJECT_ROOT / "paytables" / "poker-grid.toml",
        manifest_path=signed_tree.manifest_path,
        trusted_keys=signed_tree.trusted_keys,
    )


def test_reference_chunk_is_the_cabinet_game(paytable: Any) -> None:
    lab = adapter_for("poker-grid")
    tally = lab.run_chunk(paytable, MACHINE_STRATEGY, seed=5, games=2)
    game = PokerGrid(paytable)
    rng = Rng.from_seed(5)
    wins = []
    for _ in range(2):
        round_ = game.new_round(game.default_wager(1), rng, {})
        wins.append(play_reference(round_).win_credits)
    assert tally.games == 2 and tally.stake == 2 * game.default_wager(1).stake_credits
    assert sorted(tally.returns.elements()) == sorted(wins)
    assert sum(tally.results.values()) == 2
    assert lab.run_chunk(paytable, MACHINE_STRATEGY, seed=5, games=2).to_dict() == tally.to_dict()


def test_strategies_and_bounds(paytable: Any) -> None:
    lab = adapter_for("poker-grid")
    assert (lab.reference_strategy, lab.best_strategy, lab.lower_strategy) == (
        MACHINE_STRATEGY, LOOKAHEAD_STRATEGY, RANDOM_STRATEGY,
    )
    random_tally = lab.run_chunk(paytable, RANDOM_STRATEGY, seed=9, games=2)
    assert random_tally.results["loss"] == 2  # random play loses by a mile
    with pytest.raises(LabError, match="no strategy"):
        lab.run_chunk(paytable, "perfect", seed=1, games=1)
    assert set(lab.awards(paytable)) == {"four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind"}
    top = lab.theoretical_max_win(paytable)
    assert top.value == (8 + 50 * 26) * paytable.header.default_bet_credits


def test_lookahead_differs_from_the_machine_strategy(paytable: Any) -> None:
    game = PokerGrid(paytable)
    differ = 0
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(3), {})
    while not round_.finished:
        differ += lookahead_move(round_.table) != machine_move(round_.table)
        round_.decide(round_.reference_decision())
    assert differ > 0

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
from egm.lab import certify as certify_module
from egm.lab.adapters import LabError, adapter_for
from egm.lab.certify import needed_games
from egm.lab.stats import Tally
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


@pytest.mark.parametrize("strategy", [MACHINE_STRATEGY, LOOKAHEAD_STRATEGY])
def test_the_compiled_chunk_tallies_the_cabinets_games(paytable: Any, strategy: str) -> None:
    """The chunk's tally (returns, results, awards) is the one the cabinet's Game makes of the same deals."""
    lab = adapter_for("poker-grid")
    customer = machine_move if strategy == MACHINE_STRATEGY else lookahead_move
    game = PokerGrid(paytable)
    rng = Rng.from_seed(12)
    expected = Tally()
    for _ in range(30):
        round_ = game.new_round(game.default_wager(1), rng, {})
        while not round_.finished:
            round_.decide(round_.decision_for(*customer(round_.table)))
        expected.games += 1
        expected.stake += round_.wager.stake_credits
        expected.returns[round_.outcome().win_credits] += 1
        expected.results[round_.result] += 1
        expected.awards.update(set(round_.awards()))
    tally = lab.run_chunk(paytable, strategy, seed=12, games=30)
    assert (tally.games, tally.stake, tally.returns, tally.results, tally.awards) == (
        expected.games, expected.stake, expected.returns, expected.results, expected.awards)


def test_the_default_run_is_conclusive_and_the_progress_bar_says_so(
        paytable: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from egm.games.poker_grid.lab import PokerGridLab

    # 800,000 games give +-0.1 points at the measured sigma 0.446; 120,000 give +-0.3 up to sigma 0.5.
    assert needed_games(0.446) <= PokerGridLab.games_default
    assert needed_games(0.5, 0.003) <= PokerGridLab.best_games_default
    monkeypatch.setattr(PokerGridLab, "games_default", 40)  # keep the test short
    monkeypatch.setattr(PokerGridLab, "best_games_default", 20)
    labels = []
    real_run = certify_module.run

    def run(*args: Any, **kwargs: Any) -> Any:
        labels.append(kwargs["label"])
        return real_run(*args, **kwargs)

    monkeypatch.setattr(certify_module, "run", run)
    certify_module.certify(certify_module.Request(paytable_path=paytable.path, games=None, seed=3, workers=1))
    assert labels == ["grid-opponent/1: 40 games (the default, for +-0.1 RTP points)",
                      "grid-lookahead/1: 20 games (the default, for +-0.3 RTP points)",
                      "random: 20 games (the default, for +-0.3 RTP points)"]


@pytest.mark.parametrize("strategy", [MACHINE_STRATEGY, RANDOM_STRATEGY])
def test_a_chunk_tells_its_games_as_it_plays_and_itemises_every_credit(paytable: Any, strategy: str) -> None:
    """The progress bar moves in games (compiled and engine chunks alike), and the contribution
    table's outcomes (margin tiers, awards) hold every credit each game returned."""
    seen: list[int] = []
    tally = adapter_for("poker-grid").run_chunk(paytable, strategy, seed=5, games=3, progress=seen.append)
    assert seen == [1, 2, 3]
    assert sum(tally.paid.values()) == tally.total_return
    tiers = [name for name in tally.paid_games if name.startswith("margin")]
    assert sum(tally.paid_games[name] for name in tiers) == 3  # one tier a game
    assert all(name.startswith(("margin ", "award: ")) for name in tally.paid)


def test_chunk_progress_reports_at_most_every_quarter_second() -> None:
    import queue

    from egm.lab.runner import ChunkProgress

    reports: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    told = ChunkProgress(reports, 4)
    told(1)
    told(2)  # within 0.25 s of the first: not sent
    assert reports.get_nowait() == (4, 1) and reports.empty()
    told.last -= 1.0  # as if a second had gone by
    told(9)
    assert reports.get_nowait() == (4, 9)


def test_a_game_paid_by_margin_gets_margin_figures_and_no_jackpot_words(paytable: Any) -> None:
    """Poker Grid has no jackpot and returns something on nearly every game: its sheet and text say
    nothing of a jackpot, give no hit frequency, and give the win frequency, the share of games below
    half the stake and the margin tiers (summing to every game) instead."""
    from egm.lab.report import render_report
    from egm.lab.text import render_text

    result = certify_module.certify(certify_module.Request(paytable_path=paytable.path, games=200, seed=3,
                                                           workers=1, best_games=0))
    page, text = render_report(result), render_text(result)
    for shown in (page, text):
        assert "jackpot" not in shown.lower() and "hit frequency" not in shown
        assert "below half the stake" in shown and "win frequency" in shown
    tiers = [c for c in result.contributions if c.outcome.startswith("margin")]
    assert sum(c.games for c in tiers) == 200
    assert sum(c.contribution for c in result.contributions) == result.reference_summary.rtp
    assert "a <b>short run</b>, 0.025% of the game's default of 800,000" in page

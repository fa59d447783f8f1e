"""The differential test: the compiled kernel against the cabinet's reference engine, game by game.

For each seed, the reference engine (egm.games.dragon_poker's `Game`, reference designation, HOUSE WAY
for the player) plays a run of games from `Rng.from_seed(seed)` carrying the jackpot pool, and the
kernel plays the same run; every game must agree exactly: the nine row values (so every house-way
setting), the winner and rows won, the player's points, the jackpot prize, the pool after, and the
credits returned. CI checks 20,000 games (the reference engine with house-way/2 plays about 270-400 games/s in
one process, so the reference side runs on two processes: about 40 s); --soak checks 200,000 more.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import Any

import numpy as np
import pytest

from egm.games.base import Outcome, play_reference
from egm.games.dragon_poker.game import DEFAULT_PAYTABLE, DragonPoker
from egm.games.dragon_poker.lab import HOUSE_WAY, WINNER_CODES, DragonPokerLab
from egm.games.dragon_poker.lab import kernel as dragon_kernel
from egm.games.dragon_poker.payout import POOL
from egm.games.dragon_poker.paytable import ROWS
from egm.games.dragon_poker.settlement import Side
from egm.lab.adapters import ExactFigure, ReferenceAdapter
from egm.lab.stats import Tally
from egm.rng import Rng
from egm.rom import PayTable, load_paytable
from tests.rom_support import SignedTree


@pytest.fixture
def paytable(signed_tree: SignedTree) -> PayTable:
    return load_paytable(DEFAULT_PAYTABLE, manifest_path=signed_tree.manifest_path,
                         trusted_keys=signed_tree.trusted_keys)


def reference_games(paytable: PayTable, seed: int, games: int) -> list[tuple]:
    """(nine row values, winner, rows won, player points, prize, pool after, credits) per game."""
    game = DragonPoker(paytable)
    wager = game.default_wager(paytable.header.denominations_cents[0])
    rng = Rng.from_seed(seed)
    pools: dict[str, int] = {}
    out = []
    for _ in range(games):
        round_ = game.new_round(wager, rng, pools)
        outcome = play_reference(round_)
        pools = dict(outcome.pools_cents)
        result = round_.result
        assert result is not None
        ledger = result.ledger
        values = tuple(result.settings[side].values[row] for side in Side for row in ROWS)
        unit = wager.bet_credits * wager.denom_cents
        out.append((values, ledger.winner, ledger.rows_won, ledger.player_points, ledger.jackpot_won,
                    pools[POOL] // unit, outcome.win_credits))
    return out


def kernel_games(paytable: PayTable, seed: int, games: int) -> list[tuple]:
    records = dragon_kernel.simulate(paytable.rules, seed, games)
    bet = paytable.header.default_bet_credits
    credits = (np.maximum(0, paytable.rules.stake_points + records.player_points)
               + records.jackpot_to_player) * bet
    return [
        (tuple(records.values[g].tolist()), WINNER_CODES[records.winner[g]], int(records.rows_won[g]),
         int(records.player_points[g]), int(records.jackpot_won[g]), int(records.pool_after[g]),
         int(credits[g]))
        for g in range(games)
    ]


def assert_same(paytable: PayTable, seeds: list[int], games: int) -> None:
    """The reference side is the slow one: it runs on two processes, one seed per task."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        references = pool.map(reference_games, repeat(paytable), seeds, repeat(games))
        for seed, expected in zip(seeds, references, strict=True):
            got = kernel_games(paytable, seed, games)
            for index, (want, have) in enumerate(zip(expected, got, strict=True)):
                assert have == want, f"seed {seed}, game {index}: kernel {have} != reference {want}"


def test_kernel_matches_reference_engine(paytable: PayTable) -> None:
    assert_same(paytable, [1, 2, 3, 4], 5_000)  # 20,000 games


@pytest.mark.soak
def test_kernel_matches_reference_engine_soak(paytable: PayTable) -> None:
    assert_same(paytable, list(range(100, 110)), 20_000)  # 200,000 games


def test_kernel_reads_the_stream_across_refills(paytable: PayTable,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny refills split games across word blocks; the games must not change."""
    whole = kernel_games(paytable, 9, 300)
    monkeypatch.setattr(dragon_kernel, "READ_WORDS", 101)
    assert kernel_games(paytable, 9, 300) == whole


def test_jackpot_accounting_balances(paytable: PayTable) -> None:
    """Every point paid into the pool is either still in it or was won: pool conservation."""
    records = dragon_kernel.simulate(paytable.rules, 11, 20_000)
    seed = paytable.rules.jackpot_seed_points
    reseeds = int(np.count_nonzero(np.isin(records.winner, (0, 1)))) * seed
    assert seed + int(records.paid_in.sum()) + reseeds - int(records.jackpot_won.sum()) \
        == int(records.pool_after[-1])


def test_best_available_settings_are_legal(paytable: PayTable) -> None:
    records = dragon_kernel.simulate(paytable.rules, 5, 300, best_available=True)
    front, middle, back = records.values[:, 0], records.values[:, 1], records.values[:, 2]
    assert np.all(back >= middle) and np.all(middle >= front)
    house = dragon_kernel.simulate(paytable.rules, 5, 300)
    # same deals: the dealer's and the Dragon's settings are the reference run's
    assert np.array_equal(records.values[:, 3:], house.values[:, 3:])



class DragonThroughTheGameInterface(ReferenceAdapter):
    """The generic plug-in path (what a game without a kernel implements), here for Dragon Poker."""

    game_id = "dragon-poker"
    reference_strategy = HOUSE_WAY

    def initial_pools(self, paytable: Any) -> dict[str, int]:
        return {POOL: paytable.rules.jackpot_seed_points}

    def record(self, tally: Tally, outcome: Outcome, pools_before: Mapping[str, int]) -> None:
        ledger = outcome.summary["ledger"]
        tally.results[ledger["winner"]] += 1
        if ledger["jackpot_won"] and ledger["jackpot_won_by"]:
            tally.jackpot_hits[ledger["jackpot_won_by"]] += 1
            tally.jackpot_won[ledger["jackpot_won_by"]] += ledger["jackpot_won"]
            tally.jackpot_won_squares[ledger["jackpot_won_by"]] += ledger["jackpot_won"] ** 2
        tally.jackpot_paid_in += ledger["player_to_jackpot"] + ledger["house_to_jackpot"]

    def awards(self, paytable: Any) -> tuple[str, ...]:
        return ()

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        return []

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        return ExactFigure("theoretical_max_win", 0, "not needed here")


def test_reference_adapter_tally_equals_the_kernel_tally(paytable: PayTable) -> None:
    reference = DragonThroughTheGameInterface().run_chunk(paytable, HOUSE_WAY, 21, 500)
    kernel = DragonPokerLab().run_chunk(paytable, HOUSE_WAY, 21, 500)
    kernel.awards.clear()
    # The itemised return is named by each path's own outcomes (the generic path by credits returned,
    # the kernel by base-game points and jackpot); both itemise the same total, the rest is identical.
    itemised = ("paid", "paid_times", "paid_games")
    assert sum(reference.paid.values()) == sum(kernel.paid.values()) == sum(
        value * count for value, count in kernel.returns.items())
    assert {k: v for k, v in reference.to_dict().items() if k not in itemised} == \
        {k: v for k, v in kernel.to_dict().items() if k not in itemised}
    assert reference.trace == kernel.trace

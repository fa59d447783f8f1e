"""Crash injection: a cabinet process is killed (SIGKILL) at random instants, again and again.

After every kill the wager memory is booted and checked against a model that replays every game
from the seed: the accounting identity holds, coin in / coin out / won / lost / pools agree with the
replay, the game in progress holds the replayed cards, every ticket is counted once. The next child
then recovers and carries on. CI runs a short version; `--soak` runs a long one.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from egm.clock import FakeClock
from egm.config import PROJECT_ROOT
from egm.games.base import Game, Round, play_reference
from egm.memory.store import WagerMemory
from egm.rng import Rng, derive_seed
from tests.cabinet_support import DrawGame

SEED = 4242
GAMES_PER_RUN = 25
HAND_PAY_LIMIT = 120000  # the generic jurisdiction's


@dataclass(frozen=True)
class Scenario:
    """What a crash child runs, and what the replayed model needs to know about it."""

    argv: tuple[str, ...]  # the command; "{nvram}" stands for the NVRAM directory
    game: Game
    seed: int
    bill_cents: int
    denom_cents: int = 1

    def child(self, nvram: Path, crash_at_commit: int | None = None) -> subprocess.Popen[str]:
        env = {**os.environ, "EGM_CRASH_AT_COMMIT": str(crash_at_commit or "")}
        argv = [str(nvram) if arg == "{nvram}" else arg for arg in self.argv]
        return subprocess.Popen(
            argv, cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    def fresh_round(self, number: int, pools: dict[str, int]) -> Round:
        rng = Rng.from_seed(derive_seed(self.seed, "game", number))
        return self.game.new_round(self.game.default_wager(self.denom_cents), rng, pools)


TEST_GAME = Scenario(
    argv=(sys.executable, "-m", "tests.cabinet_support", "{nvram}", str(SEED), str(GAMES_PER_RUN)),
    game=DrawGame(None),
    seed=SEED,
    bill_cents=500,
)


def replay(scenario: Scenario, games: int) -> tuple[dict[str, int], dict[str, int]]:
    """The meters the first `games` finished games must have produced, and the pools after them."""
    stake = scenario.game.default_wager(scenario.denom_cents).stake_credits
    expected = {"coin_out": 0, "jackpot": 0, "games_won": 0, "games_lost": 0}
    pools: dict[str, int] = {}
    for number in range(1, games + 1):
        round_ = scenario.fresh_round(number, {name: pools.get(name, 0) for name in scenario.game.pool_names})
        outcome = play_reference(round_)
        win_cents = outcome.win_credits * scenario.denom_cents
        expected["jackpot" if win_cents >= HAND_PAY_LIMIT else "coin_out"] += win_cents
        expected["games_won" if outcome.win_credits > stake else "games_lost"] += 1
        pools.update(outcome.pools_cents)
    return expected, pools


def check_memory(scenario: Scenario, nvram: Path) -> int:
    """Boot the memory and check it against the replayed model; returns the games played."""
    memory = WagerMemory.open(nvram, clock=FakeClock(), event_log_size=500, recall_depth=10)
    try:
        meters = memory.meters
        assert meters.balance_error() == 0, meters.totals
        in_progress = memory.get("game")
        finished = meters["games_won"] + meters["games_lost"]
        assert meters["games_played"] == finished + (1 if in_progress else 0)
        stake = scenario.game.default_wager(scenario.denom_cents).stake_credits * scenario.denom_cents
        assert meters["coin_in"] == meters["games_played"] * stake
        expected, pools = replay(scenario, finished)
        assert {name: meters[name] for name in expected} == expected
        assert {k: v for k, v in memory.get("pools", {}).items() if k in pools} == pools
        if in_progress:  # the same cards, at a step the reference strategy reaches
            resumed = scenario.game.restore(in_progress["round"])
            pools_then = {name: pools.get(name, 0) for name in scenario.game.pool_names}
            fresh = scenario.fresh_round(meters["games_played"], pools_then)
            while fresh.step != resumed.step:
                fresh.decide(fresh.reference_decision())
            assert fresh.to_record() == resumed.to_record()
        issued = sum(t["amount_cents"] for t in memory.tickets.values())
        assert meters["tickets_out"] == issued  # each ticket counted once, none lost
        notes = meters.bills_by_denomination.get(str(scenario.bill_cents), 0)
        assert meters["bills_in"] == scenario.bill_cents * notes
        if memory.recall():
            assert memory.recall()[0]["number"] == finished
        return meters["games_played"]
    finally:
        memory.close()


def crash_many_times(scenario: Scenario, nvram: Path, kills: int, rng: random.Random) -> None:
    started = time.monotonic()
    first = scenario.child(nvram)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, out + err
    full_run = time.monotonic() - started
    played = check_memory(scenario, nvram)
    for _ in range(kills):
        proc = scenario.child(nvram)
        time.sleep(rng.uniform(0.1, full_run))
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        played_now = check_memory(scenario, nvram)
        assert played_now >= played
        played = played_now
    last = scenario.child(nvram)
    out, err = last.communicate(timeout=120)
    assert last.returncode == 0, out + err
    report = json.loads(out)
    assert report["state"] == "attract" and report["meters"]["current_credits"] == 0
    assert 2 <= report["meters"]["power_resets"] <= kills + 2  # a kill during start-up boots nothing
    check_memory(scenario, nvram)


def crash_at_commits(scenario: Scenario, nvram: Path, points: list[int]) -> None:
    """Kill the child right after its Nth commit (either copy: so also between the two copies)."""
    first = scenario.child(nvram)
    assert first.wait(timeout=120) == 0
    played = check_memory(scenario, nvram)
    for point in points:
        proc = scenario.child(nvram, crash_at_commit=point)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode in (-signal.SIGKILL, 0), err
        played_now = check_memory(scenario, nvram)
        assert played_now >= played
        played = played_now
    out, err = scenario.child(nvram).communicate(timeout=120)
    assert json.loads(out)["meters"]["current_credits"] == 0, err
    check_memory(scenario, nvram)


def commits_in_a_run(scenario: Scenario, tmp_path: Path) -> int:
    """How many COMMITs a full run makes: each transaction commits both copies."""
    nvram = tmp_path / "count"
    assert scenario.child(nvram).wait(timeout=120) == 0
    memory = WagerMemory.open(nvram, clock=FakeClock(), event_log_size=500, recall_depth=10)
    generation = memory.generation
    memory.close()
    return 2 * generation


def test_crash_injection_short(tmp_path: Path) -> None:
    crash_many_times(TEST_GAME, tmp_path / "nvram", kills=6, rng=random.Random(1))


def test_crash_at_random_commits(tmp_path: Path) -> None:
    rng = random.Random(11)
    total = commits_in_a_run(TEST_GAME, tmp_path)
    crash_at_commits(TEST_GAME, tmp_path / "nvram", sorted(rng.sample(range(1, total), 12)))


@pytest.mark.soak
def test_crash_injection_soak(tmp_path: Path) -> None:
    crash_many_times(TEST_GAME, tmp_path / "nvram", kills=300, rng=random.Random(2))


@pytest.mark.soak
def test_crash_at_every_commit_soak(tmp_path: Path) -> None:
    crash_at_commits(TEST_GAME, tmp_path / "nvram", list(range(1, commits_in_a_run(TEST_GAME, tmp_path))))


def test_recovered_run_reports_what_it_finished(tmp_path: Path) -> None:
    """A child killed mid-sequence (a bill, a game or a cash-out open): the next one says what it
    recovered, and ends balanced. The kill lands at exact commits, so the test never depends on timing."""
    for point in range(1, 200):
        nvram = tmp_path / f"nvram-{point}"
        proc = TEST_GAME.child(nvram, crash_at_commit=point)
        proc.communicate(timeout=120)
        memory = WagerMemory.open(nvram, clock=FakeClock(), event_log_size=500, recall_depth=10)
        pending = [k for k in ("game", "bill", "cashout") if memory.get(k) is not None]
        memory.close()
        if pending:
            break
    assert pending, "no commit of a whole run left a bill, a game or a cash-out open"
    out, _ = TEST_GAME.child(nvram).communicate(timeout=120)
    report = json.loads(out)
    assert report["recovered"], report
    assert report["meters"]["current_credits"] == 0


def test_crash_injection_on_the_real_autoplay(tmp_path: Path, signed_tree) -> None:
    """`egm autoplay` itself, on Dragon Poker and the real ROM check, killed at random instants."""
    from egm.games import game_class
    from egm.rom import load_paytable

    paytable = load_paytable(
        PROJECT_ROOT / "paytables" / "dragon-poker.toml",
        trusted_keys=signed_tree.trusted_keys,
        manifest_path=signed_tree.manifest_path,
    )
    argv = ("autoplay", "--nvram", "{nvram}", "--game", "dragon-poker", "--games", "40", "--seed", "5")
    scenario = Scenario(
        argv=(sys.executable, "-m", "egm.cli", *argv, "--config", str(signed_tree.config_path), "--json"),
        game=game_class("dragon-poker")(paytable),
        seed=5,
        bill_cents=10000,
    )
    crash_many_times(scenario, tmp_path / "nvram", kills=5, rng=random.Random(4))

"""The fault campaigns as tools (issue 13): short forms here, long forms with --soak.

tools/soak.py kills a cabinet process (SIGKILL) at random instants while it plays every installed
game, takes notes and tickets from a simulated ID-003 acceptor and prints tickets on a simulated
printer; after each kill the memory's identity, games and cash box are checked.

tools/nvram_faults.py damages the wager memory on disk in every class (bit and byte flips,
truncation, deletion, swap, restore of each copy, both copies, the WAL files and the seal) and
boots it: nothing may be accepted that is not the committed memory, and nothing may crash.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tools.nvram_faults import fault_classes, run_campaign
from tools.soak import Soak


def check_campaign(tmp_path: Path, trials: int, remote: bool = False) -> None:
    campaign = run_campaign(trials, seed=13, workdir=tmp_path, remote=remote)
    totals = campaign.totals()
    assert totals["UNDETECTED"] == 0 and totals["crash"] == 0, campaign.report()
    assert len(campaign.counts) == len(fault_classes())
    assert all(sum(c.values()) == trials for c in campaign.counts.values())
    assert totals["repaired"] > 0 and totals["RAM error"] > 0  # the campaign reaches both verdicts


def test_nvram_faults_short(tmp_path: Path) -> None:
    check_campaign(tmp_path / "local", trials=2)
    check_campaign(tmp_path / "remote", trials=1, remote=True)  # as many boots as 3 trials took before


@pytest.mark.soak
@pytest.mark.parametrize("remote", [False, True], ids=["local", "remote"])
def test_nvram_faults_soak(tmp_path: Path, remote: bool) -> None:
    check_campaign(tmp_path, trials=100, remote=remote)


def test_the_remote_history_ends_with_a_start_in_flight_and_a_boot_must_bring_it_back(tmp_path: Path) -> None:
    """nvram_faults --remote: the newest snapshot holds a pending start; a boot that lost it (or brought
    back an older one) is UNDETECTED, not "no effect", although the meters are the same."""
    import shutil

    from egm.cabinet.remote_play import PENDING_START
    from tools.nvram_faults import build_history, classify, open_memory

    newest, old, expected = build_history(tmp_path, remote=True)
    assert expected[PENDING_START]["game_number"] == 33 and expected["game"] is None
    trial = tmp_path / "trial"
    shutil.copytree(newest, trial)
    assert classify(trial, expected) == "no effect"
    memory = open_memory(trial)
    with memory.transaction() as tx:  # the pending start gone, the history's last event kept
        tx.set(PENDING_START, None)
        tx.log("history", "tx 100")
    memory.close()
    assert classify(trial, expected) == "UNDETECTED"


def check_soak(tmp_path: Path, kills: int) -> None:
    tally = Soak(tmp_path, random.Random(7), max_run_s=2.5).run(kills)
    assert tally.ok(), tally.problems
    assert tally.kills == kills and tally.games_played > 0 and tally.notes_inserted > 0


def test_kill_soak_short(tmp_path: Path) -> None:
    check_soak(tmp_path, kills=20)


@pytest.mark.soak
def test_kill_soak_long(tmp_path: Path) -> None:
    check_soak(tmp_path, kills=200)


def test_kill_soak_on_a_game_server_checks_the_servers_totals_against_what_is_in_flight() -> None:
    """tools/soak.py --game-server: after a kill the server's totals may be ahead of the cabinet's meters
    only by what the memory holds in flight (a start unanswered; a round the server settled that the
    cabinet has not); anything else is a round lost or paid twice."""
    from egm.cabinet.remote_play import PENDING_START
    from egm.meters import Meters
    from tools.soak_remote import in_flight_differences

    meters = Meters()
    meters.add("games_played", 4)
    meters.add("coin_in", 500)
    meters.add("coin_out", 250)

    def served(played: int = 4, coin_in: int = 500, coin_out: int = 250, open_rounds: int = 0) -> dict:
        return {"games_played": played, "coin_in_cents": coin_in, "coin_out_cents": coin_out,
                "open_rounds": open_rounds}

    start = {PENDING_START: {"wager": {"bet_credits": 5, "stake_credits": 5, "denom_cents": 25,
                                       "side_bets": {}}}}
    game = {"game": {"number": 5}}
    assert in_flight_differences(served(), meters, {}) == []
    assert in_flight_differences(served(5, 625, open_rounds=1), meters, start) == []  # the server has it
    assert in_flight_differences(served(), meters, start) == []  # the start never reached it
    assert in_flight_differences(served(coin_out=400), meters, game) == []  # settled there, not here yet
    assert in_flight_differences(served(open_rounds=1), meters, game) == []
    lost = in_flight_differences(served(5, 625), meters, {})  # a round the cabinet never staked
    assert lost == ["the server counts 5 games and 625 cents in, the cabinet 4 and 500 (a start in flight: "
                    "no)"]
    assert in_flight_differences(served(5, 600, open_rounds=1), meters, start)  # not the pending stake
    assert in_flight_differences(served(6, 750, open_rounds=1), meters, start)  # two rounds for one start
    assert in_flight_differences(served(3, 375), meters, {})  # a round staked here that the server lacks
    paid_twice = in_flight_differences(served(coin_out=100), meters, game)
    assert paid_twice == ["the server counts 100 cents out, the cabinet 250 (a round open on the cabinet: "
                          "yes)"]
    assert in_flight_differences(served(coin_out=400), meters, {})  # a win the cabinet never credited
    assert in_flight_differences(served(open_rounds=1), meters, {}) == [
        "the server holds 1 open rounds, the cabinet 0"]


@pytest.mark.soak
def test_kill_soak_on_a_game_server(tmp_path: Path) -> None:
    tally = Soak(tmp_path, random.Random(30), max_run_s=3.0, game_server=True).run(50)
    assert tally.ok(), tally.problems
    assert tally.kills == 50 and tally.games_played > 0 and tally.windows["start"]["landed"] > 0

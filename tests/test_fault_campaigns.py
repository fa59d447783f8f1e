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


def check_campaign(tmp_path: Path, trials: int) -> None:
    campaign = run_campaign(trials, seed=13, workdir=tmp_path)
    totals = campaign.totals()
    assert totals["UNDETECTED"] == 0 and totals["crash"] == 0, campaign.report()
    assert len(campaign.counts) == len(fault_classes())
    assert all(sum(c.values()) == trials for c in campaign.counts.values())
    assert totals["repaired"] > 0 and totals["RAM error"] > 0  # the campaign reaches both verdicts


def test_nvram_faults_short(tmp_path: Path) -> None:
    check_campaign(tmp_path, trials=3)


@pytest.mark.soak
def test_nvram_faults_soak(tmp_path: Path) -> None:
    check_campaign(tmp_path, trials=100)


def check_soak(tmp_path: Path, kills: int) -> None:
    tally = Soak(tmp_path, random.Random(7), max_run_s=2.5).run(kills)
    assert tally.ok(), tally.problems
    assert tally.kills == kills and tally.games_played > 0 and tally.notes_inserted > 0


def test_kill_soak_short(tmp_path: Path) -> None:
    check_soak(tmp_path, kills=20)


@pytest.mark.soak
def test_kill_soak_long(tmp_path: Path) -> None:
    check_soak(tmp_path, kills=200)

"""The fault campaigns as tools (issue 13): short forms here, long forms with --soak.

tools/nvram_faults.py damages the wager memory on disk in every class (bit and byte flips,
truncation, deletion, swap, restore of each copy, both copies, the WAL files and the seal) and
boots it: nothing may be accepted that is not the committed memory, and nothing may crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.nvram_faults import fault_classes, run_campaign


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

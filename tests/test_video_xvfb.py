"""`egm emulate` in a real X window (Xvfb): a scripted session plays one Dragon Poker hand and cashes
out; the meters in the wager memory show it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.xvfb_support import xvfb

SESSION = """
wait 1.0
key f7          # insert a $100 bill
wait 0.3
key space       # DEAL
wait 0.3
key 1           # hand A for the player
key 2           # hand B for the dealer
key 3           # hand C for the Dragon
key return      # confirm
wait 0.3
key h           # HOUSE WAY
wait 5.5        # the reveal
key c           # CASH OUT
wait 0.5
key escape      # the ticket overlay closes
quit
"""


@pytest.fixture
def x_display() -> Iterator[str]:
    with xvfb() as display:
        yield display


def test_emulate_in_a_real_window_plays_a_scripted_session(
    x_display: str, signed_tree, tmp_path: Path
) -> None:
    script = tmp_path / "session.txt"
    script.write_text(SESSION, encoding="utf-8")
    nvram = tmp_path / "nvram"
    env = {**os.environ, "DISPLAY": x_display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "egm.cli",
            "emulate",
            "--config",
            str(signed_tree.config_path),
            "--nvram",
            str(nvram),
            "--seed",
            "3",
            "--script",
            str(script),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    read = subprocess.run(
        [
            sys.executable,
            "-m",
            "egm.cli",
            "meters",
            "--nvram",
            str(nvram),
            "--config",
            str(signed_tree.config_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    meters = json.loads(read.stdout)["meters"]
    assert meters["bills_in"] == 10000
    assert meters["games_played"] == 1
    assert meters["coin_in"] > 0
    assert meters["current_credits"] == 0
    assert meters["tickets_out"] == 10000 - meters["coin_in"] + meters["coin_out"]

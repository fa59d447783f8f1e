"""The game server's benchmarks still run (a refactor once broke `bench_server.py --terminal` unseen):
each plays a few rounds and prints its JSON figures. Nothing about time is asserted, only that every
figure is there and was measured over the rounds asked for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from egm.config import PROJECT_ROOT

TIMEOUT_S = 900  # a cold server boot on a loaded 2-core machine takes minutes


def bench(tmp_path: Path, script: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, str(PROJECT_ROOT / "benchmarks" / script), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=TIMEOUT_S, env=os.environ)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def positive(figures: dict) -> bool:
    return all(value > 0 for value in figures.values())


@pytest.mark.parametrize("seat", ["player", "terminal"])
def test_bench_server_plays_its_rounds(tmp_path: Path, seat: str) -> None:
    args = ["--rounds", "5", "--db", f"sqlite:///{tmp_path}/b.db"]
    args += ["--terminal"] if seat == "terminal" else []
    figures = bench(tmp_path, "bench_server.py", *args)
    assert figures["rounds"] == 5 and figures["terminal"] == (seat == "terminal")
    assert figures["rounds_per_second"] > 0
    assert positive(figures["start_ms"]) and positive(figures["decide_ms"])
    if seat == "terminal":
        assert positive(figures["signed_request_ms"])


def test_bench_remote_round_plays_local_and_remote_rounds(tmp_path: Path) -> None:
    figures = bench(tmp_path, "bench_remote_round.py", "--rounds", "5", "--split")
    assert figures["rounds"] == 5 and figures["database"] == "sqlite"
    assert positive(figures["local_ms"]) and positive(figures["remote_ms"])
    assert set(figures["added_ms"]) == {"p50", "p99"}
    assert figures["split"]["requests_per_round"] == 3  # Dragon Poker: the start and two decisions
    assert positive(figures["split"]["exchange_ms"])

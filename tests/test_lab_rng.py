"""`egm rng` raw bytes and the `egm lab rng` battery."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from egm.cli import main
from egm.lab.rng_battery import run_battery
from egm.rng import Rng


def raw(*argv: str) -> bytes:
    done = subprocess.run([sys.executable, "-m", "egm.cli", "rng", *argv], capture_output=True, check=True)
    return done.stdout


def test_raw_bytes_are_exactly_n_and_the_seeded_stream() -> None:
    out = raw("--bytes", "100000", "--seed", "3")
    assert len(out) == 100_000
    assert out == Rng.from_seed(3).read(100_000)
    assert raw("--bytes", "1000", "--seed", "3") == out[:1000]


def test_raw_bytes_without_a_seed_come_from_the_os() -> None:
    first, second = raw("--bytes", "64"), raw("--bytes", "64")
    assert len(first) == len(second) == 64 and first != second


def test_raw_bytes_refuse_a_negative_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["rng", "--bytes", "-1"])
    assert stop.value.code == 2 and "negative" in capsys.readouterr().err


def test_battery_passes_the_drbg(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "rng", "--bytes", "200000", "--shuffles", "3000", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["confidence"] == 0.99
    assert [t["test"].split(" (")[0] for t in data["tests"]] == [
        "chi-square", "runs", "serial correlation", "gap", "poker", "card positions"]


class Biased:
    """A broken generator: every byte below 128 with a slight preference for small values."""

    def __init__(self) -> None:
        self._gen = np.random.default_rng(1)

    def read(self, nbytes: int) -> bytes:
        return (self._gen.integers(0, 256, nbytes) // 2).astype(np.uint8).tobytes()


def test_battery_catches_a_broken_stream() -> None:
    results = run_battery(Biased(), Rng.from_seed(1), 100_000, 1000, 0.99)  # type: ignore[arg-type]
    failed = {r.name.split(" (")[0] for r in results if not r.passed}
    assert {"chi-square", "runs", "gap"} <= failed
    assert "card positions" not in failed


def test_battery_refuses_too_few_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "rng", "--bytes", "100", "--seed", "1"]) == 2
    assert "at least" in capsys.readouterr().err

"""dieharder in the RNG battery: the DRBG streamed into `dieharder -g 200` test by test, its pass/weak/fail
per test in the JSON and the PAR sheet, a broken stream failed, and a missing dieharder said in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from egm.cli import main
from egm.lab import dieharder
from egm.rng import Rng, derive_seed
from tests.test_lab_certify import signed_copy  # noqa: F401 (a fixture)

needs_dieharder = pytest.mark.skipif(shutil.which("dieharder") is None,
                                     reason="dieharder is not installed (apt-get install dieharder)")
SMALL = ["lab", "rng", "--bytes", "200000", "--shuffles", "3000", "--seed", "5"]


class Biased:
    """A broken stream: every byte below 128, so seven bits in eight are fair and the top bit is 0."""

    def __init__(self) -> None:
        self._gen = np.random.default_rng(1)

    def readinto(self, buffer: bytearray) -> None:
        buffer[:] = (self._gen.integers(0, 256, len(buffer)) // 2).astype(np.uint8).tobytes()


def rng_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    status = main([*SMALL, *argv, "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


@needs_dieharder
def test_quick_dieharder_tests_pass_the_drbg_with_a_verdict_per_test(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = rng_json(capsys, "--dieharder-tests", "quick")
    assert status == 0 and data["passed"] and data["dieharder"]["passed"]
    tests = data["dieharder"]["tests"]
    assert sorted({t["number"] for t in tests}) == sorted(dieharder.QUICK_TESTS)
    assert [t["test"] for t in tests if t["number"] == 15] == ["diehard_runs", "diehard_runs"]  # two p-values
    assert all(t["assessment"] in ("pass", "weak") and 0 <= t["p_value"] <= 1 for t in tests)
    assert all(t["bytes_streamed"] >= 4 * t["tsamples"] for t in tests if t["number"] in (100, 101))
    assert data["dieharder"]["excluded"].keys() == {"201"}


@needs_dieharder
def test_a_seeded_test_reads_its_own_stream_again() -> None:
    program = dieharder.executable()
    assert program is not None
    stream = dieharder.stream_for(9)
    first = dieharder.run_test(program, 0, None, stream(0, None))
    again = dieharder.run_test(program, 0, None, stream(0, None))
    assert [r.p_value for r in first] == [r.p_value for r in again]
    other = dieharder.run_test(program, 0, None, Rng.from_seed(derive_seed(10, "dieharder", 0, None)))
    assert [r.p_value for r in other] != [r.p_value for r in first]


@needs_dieharder
def test_a_broken_stream_fails() -> None:
    program = dieharder.executable()
    assert program is not None
    (monobit,) = dieharder.run_test(program, 100, None, Biased())  # type: ignore[arg-type]
    assert monobit.test == "sts_monobit" and monobit.assessment == "fail" and monobit.p_value < 1e-6


@needs_dieharder
def test_sweeps_run_one_process_per_ntuple(capsys: pytest.CaptureFixture[str]) -> None:
    status, data, _ = rng_json(capsys, "--dieharder-tests", "202")
    assert status == 0
    assert [(t["test"], t["ntuple"]) for t in data["dieharder"]["tests"]] == [
        ("rgb_permutations", n) for n in (2, 3, 4, 5)]


def test_missing_dieharder_is_one_line_and_the_rest_runs(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nowhere to find dieharder
    status, data, err = rng_json(capsys, "--dieharder")
    assert status == 0 and data["passed"] and len(data["tests"]) == 6
    assert data["dieharder"] == {"installed": False, "passed": None, "weak": 0, "error": None, "tests": [],
                                 "excluded": {"201": dieharder.EXCLUDED[201]}}
    assert err.count("\n") == 1 and "dieharder is not installed" in err


@pytest.mark.parametrize("tests, message", [("201", "left out"), ("42", "not a dieharder test"),
                                            ("1,x", "not a list")])
def test_bad_test_numbers_are_refused(tests: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*SMALL, "--dieharder-tests", tests])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_parse_keeps_dieharders_verdicts() -> None:
    output = ("#==#\n        test_name,ntup,tsamples,psamples,p-value,Assessment\n"
              "   diehard_runs,   0,    100000,     100,0.16769148,  PASSED  \n"
              "   diehard_runs,   0,    100000,     100,0.99844067,   WEAK   \n"
              "   sts_monobit,   1,    100000,     100,0.00000000,  FAILED  \n")
    results = dieharder.parse(15, output, 4096)
    assert [(r.test, r.assessment) for r in results] == [
        ("diehard_runs", "pass"), ("diehard_runs", "weak"), ("sts_monobit", "fail")]


@needs_dieharder
def test_the_par_sheet_carries_each_tests_verdict(signed_copy: Path, tmp_path: Path,  # noqa: F811
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, record, _ = rng_json(capsys, "--dieharder-tests", "0,100")
    assert status == 0
    record_path = tmp_path / "rng.json"
    record_path.write_text(json.dumps(record))
    report = tmp_path / "par.html"
    assert main(["certify", str(signed_copy), "--games", "20000", "--seed", "1", "--best-games", "0",
                 "--rng-results", str(record_path), "--report", str(report), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rng"] == record
    sheet = report.read_text()
    for test in record["dieharder"]["tests"]:
        row = (f"<td>{test['number']}</td><td>{test['test']}</td><td>{test['ntuple']}</td>")
        assert row in sheet and f"<span class='{test['assessment']}'>{test['assessment']}</span>" in sheet
    assert "rgb_minimum_distance" in sheet and "--dieharder-tests 0,100" in sheet


def test_a_record_that_is_not_the_batterys_is_refused(signed_copy: Path, tmp_path: Path,  # noqa: F811
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "rng.json"
    bad.write_text(json.dumps({"passed": True}))
    assert main(["certify", str(signed_copy), "--games", "100", "--rng-results", str(bad)]) == 2
    err = capsys.readouterr().err
    said = err.strip().splitlines()  # what the run was doing, then the refusal in one line
    assert len(said) <= 2 and "not a record written by `egm lab rng --json`" in said[-1]
    assert "rng.json: missing key 'generator'" in err
    assert main(["certify", str(signed_copy), "--rng-results", str(tmp_path / "none.json")]) == 2
    assert "file not found" in capsys.readouterr().err


@pytest.mark.soak
@pytest.mark.timeout(3 * 3600)
@needs_dieharder
def test_full_battery_passes_a_seeded_stream(capsys: pytest.CaptureFixture[str]) -> None:
    """`egm lab rng --bytes 100000000 --dieharder --json`: every test `dieharder -a` runs but 201
    (well over an hour on the shared 2-core machine; see docs/lab.md)."""
    assert main(["lab", "rng", "--bytes", "100000000", "--seed", "1", "--dieharder", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["dieharder"]["passed"]
    tests = data["dieharder"]["tests"]
    assert {t["number"] for t in tests} == set(dieharder.ALL_TESTS)
    assert {(t["number"], t["ntuple"]) for t in tests if t["number"] in dieharder.SWEEPS} == {
        (number, n) for number, ntuples in dieharder.SWEEPS.items() for n in ntuples}
    assert not [t for t in tests if t["assessment"] == "fail"]


class Dying:
    """A stream that breaks after its first megabyte."""

    def __init__(self) -> None:
        self.calls = 0

    def readinto(self, buffer: bytearray) -> None:
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("the stream broke")
        buffer[:] = bytes(len(buffer))


@needs_dieharder
def test_a_stream_that_breaks_ends_the_test_and_is_raised_not_a_hang() -> None:
    program = dieharder.executable()
    assert program is not None
    with pytest.raises(RuntimeError, match="the stream broke"):
        dieharder.run_test(program, 100, None, Dying())  # type: ignore[arg-type]

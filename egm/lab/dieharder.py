"""dieharder, the established external RNG battery (Robert G. Brown; Debian package `dieharder`), on the
cabinet's DRBG.

Each test runs as its own `dieharder -g 200 -d N [-n NTUPLE]` process (generator 200,
`stdin_input_raw`, reads raw 32-bit words from stdin), with the tests and ntuples `dieharder -a`
runs. A thread writes the DRBG stream into its stdin for as long as the test reads, so a test draws
as many bytes as it needs and none rewinds a file and sees the same bytes twice (dieharder's file
generator rewinds at its end). Seeded, each test gets its own stream (`derive_seed(seed,
"dieharder", N, NTUPLE)`), so a run is repeatable test by test whatever the others read.

dieharder's own verdict on each p-value is kept: PASSED, WEAK (p < 0.005 or p > 0.995, dieharder's
`-W` default: a good generator shows one now and then) and FAILED (p < 0.000001 or p > 0.999999,
`-X`: failure beyond reasonable doubt). A run fails when a test fails.

Left out: `rgb_minimum_distance` (-d 201). dieharder 3.31 is known to fail it for /dev/urandom and for
its own AES_OFB generator, so a failure there would say nothing about the generator under test
(docs/lab.md gives what we saw of it here).
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Iterable
from typing import IO, Literal

from egm.config import Strict
from egm.rng import Rng, derive_seed

DIEHARDER = "dieharder"
STDIN_RAW = 200  # dieharder's generator number for raw binary on stdin
EXCLUDED = {
    201: "rgb_minimum_distance: dieharder 3.31 is known to fail it for /dev/urandom and for its own "
    "AES_OFB generator, so its verdict would not speak to the generator under test",
}
# Every test of dieharder 3.31 (`dieharder -l`) but those EXCLUDED: what `dieharder -a` runs.
ALL_TESTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 100, 101, 102,
             200, 202, 203, 204, 205, 206, 207, 208, 209)
# The ntuples `dieharder -a` runs these tests at (one process each); the others run at their default.
SWEEPS = {200: range(1, 13), 202: range(2, 6), 203: range(0, 33)}
QUICK_TESTS = (0, 8, 15, 100, 101, 204, 206)  # a few tests of a second or two each, for CI
OUTPUT = ("-D", "test_name", "-D", "ntuple", "-D", "tsamples", "-D", "psamples", "-D", "pvalues",
          "-D", "assessment", "-c", ",")
ASSESSMENTS = {"PASSED": "pass", "WEAK": "weak", "FAILED": "fail"}
WRITE_BYTES = 1 << 20


class DieharderError(RuntimeError):
    """dieharder could not run a test (it exited with an error or printed no result)."""


class DieharderResult(Strict):
    """One line of dieharder's report: a test (and its ntuple, where it has several) and its p-value."""

    number: int  # the -d test number
    test: str
    ntuple: int
    tsamples: int
    psamples: int
    p_value: float
    assessment: Literal["pass", "weak", "fail"]
    bytes_streamed: int  # DRBG bytes written to the test's stdin (it read at most these)


class DieharderRun(Strict):
    """The dieharder part of the RNG battery's record."""

    installed: bool
    passed: bool | None  # None: dieharder is not installed
    weak: int = 0
    error: str | None = None  # why dieharder stopped, when it could not run a test
    tests: list[DieharderResult]
    excluded: dict[str, str]  # test number -> why it is left out


def executable() -> str | None:
    """The dieharder program on PATH, or None when it is not installed."""
    return shutil.which(DIEHARDER)


def check_tests(numbers: Iterable[int]) -> tuple[int, ...]:
    """The test numbers, checked against dieharder's list; ValueError names a bad one."""
    chosen = tuple(numbers)
    for number in chosen:
        if number in EXCLUDED:
            raise ValueError(f"dieharder test {number} is left out: {EXCLUDED[number]}")
        if number not in ALL_TESTS:
            raise ValueError(f"{number} is not a dieharder test number; see `dieharder -l`")
    if not chosen:
        raise ValueError("name at least one dieharder test")
    return chosen


def parse(number: int, output: str, streamed: int) -> list[DieharderResult]:
    """The result lines of `dieharder ... -c ','` output with the OUTPUT fields; header lines skipped.

    >>> line = "   diehard_birthdays,   0,   100,   100,0.61329381,  PASSED  "
    >>> parse(0, "#====#\\n" + line + "\\n", 4096)[0].assessment
    'pass'
    """
    results = []
    for line in output.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if line.startswith("#") or len(fields) != 6 or fields[5] not in ASSESSMENTS:
            continue
        name, ntuple, tsamples, psamples, p_value, assessment = fields
        results.append(DieharderResult(number=number, test=name, ntuple=int(ntuple), tsamples=int(tsamples),
                                       psamples=int(psamples), p_value=float(p_value),
                                       assessment=ASSESSMENTS[assessment], bytes_streamed=streamed))
    return results


class _Feeder:
    """Writes the DRBG stream into a test's stdin until the test stops reading (it exits). However
    this ends, stdin is closed, so a test never waits for bytes that will not come; a failure of
    the stream itself is kept for the caller to raise."""

    def __init__(self, rng: Rng, stdin: IO[bytes]) -> None:
        self.rng, self.stdin = rng, stdin
        self.written = 0
        self.failure: Exception | None = None

    def run(self) -> None:
        buffer = bytearray(WRITE_BYTES)
        try:
            while True:
                self.rng.readinto(buffer)
                self.stdin.write(buffer)
                self.written += len(buffer)
        except (BrokenPipeError, ValueError, OSError):
            pass  # the test has read all it wanted and closed its end
        except Exception as exc:  # raised again in the calling thread
            self.failure = exc
        finally:
            try:
                self.stdin.close()
            except OSError:
                pass  # already broken: the test has gone


def run_test(program: str, number: int, ntuple: int | None, rng: Rng) -> list[DieharderResult]:
    """Run dieharder test `number` (at `ntuple`, or its default) on `rng`'s stream; its result lines."""
    command = [program, "-g", str(STDIN_RAW), "-d", str(number), *OUTPUT]
    if ntuple is not None:
        command += ["-n", str(ntuple)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    assert process.stdin is not None
    feeder = _Feeder(rng, process.stdin)
    thread = threading.Thread(target=feeder.run, daemon=True)
    thread.start()
    try:
        assert process.stdout is not None
        output = process.stdout.read().decode("ascii", "replace")
        status = process.wait()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        thread.join(timeout=5)
    if feeder.failure is not None:
        raise feeder.failure
    results = parse(number, output, feeder.written)
    if status != 0 or not results:
        detail = output.strip().splitlines()[-1:] or ["no output"]
        raise DieharderError(f"dieharder test {number} did not report (exit status {status}): {detail[0]}")
    return results


def run(program: str, numbers: Iterable[int], rng_for: Callable[[int, int | None], Rng],
        progress: Callable[[DieharderResult], None] | None = None) -> list[DieharderResult]:
    """Run each test (at each of its SWEEPS ntuples) on its own stream `rng_for(number, ntuple)`."""
    results = []
    for number in check_tests(numbers):
        for ntuple in SWEEPS.get(number, [None]):
            for result in run_test(program, number, ntuple, rng_for(number, ntuple)):
                results.append(result)
                if progress is not None:
                    progress(result)
    return results


def stream_for(seed: int | None) -> Callable[[int, int | None], Rng]:
    """Each test's DRBG stream: from the OS, or seeded by `derive_seed(seed, "dieharder", N, NTUPLE)`."""

    def stream(number: int, ntuple: int | None) -> Rng:
        if seed is None:
            return Rng.from_os()
        return Rng.from_seed(derive_seed(seed, "dieharder", number, ntuple))

    return stream


def report(program: str | None, numbers: Iterable[int], seed: int | None,
           progress: Callable[[DieharderResult], None] | None = None) -> DieharderRun:
    """Run the tests: `passed` is false when a test failed or dieharder could not run one, and None
    when dieharder is not installed (`program` None)."""
    excluded = {str(n): why for n, why in EXCLUDED.items()}
    if program is None:
        return DieharderRun(installed=False, passed=None, tests=[], excluded=excluded)
    try:
        found = run(program, numbers, stream_for(seed), progress)
    except DieharderError as exc:
        return DieharderRun(installed=True, passed=False, error=str(exc), tests=[], excluded=excluded)
    return DieharderRun(installed=True, passed=all(r.assessment != "fail" for r in found),
                        weak=sum(r.assessment == "weak" for r in found), tests=found, excluded=excluded)

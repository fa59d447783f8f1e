"""Lab commands: `egm certify`, `egm lab rng` (the RNG battery) and `egm rng` (raw DRBG bytes).

Heavy imports (numba, numpy, matplotlib, dask) stay inside the handlers so `egm --help` stays fast.
Bad input is a one-line error on stderr and exit status 2; an interrupted certification prints what
was done, marked partial, and exits with 130.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from egm.lab.dieharder import DieharderRun
    from egm.rng import Rng

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not positive; give a whole number of 1 or more")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def _test_numbers(text: str) -> tuple[int, ...]:
    from egm.lab.dieharder import QUICK_TESTS, check_tests

    if text == "quick":
        return QUICK_TESTS
    try:
        return check_tests(int(n) for n in text.split(","))
    except ValueError as exc:
        message = str(exc) if "dieharder" in str(exc) else f"'{text}' is not a list of test numbers"
        raise argparse.ArgumentTypeError(message) from None


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("certify", help="certify a pay table: exact analysis, simulation, verdicts",
                              description="Certify a pay table (see docs/lab.md).")
    p.add_argument("paytable", type=Path, help="the pay-table file (it must be signed)")
    p.add_argument("--games", type=_positive, default=None,
                   help="games to simulate (default: the game's own; Dragon Poker 1,000,000)")
    p.add_argument("--seed", type=_non_negative, default=None,
                   help="run seed (default: a fresh one from the OS, printed so the run can be repeated)")
    p.add_argument("--workers", type=_positive, default=None, help="worker processes (default: all cores)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the chunks on this Dask scheduler")
    p.add_argument("--jurisdiction", action="append", default=[], metavar="NAME",
                   help="judge against jurisdictions/NAME.toml (repeatable; default: all)")
    p.add_argument("--best-games", type=_non_negative, default=None, metavar="M",
                   help="games for the bounding strategies (0 skips; default: the game's own, up to N)")
    p.add_argument("--denom-cents", type=_positive, default=None,
                   help="judge hand pays at this denomination only (default: every one and every bet)")
    p.add_argument("--report", type=Path, metavar="FILE.html", help="write a self-contained PAR sheet")
    p.add_argument("--rng-results", type=Path, metavar="FILE.json",
                   help="an `egm lab rng --json` record: its verdicts go in the JSON and the PAR sheet")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=certify_command)

    lab = subparsers.add_parser("lab", help="test-lab tools")
    lab_commands = lab.add_subparsers(dest="lab_command", required=True, metavar="COMMAND")
    r = lab_commands.add_parser("rng", help="run the RNG battery on the cabinet's DRBG")
    r.add_argument("--bytes", type=_positive, default=1_000_000, help="bytes for the byte tests")
    r.add_argument("--shuffles", type=_positive, default=20_000, help="shuffles for the card-position test")
    r.add_argument("--seed", type=_non_negative, default=None, help="seed (default: seeded from the OS)")
    r.add_argument("--jurisdiction", default="generic", help="whose RNG confidence applies (default generic)")
    r.add_argument("--dieharder", action="store_true",
                   help="also run dieharder (-g 200) on the DRBG stream, test by test (see docs/lab.md)")
    r.add_argument("--dieharder-tests", type=_test_numbers, default=None, metavar="N,N,...",
                   help="dieharder test numbers to run (default: all but 201; `quick` for a short set)")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.set_defaults(handler=lab_rng_command)

    raw = subparsers.add_parser("rng", help="write raw DRBG bytes to stdout (for dieharder and the like)")
    raw.add_argument("--bytes", type=_non_negative, required=True, help="how many bytes to write")
    raw.add_argument("--seed", type=_non_negative, default=None, help="seed (default: seeded from the OS)")
    raw.set_defaults(handler=rng_command)


def _emit(write: Callable[[], object]) -> None:
    """Write to stdout; when the reader (e.g. `head`) has had enough, stop quietly."""
    try:
        write()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _error(command: str, message: object) -> int:
    print(f"egm {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def certify_command(args: argparse.Namespace) -> int:
    if not args.json:  # said before the lab's imports (numba, SciPy), which take seconds on a busy machine
        print(f"egm certify: loading the lab, then checking the pay table {args.paytable} against the signed "
              "ROM", file=sys.stderr, flush=True)
    from egm.config import ConfigError
    from egm.lab.adapters import LabError
    from egm.lab.certify import Request, certify
    from egm.lab.text import render_text
    from egm.rom import RomError

    if args.report and not args.report.parent.is_dir():
        return _error("certify", f"cannot write the report: folder {args.report.parent} does not exist")
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    request = Request(paytable_path=args.paytable, games=args.games, seed=seed, workers=args.workers or 0,
                      scheduler=args.scheduler, best_games=args.best_games,
                      jurisdictions=tuple(args.jurisdiction), denom_cents=args.denom_cents,
                      progress=not args.json, rng_results=args.rng_results)
    try:
        result = certify(request)
        if args.report:
            from egm.lab.report import write_report

            write_report(result, args.report)
    except (RomError, ConfigError, LabError, OSError) as exc:
        return _error("certify", exc)
    except KeyboardInterrupt:
        return _error("certify", "stopped before the first chunk finished; nothing to report")
    _emit(lambda: print(json.dumps(result.to_json()) if args.json else render_text(result), flush=True))
    return EXIT_INTERRUPTED if result.partial else 0


def _rng(seed: int | None) -> Rng:
    from egm.rng import Rng

    return Rng.from_os() if seed is None else Rng.from_seed(seed)


def lab_rng_command(args: argparse.Namespace) -> int:
    from egm.config import ConfigError, load_jurisdiction
    from egm.lab.certify import software_version
    from egm.lab.rng_battery import GENERATOR, run_battery
    from egm.lab.rng_record import BatteryRecord, OwnTest
    from egm.rng import Rng, derive_seed

    try:
        confidence = load_jurisdiction(args.jurisdiction).rng_confidence
    except ConfigError as exc:
        return _error("lab rng", exc)
    shuffle_rng = Rng.from_os() if args.seed is None else Rng.from_seed(derive_seed(args.seed, "shuffles"))
    try:
        results = run_battery(_rng(args.seed), shuffle_rng, args.bytes, args.shuffles, confidence)
    except ValueError as exc:
        return _error("lab rng", exc)
    if not args.json:
        seeded = "OS-seeded" if args.seed is None else f"seed {args.seed}"
        print(f"RNG battery: {GENERATOR}, {args.bytes:,} bytes, {seeded}, confidence {confidence:.0%}")
        for r in results:
            print(f"  {'PASS' if r.passed else 'FAIL'}  {r.name:<40} statistic {r.statistic:>12.4f}  "
                  f"({r.detail})  p = {r.p_value:.4f}", flush=True)
    try:
        external = _dieharder(args, text=not args.json) if args.dieharder or args.dieharder_tests else None
    except KeyboardInterrupt:
        print("egm lab rng: stopped during dieharder; no verdict", file=sys.stderr)
        return EXIT_INTERRUPTED
    passed = all(r.passed for r in results) and (external is None or external.passed is not False)
    record = BatteryRecord(generator=GENERATOR, software_version=software_version(), seed=args.seed,
                           bytes=args.bytes, shuffles=args.shuffles, jurisdiction=args.jurisdiction,
                           confidence=confidence, passed=passed,
                           tests=[OwnTest(**r.to_dict()) for r in results], dieharder=external)
    print(record.model_dump_json() if args.json else "all tests passed" if passed else "SOME TESTS FAILED")
    return 0 if passed else 1


def _dieharder(args: argparse.Namespace, text: bool) -> DieharderRun:
    """The chosen dieharder tests on the DRBG, each on its own stream; in text, each result as it
    comes. When dieharder is not installed: one line on stderr, and the record says so."""
    from egm.lab import dieharder

    numbers = args.dieharder_tests or dieharder.ALL_TESTS
    program = dieharder.executable()
    if program is None:
        print("egm lab rng: dieharder is not installed (apt-get install dieharder); "
              "ran the lab's own tests only", file=sys.stderr)
    elif text:
        left_out = "; ".join(f"-d {n} {why}" for n, why in dieharder.EXCLUDED.items())
        print(f"dieharder -g {dieharder.STDIN_RAW} (the DRBG on stdin, one stream per test), "
              f"{len(numbers)} tests; left out: {left_out}", flush=True)

    def show(result: dieharder.DieharderResult) -> None:
        print(f"  {result.assessment.upper():<4}  dieharder -d {result.number:<3} {result.test:<24} "
              f"ntuple {result.ntuple:<2}  p = {result.p_value:.4f}", flush=True)

    run = dieharder.report(program, numbers, args.seed, progress=show if text else None)
    if run.error:
        print(f"egm lab rng: {run.error}", file=sys.stderr)
    return run


def rng_command(args: argparse.Namespace) -> int:
    from egm.rng import BLOCK_BYTES

    rng = _rng(args.seed)
    out = sys.stdout.buffer

    def write() -> None:
        remaining = args.bytes
        while remaining:
            piece = min(remaining, BLOCK_BYTES)
            out.write(rng.read(piece))
            remaining -= piece
        out.flush()

    _emit(write)
    return 0

"""The record of an RNG battery run: what `egm lab rng --json` prints, and what `egm certify
--rng-results FILE` reads back to put the battery's verdicts in the PAR sheet.

One schema for both ways, so a record the lab wrote is a record the PAR sheet can read; anything
else is refused with the file and key named.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from egm.config import Strict, format_validation_error
from egm.lab.adapters import LabError
from egm.lab.dieharder import ALL_TESTS, DieharderRun


class OwnTest(Strict):
    """One of the lab's own tests (`egm/lab/rng_battery.py`)."""

    test: str
    statistic: float
    detail: str
    p_value: float
    passed: bool


class BatteryRecord(Strict):
    generator: str
    software_version: str
    seed: int | None  # None: seeded from the OS
    bytes: int
    shuffles: int
    jurisdiction: str
    confidence: float
    passed: bool
    tests: list[OwnTest]
    dieharder: DieharderRun | None  # None: not asked for

    def reproduce(self) -> str:
        """The command that runs this battery again (the same streams when it was seeded)."""
        command = f"egm lab rng --bytes {self.bytes} --shuffles {self.shuffles}"
        command += f" --jurisdiction {self.jurisdiction}"
        if self.seed is not None:
            command += f" --seed {self.seed}"
        if self.dieharder is not None:
            numbers = tuple(sorted({t.number for t in self.dieharder.tests}))
            command += " --dieharder"
            if numbers and numbers != ALL_TESTS:
                command += f" --dieharder-tests {','.join(map(str, numbers))}"
        return command + " --json"


def load_record(path: Path) -> BatteryRecord:
    """Read a record written by `egm lab rng --json`; LabError naming the file when it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LabError(f"--rng-results {path}: file not found; write it with `egm lab rng --json`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LabError(f"--rng-results {path}: cannot be read ({exc})") from None
    try:
        return BatteryRecord.model_validate_json(text)
    except ValidationError as exc:
        problems = format_validation_error(path, exc).splitlines()
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise LabError(f"--rng-results is not a record written by `egm lab rng --json`: {problems[0]}{more}"
                       ) from None

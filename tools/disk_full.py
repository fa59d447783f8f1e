"""Disk full during play (issue 27): the wager memory on a small tmpfs, filled at different points.

    sudo python tools/disk_full.py [--trials 16] [--smallest-kib 260] [--step-kib 8] [--json]

Needs root (it mounts a tmpfs per trial). Each trial mounts a tmpfs of a different size as the NVRAM
directory, so the disk fills at a different point of play, and then does what the audit did:
  1. `egm autoplay` plays until a commit fails (the RAM-error tilt, "database or disk is full");
  2. the committed memory is read as `egm meters` reads it (credit, game in progress);
  3. reboot: `egm autoplay --games 0`; it carries on (the copies agree with the seal), or stands in
     the RAM-error tilt (the boot's own log could not be written: the disk is still full);
  4. in a RAM error, the operator's RAM clear (at a boot that finds room on the disk again the memory
     carries on and the clear is refused while credit is owed), and its record's credit compared
     with step 2.
A trial is **lost** when the memory that carried on, or the RAM clear's record, shows less credit
kept or paid out (credit on the meter + tickets out + hand-paid credit; the first run never cashes
out) than the credit committed at step 2. Prints one line per trial and the totals; exit 1 if any
trial lost credit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from egm.memory.errors import RamError
from egm.memory.recovery import read_memory

GAME = "dragon-poker"
TIMEOUT_S = 600


def egm(*argv: str) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "egm.cli", *argv, "--json"], capture_output=True, text=True, timeout=TIMEOUT_S
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def committed(nvram: Path) -> tuple[int | None, bool]:
    """(credit, game in progress) of the committed memory, or (None, False) when none is readable."""
    try:
        records = read_memory(nvram).records
    except RamError:
        return None, False
    return int(records["meters"]["current_credits"]), records.get("game") is not None


KEPT_OR_PAID = ("current_credits", "tickets_out", "handpaid_cancelled_credits")


def kept_or_paid(meters: dict[str, Any]) -> int:
    return sum(int(meters.get(k, 0)) for k in KEPT_OR_PAID)


def ram_clear(nvram: Path) -> dict[str, Any]:
    """The operator's RAM clear on a cabinet booted on `nvram`; its log entry."""
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config
    from egm.events import Key, KeyTurned, RamClear

    cabinet = build_cabinet(load_cabinet_config(), nvram)
    cabinet.boot()
    cabinet.handle(KeyTurned(Key.OPERATOR, True))
    result = cabinet.handle(RamClear())
    entry = next((e for e in cabinet.event_log() if e["kind"] == "ram_clear"), None)
    cabinet.close()
    return {"accepted": result.accepted, "reason": result.reason, "entry": entry}


def trial(size_kib: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as mount:
        nvram = Path(mount)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", mount], check=True)
        try:
            play = egm("autoplay", "--nvram", mount, "--game", GAME, "--games", "100000", "--seed", "1")
            credit, game = committed(nvram)
            boot = egm("autoplay", "--nvram", mount, "--game", GAME, "--games", "0", "--seed", "1")
            out: dict[str, Any] = {
                "size_kib": size_kib, "filled": play.get("tilt"), "committed_credit": credit,
                "game_in_progress": game, "reboot": boot.get("tilt") or "carried on",
            }  # fmt: skip
            if boot.get("tilt") is None:
                out["kept_or_paid"] = kept_or_paid(boot["meters"])
            else:
                cleared = ram_clear(nvram)
                out["ram_clear"] = "done" if cleared["accepted"] else f"refused: {cleared['reason']}"
                if cleared["accepted"]:
                    detail = (cleared["entry"] or {}).get("detail", {})
                    out["kept_or_paid"] = kept_or_paid(detail.get("final_meters", {}))
                    out["evidence"] = detail.get("evidence")
                else:  # the disk had room again at that boot: the memory stands, owing the credit
                    out["kept_or_paid"] = kept_or_paid(read_memory(nvram).records["meters"])
            out["lost"] = credit is not None and out["kept_or_paid"] < credit
            return out
        finally:
            subprocess.run(["umount", mount], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--smallest-kib", type=int, default=260)
    parser.add_argument("--step-kib", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [trial(args.smallest_kib + i * args.step_kib) for i in range(args.trials)]
    for r in results:
        print(json.dumps(r, sort_keys=True) if args.json else r)
    carried = sum(r["reboot"] == "carried on" for r in results)
    lost = sum(bool(r["lost"]) for r in results)
    cleared = len(results) - carried
    print(f"trials {len(results)}, carried on at reboot {carried}, RAM clear {cleared}, credit lost {lost}")
    return 1 if lost else 0


if __name__ == "__main__":
    raise SystemExit(main())

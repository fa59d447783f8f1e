"""NVRAM fault campaign: damage the wager memory on disk in every way a disk or a person can, then boot it.

    python tools/nvram_faults.py [--trials 100] [--seed 1] [--remote] [--json]

A memory is built with a history (notes in, games staked and won, each transaction logged), and two
snapshots of its NVRAM directory are kept as a kill -9 leaves it (main files, WAL files, seal): an
old one, and the newest. Each trial copies the newest snapshot, applies one fault to one target,
then opens the memory as a boot does, and classifies what the boot did:

  repaired     the committed memory came back exactly, and a repair was logged
  no effect    the committed memory came back exactly, nothing to repair (e.g. a flip in free space)
  RAM error    the boot refused the memory with RamError (the operator's RAM clear decides)
  UNDETECTED   the boot accepted a memory that is not the committed one (money or games moved)
  crash        the boot failed with anything but RamError

Targets: each copy, both copies, each WAL file, both WAL files, the seal. Faults: a flipped bit, a
byte set to a random value, truncation, deletion, swapping copy A and copy B, and restoring the
target from the old snapshot. The target is 0 UNDETECTED and 0 crash. Exit code 1 otherwise.

With --remote the history is a cabinet's that plays on a game server (egm/cabinet/remote_play.py):
each game is a pending start committed before its request, then coin in committed with the round
record as the reply arrives, then the settlement; the newest snapshot is taken with a start in
flight. A boot must also bring back the pending start and the round record exactly (losing the
pending start would forget a round the server holds; an old one would send a stale request again).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from egm.cabinet.remote_play import PENDING_START
from egm.clock import FakeClock
from egm.memory.copies import COPY_FILES
from egm.memory.errors import RamError
from egm.memory.store import WagerMemory

OUTCOMES = ("repaired", "no effect", "RAM error", "UNDETECTED", "crash")
HISTORY = 100  # transactions in the memory under test (more than one background checkpoint)
OLD_AT = 40  # the old snapshot's transaction
IN_FLIGHT = (PENDING_START, "game")  # records a boot must bring back exactly, with the meters
REMOTE_NOTES_AT = (1, 35, 68)  # --remote: notes between games (none is taken with a start in flight)
A, B = COPY_FILES
TARGETS: dict[str, tuple[str, ...]] = {
    "copy A": (A,),
    "copy B": (B,),
    "both copies": (A, B),
    "WAL A": (f"{A}-wal",),
    "WAL B": (f"{B}-wal",),
    "both WALs": (f"{A}-wal", f"{B}-wal"),
    "seal": ("seal",),
}


def open_memory(directory: Path) -> WagerMemory:
    return WagerMemory.open(directory, clock=FakeClock(), event_log_size=500, recall_depth=10)


def snapshot(src: Path, dst: Path) -> None:
    """Every file of the NVRAM directory as it is now (a kill -9 leaves exactly this)."""
    dst.mkdir(parents=True)
    for path in src.iterdir():
        if path.name != "lock":
            shutil.copyfile(path, dst / path.name)


def build_history(workdir: Path, remote: bool = False) -> tuple[Path, Path, dict[str, Any]]:
    """The newest and the old snapshot, and what the newest one must boot to: the committed meters
    and the records in flight."""
    live = workdir / "live"
    memory = open_memory(live)
    steps = 0  # --remote: game transactions so far
    for i in range(1, HISTORY + 1):
        with memory.transaction() as tx:
            if (i in REMOTE_NOTES_AT) if remote else (i % 10 == 1):
                tx.meters.add_bill(10000)
            elif remote:
                remote_step(tx, steps)
                steps += 1
            else:
                tx.meters.add("coin_in", 100)
                tx.meters.add("current_credits", -100)
                tx.meters.add("games_played", 1)
                if i % 3 == 0:
                    tx.meters.add("coin_out", 250)
                    tx.meters.add("current_credits", 250)
                tx.add_recall({"number": i})
            tx.log("history", f"tx {i}")
        if i == OLD_AT:
            memory.verify()  # copy B has taken it too (it follows on its own thread): reproducible
            snapshot(live, workdir / "old")
    memory.verify()
    snapshot(live, workdir / "newest")
    expected = {"meters": memory.meters.to_record(), **{name: memory.get(name) for name in IN_FLIGHT}}
    memory.close()
    return workdir / "newest", workdir / "old", expected


def remote_step(tx: Any, step: int) -> None:
    """Game transaction `step` of a cabinet on a game server: a start committed before its request,
    the reply (coin in and the round record together), the settlement. The last one is a start."""
    number = step // 3 + 1
    wager = {"bet_credits": 4, "stake_credits": 4, "denom_cents": 25, "side_bets": {}}
    if step % 3 == 0:
        tx.set(PENDING_START, {"terminal_id": "cab-1", "game_number": number, "wager": wager,
                               "request_id": f"cab-1-m-{number}-start", "game_id": "dragon-poker"})
    elif step % 3 == 1:
        tx.meters.add("coin_in", 100)
        tx.meters.add("current_credits", -100)
        tx.meters.add("games_played", 1)
        tx.set("game", {"number": number, "wager": wager, "round": {"round_id": f"r{number}", "step_no": 1}})
        tx.set(PENDING_START, None)
    else:
        tx.meters.add("coin_out", 250)
        tx.meters.add("current_credits", 250)
        tx.add_recall({"number": number})
        tx.set("game", None)


# --- faults: each changes the files of `target` in the trial directory ------------------------------
Fault = Callable[[Path, tuple[str, ...], Path, random.Random], None]


def _existing(trial: Path, names: tuple[str, ...]) -> list[Path]:
    return [trial / n for n in names if (trial / n).exists() and (trial / n).stat().st_size > 0]


def flip_bit(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    for path in _existing(trial, names):
        data = bytearray(path.read_bytes())
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))


def set_byte(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    for path in _existing(trial, names):
        data = bytearray(path.read_bytes())
        at = rng.randrange(len(data))
        data[at] = (data[at] + rng.randrange(1, 256)) % 256  # always a different value
        path.write_bytes(bytes(data))


def truncate(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    for path in _existing(trial, names):
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])


def delete(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    for name in names:
        (trial / name).unlink(missing_ok=True)
        if name in COPY_FILES:  # a copy deleted goes with its WAL and index
            for suffix in ("-wal", "-shm"):
                (trial / f"{name}{suffix}").unlink(missing_ok=True)


def swap(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    """Copy A's files become copy B's and the other way round (whatever the target)."""
    for suffix in ("", "-wal", "-shm"):
        a, b, tmp = trial / f"{A}{suffix}", trial / f"{B}{suffix}", trial / f"swap{suffix}"
        if a.exists():
            a.rename(tmp)
        if b.exists():
            b.rename(a)
        if tmp.exists():
            tmp.rename(b)


def restore(trial: Path, names: tuple[str, ...], old: Path, rng: random.Random) -> None:
    """The target as it was in the old snapshot (a restored backup, a reverted disk image)."""
    for name in names:
        shutil.copyfile(old / name, trial / name)
        if name in COPY_FILES:
            for suffix in ("-wal", "-shm"):
                if (old / f"{name}{suffix}").exists():
                    shutil.copyfile(old / f"{name}{suffix}", trial / f"{name}{suffix}")
                else:
                    (trial / f"{name}{suffix}").unlink(missing_ok=True)


FAULTS: dict[str, Fault] = {
    "bit flip": flip_bit,
    "byte set": set_byte,
    "truncate": truncate,
    "delete": delete,
    "swap A/B": swap,
    "restore old": restore,
}


def fault_classes() -> list[tuple[str, str]]:
    """(fault, target) pairs; swapping is one class (it always involves both copies)."""
    classes = [(f, t) for f in FAULTS for t in TARGETS if f != "swap A/B"]
    return [*classes, ("swap A/B", "both copies")]


# --- one trial -------------------------------------------------------------------------------------
def classify(trial: Path, expected: dict[str, Any]) -> str:
    """Boot the memory in `trial` and say what the boot did with it."""
    try:
        memory = open_memory(trial)
    except RamError:
        return "RAM error"
    except Exception:  # anything but RamError is a crash of the boot
        return "crash"
    try:
        events = memory.events()
        repairs = [e for e in events if e["kind"] == "memory_repaired"]
        history = next((e for e in events if e["kind"] == "history"), None)
        exact = memory.meters.to_record() == expected["meters"] and history is not None
        exact = exact and all(memory.get(name) == expected[name] for name in IN_FLIGHT)
        exact = exact and history["message"] == f"tx {HISTORY}"
    finally:
        memory.close()
    if not exact:
        return "UNDETECTED"
    return "repaired" if repairs else "no effect"


@dataclass
class Campaign:
    counts: dict[tuple[str, str], Counter[str]]

    def totals(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for counts in self.counts.values():
            total.update(counts)
        return total

    def ok(self) -> bool:
        totals = self.totals()
        return totals["UNDETECTED"] == 0 and totals["crash"] == 0

    def report(self) -> str:
        width = max(len(f"{f} / {t}") for f, t in self.counts)
        header = f"{'fault / target':<{width}}  trials  " + "  ".join(OUTCOMES)
        lines = [header]
        for (fault, target), counts in self.counts.items():
            cells = "  ".join(f"{counts[o]:>{len(o)}}" for o in OUTCOMES)
            lines.append(f"{f'{fault} / {target}':<{width}}  {sum(counts.values()):>6}  {cells}")
        totals = self.totals()
        cells = "  ".join(f"{totals[o]:>{len(o)}}" for o in OUTCOMES)
        lines.append(f"{'all':<{width}}  {sum(totals.values()):>6}  {cells}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "classes": [
                {"fault": f, "target": t, **{o: c[o] for o in OUTCOMES}} for (f, t), c in self.counts.items()
            ],
            "totals": {o: self.totals()[o] for o in OUTCOMES},
        }


def run_campaign(trials: int, seed: int, workdir: Path, remote: bool = False) -> Campaign:
    rng = random.Random(seed)
    newest, old, expected = build_history(workdir, remote)
    counts: dict[tuple[str, str], Counter[str]] = {}
    for fault, target in fault_classes():
        counts[(fault, target)] = Counter()
        for n in range(trials):
            trial = workdir / "trial" / f"{fault}-{target}-{n}".replace(" ", "_").replace("/", "")
            shutil.copytree(newest, trial)
            FAULTS[fault](trial, TARGETS[target], old, rng)
            counts[(fault, target)][classify(trial, expected)] += 1
            shutil.rmtree(trial)
    return Campaign(counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100, help="trials per fault class")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--remote", action="store_true", help="a history played on a game server")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        campaign = run_campaign(args.trials, args.seed, Path(tmp), args.remote)
    print(json.dumps(campaign.to_json()) if args.json else campaign.report())
    return 0 if campaign.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())

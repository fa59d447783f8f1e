"""Which copy holds the committed memory (the commit rule), and reading it without a lock.

`plan_recovery` decides, from the checks of both copies and the seal, the copy that is current and
the copies to rebuild from it; `read_memory` is what a reader (`egm meters`, `egm recall`) shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from egm.memory.copies import COPY_FILES, STORAGE_ERRORS, TABLES, CopyCheck, CopyContent, check_copy
from egm.memory.errors import MemoryUnavailable, RamError
from egm.memory.seal import SEAL_FILE, Seal, SealDamaged, read_seal

READ_ATTEMPTS = 50  # a reader retries while a writer's commit moves the seal under it


@dataclass(frozen=True)
class Repair:
    target: int  # index into COPY_FILES
    sentence: str


@dataclass(frozen=True)
class RecoveryPlan:
    """Which copy is current, and the copies to rebuild from it (each with the sentence to log).

    standing_error: the RAM error the seal held (a commit that failed before the seal, or copy B
    that could not be rebuilt), which a current copy makes moot: the boot clears it and logs it.
    """

    source: int
    repairs: tuple[Repair, ...]
    standing_error: str = ""


def plan_recovery(checks: list[CopyCheck], seal: Seal) -> RecoveryPlan:
    """Decide, from the checks of both copies and the seal, which copy holds the committed memory.

    A copy that is intact and at the seal's generation is the committed memory: the other copy is
    rebuilt from it, whatever the other's state (damaged, of another memory, one step either way,
    or far behind: an old copy restored or its WAL lost). Raises RamError when no copy is current,
    or when a copy is more than one transaction ahead of the seal (a seal put back: the truth is
    not known).
    """
    s = seal.generation

    def ours(c: CopyCheck) -> bool:
        return c.ok and c.memory_id == seal.memory_id

    current = [i for i, c in enumerate(checks) if ours(c) and c.generation == s]
    if not current:
        detail = "; ".join(describe(c, seal) for c in checks)
        if seal.ram_error:
            detail = f"{seal.ram_error}; {detail}"
        raise RamError(
            f"wager memory has no copy at the committed generation {s} ({detail}); "
            "an operator RAM clear is required"
        )
    source = current[0]
    good = checks[source].name
    repairs = []
    for i, check in enumerate(checks):
        if i == source or (ours(check) and check.generation == s):
            continue
        if not check.ok:
            sentence = f"{check.name} was damaged ({check.problem}); rebuilt from {good}"
        elif check.memory_id != seal.memory_id:
            sentence = f"{check.name} belongs to another memory (id {check.memory_id}); rebuilt from {good}"
        elif check.generation == s + 1:
            sentence = (
                f"{check.name} held a transaction that was never committed (generation {s + 1}, "
                f"the seal says {s}); rolled back from {good}"
            )
        elif check.generation == s - 1:
            sentence = f"{check.name} was one step behind (generation {s - 1}); rolled forward from {good}"
        elif check.generation < s:
            sentence = (
                f"{check.name} was {s - check.generation} generations behind (generation {check.generation}, "
                f"the seal says {s}: an old copy restored or its WAL lost); rebuilt from {good}"
            )
        else:
            raise RamError(
                f"{describe(check, seal)}: a copy further ahead than one uncommitted transaction means "
                "the seal was put back; an operator RAM clear is required"
            )
        repairs.append(Repair(i, sentence))
    standing = ""
    if seal.ram_error:
        standing = (
            f"the wager memory stood in a RAM error ({seal.ram_error}), but {good} holds the committed "
            f"generation {s} intact: carried on from it"
        )
    return RecoveryPlan(source, tuple(repairs), standing)


def describe(check: CopyCheck, seal: Seal) -> str:
    if not check.ok:
        return f"{check.name}: {check.problem}"
    if check.memory_id != seal.memory_id:
        return f"{check.name}: belongs to another memory (id {check.memory_id})"
    return f"{check.name} is at generation {check.generation}, the seal at {seal.generation}"


def check_location(directory: Path) -> None:
    """Refuse a path that cannot hold a memory, with one sentence; never remove anything."""
    if directory.exists() and not directory.is_dir():
        raise MemoryUnavailable(f"the NVRAM path {directory} is a file, not a directory; give a directory")
    for name in (*COPY_FILES, SEAL_FILE):
        path = directory / name
        if path.exists() and not path.is_file():
            raise MemoryUnavailable(
                f"{path} is not a file (a directory?); wager memory cannot use it: remove it by hand"
            )


def copy_checks(directory: Path, tables: tuple[str, ...], *, load: bool = False) -> list[CopyCheck]:
    return [check_copy(directory / name, tables, load=load) for name in COPY_FILES]


def read_sealed(directory: Path) -> Seal | None:
    try:
        return read_seal(directory)
    except SealDamaged as exc:
        raise RamError(f"{exc}; an operator RAM clear is required") from exc


def read_memory(directory: Path | str) -> CopyContent:
    """What a reader (`egm meters`, `egm recall`) shows: the committed memory, read-only.

    Never writes or repairs: it reads the seal, checks both copies (each in one snapshot), reads
    the seal again, and retries while a running writer's commit moved it. Raises RamError where a
    boot would, and MemoryUnavailable when the directory holds no memory.
    """
    directory = Path(directory)
    check_location(directory)
    try:
        for _ in range(READ_ATTEMPTS):
            seal = read_sealed(directory)
            if seal is None and any((directory / name).exists() for name in COPY_FILES):
                raise RamError("the wager memory's seal is missing; an operator RAM clear is required")
            if seal is None:
                raise MemoryUnavailable(f"{directory} holds no wager memory; check the --nvram path")
            checks = copy_checks(directory, TABLES, load=True)
            if read_sealed(directory) != seal:
                continue
            try:
                plan = plan_recovery(checks, seal)
            except RamError:
                if read_sealed(directory) != seal:
                    continue
                raise
            content = checks[plan.source].content
            assert content is not None
            return content
    except STORAGE_ERRORS as exc:
        raise RamError(f"wager memory could not be read ({exc})") from exc
    raise RamError("wager memory kept changing while it was read; read it again")



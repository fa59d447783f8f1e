"""What a wager memory in RAM error still holds: the best surviving evidence, read read-only.

When no copy agrees with the seal, the memory cannot be trusted and only the operator's RAM clear
ends the tilt. The credit on the meter, the meters and the game in progress are still the player's
and the operator's business: the RAM clear's record keeps them as this module reads them, its screen
shows the credit (and offers a hand pay for it), and `egm meters` shows them marked unverified.

The evidence, best first (nothing here writes, repairs or takes the lock):
  1. an intact copy (every integrity code and the records seal hold) of the sealed memory, the
     nearest at or below the seal's generation (one above it holds a transaction never committed);
     then an intact copy ahead of the seal or of another memory id;
  2. a damaged copy's records whose own integrity code still holds.
"""

from __future__ import annotations

import hmac
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egm.memory.copies import COPY_FILES, GENERATION, CopyCheck, check_copy, connect_read_only, row_mac
from egm.memory.seal import Seal, SealDamaged, read_seal

PENDING = ("bill", "cashout", "handpay")


@dataclass(frozen=True)
class Evidence:
    """The money a memory held, and where it was read (`verified`: the committed memory itself)."""

    source: str
    verified: bool
    meters: dict[str, int]
    game: dict[str, Any] | None = None
    pending: dict[str, Any] = field(default_factory=dict)

    @property
    def credit_cents(self) -> int:
        return int(self.meters.get("current_credits", 0))

    @classmethod
    def from_records(cls, records: dict[str, Any], source: str, *, verified: bool) -> Evidence:
        meters = records.get("meters") or {}
        return cls(
            source=source,
            verified=verified,
            meters={k: int(v) for k, v in meters.items() if isinstance(v, int)},
            game=records.get("game"),
            pending={k: records[k] for k in PENDING if records.get(k) is not None},
        )

    def describe(self) -> dict[str, Any]:
        """As `egm meters` and the cabinet's snapshot show it (JSON-compatible)."""
        return {
            "source": self.source,
            "verified": self.verified,
            "credit_cents": self.credit_cents,
            "meters": self.meters,
            "game_in_progress": self.game,
            "pending": self.pending,
        }


def best_evidence(directory: Path | str) -> Evidence | None:
    """The best surviving evidence of the memory in `directory` (see the module), or None."""
    directory = Path(directory)
    try:
        seal = read_seal(directory)
    except (SealDamaged, OSError):
        seal = None
    checks = [check_copy(directory / name, load=True) for name in COPY_FILES]
    intact = [c for c in checks if c.ok and c.content is not None]
    if intact:
        best = max(intact, key=lambda c: _rank(c, seal))
        assert best.content is not None
        where = f"{best.name} at generation {best.generation}"
        if seal is not None:
            where += f" (the seal at {seal.generation})"
        return Evidence.from_records(best.content.records, f"{where}, intact", verified=False)
    for check in checks:
        records = _records_that_verify(directory / check.name)
        if "meters" in records:
            generation = records.get(GENERATION, {}).get("generation", "unknown")
            source = (
                f"{check.name} ({check.problem}): the records whose own integrity code holds, "
                f"generation {generation}"
            )
            return Evidence.from_records(records, source, verified=False)
    return None


def _rank(check: CopyCheck, seal: Seal | None) -> tuple[bool, bool, int]:
    """Ours first; then at or below the seal (committed), the nearest first; then the least ahead."""
    if seal is None:
        return (True, True, check.generation)
    at_or_below = check.generation <= seal.generation
    return (
        check.memory_id == seal.memory_id,
        at_or_below,
        check.generation if at_or_below else -check.generation,
    )


def _records_that_verify(path: Path) -> dict[str, Any]:
    """A damaged copy's records table, each record kept only if its own integrity code holds."""
    if not path.exists():
        return {}
    try:
        conn = connect_read_only(path)
        try:
            rows = conn.execute("SELECT name, payload, mac FROM records").fetchall()
        finally:
            conn.close()
        return {
            name: json.loads(payload)
            for name, payload, mac in rows
            if hmac.compare_digest(bytes(mac), row_mac("records", name, payload))
        }
    except (sqlite3.Error, ValueError, TypeError):
        return {}

"""Wager memory: the cabinet's critical non-volatile memory, on SQLite (WAL, synchronous=FULL).

Layout. The memory is two copies, `copy-a.db` and `copy-b.db`, in the NVRAM directory. Each holds:
  records  named critical records (meters, game in progress, pending cash-out / bill / hand pay,
           pools, standing tilts, ticket key, generation), one JSON payload each
  tickets  tickets this cabinet issued (kept while redeemable, and always the last 35)
  recall   the last N finished games (N = jurisdiction recall depth)
  events   the event log, a ring of config.event_log_size entries
Every row carries an HMAC-SHA256 integrity code over (table, key, payload).

Transactions. Every money-changing step is one `Transaction`, committed (fsync) to both copies at
once: copy B on a worker thread while copy A commits on the caller's, so the two fsyncs overlap.
Only after both commits does the caller show or acknowledge anything. The `generation` record counts
transactions, so after a power cut between the two commits the newer copy is found intact and rolled
forward onto the older one (the step was never acknowledged, so either outcome is consistent).

Integrity. `WagerMemory.open` and `verify` check both copies (SQLite quick_check, then every MAC).
A damaged or missing copy is rebuilt from the good one and the repair is logged; when no copy is good
`RamError` is raised, and nothing is ever cleared automatically: only `WagerMemory.clear` (the
operator's RAM clear) starts a fresh memory.

The integrity key is fixed in the firmware: it detects damage (a flipped bit, a torn write, a
truncated file), the way an EGM's NVRAM checksums do; the ticket key that makes validation numbers
unguessable is a random per-memory secret kept as a critical record.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egm.clock import Clock
from egm.meters import Meters

COPY_FILES = ("copy-a.db", "copy-b.db")
TABLES = ("records", "tickets", "recall", "events")
TICKETS_KEPT = 35
CHECKPOINT_EVERY = 64  # transactions between background WAL checkpoints
SCHEMA_VERSION = 1
INTEGRITY_KEY = hashlib.sha256(b"EGM wager memory record integrity, schema 1").digest()

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (name TEXT PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS tickets (key TEXT PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS recall (key INTEGER PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS events (key INTEGER PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
"""
GENERATION = "generation"  # the record that counts transactions and seals the records table
KEY_COLUMN = {"records": "name", "tickets": "key", "recall": "key", "events": "key"}


class RamError(Exception):
    """No good copy of wager memory is left: the cabinet tilts until an operator RAM clear."""


class AccountingBreach(Exception):
    """A transaction would break the accounting identity; it was not committed."""


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _mac(table: str, key: object, payload: str) -> bytes:
    message = f"{table}\x1f{key}\x1f{payload}".encode()
    return hmac.new(INTEGRITY_KEY, message, hashlib.sha256).digest()


def _records_digest(macs: dict[str, bytes]) -> str:
    """A digest of the whole records table (every name and MAC but the generation's own): it makes a
    lost or added record as detectable as a damaged one."""
    digest = hashlib.sha256()
    for name in sorted(macs):
        if name != GENERATION:
            digest.update(name.encode() + b"\x1f" + macs[name])
    return digest.hexdigest()


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # B commits on a worker
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run on their own thread, off the commit path
    return conn


@dataclass(frozen=True)
class CopyCheck:
    """The verdict on one copy: good, its generation, or the problem found."""

    name: str
    ok: bool
    generation: int = -1
    problem: str = ""


def check_copy(path: Path, tables: tuple[str, ...] = TABLES) -> CopyCheck:
    """Check one copy on disk: SQLite's own structure check, the schema, and every row's MAC."""
    name = path.name
    if not path.exists():
        return CopyCheck(name, False, problem="the file is missing")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None)
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                return CopyCheck(name, False, problem=f"the database structure is damaged ({verdict})")
            macs: dict[str, bytes] = {}
            for table in tables:
                column = KEY_COLUMN[table]
                for key, payload, mac in conn.execute(f"SELECT {column}, payload, mac FROM {table}"):
                    if not hmac.compare_digest(bytes(mac), _mac(table, key, payload)):
                        return CopyCheck(name, False, problem=f"integrity code wrong in {table} '{key}'")
                    if table == "records":
                        macs[key] = bytes(mac)
            seal = conn.execute("SELECT payload FROM records WHERE name = ?", (GENERATION,)).fetchone()
            if seal is None:
                return CopyCheck(name, False, problem="the generation record is missing")
            seal = json.loads(seal[0])
            if "records" in tables and seal["records_digest"] != _records_digest(macs):
                return CopyCheck(name, False, problem="a critical record is missing or was added")
            return CopyCheck(name, True, generation=int(seal["generation"]))
        finally:
            conn.close()
    except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
        return CopyCheck(name, False, problem=f"unreadable ({exc})")


def _remove_copy(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy_over(good: Path, bad: Path) -> None:
    """Rebuild `bad` as an exact copy of `good` (SQLite's online backup), replacing it atomically."""
    _remove_copy(bad)
    tmp = bad.with_suffix(".rebuild")
    _remove_copy(tmp)
    src = sqlite3.connect(good)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")
    finally:
        src.close()
        dst.close()
    os.replace(tmp, bad)
    _remove_copy(tmp)
    _fsync_dir(bad.parent)


def recover_copies(directory: Path, tables: tuple[str, ...] = TABLES) -> list[str]:
    """Make both copies good and equal, or raise RamError. Returns the repairs made, as sentences."""
    paths = [directory / f for f in COPY_FILES]
    checks = [check_copy(p, tables) for p in paths]
    good = [(c, p) for c, p in zip(checks, paths, strict=True) if c.ok]
    if not good:
        detail = "; ".join(f"{c.name}: {c.problem}" for c in checks)
        raise RamError(f"wager memory has no good copy ({detail}); an operator RAM clear is required")
    best_check, best_path = max(good, key=lambda cp: cp[0].generation)
    repairs = []
    for check, path in zip(checks, paths, strict=True):
        if path == best_path:
            continue
        if not check.ok:
            repairs.append(f"{check.name} was damaged ({check.problem}); rebuilt from {best_check.name}")
        elif check.generation != best_check.generation:
            repairs.append(
                f"{check.name} was one step behind (generation {check.generation}); "
                f"rolled forward from {best_check.name}"
            )
        else:
            continue
        _copy_over(best_path, path)
    return repairs


@dataclass
class Transaction:
    """Staged changes; nothing reaches memory until the `with memory.transaction()` block ends."""

    meters: Meters
    records: dict[str, Any] = field(default_factory=dict)  # value None deletes the record
    events: list[dict[str, Any]] = field(default_factory=list)
    recall: list[dict[str, Any]] = field(default_factory=list)
    tickets: dict[str, dict[str, Any]] = field(default_factory=dict)
    now: str = ""

    def set(self, name: str, value: Any) -> None:
        self.records[name] = value

    def log(self, kind: str, message: str, **detail: Any) -> None:
        self.events.append({"at": self.now, "kind": kind, "message": message, "detail": detail})

    def add_recall(self, record: dict[str, Any]) -> None:
        self.recall.append({"at": self.now, **record})

    def put_ticket(self, validation_number: str, record: dict[str, Any]) -> None:
        self.tickets[validation_number] = record


class WagerMemory:
    """Both copies, opened and checked; the critical records cached for reading.

    Read `meters`, `get(name)` and `tickets`; change them only through `transaction()`.
    """

    def __init__(self, directory: Path, *, clock: Clock, event_log_size: int, recall_depth: int) -> None:
        self.directory = Path(directory)
        self.clock = clock
        self.event_log_size = event_log_size
        self.recall_depth = recall_depth
        self._conns: list[sqlite3.Connection] = []
        self._worker: ThreadPoolExecutor | None = None
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpoint_conns: list[sqlite3.Connection] = []
        self._records: dict[str, Any] = {}
        self._macs: dict[str, bytes] = {}  # of the records as committed, for the table's seal
        self.tickets: dict[str, dict[str, Any]] = {}
        self.meters = Meters()
        self._next_event = 1
        self._next_recall = 1

    # --- opening, checking, clearing -------------------------------------------------------------
    @classmethod
    def open(
        cls, directory: Path | str, *, clock: Clock, event_log_size: int, recall_depth: int
    ) -> WagerMemory:
        """Open the memory in `directory`, creating it when empty, repairing one bad copy.

        Raises RamError when no copy is good (and changes nothing on disk then).
        """
        memory = cls(Path(directory), clock=clock, event_log_size=event_log_size, recall_depth=recall_depth)
        memory.directory.mkdir(parents=True, exist_ok=True)
        if not any((memory.directory / f).exists() for f in COPY_FILES):
            memory._initialise()
            return memory
        repairs = recover_copies(memory.directory)
        memory._connect_and_load()
        for repair in repairs:
            with memory.transaction() as tx:
                tx.log("memory_repaired", repair)
        return memory

    @classmethod
    def clear(
        cls, directory: Path | str, *, clock: Clock, event_log_size: int, recall_depth: int
    ) -> WagerMemory:
        """The operator's RAM clear: both copies are erased and a fresh memory started."""
        for name in COPY_FILES:
            _remove_copy(Path(directory) / name)
        return cls.open(directory, clock=clock, event_log_size=event_log_size, recall_depth=recall_depth)

    def _initialise(self) -> None:
        """Build the first copy in a scratch file, copy it to B, then rename it to A.

        A power cut at any point leaves either no copy (initialise again) or one good copy.
        """
        scratch = self.directory / "copy-init.db"
        _remove_copy(scratch)
        conn = _connect(scratch)
        conn.executescript(SCHEMA)
        self._conns = [conn]
        with self.transaction() as tx:
            tx.set("schema", SCHEMA_VERSION)
            tx.set("ticket_key", secrets.token_hex(32))
            tx.log("memory_initialised", "Wager memory initialised (both copies empty).")
        self.close()  # the last close checkpoints the WAL into the file
        _copy_over(scratch, self.directory / COPY_FILES[1])
        os.replace(scratch, self.directory / COPY_FILES[0])
        _fsync_dir(self.directory)
        self._connect_and_load()

    def _connect_and_load(self) -> None:
        self.close()
        self._conns = [_connect(self.directory / name) for name in COPY_FILES]
        self._checkpoint_conns = [_connect(self.directory / name) for name in COPY_FILES]
        conn = self._conns[0]
        rows = conn.execute("SELECT name, payload, mac FROM records").fetchall()
        self._records = {name: json.loads(payload) for name, payload, _ in rows}
        self._macs = {name: bytes(mac) for name, _, mac in rows}
        self.meters = Meters.from_record(self._records["meters"]) if "meters" in self._records else Meters()
        self.tickets = {k: json.loads(p) for k, p in conn.execute("SELECT key, payload FROM tickets")}
        self._next_event = (conn.execute("SELECT max(key) FROM events").fetchone()[0] or 0) + 1
        self._next_recall = (conn.execute("SELECT max(key) FROM recall").fetchone()[0] or 0) + 1

    def verify(self, *, full: bool = False) -> list[str]:
        """Re-check both copies on disk (critical records only unless full); repair a bad copy.

        Returns the repairs made (already logged). Raises RamError when no copy is good.
        """
        tables = TABLES if full else ("records",)
        checks = [check_copy(self.directory / name, tables) for name in COPY_FILES]
        if all(c.ok for c in checks) and len({c.generation for c in checks}) == 1:
            return []
        self.close()
        repairs = recover_copies(self.directory, tables)
        self._connect_and_load()
        for repair in repairs:
            with self.transaction() as tx:
                tx.log("memory_repaired", repair)
        return repairs

    def close(self) -> None:
        for pool in (self._checkpointer, self._worker):
            if pool is not None:
                pool.shutdown()
        self._checkpointer = self._worker = None
        for conn in self._checkpoint_conns + self._conns:  # the last close checkpoints the WAL fully
            conn.close()
        self._conns, self._checkpoint_conns = [], []

    def _checkpoint(self) -> None:
        for conn in self._checkpoint_conns:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never blocks a writer

    # --- reading ---------------------------------------------------------------------------------
    @property
    def generation(self) -> int:
        return int(self._records.get(GENERATION, {}).get("generation", 0))

    def get(self, name: str, default: Any = None) -> Any:
        return self._records.get(name, default)

    def _read_ring(self, table: str, limit: int | None) -> list[dict[str, Any]]:
        sql = f"SELECT key, payload FROM {table} ORDER BY key DESC"
        rows = self._conns[0].execute(sql + (f" LIMIT {int(limit)}" if limit else ""))
        return [{"seq": key, **json.loads(payload)} for key, payload in rows]

    def recall(self) -> list[dict[str, Any]]:
        """The last N games, newest first."""
        return self._read_ring("recall", None)

    def events(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The event log, newest first."""
        return self._read_ring("events", limit)

    def last_tickets(self) -> list[dict[str, Any]]:
        """The last 35 tickets issued, newest first."""
        ordered = sorted(self.tickets.values(), key=lambda t: t["sequence"], reverse=True)
        return ordered[:TICKETS_KEPT]

    # --- writing ---------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Stage changes in the block; on a clean exit commit them to both copies.

        Raises AccountingBreach (committing nothing) when the meters would break the identity.
        """
        tx = Transaction(meters=self.meters.copy(), now=self.clock.now().isoformat())
        yield tx
        self._commit(tx)

    def _commit(self, tx: Transaction) -> None:
        error = tx.meters.balance_error()
        if error != self.meters.balance_error():  # an error found at boot stands; it must not move
            raise AccountingBreach(
                f"the credit meter would be {error} cents off the accounting identity; not committed"
            )
        records = dict(tx.records)
        records["meters"] = tx.meters.to_record()
        upserts: list[tuple[str, object, str, bytes]] = []  # table, key, payload, MAC
        deletes: list[tuple[str, object]] = []

        def upsert(table: str, key: object, value: Any) -> bytes:
            payload = _dump(value)
            upserts.append((table, key, payload, _mac(table, key, payload)))
            return upserts[-1][3]

        macs = dict(self._macs)
        for name, value in records.items():
            if value is None:
                deletes.append(("records", name))
                macs.pop(name, None)
            else:
                macs[name] = upsert("records", name, value)
        records[GENERATION] = {"generation": self.generation + 1, "records_digest": _records_digest(macs)}
        macs[GENERATION] = upsert("records", GENERATION, records[GENERATION])
        for offset, event in enumerate(tx.events):
            upsert("events", self._next_event + offset, event)
        for offset, game in enumerate(tx.recall):
            upsert("recall", self._next_recall + offset, game)
        tickets = {**self.tickets, **tx.tickets}
        for vn, ticket in tx.tickets.items():
            upsert("tickets", vn, ticket)
        for vn in self._expired_tickets(tickets):
            deletes.append(("tickets", vn))
            del tickets[vn]
        next_event = self._next_event + len(tx.events)
        next_recall = self._next_recall + len(tx.recall)

        def apply(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for table, key, payload, mac in upserts:
                    sql = f"INSERT OR REPLACE INTO {table} ({KEY_COLUMN[table]}, payload, mac) VALUES (?,?,?)"
                    conn.execute(sql, (key, payload, mac))
                for table, key in deletes:
                    conn.execute(f"DELETE FROM {table} WHERE {KEY_COLUMN[table]} = ?", (key,))
                conn.execute("DELETE FROM events WHERE key < ?", (next_event - self.event_log_size,))
                conn.execute("DELETE FROM recall WHERE key < ?", (next_recall - self.recall_depth,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wager-memory-copy-b")
        others = [self._worker.submit(apply, conn) for conn in self._conns[1:]]
        try:
            apply(self._conns[0])
        finally:
            for other in others:
                other.result()  # both copies committed before anything is acknowledged
        for name, value in records.items():
            if value is None:
                self._records.pop(name, None)
            else:
                self._records[name] = json.loads(_dump(value))
        self.meters = tx.meters
        self.tickets = tickets
        self._macs = macs
        self._next_event, self._next_recall = next_event, next_recall
        if self.generation % CHECKPOINT_EVERY == 0 and self._checkpoint_conns:
            if self._checkpointer is None:
                self._checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wager-memory-wal")
            self._checkpointer.submit(self._checkpoint)

    def _expired_tickets(self, tickets: dict[str, dict[str, Any]]) -> list[str]:
        """Tickets no longer worth keeping: outside the last 35 and redeemed or past expiry."""
        now = self.clock.now().isoformat()
        ordered = sorted(tickets.values(), key=lambda t: t["sequence"], reverse=True)
        return [
            t["validation_number"]
            for t in ordered[TICKETS_KEPT:]
            if t["status"] != "issued" or t["expires_at"] < now
        ]

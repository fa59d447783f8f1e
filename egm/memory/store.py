"""Wager memory: the cabinet's critical non-volatile memory, on SQLite (WAL, synchronous=FULL).

Layout. The NVRAM directory holds two copies, `copy-a.db` and `copy-b.db`, a `seal` and a `lock`.
Each copy holds:
  records  named critical records (meters, game in progress, pending cash-out / bill / hand pay,
           pools, standing tilts, ticket key, generation), one JSON payload each
  tickets  tickets this cabinet issued (kept as `egm.memory.ticket_retention` says)
  recall   the last N finished games (N = jurisdiction recall depth)
  events   the event log, a ring of config.event_log_size entries
Every row carries an HMAC-SHA256 integrity code over (table, key, payload). The `generation` record
counts transactions, names the memory (a random memory id) and seals the records table.

The seal (`egm.memory.seal`) keeps the memory id and the committed generation a second time, in a
small file of its own: it is the commit point, and the independent witness checked at every boot.

Transactions (the commit rule, docs/wager-memory.md). A transaction is written to copy A, then the
seal takes its generation (fsync), then copy B. It is committed when the seal holds it; only then
does the caller show or acknowledge anything. Copy B follows on a worker thread; the next
transaction, a check or closing waits for it first, so copy B is at most one transaction behind.
So at boot, with the seal at generation s:
  - a copy at s is current; a copy at s + 1 holds a transaction that was never committed (a power
    cut before the seal) and is rolled back from the other copy; a copy at s - 1 missed the last
    committed transaction (a power cut before copy B) and is rolled forward from the other;
  - a copy further behind (an old copy restored, its WAL lost), damaged or of another memory is
    never adopted: it is rebuilt from the current copy; a copy further ahead means the seal was put
    back, and no current copy at all is a RAM error (`egm.memory.recovery.plan_recovery`).
A storage failure before the seal raises `CommitFailed` (nothing committed; nothing may be
acknowledged); after the seal, copy B is rebuilt from copy A at once. Either failure that cannot be
repaired is persisted in the seal as a RAM error, so a reboot does not adopt a half-made step: it
carries on only from a copy intact at the seal's generation (and logs the error it clears).

Integrity. `WagerMemory.open` and `verify` check both copies (SQLite quick_check, then every MAC).
A damaged or missing copy is rebuilt from the current one and the repair is logged; when no copy is
current `RamError` is raised, and nothing is ever cleared automatically: only `WagerMemory.clear`
(the operator's RAM clear) starts a fresh memory. A directory that never held a memory (no seal and
no copy) is initialised; one that held a memory and lost it is a RAM error.

One writer. The writer holds an exclusive lock on `lock` (flock) while the memory is open; a second
writer is refused with `MemoryBusy`. Readers (`read_memory`: `egm meters`, `egm recall`)
take no lock, open the copies read-only, see one snapshot and never repair.

The integrity key is fixed in the firmware: it detects damage (a flipped bit, a torn write, a
truncated file), the way an EGM's NVRAM checksums do; the ticket key that makes validation numbers
unguessable is a random per-memory secret kept as a critical record.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egm.clock import Clock
from egm.memory import copies
from egm.memory.copies import (
    COPY_FILES,
    GENERATION,
    KEY_COLUMN,
    SCHEMA,
    STORAGE_ERRORS,
    TABLES,
    check_copy,
    copy_over,
    dump,
    records_digest,
    remove_copy,
    row_mac,
)
from egm.memory.errors import AccountingBreach, CommitFailed, MemoryBusy, MemoryUnavailable, RamError
from egm.memory.recovery import (
    RecoveryPlan,
    check_location,
    copy_checks,
    plan_recovery,
    read_sealed,
)
from egm.memory.seal import SEAL_FILE, Seal, SealWriter, fsync_directory
from egm.memory.ticket_retention import CLOCK_RECORD, TICKETS_KEPT, tickets_to_prune, watched
from egm.meters import MeterError, Meters

LOCK_FILE = "lock"
CHECKPOINT_EVERY = 64  # transactions between background WAL checkpoints
SCHEMA_VERSION = 2

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
        self._checkpointer: ThreadPoolExecutor | None = None
        self._mirror_worker: ThreadPoolExecutor | None = None
        self._mirror_job: Future[None] | None = None  # copy B taking the last committed transaction
        self._mirror_generation = 0
        self._checkpoint_conns: list[sqlite3.Connection] = []
        self._records: dict[str, Any] = {}
        self._macs: dict[str, bytes] = {}  # of the records as committed, for the table's seal
        self.tickets: dict[str, dict[str, Any]] = {}
        self.meters = Meters()
        self._next_event = 1
        self._next_recall = 1
        self._seal: Seal | None = None
        self._seal_writer: SealWriter | None = None
        self._lock_fd: int | None = None
        self._failure = ""  # a commit failed half-way: no further transaction
        self._repairs_to_log: list[str] = []

    # --- opening, checking, clearing -------------------------------------------------------------
    @classmethod
    def open(
        cls, directory: Path | str, *, clock: Clock, event_log_size: int, recall_depth: int
    ) -> WagerMemory:
        """Open the memory in `directory` as its one writer: initialise a directory that never held
        a memory, repair one bad copy, roll back an uncommitted or forward a half-copied transaction.

        Raises RamError when no copy is current (and changes nothing on disk then), and
        MemoryUnavailable when the location is unusable or another process writes it.
        """
        memory = cls(Path(directory), clock=clock, event_log_size=event_log_size, recall_depth=recall_depth)
        memory._take_lock()
        try:
            memory._open()
        except STORAGE_ERRORS as exc:
            memory.close()
            raise RamError(
                f"wager memory could not be opened ({exc}); an operator RAM clear is required"
            ) from exc
        except BaseException:
            memory.close()
            raise
        return memory

    def _open(self) -> None:
        seal = read_sealed(self.directory)
        if seal is None:
            self._open_unsealed()
            return
        plan = plan_recovery(copy_checks(self.directory, TABLES), seal)
        self._repair(plan)
        self._connect_and_load(seal)
        if plan.standing_error:  # the copies are sound: the seal stops standing in error with this log
            self._seal = seal.advanced(ram_error="")
            self._repairs_to_log.append(plan.standing_error)
        self._log_repairs()

    def _open_unsealed(self) -> None:
        """No seal: a directory that never held a memory, or an initialisation cut short."""
        present = [name for name in COPY_FILES if (self.directory / name).exists()]
        if present:
            checks = [check_copy(self.directory / name) for name in present]
            if not all(c.ok and c.generation == 1 for c in checks):
                raise RamError(
                    f"the wager memory's seal is missing while {', '.join(present)} hold a memory: "
                    "it was lost or tampered with; an operator RAM clear is required"
                )
        self._initialise()  # nothing of value yet: only an initialisation's first transaction

    @classmethod
    def clear(
        cls, directory: Path | str, *, clock: Clock, event_log_size: int, recall_depth: int
    ) -> WagerMemory:
        """The operator's RAM clear: both copies and the seal are erased and a fresh memory started."""
        memory = cls(Path(directory), clock=clock, event_log_size=event_log_size, recall_depth=recall_depth)
        memory._take_lock()
        try:
            for name in COPY_FILES:
                remove_copy(memory.directory / name)
            (memory.directory / SEAL_FILE).unlink(missing_ok=True)
            memory._initialise()
        except STORAGE_ERRORS as exc:
            memory.close()
            raise RamError(f"the RAM clear could not write wager memory ({exc})") from exc
        except BaseException:
            memory.close()
            raise
        return memory

    def _take_lock(self) -> None:
        check_location(self.directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise MemoryUnavailable(f"the NVRAM directory {self.directory} cannot be used ({exc})") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise MemoryBusy(
                f"the wager memory in {self.directory} is in use by another process; "
                "a memory has one writer: stop the other cabinet first"
            ) from None
        self._lock_fd = fd

    def _initialise(self) -> None:
        """Build the first copy in a scratch file, copy it to B, rename it to A, then write the seal.

        A power cut before the seal leaves no seal and copies holding only this first transaction:
        the next boot initialises again.
        """
        for name in COPY_FILES:  # only ever an unsealed first transaction or a RAM clear's leftovers
            remove_copy(self.directory / name)
        scratch = self.directory / "copy-init.db"
        remove_copy(scratch)
        conn = copies.connect(scratch)
        conn.executescript(SCHEMA)
        self._conns = [conn]
        memory_id = secrets.token_hex(16)
        self._seal = Seal(memory_id, 0, 0)
        with self.transaction() as tx:
            tx.set("schema", SCHEMA_VERSION)
            tx.set("ticket_key", secrets.token_hex(32))
            tx.log("memory_initialised", f"Wager memory {memory_id} initialised (both copies empty).")
        self._close_connections()  # the last close checkpoints the WAL into the file
        copy_over(scratch, self.directory / COPY_FILES[1])
        os.replace(scratch, self.directory / COPY_FILES[0])
        fsync_directory(self.directory)
        self._seal_writer = SealWriter(self.directory)
        seal = Seal(memory_id, self.generation, 1)
        self._seal_writer.write(seal)
        self._connect_and_load(seal)

    def _connect_and_load(self, seal: Seal) -> None:
        self._close_connections()
        self._seal = seal
        if self._seal_writer is None:
            self._seal_writer = SealWriter(self.directory)
        self._conns = [copies.connect(self.directory / name) for name in COPY_FILES]
        self._checkpoint_conns = [copies.connect(self.directory / name) for name in COPY_FILES]
        conn = self._conns[0]
        rows = conn.execute("SELECT name, payload, mac FROM records").fetchall()
        self._records = {name: json.loads(payload) for name, payload, _ in rows}
        self._macs = {name: bytes(mac) for name, _, mac in rows}
        self.meters = Meters.from_record(self._records["meters"]) if "meters" in self._records else Meters()
        self.tickets = {k: json.loads(p) for k, p in conn.execute("SELECT key, payload FROM tickets")}
        self._next_event = (conn.execute("SELECT max(key) FROM events").fetchone()[0] or 0) + 1
        self._next_recall = (conn.execute("SELECT max(key) FROM recall").fetchone()[0] or 0) + 1

    def _repair(self, plan: RecoveryPlan) -> None:
        for repair in plan.repairs:
            copy_over(self.directory / COPY_FILES[plan.source], self.directory / COPY_FILES[repair.target])
            self._repairs_to_log.append(repair.sentence)

    def _log_repairs(self) -> None:
        if self._repairs_to_log:
            with self.transaction():
                pass  # the transaction logs the repairs

    def verify(self, *, full: bool = False) -> list[str]:
        """Re-check both copies and the seal on disk (critical records only unless full); repair a
        bad copy. Returns the repairs made (already logged). Raises RamError when no copy is good."""
        self._await_mirror()
        if self._failure:
            raise RamError(self._failure)
        tables = TABLES if full else ("records",)
        try:
            seal = read_sealed(self.directory)
            if seal is None:
                raise RamError("the wager memory's seal was removed; an operator RAM clear is required")
            plan = plan_recovery(copy_checks(self.directory, tables), seal)
            if not plan.repairs:
                return []
            self._close_connections()
            self._repair(plan)
            self._connect_and_load(seal)
            repairs = list(self._repairs_to_log)
            self._log_repairs()
        except STORAGE_ERRORS as exc:
            raise RamError(
                f"wager memory could not be checked ({exc}); an operator RAM clear is required"
            ) from exc
        return repairs

    def close(self) -> None:
        """Close the copies (the last close checkpoints each WAL fully), the seal, and the lock."""
        with suppress(*STORAGE_ERRORS):
            self._close_connections()
        if self._seal_writer is not None:
            with suppress(OSError):
                self._seal_writer.close()
            self._seal_writer = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def _close_connections(self) -> None:
        self._await_mirror()
        for pool in (self._checkpointer, self._mirror_worker):
            if pool is not None:
                pool.shutdown()
        self._checkpointer = self._mirror_worker = None
        conns, self._conns, self._checkpoint_conns = self._checkpoint_conns + self._conns, [], []
        for conn in conns:
            conn.close()

    def _checkpoint(self) -> None:
        with suppress(*STORAGE_ERRORS):  # a failed checkpoint loses nothing: the WAL keeps the frames
            for conn in self._checkpoint_conns:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never blocks a writer

    # --- reading ---------------------------------------------------------------------------------
    @property
    def generation(self) -> int:
        return int(self._records.get(GENERATION, {}).get("generation", 0))

    @property
    def memory_id(self) -> str:
        return self._seal.memory_id if self._seal else ""

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
        """Stage changes in the block; on a clean exit commit them (copy A, seal, copy B).

        Raises AccountingBreach (committing nothing) when the meters would break the identity, and
        CommitFailed (a RamError: nothing committed) when storage fails before the seal.
        """
        self._await_mirror()  # copy B has the previous transaction before this one reaches copy A
        if self._failure:
            raise RamError(self._failure)
        tx = Transaction(meters=self.meters.copy(), now=self.clock.now().isoformat())
        logged = len(self._repairs_to_log)
        for sentence in self._repairs_to_log:
            tx.log("memory_repaired", sentence)
        try:
            yield tx
        except MeterError as exc:
            raise AccountingBreach(f"{exc}; not committed") from exc
        self._commit(tx)
        del self._repairs_to_log[:logged]  # a repair made during this commit is logged by the next

    def _commit(self, tx: Transaction) -> None:
        breach = tx.meters.breach_since(self.meters)
        if breach:
            raise AccountingBreach(f"{breach}; not committed")
        tickets = {**self.tickets, **tx.tickets}
        watch, pruned = tx.records.get(CLOCK_RECORD), {}
        if watch is None:  # (a transaction that sets the clock gives the watch itself, and prunes nothing)
            watch = watched(self._records.get(CLOCK_RECORD), tx.now)
            pruned = tickets_to_prune(tickets, watch, tx.now)
        for vn, sentence in pruned.items():
            tx.log("ticket_pruned", sentence, validation_number=vn)
        records = dict(tx.records)
        records["meters"] = tx.meters.to_record()
        records[CLOCK_RECORD] = watch
        upserts: list[tuple[str, object, str, bytes]] = []  # table, key, payload, MAC
        deletes: list[tuple[str, object]] = []

        def upsert(table: str, key: object, value: Any) -> bytes:
            payload = dump(value)
            upserts.append((table, key, payload, row_mac(table, key, payload)))
            return upserts[-1][3]

        macs = dict(self._macs)
        for name, value in records.items():
            if value is None:
                deletes.append(("records", name))
                macs.pop(name, None)
            else:
                macs[name] = upsert("records", name, value)
        assert self._seal is not None
        generation = self.generation + 1
        records[GENERATION] = {
            "generation": generation,
            "memory_id": self._seal.memory_id,
            "records_digest": records_digest(macs),
        }
        macs[GENERATION] = upsert("records", GENERATION, records[GENERATION])
        for offset, event in enumerate(tx.events):
            upsert("events", self._next_event + offset, event)
        for offset, game in enumerate(tx.recall):
            upsert("recall", self._next_recall + offset, game)
        for vn, ticket in tx.tickets.items():
            upsert("tickets", vn, ticket)
        for vn in pruned:
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
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise

        seal = self._seal.advanced(generation=generation)
        try:
            apply(self._conns[0])
            if self._seal_writer is not None:  # None only while the first copy is being initialised
                self._seal_writer.write(seal)
        except STORAGE_ERRORS as exc:
            message = (
                f"wager memory write failed before the commit of generation {generation} ({exc}); "
                "the step was not committed"
            )
            self._fail(message)
            raise CommitFailed(f"{message}; an operator RAM clear is required") from exc
        # committed: from here on the step stands, whatever happens to copy B
        for name, value in records.items():
            if value is None:
                self._records.pop(name, None)
            else:
                self._records[name] = json.loads(dump(value))
        self.meters = tx.meters
        self.tickets = tickets
        self._macs = macs
        self._seal = seal if self._seal_writer is not None else self._seal
        self._next_event, self._next_recall = next_event, next_recall
        if len(self._conns) > 1:  # copy B follows on its own thread, while the cabinet carries on
            if self._mirror_worker is None:
                self._mirror_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wager-memory-b")
            self._mirror_generation = generation
            self._mirror_job = self._mirror_worker.submit(apply, self._conns[1])
        if self.generation % CHECKPOINT_EVERY == 0 and self._checkpoint_conns:
            if self._checkpointer is None:
                self._checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wager-memory-wal")
            self._checkpointer.submit(self._checkpoint)

    def _await_mirror(self) -> None:
        """Wait for copy B to take the last committed transaction; when it could not, rebuild it
        from copy A now (the transaction stands: it is in copy A and the seal)."""
        job, self._mirror_job = self._mirror_job, None
        if job is None:
            return
        try:
            job.result()
            return
        except STORAGE_ERRORS as exc:
            problem = f"copy B failed to take generation {self._mirror_generation} ({exc})"
        try:
            self._conns[1].close()
            copy_over(self.directory / COPY_FILES[0], self.directory / COPY_FILES[1])
            self._conns[1] = copies.connect(self.directory / COPY_FILES[1])
            self._repairs_to_log.append(f"{problem}; rebuilt from copy A")
        except STORAGE_ERRORS as exc:
            self._fail(f"{problem} and could not be rebuilt ({exc}); generation {self.generation} stands")

    def _fail(self, message: str) -> None:
        """Refuse every further transaction, and persist the RAM error in the seal for the next boot."""
        self._failure = f"{message}; an operator RAM clear is required"
        if self._seal is None or self._seal_writer is None:
            return
        with suppress(OSError):  # if the seal cannot be written either, the commit rule still holds
            self._seal_writer.write(self._seal.advanced(ram_error=message))

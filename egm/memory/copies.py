"""One copy of the wager memory: its schema, its rows' integrity codes, and the check of a copy on disk.

Every row carries an HMAC-SHA256 integrity code over (table, key, payload); the `generation` record
counts transactions, names the memory and seals the records table (a digest of every record's name
and MAC), so a lost or added record is caught like a damaged one. `check_copy` reads a copy
read-only, in one snapshot; `copy_over` rebuilds a bad copy from a good one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from egm.memory.seal import fsync_directory

COPY_FILES = ("copy-a.db", "copy-b.db")
TABLES = ("records", "tickets", "recall", "events")
INTEGRITY_KEY = hashlib.sha256(b"EGM wager memory record integrity, schema 1").digest()
STORAGE_ERRORS = (sqlite3.Error, OSError)

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (name TEXT PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS tickets (key TEXT PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS recall (key INTEGER PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS events (key INTEGER PRIMARY KEY, payload TEXT NOT NULL, mac BLOB NOT NULL);
"""
GENERATION = "generation"  # the record that counts transactions, names the memory, seals the records
KEY_COLUMN = {"records": "name", "tickets": "key", "recall": "key", "events": "key"}


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def row_mac(table: str, key: object, payload: str) -> bytes:
    message = f"{table}\x1f{key}\x1f{payload}".encode()
    return hmac.new(INTEGRITY_KEY, message, hashlib.sha256).digest()


def records_digest(macs: dict[str, bytes]) -> str:
    """A digest of the whole records table (every name and MAC but the generation's own): it makes a
    lost or added record as detectable as a damaged one."""
    digest = hashlib.sha256()
    for name in sorted(macs):
        if name != GENERATION:
            digest.update(name.encode() + b"\x1f" + macs[name])
    return digest.hexdigest()


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # checkpoints: a thread
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run on their own thread, off the commit path
    return conn


@dataclass(frozen=True)
class CopyContent:
    """One copy's rows as read in one snapshot: what a reader shows."""

    records: dict[str, Any]
    tickets: dict[str, dict[str, Any]]
    recall: list[dict[str, Any]]  # newest first
    events: list[dict[str, Any]]  # newest first


@dataclass(frozen=True)
class CopyCheck:
    """The verdict on one copy: good, its generation and memory id, or the problem found."""

    name: str
    ok: bool
    generation: int = -1
    memory_id: str = ""
    problem: str = ""
    content: CopyContent | None = None


def _rows(rows: list[tuple[Any, str, bytes]]) -> list[dict[str, Any]]:
    return [{"seq": key, **json.loads(payload)} for key, payload, _ in reversed(rows)]


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A reader's connection: read-only; with no WAL file there is no writer, and `immutable` then
    creates no WAL or index file."""
    mode = "mode=ro" if Path(f"{path}-wal").exists() else "immutable=1"
    return sqlite3.connect(f"file:{path}?{mode}", uri=True, isolation_level=None)


def check_copy(path: Path, tables: tuple[str, ...] = TABLES, *, load: bool = False) -> CopyCheck:
    """Check one copy on disk, read-only and in one snapshot: SQLite's own structure check, the
    schema, every row's MAC and the records table's seal. With `load`, keep the rows read."""
    name = path.name
    if not path.exists():
        return CopyCheck(name, False, problem="the file is missing")
    try:
        conn = connect_read_only(path)
        try:
            conn.execute("BEGIN")  # one read snapshot for everything below
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                return CopyCheck(name, False, problem=f"the database structure is damaged ({verdict})")
            macs: dict[str, bytes] = {}
            read: dict[str, list[tuple[Any, str, bytes]]] = {}
            for table in tables:
                column = KEY_COLUMN[table]
                rows = conn.execute(
                    f"SELECT {column}, payload, mac FROM {table} ORDER BY {column}"
                ).fetchall()
                for key, payload, mac in rows:
                    if not hmac.compare_digest(bytes(mac), row_mac(table, key, payload)):
                        return CopyCheck(name, False, problem=f"integrity code wrong in {table} '{key}'")
                    if table == "records":
                        macs[key] = bytes(mac)
                read[table] = rows
            seal = conn.execute("SELECT payload FROM records WHERE name = ?", (GENERATION,)).fetchone()
            conn.execute("COMMIT")
        finally:
            conn.close()
        if seal is None:
            return CopyCheck(name, False, problem="the generation record is missing")
        seal = json.loads(seal[0])
        if "records" in tables and seal["records_digest"] != records_digest(macs):
            return CopyCheck(name, False, problem="a critical record is missing or was added")
        content = None
        if load:
            content = CopyContent(
                records={key: json.loads(payload) for key, payload, _ in read["records"]},
                tickets={key: json.loads(payload) for key, payload, _ in read["tickets"]},
                recall=_rows(read["recall"]),
                events=_rows(read["events"]),
            )
        return CopyCheck(name, True, int(seal["generation"]), str(seal.get("memory_id", "")), content=content)
    except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as exc:
        return CopyCheck(name, False, problem=f"unreadable ({exc})")


def remove_copy(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def copy_over(good: Path, bad: Path) -> None:
    """Rebuild `bad` as an exact copy of `good` (SQLite's online backup), replacing it atomically."""
    remove_copy(bad)
    tmp = bad.with_suffix(".rebuild")
    remove_copy(tmp)
    src = sqlite3.connect(good)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")
    finally:
        src.close()
        dst.close()
    os.replace(tmp, bad)
    remove_copy(tmp)
    fsync_directory(bad.parent)



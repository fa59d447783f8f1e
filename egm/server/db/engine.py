"""Connecting: PostgreSQL through psycopg 3; SQLite with WAL, synchronous=FULL and BEGIN IMMEDIATE writes.

SQLite is the one-process mode: a write transaction takes the database's write lock when it begins
(BEGIN IMMEDIATE), so two requests never both read a balance and then both write it; reads begin
deferred. PostgreSQL writes lock the rows they change (SELECT ... FOR UPDATE), in the order account,
round, pool, so concurrent requests queue rather than deadlock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

T = TypeVar("T")
READ_ONLY = "egm_read_only"
AFTER_COMMIT = "egm_after_commit"


class Database:
    """One engine and the dialect's helpers. `write()` and `read()` are transactions."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back on any exception. Callbacks
        added to `conn.info[AFTER_COMMIT]` run once it has committed (never after a rollback)."""
        after_commit: list[Callable[[], None]] = []
        with self.engine.begin() as conn:
            conn.info[AFTER_COMMIT] = after_commit
            try:
                yield conn
            finally:
                del conn.info[AFTER_COMMIT]
        for callback in after_commit:
            callback()

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(**{READ_ONLY: True}) as conn, conn.begin():
            yield conn

    def dispose(self) -> None:
        self.engine.dispose()


def per_dialect(build: Callable[[Callable[[Any], Any]], T]) -> Callable[[Database], T]:
    """A statement with ON CONFLICT, built once for each dialect's insert and picked by the database.
    The hot paths run statements built once, with bound parameters: building one per call costs
    SQLAlchemy 50-120 us, several times what SQLite takes to run it (docs/cabinet-on-server.md)."""
    built = {True: build(sqlite.insert), False: build(postgresql.insert)}
    return lambda db: built[db.is_sqlite]


def _sqlite_engine(url: Any) -> Engine:
    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=30000"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")

    return engine


def open_database(db_url: str) -> Database:
    """The database at `db_url` (sqlite:///FILE relative to the working directory, or postgresql://)."""
    url = make_url(db_url)
    if url.drivername == "sqlite":
        return Database(_sqlite_engine(url))
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.drivername != "postgresql+psycopg":
        raise ValueError(f"the database URL must be sqlite:///FILE or postgresql://..., not {db_url!r}")
    return Database(create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True))

"""Events: committed changes pushed to websockets (a player's balance and rounds; a live table's board).

A change is published inside the transaction that makes it, and reaches subscribers only once that
transaction has committed:
- with PostgreSQL, `publish` sends `NOTIFY` on the channel inside the transaction (PostgreSQL delivers
  it at commit, never for a rollback), and every instance keeps one dedicated LISTEN connection, outside
  the pool, that hands each notification to its own subscribers. So N instances share every change;
- with SQLite (one process), `publish` delivers to this process's subscribers after the commit.

A notification is small: the channel, a key (an account id, a table id) and a few fields. A subscriber
re-reads what it shows from the database, so a lost notification costs nothing but time: clients
resynchronise from a snapshot (the player's `resume`, the display's whole board on every message).
When the LISTEN connection is lost, every subscriber is told to resynchronise once it is back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, select, text
from sqlalchemy.dialects import postgresql, sqlite

from egm.server.db.engine import AFTER_COMMIT
from egm.server.db.schema import account_event

log = logging.getLogger("egm.server.events")

CHANNELS = ("rgs", "live")  # players' accounts; live tables
RESYNC = {"kind": "resync"}  # sent to every subscriber after the LISTEN connection came back
RECONNECT_S = 1.0


def event_seq(conn: Connection, account_id: int) -> int:
    """The account's newest event number (0 before its first)."""
    seq = conn.execute(select(account_event.c.seq).where(account_event.c.account_id == account_id)).scalar()
    return int(seq or 0)


class Subscription:
    """One websocket's queue of notifications for one (channel, key)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def deliver(self, message: dict[str, Any]) -> None:
        """From any thread: queue the message on the subscriber's event loop."""
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)
        except RuntimeError:  # its loop has closed: the websocket is gone
            pass


class Hub:
    """This process's subscribers, fed after commit (SQLite) or by the LISTEN connection (PostgreSQL)."""

    def __init__(self) -> None:
        self._subscribers: dict[tuple[str, str], set[Subscription]] = defaultdict(set)
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    # --- publishing, inside the committing transaction -------------------------------------------------
    def publish(self, conn: Connection, account_id: int, kind: str, payload: dict[str, Any]) -> None:
        """A player's account changed (`kind` "balance", "round" or "reality_check"): the message
        carries the account's next event number, so a client can tell that it missed one."""
        table = account_event
        insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)
        seq = conn.execute(insert.values(account_id=account_id, seq=1).on_conflict_do_update(
            index_elements=[table.c.account_id], set_={"seq": table.c.seq + 1},
        ).returning(table.c.seq)).scalar_one()
        self.notify(conn, "rgs", account_id, {"kind": kind, "seq": int(seq), **payload})

    def notify(self, conn: Connection, channel: str, key: int | str, message: dict[str, Any]) -> None:
        message = {**message, "at": round(time.time(), 6)}  # when it was sent: push latency is measurable
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": channel, "payload": json.dumps({"key": str(key), **message})})
            return
        conn.info[AFTER_COMMIT].append(lambda: self.deliver(channel, str(key), message))

    # --- subscribing ----------------------------------------------------------------------------------
    @contextmanager
    def subscribe(self, channel: str, key: int | str) -> Iterator[Subscription]:
        """A subscription for the calling event loop, removed when the block ends."""
        subscription = Subscription(asyncio.get_running_loop())
        with self._lock:
            self._subscribers[(channel, str(key))].add(subscription)
        try:
            yield subscription
        finally:
            with self._lock:
                self._subscribers[(channel, str(key))].discard(subscription)

    def deliver(self, channel: str, key: str, message: dict[str, Any]) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get((channel, key), ()))
        for subscription in subscribers:
            subscription.deliver(message)

    def _deliver_everyone(self, message: dict[str, Any]) -> None:
        with self._lock:
            subscribers = [s for group in self._subscribers.values() for s in group]
        for subscription in subscribers:
            subscription.deliver(message)

    # --- the PostgreSQL listener ----------------------------------------------------------------------
    def listen(self, conninfo: str) -> None:
        """Start this instance's LISTEN connection (PostgreSQL only) in a daemon thread."""
        self._listener = threading.Thread(target=self._listen_forever, args=(conninfo,),
                                          name="egm-server-listen", daemon=True)
        self._listener.start()

    def close(self) -> None:
        self._stop.set()

    def _listen_forever(self, conninfo: str) -> None:
        import psycopg  # the PostgreSQL driver: only an instance on PostgreSQL needs it

        lost = False
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    for channel in CHANNELS:
                        conn.execute(f"LISTEN {channel}")
                    if lost:  # whatever was notified while we were away: resynchronise
                        self._deliver_everyone(RESYNC)
                        lost = False
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            message = json.loads(notice.payload)
                            self.deliver(notice.channel, message.pop("key"), message)
            except Exception as exc:  # the database went away: keep trying, quietly
                if not lost:
                    log.warning("LISTEN connection lost (%s); reconnecting", exc)
                lost = True
                self._stop.wait(RECONNECT_S)

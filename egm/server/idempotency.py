"""Idempotent requests: every money request carries the client's request_id.

The key (account, request_id) is claimed inside the request's own transaction, after the account row
is locked (INSERT ... ON CONFLICT DO NOTHING), and the reply's exact bytes are stored in the same
transaction. So a retry of the same request gets the stored reply byte for byte and moves no money, a
concurrent duplicate waits on the account and then reads the reply, the same id with another body is a
409, and a request that failed (and rolled back) leaves its key free for the retry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select, update

from egm.server.db import Database
from egm.server.db.engine import per_dialect
from egm.server.db.schema import idempotency
from egm.server.errors import ApiError


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes


def reply(status: int, payload: Any) -> Reply:
    return Reply(status, json.dumps(payload, separators=(",", ":")).encode())


def request_digest(route: str, body: Any) -> str:
    """The SHA-256 of the route and the body's canonical JSON (key order and spacing do not count)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{route}\n{canonical}".encode()).hexdigest()


CLAIM = per_dialect(lambda insert: insert(idempotency)
                    .on_conflict_do_nothing(index_elements=["account_id", "request_id"])
                    .returning(idempotency.c.request_id))
THIS_KEY = and_(idempotency.c.account_id == bindparam("key_account"),
                idempotency.c.request_id == bindparam("key_request"))
STORED = select(idempotency).where(THIS_KEY)
STORE = update(idempotency).where(THIS_KEY)


class Key:
    """One claimed request key, inside one write transaction."""

    def __init__(self, db: Database, conn: Connection, account_id: int, request_id: str) -> None:
        self.conn, self.account_id, self.request_id, self._db = conn, account_id, request_id, db

    def claim(self, digest: str, now: int) -> Reply | None:
        """Claim the key (None), or return the stored reply of the same request; 409 for another."""
        claimed = self.conn.execute(CLAIM(self._db), {
            "account_id": self.account_id, "request_id": self.request_id, "request_sha256": digest,
            "status": 0, "reply": "", "at": now}).first()
        if claimed is not None:
            return None
        row = self.conn.execute(STORED, self._key()).one()
        if row.request_sha256 != digest:
            raise ApiError(409, "request_id_reused", f"The request_id '{self.request_id}' was already used "
                           "for another request; use a new request_id for a new request.")
        return Reply(row.status, row.reply.encode())

    def store(self, answer: Reply) -> Reply:
        self.conn.execute(STORE, {**self._key(), "status": answer.status, "reply": answer.body.decode()})
        return answer

    def _key(self) -> dict[str, Any]:
        return {"key_account": self.account_id, "key_request": self.request_id}

"""The replay window of terminal requests: a nonce a terminal signed is used once.

A served request claims its nonce inside its own transaction (`claim`), so the nonce and what the
request did commit together, in one fsync: two copies sent at once serialise on the unique key and the
second is refused as `replayed`, with everything it did rolled back. A request that is refused (a 409,
a 422, a fault) rolls back, nonce included, so its nonce is then burned in a transaction of its own
(`burn`): a refused request cannot be replayed later either. Nonces signed more than the window ago are
pruned: a request that old is refused as stale anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, and_, bindparam, delete

from egm.server.db import Database
from egm.server.db.engine import per_dialect
from egm.server.db.schema import terminal_nonce
from egm.server.errors import ApiError
from egm.terminal_link.signing import WINDOW_S


@dataclass(frozen=True)
class Nonce:
    """A verified request's nonce, not yet claimed. terminal_row: the terminal's row id; now: the
    server's clock when the request was verified."""

    terminal_row: int
    terminal_id: str
    value: str
    signed_at: int
    now: int


PRUNE = delete(terminal_nonce).where(and_(terminal_nonce.c.terminal_id == bindparam("terminal_row"),
                                          terminal_nonce.c.signed_at < bindparam("before")))
CLAIM = per_dialect(lambda insert: insert(terminal_nonce)
                    .on_conflict_do_nothing(index_elements=["terminal_id", "nonce"])
                    .returning(terminal_nonce.c.nonce))


def claim(db: Database, conn: Connection, nonce: Nonce) -> None:
    """Record the nonce in the caller's transaction; 401 replayed when this terminal used it already."""
    conn.execute(PRUNE, {"terminal_row": nonce.terminal_row, "before": nonce.now - WINDOW_S})
    claimed = conn.execute(CLAIM(db), {"terminal_id": nonce.terminal_row, "nonce": nonce.value,
                                       "signed_at": nonce.signed_at}).first()
    if claimed is None:
        raise ApiError(401, "replayed", f"This request's nonce was already used by terminal "
                       f"'{nonce.terminal_id}' within the last {WINDOW_S} s: a replay is refused and "
                       "nothing was done; sign each request with a new nonce.")


def burn(db: Database, nonce: Nonce) -> None:
    """Claim the nonce of a refused request in its own transaction; 401 replayed when it was used
    already (a replay is refused as such, whatever else it would have been refused for)."""
    with db.write() as conn:
        claim(db, conn, nonce)

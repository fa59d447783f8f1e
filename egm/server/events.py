"""Events: balance and round changes published to the player's websocket.

SEAM, filled by engineer "server-rt" (issue 25): a per-process hub that the websocket /ws subscribes to,
and with PostgreSQL a NOTIFY on channel `rgs` sent here (inside the committing transaction, so a
notification exists only for a committed change) and a dedicated LISTEN connection that feeds the hub.
Every message carries a per-account sequence number; a client that misses one asks for a snapshot, so
correctness never depends on a push.

The server calls `publish` inside each committing write transaction. Until the hub exists it does
nothing (`Hub`), which is correct: every change is also in the replies and the snapshot routes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection


class Hub:
    """The in-process hub: no subscribers yet, so a publication goes nowhere."""

    def publish(self, conn: Connection, account_id: int, kind: str, payload: dict[str, Any]) -> None:
        """Publish `kind` ("balance" or "round") for `account_id`, inside the transaction `conn`."""

"""How long wager memory keeps the record of a ticket this cabinet issued.

A ticket's record is what lets the cabinet honour it, and refuse it a second time, so it is never
deleted because a clock moved. It is kept, redeemed or not, while it is one of the last
TICKETS_KEPT issued, or until it has been past its expiry for TICKET_PRUNE_AFTER by a clock that
has not moved since. The `ticket_clock` record watches the clock for that:
  steady_since  when the wait may start at the earliest: the first commit of this memory, the last
                date and time set (Settings or SAS 0x7F, either way: a mistake forward is as
                likely as one back), or the last commit that saw the clock earlier than before;
  latest        the latest time a commit saw, to see the clock go backwards.
So a clock set two years forward by mistake and put right deletes nothing; one left wrong prunes
only after the wait, and every prune is logged with the ticket's number, amount and expiry.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

TICKETS_KEPT = 35  # always kept, whatever their dates: SAS 0x4D reads the last 32
TICKET_PRUNE_AFTER = timedelta(days=30)
CLOCK_RECORD = "ticket_clock"


def clock_set(new: datetime) -> dict[str, str]:
    """The watch after the cabinet's date and time was set to `new`: the wait starts again."""
    return {"steady_since": new.isoformat(), "latest": new.isoformat()}


def watched(record: Mapping[str, str] | None, now: str) -> dict[str, str]:
    """The watch after a commit at `now` (ISO): a clock earlier than the latest seen starts the wait again."""
    if record is None or datetime.fromisoformat(now) < datetime.fromisoformat(record["latest"]):
        return {"steady_since": now, "latest": now}
    return {"steady_since": record["steady_since"], "latest": now}


def tickets_to_prune(
    tickets: Mapping[str, Mapping[str, Any]], watch: Mapping[str, str], now: str
) -> dict[str, str]:
    """Validation number -> the log sentence, for each ticket whose record may go now."""
    at, since = datetime.fromisoformat(now), datetime.fromisoformat(watch["steady_since"])
    ordered = sorted(tickets.values(), key=lambda t: t["sequence"], reverse=True)
    pruned = {}
    for ticket in ordered[TICKETS_KEPT:]:
        expired = datetime.fromisoformat(ticket["expires_at"])
        if at - max(expired, since) >= TICKET_PRUNE_AFTER:
            pruned[ticket["validation_number"]] = (
                f"Ticket {ticket['validation_number']} for {ticket['amount_cents']} cents "
                f"({ticket['status']}, sequence {ticket['sequence']}) expired on {ticket['expires_at']}: "
                f"its record is pruned, {TICKET_PRUNE_AFTER.days} days after that on a steady clock."
            )
    return pruned

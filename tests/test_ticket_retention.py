"""Issue 27, defect 2: a clock set forward by mistake, then corrected, must not delete tickets.

Wager memory keeps every ticket this cabinet issued (redeemed or not) until it has been past its
expiry for TICKET_PRUNE_AFTER by a clock that has not moved since: a clock set (Settings, SAS 0x7F)
or seen going backwards starts that wait again. Every prune is logged.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from egm.clock import FakeClock
from egm.events import CashOut, Key, KeyTurned, SetDateTime
from egm.memory.ticket_retention import TICKET_PRUNE_AFTER
from tests.cabinet_support import make_cabinet

START = datetime(2026, 1, 1, 8, 30, tzinfo=UTC)


def issue_tickets(cabinet: Any, count: int) -> list[dict[str, Any]]:
    for _ in range(count):
        cabinet.devices.bill_acceptor.insert_bill(500)
        cabinet.poll_devices()
        assert cabinet.handle(CashOut()).accepted
        cabinet.poll_devices()
    return sorted(cabinet.memory.tickets.values(), key=lambda t: t["sequence"])


def set_clock(cabinet: Any, when: datetime) -> None:
    assert cabinet.handle(KeyTurned(Key.OPERATOR, True)).accepted
    assert cabinet.handle(SetDateTime(when.year, when.month, when.day, when.hour, when.minute)).accepted
    assert cabinet.handle(KeyTurned(Key.OPERATOR, False)).accepted


def redeem(cabinet: Any, ticket: dict[str, Any]) -> Any:
    cabinet.devices.bill_acceptor.insert_ticket(ticket["validation_number"], ticket["amount_cents"])
    return cabinet.poll_devices()[0]


def test_a_clock_set_forward_then_corrected_deletes_no_ticket(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = make_cabinet(tmp_path, clock=clock)
    cabinet.boot()
    tickets = issue_tickets(cabinet, 40)
    assert len(cabinet.memory.tickets) == 40
    assert cabinet.handle(KeyTurned(Key.OPERATOR, True)).accepted
    assert cabinet.handle(SetDateTime(2028, 1, 1, 8, 30)).accepted  # two years forward by mistake
    assert cabinet.handle(SetDateTime(2026, 1, 1, 8, 31)).accepted  # put right in the same visit
    assert cabinet.handle(KeyTurned(Key.OPERATOR, False)).accepted
    assert len(cabinet.memory.tickets) == 40
    result = redeem(cabinet, tickets[0])
    assert result.accepted, result.reason
    cabinet.poll_devices()
    assert cabinet.credits_cents == 500
    assert not [e for e in cabinet.event_log() if e["kind"] == "ticket_pruned"]


def test_a_mistake_left_standing_prunes_only_after_the_wait(tmp_path: Path) -> None:
    """Set forward and left: nothing goes until the clock has run TICKET_PRUNE_AFTER from the set."""
    clock = FakeClock(start=START)
    cabinet = make_cabinet(tmp_path, clock=clock)
    cabinet.boot()
    tickets = issue_tickets(cabinet, 37)
    set_clock(cabinet, datetime(2028, 1, 1, 8, 30, tzinfo=UTC))
    clock.advance((TICKET_PRUNE_AFTER - timedelta(hours=1)).total_seconds())
    issue_tickets(cabinet, 1)
    assert len(cabinet.memory.tickets) == 38  # not yet
    clock.advance(timedelta(hours=2).total_seconds())
    issue_tickets(cabinet, 1)
    pruned = [e for e in cabinet.event_log() if e["kind"] == "ticket_pruned"]
    # the oldest four are outside the last 35, and long expired by a clock steady for the wait
    assert sorted(e["detail"]["validation_number"] for e in pruned) == sorted(
        t["validation_number"] for t in tickets[:4])
    assert len(cabinet.memory.tickets) == 35
    assert all("expired on" in e["message"] for e in pruned)


def test_a_clock_seen_going_backwards_starts_the_wait_again(tmp_path: Path) -> None:
    """The system clock itself steps back (no Settings change): the wait starts again from then."""
    clock = FakeClock(start=START)
    cabinet = make_cabinet(tmp_path, clock=clock)
    cabinet.boot()
    issue_tickets(cabinet, 36)  # they expire 30 days on
    clock.advance((timedelta(days=30) + TICKET_PRUNE_AFTER - timedelta(hours=1)).total_seconds())
    issue_tickets(cabinet, 1)
    assert len(cabinet.memory.tickets) == 37  # expired, but not yet for the wait
    clock.start -= timedelta(days=1)  # the system clock steps back a day
    issue_tickets(cabinet, 1)
    clock.advance(timedelta(days=1, hours=2).total_seconds())  # past the wait by the clock's dates...
    issue_tickets(cabinet, 1)
    assert len(cabinet.memory.tickets) == 39  # ...but not since it stepped back
    clock.advance(TICKET_PRUNE_AFTER.total_seconds())
    issue_tickets(cabinet, 1)
    assert len(cabinet.memory.tickets) == 35

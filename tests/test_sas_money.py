"""Issue 27: the host's money moves within the cabinet's limits, over the wire.

Defect 2 (0x7F deletes no ticket), 3 (a host redemption the cabinet cannot credit is refused with
0x84 before the ticket is stacked), 4 (one credit limit for bills, tickets, host tickets and AFT),
5 (a ticket of this cabinet's own already redeemed is refused whatever the host says: a host fault,
exception 0x20), and AFT transaction ids refused for the transfer log's life.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from egm.events import CashOut
from egm.host import exceptions as x
from tests.test_sas_cabinet import BARCODE, Rig, insert_bill


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    wire = Rig(tmp_path / "nvram")
    yield wire
    wire.stop()


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Rig]:
    """A cabinet whose credit limit is $150."""
    wire = Rig(tmp_path / "nvram", cabinet={"credit_limit_cents": 15000})
    yield wire
    wire.stop()


def escrow_ticket(rig: Rig, barcode: str = BARCODE) -> None:
    rig.drain()  # the host is polling: the link is up
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(barcode))
    assert rig.host.ticket_in_escrow() == (0x00, 0, barcode)


def escrow_and_tickets_stacked(rig: Rig) -> tuple[Any, list[str]]:
    acceptor = rig.do(lambda c: c.devices.bill_acceptor)
    return rig.do(lambda c: (acceptor.escrow, [s.barcode for s in acceptor.stacked if s.barcode]))


def cash_out_own_ticket(rig: Rig, cents: int) -> dict[str, Any]:
    """Under cabinet validation: a bill in, CASH OUT, the ticket this cabinet numbered."""
    insert_bill(rig, cents)

    def cash_out(c: Any) -> dict[str, Any]:
        assert c.handle(CashOut()).accepted
        c.poll_devices()
        return dict(c.memory.last_tickets()[0])

    return rig.do(cash_out)


# --- defect 3 --------------------------------------------------------------------------------------
def test_a_host_redemption_the_cabinet_cannot_credit_is_refused_before_the_stack(rig: Rig) -> None:
    insert_bill(rig, 500)
    escrow_ticket(rig)
    assert rig.host.redeem(0x00, 9_999_999_999, BARCODE) == (0x84, 9_999_999_999)  # past the meter's digits
    assert escrow_and_tickets_stacked(rig) == (None, [])  # returned, never stacked
    assert rig.do(lambda c: (c.tilt, c.state)) == (None, "attract")
    assert rig.meters()["current_credits"] == 500 and rig.meters()["tickets_in"] == 0
    rig.host.sync()
    assert rig.host.redeem(0xFF, 0, "") == (0x84, 0)  # how it ended, asked again
    insert_bill(rig, 500)  # the cabinet still takes money
    assert rig.meters()["current_credits"] == 1000


# --- defect 4 --------------------------------------------------------------------------------------
def test_aft_in_is_held_to_the_credit_limit(limited: Rig) -> None:
    refused = limited.host.aft_transfer(0x00, 25000, "T-1", asset_number=1)
    assert refused is not None and refused.status == 0x84
    assert limited.meters()["current_credits"] == 0
    done = limited.host.aft_transfer(0x00, 10000, "T-2", asset_number=1)
    assert done is not None and done.status == 0x00
    again = limited.host.aft_transfer(0x00, 10000, "T-3", asset_number=1)
    assert again is not None and again.status == 0x84
    assert limited.meters()["current_credits"] == 10000 and limited.meters()["aft_in"] == 10000


def test_a_host_ticket_is_held_to_the_credit_limit(limited: Rig) -> None:
    insert_bill(limited, 10000)
    escrow_ticket(limited)
    assert limited.host.redeem(0x00, 21000, BARCODE) == (0x84, 21000)
    assert escrow_and_tickets_stacked(limited) == (None, [])
    assert limited.meters()["current_credits"] == 10000 and limited.meters()["tickets_in"] == 0


def test_a_bill_is_held_to_the_same_limit(limited: Rig) -> None:
    insert_bill(limited, 10000)
    insert_bill(limited, 10000)  # refused: the same check as the host's money
    assert limited.meters()["current_credits"] == 10000


# --- defect 5 --------------------------------------------------------------------------------------
def test_the_cabinets_own_redeemed_ticket_is_refused_whatever_the_host_says(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "nvram", validation="cabinet")
    try:
        ticket = cash_out_own_ticket(rig, 2000)
        number = ticket["validation_number"]
        escrow_ticket(rig, number)
        assert rig.host.redeem(0x00, 2000, number) == (0x40, 2000)
        assert rig.meters()["current_credits"] == 2000
        rig.drain()
        escrow_ticket(rig, number)  # the same ticket again; the host authorises it again
        rig.host.sync()
        assert rig.host.redeem(0x00, 2000, number) == (0x80, 2000)
        assert escrow_and_tickets_stacked(rig) == (None, [number])  # stacked once, the first time
        assert rig.meters()["current_credits"] == 2000 and rig.meters()["tickets_in"] == 2000
        fault = rig.do(lambda c: next(e for e in c.event_log() if e["kind"] == "sas_host_fault"))
        assert number in fault["message"] and "already redeemed" in fault["message"]
        assert x.GENERAL_TILT in rig.drain()
        assert rig.do(lambda c: c.memory.tickets[number]["status"]) == "redeemed"
    finally:
        rig.stop()


# --- defect 2, by the host -------------------------------------------------------------------------
def test_the_hosts_clock_mistake_deletes_no_ticket(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "nvram", validation="cabinet", host_redemption=False)
    try:
        oldest = cash_out_own_ticket(rig, 100)
        for _ in range(39):
            cash_out_own_ticket(rig, 100)
        assert rig.host.set_date_time(datetime(2028, 3, 4, 5, 6, 7))
        insert_bill(rig, 100)  # a commit on the wrong clock
        assert rig.host.set_date_time(datetime(2026, 3, 4, 5, 7, 0))
        assert rig.do(lambda c: c.clock.now()) == datetime(2026, 3, 4, 5, 7, 0, tzinfo=UTC)
        assert rig.do(lambda c: len(c.memory.tickets)) == 40
        assert rig.do(lambda c: c.handle(CashOut())).accepted  # the meter empty, to redeem into
        rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(oldest["validation_number"], 100))
        assert rig.meters()["current_credits"] == 100 and rig.meters()["tickets_in"] == 100
    finally:
        rig.stop()


# --- Also: AFT transaction ids ---------------------------------------------------------------------
def test_an_aft_id_older_than_the_history_is_still_refused(rig: Rig) -> None:
    for n in range(17):
        done = rig.host.aft_transfer(0x00, 100, f"T-{n}", asset_number=1)
        assert done is not None and done.status == 0x00
        rig.host.sync()
    again = rig.host.aft_transfer(0x00, 100, "T-0", asset_number=1)  # 17 transfers ago
    assert again is not None and again.status == 0x81
    assert rig.meters()["aft_in"] == 1700 and rig.meters()["current_credits"] == 1700

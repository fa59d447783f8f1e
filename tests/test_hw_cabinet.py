"""The whole real stack on a PC: the cabinet, the serial drivers and the wire-protocol simulators.

Money must stay exact through bad bytes and power loss: a note is credited once and only when the
acceptor stacked it, and a ticket is counted once and only when its validation number was printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from egm.clock import FakeClock
from egm.events import CashOut, Key, KeyTurned, ReconcileBill
from hardware.core.config import DeviceConfig, DevicesConfig
from hardware.factory import build_devices
from hardware.serial import id003_protocol as p
from tests.cabinet_support import make_cabinet, spine_config


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[Any, Any, FakeClock]]:
    clock = FakeClock()
    devices_config = DevicesConfig(
        bill_acceptor=DeviceConfig(backend="sim", protocol="id003", timeout_s=0.1),
        printer=DeviceConfig(backend="sim", protocol="tcl", timeout_s=0.1),
        button_panel=DeviceConfig(backend="sim", protocol="egm-panel", timeout_s=0.1),
        doors=DeviceConfig(backend="sim", protocol="egm-panel", timeout_s=0.1),
    )
    config = spine_config(devices=devices_config.model_dump())
    devices = build_devices(config, clock=clock)
    cabinet = make_cabinet(tmp_path, config=config, devices=devices, clock=clock)
    cabinet.boot()
    yield cabinet, devices, clock
    cabinet.close()
    for device in {id(d): d for d in devices.all()}.values():
        device.close()


def pump(cabinet: Any, clock: FakeClock, done: Callable[[], bool], limit: int = 40) -> None:
    for _ in range(limit):
        clock.advance(0.5)
        cabinet.poll_devices()
        if done():
            return
    raise AssertionError(f"never happened; cabinet state {cabinet.state}")


def meters(cabinet: Any) -> dict[str, Any]:
    return dict(cabinet.memory.meters.to_record())


def test_note_in_and_ticket_out_through_the_wire(stack: tuple[Any, Any, FakeClock]) -> None:
    cabinet, devices, clock = stack
    acceptor, printer = devices.bill_acceptor, devices.printer
    pump(cabinet, clock, lambda: acceptor.simulator.steady[0] == p.ENABLE_IDLING)
    assert acceptor.insert_bill(500)
    acceptor.simulator.corrupt_next("bad_checksum")
    pump(cabinet, clock, lambda: cabinet.credits_cents == 500)
    pump(cabinet, clock, lambda: not acceptor.simulator.upcoming, limit=4)
    assert acceptor.simulator.cash_box == [(500, None)]
    printer.simulator.corrupt_next("garble")
    assert cabinet.handle(CashOut()).accepted
    pump(cabinet, clock, lambda: bool(cabinet.session_tickets))
    pump(cabinet, clock, lambda: printer.job is None)
    m = meters(cabinet)
    assert (m["bills_in"], m["tickets_out"], m["current_credits"]) == (500, 500, 0)
    (issued,) = printer.simulator.issued
    assert issued[-1] == cabinet.session_tickets[0]["validation_number"]


def test_printer_power_loss_before_validation_keeps_the_credits(stack: tuple[Any, Any, FakeClock]) -> None:
    cabinet, devices, clock = stack
    acceptor, printer = devices.bill_acceptor, devices.printer
    pump(cabinet, clock, lambda: acceptor.simulator.steady[0] == p.ENABLE_IDLING)
    assert acceptor.insert_bill(2000)
    pump(cabinet, clock, lambda: cabinet.credits_cents == 2000)
    printer.simulator.arm("power_loss", after_validation=False)
    assert cabinet.handle(CashOut()).accepted
    pump(cabinet, clock, lambda: printer.link.faulted)  # the printer went dark mid-ticket
    printer.simulator.power_on()
    pump(cabinet, clock, lambda: cabinet.state != "cashout" and not printer.link.faulted)
    assert cabinet.credits_cents == 2000 and printer.simulator.issued == []
    assert meters(cabinet)["tickets_out"] == 0
    pump(cabinet, clock, printer.ready)
    assert cabinet.handle(CashOut()).accepted  # the next attempt prints, once
    pump(cabinet, clock, lambda: bool(cabinet.session_tickets))
    assert meters(cabinet)["tickets_out"] == 2000 and len(printer.simulator.issued) == 1


@pytest.mark.parametrize(
    ("stack_sent", "status", "credited", "cash_box"),
    [
        (True, None, 2000, [(2000, None)]),  # 0x42: the note reached the stacker
        (False, None, 0, []),  # 0x41: the note was in the acceptor and is given back
        (True, p.POWER_UP, 0, [(2000, None)]),  # 0x40: the acceptor cannot say: the attendant decides
    ],
    ids=["in-stacker", "in-acceptor", "cannot-tell"],
)
def test_acceptor_power_loss_with_a_pending_note(
    stack: tuple[Any, Any, FakeClock], stack_sent: bool, status: int | None, credited: int, cash_box: list
) -> None:
    cabinet, devices, clock = stack
    acceptor = devices.bill_acceptor
    pump(cabinet, clock, lambda: acceptor.simulator.steady[0] == p.ENABLE_IDLING)
    if not stack_sent:
        acceptor.stack = lambda: None  # the power goes before STACK-1 leaves the cabinet
    assert acceptor.insert_bill(2000)
    pump(cabinet, clock, lambda: cabinet.memory.get("bill") is not None)
    acceptor.simulator.power_cycle(status)
    pump(cabinet, clock, lambda: acceptor.simulator.steady[0] in (p.ENABLE_IDLING, p.DISABLE_INHIBIT))
    pump(cabinet, clock, lambda: not acceptor.simulator.upcoming, limit=4)
    assert cabinet.credits_cents == credited and acceptor.simulator.cash_box == cash_box
    assert meters(cabinet)["bills_in"] == credited
    if status == p.POWER_UP:
        assert cabinet.tilt == "device_fault" and "unreconciled" in cabinet.snapshot()["tilt_detail"]
        cabinet.handle(KeyTurned(Key.ATTENDANT, True))
        assert cabinet.handle(ReconcileBill(in_cash_box=True)).accepted
        assert cabinet.credits_cents == 2000 and meters(cabinet)["bills_in"] == 2000
    else:
        assert cabinet.tilt is None and cabinet.memory.get("bill") is None

"""Config picks the backend: serial drivers built from DeviceConfig, against simulators (sim/TCP)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from egm.clock import FakeClock
from egm.config import CabinetConfig
from hardware.core.config import DeviceConfig, DevicesConfig
from hardware.factory import build_devices
from hardware.interfaces import BillEscrowed, BillStacked, ButtonChanged, Door, DoorChanged
from hardware.serial.id003_driver import Id003BillAcceptor
from hardware.serial.tcl_driver import TclTicketPrinter
from hardware.sim.backend import SimBackedDevice
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.transport import TcpTransport


def sim_config(**ports: str) -> CabinetConfig:
    def dev(kind: str, protocol: str) -> DeviceConfig:
        return DeviceConfig(backend="sim", protocol=protocol, port=ports.get(kind), timeout_s=0.1)

    return CabinetConfig(
        devices=DevicesConfig(
            bill_acceptor=dev("bill_acceptor", "id003"),
            printer=dev("printer", "tcl"),
            button_panel=dev("button_panel", "egm-panel"),
            doors=dev("doors", "egm-panel"),
        )
    )


def poll_all(devices: list[object], clock: FakeClock, times: int) -> list[object]:
    events: list[object] = []
    for _ in range(times):
        clock.advance(1.0)
        for device in devices:
            events += device.poll()  # type: ignore[attr-defined]
    return events


def test_sim_backend_runs_the_real_drivers_against_simulators() -> None:
    clock = FakeClock()
    devices = build_devices(sim_config(), clock=clock)
    unique = list({id(d): d for d in devices.all()}.values())
    try:
        acceptor, panel = devices.bill_acceptor, devices.button_panel
        assert isinstance(acceptor, SimBackedDevice) and isinstance(acceptor.driver, Id003BillAcceptor)
        assert isinstance(devices.printer, SimBackedDevice)
        assert isinstance(devices.printer.driver, TclTicketPrinter)
        assert devices.doors is panel  # one panel board carries the door switches
        acceptor.enable(frozenset({2000}))
        poll_all(unique, clock, 6)
        acceptor.simulator.insert_note(2000)  # type: ignore[attr-defined]
        panel.simulator.tap("deal")  # type: ignore[attr-defined]
        panel.simulator.set_door(Door.MAIN, True)  # type: ignore[attr-defined]
        events = poll_all(unique, clock, 4)
        assert BillEscrowed(2000) in events
        assert ButtonChanged("deal", True) in events and DoorChanged(Door.MAIN, True) in events
        acceptor.stack()
        events = poll_all(unique, clock, 4)
        assert [e for e in events if isinstance(e, BillStacked)] == [BillStacked(2000)]
        assert devices.printer.ready()
    finally:
        for device in unique:
            device.close()  # type: ignore[attr-defined]


def test_serial_backend_over_socket_url() -> None:
    sim = Id003Simulator()
    with TcpTransport(sim) as transport:
        config = CabinetConfig(
            devices=DevicesConfig(
                bill_acceptor=DeviceConfig(backend="serial", port=transport.port, timeout_s=0.1)
            )
        )
        clock = FakeClock()
        devices = build_devices(config, clock=clock)
        driver = devices.bill_acceptor
        assert isinstance(driver, Id003BillAcceptor)
        driver.enable(frozenset({100}))
        for _ in range(6):
            clock.advance(1.0)
            driver.poll()
        driver.close()
    assert sim.initialized and not sim.inhibited


def test_serial_backend_without_port_is_refused_by_the_schema() -> None:
    with pytest.raises(ValidationError, match="backend 'serial' needs a port"):
        DevicesConfig(printer=DeviceConfig(backend="serial", protocol="tcl"))


def test_unknown_protocol_is_refused_by_the_schema() -> None:
    with pytest.raises(ValidationError, match="protocol 'ccnet' is not supported"):
        DevicesConfig(bill_acceptor=DeviceConfig(backend="serial", port="loop://", protocol="ccnet"))


def test_emulator_controls_drive_the_simulators_through_the_wire() -> None:
    from datetime import UTC, datetime

    from hardware.interfaces import Key, KeyTurned, TicketData, TicketPrinted

    clock = FakeClock()
    devices = build_devices(sim_config(), clock=clock)
    unique = list({id(d): d for d in devices.all()}.values())
    acceptor, printer, doors = devices.bill_acceptor, devices.printer, devices.doors
    try:
        acceptor.enable(frozenset({500}))
        poll_all(unique, clock, 6)
        assert acceptor.insert_bill(500)  # type: ignore[attr-defined]
        events = poll_all(unique, clock, 3)
        assert BillEscrowed(500) in events
        doors.turn_key(Key.ATTENDANT, True)  # type: ignore[attr-defined]
        doors.open_door(Door.LOGIC)  # type: ignore[attr-defined]
        events = poll_all(unique, clock, 2)
        assert KeyTurned(Key.ATTENDANT, True) in events and doors.is_open(Door.LOGIC)
        ticket = TicketData(
            "001234567890123456", 500, "SITE", "ADDR", "1", datetime(2026, 1, 1, tzinfo=UTC), 1, 30
        )
        printer.print_ticket(ticket)
        events = poll_all(unique, clock, 5)
        assert TicketPrinted(ticket.validation_number) in events
        assert printer.printed == [ticket]  # type: ignore[attr-defined]
    finally:
        for device in unique:
            device.close()  # type: ignore[attr-defined]

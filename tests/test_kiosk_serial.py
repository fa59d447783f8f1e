"""The serial path as a technician meets it: noise, a wrong port path, line settings from the
configuration (issue 21)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from egm.clock import FakeClock
from hardware.core.config import DeviceConfig, DevicesConfig
from hardware.interfaces import ButtonChanged, DeviceFault, LampState
from hardware.serial.backend import build_serial_device
from hardware.serial.panel_driver import SerialButtonPanel
from hardware.serial.ports import LineSettings
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.transport import PtyTransport
from tests.test_hw_support import of


@pytest.fixture
def panel() -> Iterator[tuple[PanelSimulator, SerialButtonPanel, FakeClock]]:
    sim = PanelSimulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = SerialButtonPanel(transport.port, clock, timeout_s=0.2)
        for button in ("deal", "cash_out", "service"):  # as the cabinet lights them
            driver.set_lamp(button, LampState.ON)
        for _ in range(10):
            clock.advance(0.1)
            driver.poll()
        yield sim, driver, clock
        driver.close()


def run(driver: Any, clock: FakeClock, seconds: float, step: float = 0.1) -> list[object]:
    """Poll as the cabinet's loop does, every `step` seconds of the fake clock, for `seconds`."""
    events: list[object] = []
    for _ in range(round(seconds / step)):
        clock.advance(step)
        events += driver.poll()
    return events


def test_garbled_panel_replies_are_retried_without_a_tilt(panel: Any) -> None:
    sim, driver, clock = panel
    sim.corrupt_next("garble", 6)  # `panel garble 6`: three exchanges of two attempts each
    events = run(driver, clock, 2.0)
    sim.tap("bet")
    events += run(driver, clock, 0.5)
    assert not of(DeviceFault, events)
    assert of(ButtonChanged, events) == [ButtonChanged("bet", True), ButtonChanged("bet", False)]


def test_a_silent_panel_tilts_only_after_the_documented_time(panel: Any) -> None:
    sim, driver, clock = panel
    sim.stop_answering()
    assert not of(DeviceFault, run(driver, clock, 2.5))  # under fault_after_s (3 s): no tilt yet
    (fault,) = of(DeviceFault, run(driver, clock, 1.5))
    assert fault.kind == "communication" and "stopped answering" in fault.message


def test_a_panel_answering_only_garbage_says_so(panel: Any) -> None:
    sim, driver, clock = panel
    sim.corrupt_next("bad_checksum", 10_000)  # e.g. the wrong baud rate: bytes, never a valid line
    (fault,) = of(DeviceFault, run(driver, clock, 5.0))
    assert "garbled replies" in fault.message and "baud rate" in fault.message


def test_a_wrong_port_path_names_the_port_and_the_system_reason(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyUSB9")
    clock = FakeClock()
    driver = build_serial_device("button_panel", DeviceConfig(backend="serial", port=missing), clock)
    events = run(driver, clock, 0.5)
    (fault,) = of(DeviceFault, events)
    assert missing in fault.message and "No such file or directory" in fault.message
    assert "stopped answering" not in fault.message


def test_line_settings_come_from_the_configuration() -> None:
    opened: list[tuple[str, LineSettings, float]] = []

    def factory(url: str, line: LineSettings, timeout_s: float) -> Any:
        opened.append((url, line, timeout_s))
        raise OSError(2, "No such file or directory")

    devices = DevicesConfig.model_validate(
        {"printer": {"backend": "serial", "port": "/dev/ttyS4", "baud": 9600, "timeout_s": 0.5,
                     "parity": "even", "stop_bits": 2}}
    )
    clock = FakeClock()
    printer = build_serial_device("printer", devices.printer, clock, factory)
    run(printer, clock, 0.5)
    url, line, timeout_s = opened[0]
    assert (url, line.baudrate, line.parity, line.stopbits, timeout_s) == ("/dev/ttyS4", 9600, "E", 2, 0.5)

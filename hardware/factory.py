"""Build the cabinet's peripherals from configuration: config picks each backend, never the firmware.

`build_devices(config, port_factory=..., clock=...)` dispatches on each device's `backend`:
"emulated" (in-process stand-ins), "serial" (real devices through pyserial: hardware.serial.backend)
or "sim" (a wire-protocol simulator served in-process, driven by the serial driver:
hardware.sim.backend). With doors on the same serial/sim port as the button panel, one panel
board carries both and a single driver serves them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hardware.core.clock import Clock, SystemClock
from hardware.core.config import ConfigError, DeviceConfig, HasDevices, SasConfig
from hardware.emulated import EmulatedBillAcceptor, EmulatedButtonPanel, EmulatedDoorsAndKeys, EmulatedPrinter
from hardware.interfaces import BillAcceptor, ButtonPanel, DoorsAndKeys, HostLink, TicketPrinter


@dataclass
class Devices:
    """The cabinet's peripherals, one per capability."""

    bill_acceptor: BillAcceptor
    printer: TicketPrinter
    button_panel: ButtonPanel
    doors: DoorsAndKeys
    host_link: HostLink | None = None  # the SAS port, when [devices.sas] is enabled

    def all(self) -> tuple[Any, ...]:
        devices = (self.bill_acceptor, self.printer, self.button_panel, self.doors)
        return devices if self.host_link is None else (*devices, self.host_link)


EMULATED: dict[str, Callable[[], Any]] = {
    "bill_acceptor": EmulatedBillAcceptor,
    "printer": EmulatedPrinter,
    "button_panel": EmulatedButtonPanel,
    "doors": EmulatedDoorsAndKeys,
}


def _build(name: str, device: DeviceConfig, port_factory: Callable[..., Any] | None, clock: Clock) -> Any:
    if device.backend == "emulated":
        return EMULATED[name]()
    if device.backend == "serial":  # imported here: pyserial and python-escpos load only when used
        from hardware.serial.backend import build_serial_device

        return build_serial_device(name, device, clock, port_factory)
    if device.backend == "sim":
        from hardware.sim.backend import build_sim_device

        return build_sim_device(name, device, clock, port_factory)
    raise ConfigError(
        f"devices.{name}: backend '{device.backend}' is not available in this build; use 'emulated'"
    )


def build_devices(
    config: HasDevices, port_factory: Callable[..., Any] | None = None, clock: Clock | None = None
) -> Devices:
    """The peripherals config.devices names; `port_factory` opens serial ports (tests inject fakes)."""
    devices = config.devices
    clock = clock or SystemClock()
    button_panel = _build("button_panel", devices.button_panel, port_factory, clock)
    doors, panel = devices.doors, devices.button_panel
    same_port = (doors.backend, doors.port) == (panel.backend, panel.port)
    shared_board = doors.backend in ("serial", "sim") and same_port
    return Devices(
        bill_acceptor=_build("bill_acceptor", devices.bill_acceptor, port_factory, clock),
        printer=_build("printer", devices.printer, port_factory, clock),
        button_panel=button_panel,
        doors=button_panel if shared_board else _build("doors", doors, port_factory, clock),
        host_link=build_host_link(devices.sas, port_factory, clock),
    )


def build_host_link(sas: SasConfig, port_factory: Callable[..., Any] | None, clock: Clock) -> HostLink | None:
    """The SAS port [devices.sas] configures, or None when the host link is off."""
    if not sas.enabled:
        return None
    assert sas.port, "the schema gives an enabled host link its port"
    from hardware.serial.sas_link import SasPort  # pyserial loads only when used

    if port_factory is None:
        return SasPort(sas.port, sas.address, clock)
    return SasPort(sas.port, sas.address, clock, port_factory=port_factory)

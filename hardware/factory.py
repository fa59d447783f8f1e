"""Build the cabinet's peripherals from configuration: config picks each backend, never the firmware.

`build_devices(config, port_factory=...)` dispatches on each device's `backend`. Only the emulated
backend is built here so far; the serial and sim backends plug in as further branches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from egm.config import CabinetConfig, ConfigError, DeviceConfig
from hardware.emulated import EmulatedBillAcceptor, EmulatedButtonPanel, EmulatedDoorsAndKeys, EmulatedPrinter
from hardware.interfaces import BillAcceptor, ButtonPanel, DoorsAndKeys, TicketPrinter


@dataclass
class Devices:
    """The cabinet's peripherals, one per capability."""

    bill_acceptor: BillAcceptor
    printer: TicketPrinter
    button_panel: ButtonPanel
    doors: DoorsAndKeys

    def all(self) -> tuple[Any, ...]:
        return (self.bill_acceptor, self.printer, self.button_panel, self.doors)


EMULATED: dict[str, Callable[[], Any]] = {
    "bill_acceptor": EmulatedBillAcceptor,
    "printer": EmulatedPrinter,
    "button_panel": EmulatedButtonPanel,
    "doors": EmulatedDoorsAndKeys,
}


def _build(name: str, device: DeviceConfig, port_factory: Callable[..., Any] | None) -> Any:
    if device.backend == "emulated":
        return EMULATED[name]()
    raise ConfigError(
        f"devices.{name}: backend '{device.backend}' is not available in this build; use 'emulated'"
    )


def build_devices(config: CabinetConfig, port_factory: Callable[..., Any] | None = None) -> Devices:
    """The peripherals config.devices names; `port_factory` opens serial ports (tests inject fakes)."""
    devices = config.devices
    return Devices(
        bill_acceptor=_build("bill_acceptor", devices.bill_acceptor, port_factory),
        printer=_build("printer", devices.printer, port_factory),
        button_panel=_build("button_panel", devices.button_panel, port_factory),
        doors=_build("doors", devices.doors, port_factory),
    )

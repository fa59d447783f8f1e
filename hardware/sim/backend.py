"""The `sim` backend of the factory: a simulator served in-process, driven by the real serial driver.

With backend "sim" the cabinet starts the device's simulator on a TCP port (when `port` is a
`socket://host:port` URL) or on a fresh pty (no port), and talks to it through the very serial
driver it would use on hardware. The returned `SimBackedDevice` behaves as the driver, exposes
`simulator`, and offers the emulated devices' controls (`insert_bill`, `press`, `open_door`,
`printed`...), so the emulator's on-screen controls and autoplay drive the whole real stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hardware.core.clock import Clock
from hardware.core.config import ConfigError, DeviceConfig
from hardware.interfaces import Door, Key, TicketData, same_item
from hardware.serial.backend import build_serial_device, protocol_of
from hardware.serial.ports import PortFactory
from hardware.sim.device import SimDevice
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import TclPrinterSimulator
from hardware.sim.transport import Transport, serve


@dataclass
class SimBackedDevice:
    """The serial driver connected to its simulator; everything else is the driver's."""

    driver: Any
    simulator: Any
    transport: Transport

    def __getattr__(self, name: str) -> Any:
        if name == "driver":  # not set yet (e.g. while copying): no recursion
            raise AttributeError(name)
        return getattr(self.driver, name)

    def close(self) -> None:
        self.driver.close()
        self.transport.stop()


@dataclass
class SimBillAcceptor(SimBackedDevice):
    """The emulator's controls (as on `EmulatedBillAcceptor`) act on the simulated acceptor."""

    simulator: Id003Simulator

    def insert_bill(self, amount_cents: int) -> bool:
        return self.simulator.insert_note(amount_cents)

    def insert_ticket(self, barcode: str, amount_cents: int = 0) -> bool:
        return self.simulator.insert_ticket(barcode)  # the acceptor reads the barcode, not the amount

    def in_cash_box(self, amount_cents: int, barcode: str | None) -> bool:
        """The attendant's count: is this item in the cash box? (a ticket is known by its barcode)"""
        return any(same_item(amount_cents, barcode, c, b) for c, b in self.simulator.cash_box)

    def jam(self) -> None:
        self.simulator.inject_fault("jam")

    def clear_jam(self) -> None:
        self.simulator.clear_fault()


@dataclass
class SimPrinter(SimBackedDevice):
    """`printed` lists the tickets whose validation number the simulated printer really printed."""

    simulator: TclPrinterSimulator
    sent: dict[str, TicketData] = field(default_factory=dict, init=False)

    def print_ticket(self, ticket: TicketData) -> None:
        self.sent[ticket.validation_number] = ticket
        self.driver.print_ticket(ticket)

    @property
    def printed(self) -> list[TicketData]:
        return [self.sent[f[-1]] for f in self.simulator.issued if f and f[-1] in self.sent]

    def paper_out(self) -> None:
        self.simulator.inject_fault("paper_out")

    def load_paper(self) -> None:
        self.simulator.clear_fault()


@dataclass
class SimPanel(SimBackedDevice):
    """Buttons, doors and keys of the simulated panel board."""

    simulator: PanelSimulator

    def press(self, button: str) -> None:
        self.simulator.tap(button)

    def open_door(self, door: Door) -> None:
        self.simulator.set_door(door, True)

    def close_door(self, door: Door) -> None:
        self.simulator.set_door(door, False)

    def turn_key(self, key: Key, on: bool = True) -> None:
        self.simulator.turn_key(key, on)


SIMULATORS: dict[str, tuple[type[SimDevice], type[SimBackedDevice]]] = {
    "id003": (Id003Simulator, SimBillAcceptor),
    "tcl": (TclPrinterSimulator, SimPrinter),
    "egm-panel": (PanelSimulator, SimPanel),
}


def build_sim_device(
    kind: str, device: DeviceConfig, clock: Clock, port_factory: PortFactory | None = None
) -> SimBackedDevice:
    protocol = protocol_of(kind, device)
    if protocol not in SIMULATORS:
        raise ConfigError(f"devices.{kind}: there is no simulator for protocol '{protocol}'")
    simulator_class, device_class = SIMULATORS[protocol]
    simulator = simulator_class()
    try:
        transport = serve(simulator, device.port)
    except ValueError as exc:
        raise ConfigError(f"devices.{kind}: {exc}") from exc
    served = device.model_copy(update={"port": transport.port})
    driver = build_serial_device(kind, served, clock, port_factory)
    return device_class(driver, simulator, transport)

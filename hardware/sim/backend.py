"""The `sim` backend of the factory: a simulator served in-process, driven by the real serial driver.

With backend "sim" the cabinet starts the device's simulator on a TCP port (when `port` is a
`socket://host:port` URL) or on a fresh pty (no port), and talks to it through the very serial
driver it would use on hardware. The returned `SimBackedDevice` behaves as the driver and also
exposes `simulator`, so the emulator's on-screen controls can insert notes or press buttons.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from egm.clock import Clock
from egm.config import ConfigError, DeviceConfig
from hardware.serial.backend import build_serial_device, protocol_of
from hardware.serial.ports import PortFactory
from hardware.sim.device import SimDevice
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import TclPrinterSimulator
from hardware.sim.transport import PtyTransport, TcpTransport, Transport

SIMULATORS: dict[str, type[SimDevice]] = {
    "id003": Id003Simulator,
    "tcl": TclPrinterSimulator,
    "egm-panel": PanelSimulator,
}


def serve(simulator: SimDevice, port: str | None) -> Transport:
    """Serve `simulator` on a TCP address (`socket://host:port` or `host:port`) or, if None, a pty."""
    if port is None or port == "pty":
        return PtyTransport(simulator).start()
    address = urlsplit(port if "://" in port else f"socket://{port}")
    if address.scheme != "socket" or address.hostname is None or address.port is None:
        raise ConfigError(f"simulator port {port!r} must look like socket://127.0.0.1:7001")
    return TcpTransport(simulator, address.hostname, address.port).start()


@dataclass
class SimBackedDevice:
    """The serial driver connected to its simulator; everything else is the driver's."""

    driver: object
    simulator: SimDevice
    transport: Transport

    def __getattr__(self, name: str) -> object:
        return getattr(self.driver, name)

    def close(self) -> None:
        close = getattr(self.driver, "close", None)
        if close is not None:
            close()
        self.transport.stop()


def build_sim_device(
    kind: str, device: DeviceConfig, clock: Clock, port_factory: PortFactory | None = None
) -> SimBackedDevice:
    protocol = protocol_of(kind, device)
    if protocol not in SIMULATORS:
        raise ConfigError(f"devices.{kind}: there is no simulator for protocol '{protocol}'")
    simulator = SIMULATORS[protocol]()
    transport = serve(simulator, device.port)
    served = device.model_copy(update={"port": transport.port})
    driver = build_serial_device(kind, served, clock, port_factory)
    return SimBackedDevice(driver, simulator, transport)

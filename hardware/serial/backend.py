"""Build a serial driver from a device's configuration (the `serial` backend of the factory)."""

from __future__ import annotations

from functools import partial

from hardware.core.clock import Clock
from hardware.core.config import ConfigError, DeviceConfig, PrinterConfig
from hardware.serial.escpos_printer import EscPosTicketPrinter, PortEscpos
from hardware.serial.id003_driver import Id003BillAcceptor
from hardware.serial.panel_driver import SerialButtonPanel
from hardware.serial.ports import PortFactory, line_settings, open_serial_port
from hardware.serial.tcl_driver import TclTicketPrinter

DEFAULT_PROTOCOLS = {
    "bill_acceptor": "id003",
    "printer": "tcl",
    "button_panel": "egm-panel",
    "doors": "egm-panel",
}
PROTOCOLS = {
    "bill_acceptor": ("id003",),
    "printer": ("tcl", "escpos"),
    "button_panel": ("egm-panel",),
    "doors": ("egm-panel",),
}


def protocol_of(kind: str, device: DeviceConfig) -> str:
    protocol = device.protocol or DEFAULT_PROTOCOLS[kind]
    if protocol not in PROTOCOLS[kind]:
        raise ConfigError(
            f"devices.{kind}: protocol '{protocol}' is not supported; use one of {list(PROTOCOLS[kind])}"
        )
    return protocol


def build_serial_device(
    kind: str, device: DeviceConfig, clock: Clock, port_factory: PortFactory | None = None
) -> object:
    """The driver for `kind` ("bill_acceptor", "printer", "button_panel", "doors") on device.port."""
    if not device.port:
        raise ConfigError(
            f"devices.{kind}: backend '{device.backend}' needs a port: a device path such as "
            "/dev/ttyUSB0 or a pyserial URL such as socket://127.0.0.1:7001"
        )
    factory = port_factory or open_serial_port
    url, timeout_s = device.port, device.timeout_s
    protocol = protocol_of(kind, device)
    line = line_settings(protocol, device)
    link = {
        "port_factory": factory, "timeout_s": timeout_s, "line": line, "fault_after_s": device.fault_after_s
    }
    if protocol == "id003":
        return Id003BillAcceptor(url, clock, **link)
    if protocol == "tcl":
        template = device.template if isinstance(device, PrinterConfig) else "0"
        return TclTicketPrinter(url, clock, template=template, **link)
    if protocol == "escpos":
        return EscPosTicketPrinter(PortEscpos(partial(factory, url, line, timeout_s)))
    return SerialButtonPanel(url, clock, **link)

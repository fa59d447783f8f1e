"""Build a serial driver from a device's configuration (the `serial` backend of the factory)."""

from __future__ import annotations

from functools import partial

from hardware.core.clock import Clock
from hardware.core.config import DEVICE_PROTOCOLS, DeviceConfig, PrinterConfig
from hardware.serial.escpos_printer import EscPosTicketPrinter, PortEscpos
from hardware.serial.id003_driver import Id003BillAcceptor
from hardware.serial.panel_driver import SerialButtonPanel
from hardware.serial.ports import PortFactory, line_settings, open_serial_port
from hardware.serial.tcl_driver import TclTicketPrinter


def protocol_of(kind: str, device: DeviceConfig) -> str:
    """The protocol a device speaks (the schema, DEVICE_PROTOCOLS, allows only those it may)."""
    return device.protocol or DEVICE_PROTOCOLS[kind][0]


def build_serial_device(
    kind: str, device: DeviceConfig, clock: Clock, port_factory: PortFactory | None = None
) -> object:
    """The driver for `kind` ("bill_acceptor", "printer", "button_panel", "doors") on device.port."""
    assert device.port, "the schema gives a serial device its port (a sim device is served one)"
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

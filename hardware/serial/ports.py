"""Opening serial ports through an injected factory.

The default factory uses `serial.serial_for_url`, so a port is either a device path (`/dev/ttyUSB0`)
or a pyserial URL (`socket://127.0.0.1:7001`, `loop://`). Tests inject their own factory (a pty
slave path or a fake transport) and never touch real ports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import serial

from hardware.core.config import DeviceConfig


class Port(Protocol):
    """The part of a pyserial port the drivers use."""

    timeout: float | None

    @property
    def in_waiting(self) -> int: ...

    def write(self, data: bytes, /) -> int | None: ...

    def read(self, size: int = 1, /) -> bytes: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LineSettings:
    """Baud rate and character framing of a serial line."""

    baudrate: int = 9600
    bytesize: int = serial.EIGHTBITS
    parity: str = serial.PARITY_NONE
    stopbits: float = serial.STOPBITS_ONE


ID003_LINE = LineSettings(baudrate=9600, parity=serial.PARITY_EVEN)  # JCM ID-003: 9600 8E1
TCL_LINE = LineSettings(baudrate=38400)  # FutureLogic GEN2/GEN3 factory default: 38400 8N1
PANEL_LINE = LineSettings(baudrate=115200)  # our button panel: 115200 8N1
ESCPOS_LINE = LineSettings(baudrate=9600)  # most ESC/POS printers ship at 9600 8N1

PROTOCOL_LINES = {"id003": ID003_LINE, "tcl": TCL_LINE, "egm-panel": PANEL_LINE, "escpos": ESCPOS_LINE}
PARITIES = {
    "none": serial.PARITY_NONE,
    "even": serial.PARITY_EVEN,
    "odd": serial.PARITY_ODD,
    "mark": serial.PARITY_MARK,
    "space": serial.PARITY_SPACE,
}


def line_settings(protocol: str, device: DeviceConfig) -> LineSettings:
    """The protocol's default line, with what the device's configuration sets instead (a printer set
    to 9600 baud is configured, not rebuilt: the defaults here are only defaults)."""
    line = PROTOCOL_LINES[protocol]
    if device.baud is not None:
        line = replace(line, baudrate=device.baud)
    if device.data_bits is not None:
        line = replace(line, bytesize=device.data_bits)
    if device.parity is not None:
        line = replace(line, parity=PARITIES[device.parity])
    if device.stop_bits is not None:
        line = replace(line, stopbits=device.stop_bits)
    return line


def describe_line(line: LineSettings) -> str:
    """E.g. "9600 8E1"."""
    return f"{line.baudrate} {line.bytesize}{line.parity}{line.stopbits:g}"


PortFactory = Callable[[str, LineSettings, float], Port]
"""Open `url` (a device path or pyserial URL) with `settings` and a read timeout in seconds."""


def open_serial_port(url: str, settings: LineSettings, timeout_s: float) -> Port:
    """The default factory: pyserial's `serial_for_url`, which understands paths and URLs."""
    return serial.serial_for_url(
        url,
        baudrate=settings.baudrate,
        bytesize=settings.bytesize,
        parity=settings.parity,
        stopbits=settings.stopbits,
        timeout=timeout_s,
    )

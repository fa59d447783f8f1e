"""Opening serial ports through an injected factory.

The default factory uses `serial.serial_for_url`, so a port is either a device path (`/dev/ttyUSB0`)
or a pyserial URL (`socket://127.0.0.1:7001`, `loop://`). Tests inject their own factory (a pty
slave path or a fake transport) and never touch real ports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial


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
TCL_LINE = LineSettings(baudrate=38400)  # FutureLogic GEN2/GEN3 default: 38400 8N1
PANEL_LINE = LineSettings(baudrate=115200)  # our button panel: 115200 8N1
ESCPOS_LINE = LineSettings(baudrate=9600)  # most ESC/POS printers ship at 9600 8N1

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

"""One request/reply exchange on a serial line, with retries, reconnects and a communication fault.

Every serial driver talks through a `SerialLink`. It opens the port through the injected factory,
sends a request and reads until the protocol's parser yields one good frame. A malformed frame is
discarded with a logged reason and the request is sent again. Noise never tilts the cabinet by
itself: the link reports a `DeviceFault(kind="communication")` only when the device has given no
valid reply for `fault_after_s` seconds (3 s) *and* `max_failures` (3) exchanges in a row have
failed, and its message says what was seen (silence, or only garbled replies: wrong line
settings?). A port the operating system cannot open is a fault at once, naming the port and the
system's reason. The first good exchange afterwards reports `DeviceFaultCleared`. A port that
raises (a socket closed, a USB adapter pulled) is closed and reopened on a later exchange, so a
device that is unplugged and plugged back in recovers by itself.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import serial

from hardware.core.clock import Clock
from hardware.interfaces import DeviceFault, DeviceFaultCleared
from hardware.serial.ports import LineSettings, Port, PortFactory, open_serial_port

log = logging.getLogger(__name__)

F = TypeVar("F")
F_co = TypeVar("F_co", covariant=True)

COMMUNICATION = "communication"


@dataclass(frozen=True)
class FrameError:
    """Bytes that are not a valid frame, and why. Parsers return these; they never raise."""

    reason: str
    data: bytes


class FrameParser(Protocol[F_co]):
    """An incremental parser: feed bytes as they arrive, get whole frames or errors back."""

    def feed(self, data: bytes) -> list[F_co | FrameError]: ...

    def pending(self) -> bool:
        """True while part of a frame is buffered, waiting for the rest."""

    def reset(self) -> None: ...


class BufferedParser:
    """The byte buffer every incremental parser keeps between reads (a frame may arrive in pieces)."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def reset(self) -> None:
        self.buffer.clear()

    def pending(self) -> bool:
        return bool(self.buffer)


class Interval:
    """True from `due()` at most once per `seconds` of the injected clock (poll pacing)."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock = clock
        self.seconds = seconds
        self._last: float | None = None

    def due(self) -> bool:
        now = self.clock.monotonic()
        if self._last is not None and now - self._last < self.seconds:
            return False
        self._last = now
        return True


class SerialLink(Generic[F]):
    """A supervised request/reply channel to one device."""

    def __init__(
        self,
        device: str,
        url: str,
        settings: LineSettings,
        clock: Clock,
        *,
        timeout_s: float = 0.2,
        port_factory: PortFactory = open_serial_port,
        attempts: int = 2,
        max_failures: int = 3,
        fault_after_s: float = 3.0,
        reconnect_interval_s: float = 1.0,
        flush_input: bool = True,
    ) -> None:
        self.device = device
        self.url = url
        self.settings = settings
        self.clock = clock
        self.timeout_s = timeout_s
        self.port_factory = port_factory
        self.attempts = attempts
        self.max_failures = max_failures
        self.fault_after_s = fault_after_s
        self.reconnect_interval_s = reconnect_interval_s
        self.flush_input = flush_input  # False for devices that send events on their own
        self.port: Port | None = None
        self.failures = 0
        self.faulted = False
        self.events: list[object] = []
        self._last_try: float | None = None
        self._failing_since: float | None = None  # the first failed exchange of the current run
        self._garbled = False  # the last failed attempt saw bytes, but no valid frame
        self.open_error: str | None = None  # why the operating system refused the port, if it did

    # --- the port --------------------------------------------------------------------------
    def _open(self) -> Port | None:
        if self.port is None:
            try:
                self.port = self.port_factory(self.url, self.settings, self.timeout_s)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.open_error = os_reason(exc)
                log.warning("%s: cannot open %s: %s", self.device, self.url, exc)
                return None
            self.open_error = None
        return self.port

    def close(self) -> None:
        if self.port is not None:
            try:
                self.port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("%s: error closing %s: %s", self.device, self.url, exc)
            self.port = None

    # --- exchanges -------------------------------------------------------------------------
    def exchange(
        self,
        request: bytes,
        parser: FrameParser[F],
        accept: Callable[[F], bool] | None = None,
        on_other: Callable[[F], None] | None = None,
    ) -> F | None:
        """Send `request` and return the device's reply frame, or None when it never came right.

        With `accept`, only a frame it approves is the reply; other good frames (events the
        device sent on its own) go to `on_other` and reading goes on.

        While the link is faulted, only one attempt is made, and at most once per
        `reconnect_interval_s`, so a dead device does not stall the cabinet's main loop.
        """
        attempts = self.attempts
        if self.faulted:
            now = self.clock.monotonic()
            if self._last_try is not None and now - self._last_try < self.reconnect_interval_s:
                return None
            self._last_try = now
            attempts = 1
        for attempt in range(1, attempts + 1):
            frame = self._attempt(request, parser, accept, on_other)
            if frame is not None:
                self._succeeded()
                return frame
            log.info("%s: no valid reply (attempt %d of %d)", self.device, attempt, attempts)
        self._failed()
        return None

    def send(self, request: bytes) -> bool:
        """Send bytes that have no reply (e.g. an ID-003 ACK). False if the port failed."""
        port = self._open()
        if port is None:
            return False
        try:
            port.write(request)
        except (serial.SerialException, OSError) as exc:
            log.warning("%s: write failed: %s", self.device, exc)
            self.close()
            return False
        return True

    def _attempt(
        self,
        request: bytes,
        parser: FrameParser[F],
        accept: Callable[[F], bool] | None,
        on_other: Callable[[F], None] | None,
    ) -> F | None:
        port = self._open()
        if port is None:
            return None
        try:
            if self.flush_input:
                parser.reset()
                port.reset_input_buffer()
            port.write(request)
            while True:
                chunk = port.read(max(1, port.in_waiting))
                if not chunk:
                    if parser.pending():
                        log.warning("%s: discarded a short frame (the rest never came)", self.device)
                        parser.reset()
                        self._garbled = True
                    return None
                garbled = False
                for item in parser.feed(chunk):
                    if isinstance(item, FrameError):
                        log.warning("%s: discarded %s: %s", self.device, item.data.hex(" "), item.reason)
                        garbled = self._garbled = True
                    elif accept is None or accept(item):
                        return item
                    elif on_other is not None:
                        on_other(item)
                if garbled and not parser.pending():
                    return None
        except (serial.SerialException, OSError) as exc:
            log.warning("%s: port %s failed: %s; will reopen it", self.device, self.url, exc)
            self.close()
            return None

    def _succeeded(self) -> None:
        self.failures = 0
        self._failing_since = None
        self._garbled = False
        if self.faulted:
            self.faulted = False
            self._last_try = None
            log.info("%s: answering again", self.device)
            self.events.append(DeviceFaultCleared(self.device, COMMUNICATION))

    def _failed(self) -> None:
        now = self.clock.monotonic()
        self.failures += 1
        if self._failing_since is None:
            self._failing_since = now
        silent_long_enough = (
            self.failures >= self.max_failures and now - self._failing_since >= self.fault_after_s
        )
        if not self.faulted and (self.open_error is not None or silent_long_enough):
            self.faulted = True
            self._last_try = now
            message = self.fault_message()
            log.error(message)
            self.events.append(DeviceFault(self.device, COMMUNICATION, message))
        self._garbled = False

    def fault_message(self) -> str:
        """The sentence the attendant reads: the port and what went wrong on it."""
        name = self.device.replace("_", " ")
        if self.open_error is not None:
            return (
                f"The {name} port {self.url} cannot be opened: {self.open_error}; check that the "
                "device is plugged in and powered, the port in the configuration (ls -l "
                "/dev/serial/by-id) and that the cabinet's user may use it (group dialout)."
            )
        if self._garbled:
            return (
                f"The {name} on {self.url} answers only with garbled replies ({self.failures} "
                "exchanges failed); check its baud rate, parity and stop bits, and its cable."
            )
        return (
            f"The {name} on {self.url} stopped answering ({self.failures} exchanges failed); "
            "check its cable and power."
        )

    def take_events(self) -> list[object]:
        events, self.events = self.events, []
        return events


def os_reason(exc: BaseException) -> str:
    """The operating system's reason a port would not open ("No such file or directory"), else the
    exception's own text (pyserial wraps the OSError, keeping its errno)."""
    errno = getattr(exc, "errno", None)
    return os.strerror(errno) if isinstance(errno, int) and errno > 0 else str(exc)

"""The cabinet's SAS port: the wire side of the host link (see sas_protocol for the format).

`SasPort` opens its port through the injected factory (a device path, a pyserial URL or a pty),
reads whatever the host sent, and reports each poll for this machine as a `HostPoll` event; the
cabinet answers with `reply()`. The port itself keeps the rules of the line:
  - bytes that are no poll for this machine (another machine's poll, a stray byte, a bad CRC) get
    no reply;
  - a poll repeated with nothing in between is the host's implied NACK: the same reply is sent
    again, and the cabinet never sees the repeat, so it never has a second effect;
  - a poll to another machine, or a different poll to this one, is the implied ACK of the last
    reply, reported as `HostAcknowledged` (an exception leaves the queue only then);
  - with no valid poll for `link_timeout_s` the link is lost (`HostLinkChanged(up=False)`), and
    while the host is silent the port chirps its address every `chirp_interval_s`; the first poll
    afterwards brings the link back (`HostLinkChanged(up=True)`).
Nothing here waits for the host: a silent host never stops play.
"""

from __future__ import annotations

import logging
import os
import select
import termios
import time
from collections import deque

import serial

from hardware.core.clock import Clock
from hardware.interfaces import HostAcknowledged, HostLinkChanged, HostPoll
from hardware.serial.ports import LineSettings, Port, PortFactory, open_serial_port
from hardware.serial.sas_protocol import GeneralPoll, Ignored, LongPoll, PollReader, WakeupDecoder

log = logging.getLogger(__name__)

SAS_LINE = LineSettings(baudrate=19200, parity=serial.PARITY_SPACE)  # 8 bits + wake-up as parity
PTY_LINE = LineSettings(baudrate=19200)
LINK_TIMEOUT_S = 5.0  # no valid poll for this long: the link is lost
CHIRP_INTERVAL_S = 0.2
INTERBYTE_TIMEOUT_S = 0.1  # a poll whose rest never comes is dropped


def is_pty(url: str) -> bool:
    """True for a pseudo-terminal's device path (Unix98 pty slaves have major numbers 136-143)."""
    try:
        return 136 <= os.major(os.stat(url).st_rdev) <= 143
    except (OSError, ValueError):
        return False


def mark_wakeup_bytes(port: Port) -> None:
    """Have Linux mark parity errors (the wake-up bit under SPACE parity) as FF 00 B and a data FF
    as FF FF (INPCK|PARMRK), and keep all 8 bits (no ISTRIP). A port without termios (a socket
    URL) carries the escaped stream as it is."""
    fileno = getattr(port, "fileno", None)
    if fileno is None:
        return
    try:
        fd = fileno()
        attrs = termios.tcgetattr(fd)
    except (OSError, termios.error, ValueError, AttributeError):
        return
    attrs[0] = (attrs[0] | termios.INPCK | termios.PARMRK) & ~(termios.ISTRIP | termios.IGNPAR)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class SasPort:
    """The gaming machine's end of a SAS link at `address` (1-127)."""

    name = "sas"

    def __init__(
        self,
        url: str,
        address: int,
        clock: Clock,
        *,
        port_factory: PortFactory = open_serial_port,
        link_timeout_s: float = LINK_TIMEOUT_S,
        chirp_interval_s: float = CHIRP_INTERVAL_S,
    ) -> None:
        self.url = url
        self.reader = PollReader(address)  # checks the address range
        self.address = address
        self.clock = clock
        self.port_factory = port_factory
        self.link_timeout_s = link_timeout_s
        self.chirp_interval_s = chirp_interval_s
        self.decoder = WakeupDecoder()
        self.port: Port | None = None
        self.link_up = False
        self.ignored = 0  # polls and bytes ignored, for the technician's screen
        self._last_traffic: float | None = None  # last valid poll (to any machine)
        self._last_byte = 0.0
        self._last_chirp: float | None = None
        self._last_poll: bytes | None = None  # the poll last answered, while its ACK is awaited
        self._last_reply: bytes | None = None
        self._unanswered: deque[bytes] = deque()  # polls reported and not yet answered, in order

    # --- the port --------------------------------------------------------------------------------
    def open(self) -> Port:
        if self.port is None:
            if is_pty(self.url):  # a pty carries the host's escaped stream as written
                port = self._configured(PTY_LINE)
            else:
                port = self._configured(SAS_LINE)
                mark_wakeup_bytes(port)  # last: pyserial resets the input flags on every reconfigure
            self.port = port
        return self.port

    def _configured(self, settings: LineSettings) -> Port:
        port = self.port_factory(self.url, settings, 0.0)  # reads never block: the cabinet polls
        if hasattr(port, "write_timeout"):
            port.write_timeout = 0  # a host that stops reading must not stall the cabinet
        return port

    def close(self) -> None:
        if self.port is not None:
            try:
                self.port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("sas: error closing %s: %s", self.url, exc)
            self.port = None

    def wait(self, timeout_s: float) -> bool:
        """Block until bytes arrive or `timeout_s` passes; True when something may be readable."""
        port = self._port_or_none()
        if port is None:
            time.sleep(timeout_s)
            return False
        fileno = getattr(port, "fileno", None)
        try:
            fd = fileno() if fileno is not None else None
        except (OSError, ValueError, AttributeError, serial.SerialException):
            fd = None
        if fd is None:  # e.g. socket:// URLs: poll the buffer in short steps
            end = time.monotonic() + timeout_s
            while port.in_waiting == 0 and time.monotonic() < end:
                time.sleep(0.0005)
            return port.in_waiting > 0
        ready, _, _ = select.select([fd], [], [], timeout_s)
        return bool(ready)

    def _port_or_none(self) -> Port | None:
        try:
            return self.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            log.warning("sas: cannot open %s: %s", self.url, exc)
            return None

    # --- the host's bytes ------------------------------------------------------------------------
    def poll(self) -> list[object]:
        """Read what the host sent and report the polls for this machine (see the module doc)."""
        port = self._port_or_none()
        if port is None:
            return self._supervise()
        try:
            waiting = port.in_waiting
            data = port.read(waiting) if waiting else b""
        except (serial.SerialException, OSError) as exc:
            log.warning("sas: port %s failed: %s; will reopen it", self.url, exc)
            self.close()
            return self._supervise()
        return self.feed(data)

    def feed(self, data: bytes) -> list[object]:
        """The events for these bytes from the host (the port's reads go through here)."""
        now = self.clock.monotonic()
        if data:
            if self.reader.pending() and now - self._last_byte > INTERBYTE_TIMEOUT_S:
                log.info("sas: dropped a poll whose rest never came")
                self.reader.reset()
            self._last_byte = now
        events: list[object] = []
        for item in self.reader.feed(self.decoder.feed(data)):
            if isinstance(item, Ignored):
                self._ignored(item, events)
            else:
                self._polled(item, events)
        return events + self._supervise()

    def _ignored(self, item: Ignored, events: list[object]) -> None:
        self.ignored += 1
        log.debug("sas: ignored %s: %s", item.data.hex(" "), item.reason)
        if item.other_address:
            self._traffic(events)
            self._acknowledged(events)

    def _polled(self, poll: GeneralPoll | LongPoll, events: list[object]) -> None:
        self._traffic(events)
        if poll.raw == self._last_poll and self._last_reply is not None:
            self._write(self._last_reply)  # implied NACK: the same reply, no second effect
            return
        self._acknowledged(events)
        self._unanswered.append(poll.raw)
        if isinstance(poll, GeneralPoll):
            events.append(HostPoll(None))
        else:
            events.append(HostPoll(poll.command, poll.data))

    def _acknowledged(self, events: list[object]) -> None:
        if self._last_reply is not None:
            events.append(HostAcknowledged())
        self._last_poll = self._last_reply = None

    def _traffic(self, events: list[object]) -> None:
        self._last_traffic = self.clock.monotonic()
        if not self.link_up:
            self.link_up = True
            events.append(HostLinkChanged(True, f"SAS host link up on {self.url} (address {self.address})."))

    def _supervise(self) -> list[object]:
        """Link lost after `link_timeout_s` of silence; chirp while the host is silent."""
        now = self.clock.monotonic()
        events: list[object] = []
        silent = self._last_traffic is None or now - self._last_traffic >= self.link_timeout_s
        if silent and self.link_up:
            self.link_up = False
            self._last_poll = self._last_reply = None
            silence = f"no poll for {self.link_timeout_s:g} s"
            events.append(HostLinkChanged(False, f"SAS host link lost on {self.url}: {silence}."))
        if silent and (self._last_chirp is None or now - self._last_chirp >= self.chirp_interval_s):
            self._last_chirp = now
            self._write(bytes([self.address]))
        return events

    # --- the cabinet's answers -------------------------------------------------------------------
    def reply(self, data: bytes, *, needs_ack: bool = True) -> None:
        """Send the answer to the poll last reported. It is kept for the host's implied NACK, unless
        it needs no acknowledgement (a general poll's "no activity"): then the same poll again is a
        new poll, so an exception that arrives meanwhile is reported at once."""
        if not self._unanswered:
            log.error("sas: a reply with no poll to answer was dropped: %s", data.hex(" "))
            return
        poll = self._unanswered.popleft()
        if needs_ack:
            self._last_poll, self._last_reply = poll, data
        else:
            self._last_poll = self._last_reply = None
        self._write(data)

    def no_reply(self) -> None:
        """The poll last reported gets no answer (a command this machine refuses to act on)."""
        if self._unanswered:
            self._unanswered.popleft()

    def _write(self, data: bytes) -> None:
        port = self._port_or_none()
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            log.warning("sas: write to %s failed: %s; will reopen it", self.url, exc)
            self.close()

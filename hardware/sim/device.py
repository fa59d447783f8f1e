"""What every simulated device shares: power, unplugging, silence, and corrupted replies."""

from __future__ import annotations

import logging
import threading
from collections import deque

log = logging.getLogger(__name__)

CORRUPTIONS = ("garble", "bad_checksum", "short")
"""Ways to spoil the next reply: garbled bytes, a wrong checksum, a frame cut short."""


class SimDevice:
    """A device model. Transports call `receive` with the host's bytes and send back what it returns.

    Subclasses implement `handle` (the protocol), `power_up` (the state after power is applied)
    and `bad_checksum` (the reply with its checksum spoiled). Every public method takes the lock,
    so a test or the CLI can inject faults while a transport thread is serving the device.
    """

    name = "device"

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.plugged = True
        self.silent = False
        self.corruptions: deque[str] = deque()
        self.received: list[bytes] = []  # every host chunk, for tests that assert the wire
        self.power_up()

    # --- the transport's side ------------------------------------------------------------------
    def receive(self, data: bytes) -> bytes:
        with self.lock:
            if not self.plugged:
                return b""
            self.received.append(data)
            reply = self.handle(data)
            if self.silent or not self.plugged:  # the request itself may have cut the power
                return b""
            if reply and self.corruptions:
                reply = self.corrupt(reply, self.corruptions.popleft())
            return reply

    def unsolicited(self) -> bytes:
        """Bytes the device sends on its own (none by default)."""
        return b""

    # --- fault injection -----------------------------------------------------------------------
    def corrupt_next(self, kind: str, count: int = 1) -> None:
        if kind not in CORRUPTIONS:
            raise ValueError(f"unknown corruption {kind!r}; choose one of {CORRUPTIONS}")
        with self.lock:
            self.corruptions.extend([kind] * count)

    def stop_answering(self) -> None:
        with self.lock:
            self.silent = True

    def resume_answering(self) -> None:
        with self.lock:
            self.silent = False

    def unplug(self) -> None:
        with self.lock:
            self.plugged = False
            log.info("%s unplugged", self.name)

    def replug(self) -> None:
        """Plug back in: the device powers up afresh (if it was still plugged in, it is unplugged
        first, so its power is really cut)."""
        with self.lock:
            if self.plugged:
                self.unplug()
            self.plugged = True
            self.silent = False
            self.corruptions.clear()
            self.power_up()
            log.info("%s plugged in", self.name)

    def corrupt(self, reply: bytes, kind: str) -> bytes:
        if kind == "garble":
            return reply[:1] + bytes(b ^ 0x5A for b in reply[1:])
        if kind == "short":
            return reply[: max(1, len(reply) // 2)]
        return self.bad_checksum(reply)

    # --- protocol hooks ------------------------------------------------------------------------
    def handle(self, data: bytes) -> bytes:
        raise NotImplementedError

    def power_up(self) -> None:
        raise NotImplementedError

    def bad_checksum(self, reply: bytes) -> bytes:
        raise NotImplementedError

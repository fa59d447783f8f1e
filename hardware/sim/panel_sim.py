"""A simulator of our serial button panel (the panel's side of the `egm-panel` protocol).

`press`/`release`/`tap`, `set_door` and `turn_key` queue numbered events of the current session;
each is sent at once, and every unacknowledged one again, in order, before each PONG. A SYNC or a
power-up starts a new session (a new random id, HELLO, then the doors and keys). Lamp states the
host set are in `lamps`.
"""

from __future__ import annotations

import logging
import secrets

from hardware.interfaces import Door, Key
from hardware.serial import panel_protocol as pp
from hardware.sim.device import SimDevice

log = logging.getLogger(__name__)

FIRMWARE = "EGMPANEL-1.0"


class PanelSimulator(SimDevice):
    name = "panel"

    def __init__(self) -> None:
        self.doors_open: set[Door] = set()
        self.keys_on: set[Key] = set()
        super().__init__()

    def power_up(self) -> None:
        self.reader = pp.LineReader()
        self.lamps: dict[str, str] = {}
        self._new_session()

    def _new_session(self) -> None:
        """A fresh session id, numbering from the HELLO (0), then the state of every door and key."""
        self.boot = secrets.token_hex(2).upper()
        self.seq = 0
        hello = pp.encode_line("HELLO", self.boot, "0", FIRMWARE)
        self.unacked: dict[int, bytes] = {0: hello}
        self.outbox = hello
        for door in Door:
            self._event("DOOR", door.value, "OPEN" if door in self.doors_open else "CLOSED")
        for key in Key:
            self._event("KEY", key.value, "ON" if key in self.keys_on else "OFF")

    # --- the wire ------------------------------------------------------------------------------
    def unsolicited(self) -> bytes:
        with self.lock:
            if not self.plugged or self.silent or not self.outbox:
                return b""
            out, self.outbox = self.outbox, b""
            return self.corrupt(out, self.corruptions.popleft()) if self.corruptions else out

    def handle(self, data: bytes) -> bytes:
        out = b""
        for item in self.reader.feed(data):
            if isinstance(item, pp.PanelMessage):
                out += self._message(item.fields)
            else:
                out += pp.encode_line("NAK", item.reason.replace(",", ";")[:40])
        return out

    def _message(self, fields: tuple[str, ...]) -> bytes:
        kind = fields[0]
        if kind in ("PING", "SYNC") and len(fields) == 2:
            if kind == "SYNC":
                self._new_session()
                self.outbox = b""  # sent just below, in order
            return b"".join(self.unacked.values()) + pp.encode_line("PONG", fields[1])
        if kind == "LAMP" and len(fields) == 4 and fields[3] in pp.LAMP_STATES:
            self.lamps[fields[2]] = fields[3]
            return pp.encode_line("ACK", fields[1])
        if kind == "ACK" and len(fields) == 3:
            seq = pp.parse_seq(fields[2])
            if fields[1] == self.boot and seq is not None:
                self.unacked.pop(seq, None)
            return b""
        return pp.encode_line("NAK", "unknown message")

    def _event(self, kind: str, name: str, value: str) -> None:
        self.seq = pp.next_seq(self.seq)
        line = pp.encode_line(kind, self.boot, str(self.seq), name, value)
        self.unacked[self.seq] = line
        self.outbox += line

    # --- the player and the technician ---------------------------------------------------------
    def press(self, button: str) -> None:
        with self.lock:
            self._event("BTN", button, "DOWN")

    def release(self, button: str) -> None:
        with self.lock:
            self._event("BTN", button, "UP")

    def tap(self, button: str) -> None:
        self.press(button)
        self.release(button)

    def set_door(self, door: Door, is_open: bool) -> None:
        with self.lock:
            (self.doors_open.add if is_open else self.doors_open.discard)(door)
            self._event("DOOR", door.value, "OPEN" if is_open else "CLOSED")

    def turn_key(self, key: Key, on: bool) -> None:
        with self.lock:
            (self.keys_on.add if on else self.keys_on.discard)(key)
            self._event("KEY", key.value, "ON" if on else "OFF")

    def bad_checksum(self, reply: bytes) -> bytes:
        star = reply.rfind(b"*")
        return reply[: star + 1] + (b"00" if reply[star + 1 : star + 3] != b"00" else b"01") + b"\n"

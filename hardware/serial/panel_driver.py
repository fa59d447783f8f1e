"""The serial button panel driver (`egm-panel` protocol): `ButtonPanel` and `DoorsAndKeys`.

Each poll sends the lamp commands that changed and a heartbeat PING. Button, door and key events
the panel sent on its own are read on the way, acknowledged, and reported once each (the panel
numbers them and repeats them until acknowledged). A panel that misses heartbeats becomes a
`DeviceFault(kind="communication")`; when it powers up again (HELLO) every lamp is sent again and
buttons the host thought held are released.
"""

from __future__ import annotations

import logging
from collections import deque

from egm.clock import Clock
from hardware.interfaces import ButtonChanged, Door, DoorChanged, Key, KeyTurned, LampState
from hardware.serial import panel_protocol as pp
from hardware.serial.link import Interval, SerialLink
from hardware.serial.ports import PANEL_LINE, PortFactory, open_serial_port

log = logging.getLogger(__name__)

DEVICE = "button_panel"
SEEN_WINDOW = 64


class SerialButtonPanel:
    """A serial button panel with lamps, door switches and key switches."""

    def __init__(
        self,
        url: str,
        clock: Clock,
        *,
        port_factory: PortFactory = open_serial_port,
        timeout_s: float = 0.2,
        poll_interval_s: float = 0.1,
    ) -> None:
        self.link: SerialLink[pp.PanelMessage] = SerialLink(
            DEVICE, url, PANEL_LINE, clock, timeout_s=timeout_s, port_factory=port_factory, flush_input=False
        )
        self.reader = pp.LineReader()
        self.pacing = Interval(clock, poll_interval_s)
        self.events: list[object] = []
        self.lamps: dict[str, LampState] = {}
        self.lamps_to_send: set[str] = set()
        self.pressed: set[str] = set()
        self.doors: dict[Door, bool] = {}
        self.keys: dict[Key, bool] = {}
        self.seen: deque[int] = deque(maxlen=SEEN_WINDOW)
        self.seq = 0

    # --- ButtonPanel / DoorsAndKeys ----------------------------------------------------------
    def set_lamp(self, button: str, state: LampState) -> None:
        if not pp.NAME.fullmatch(button):
            raise ValueError(f"button name {button!r} must be 1-16 lower-case letters, digits or '_'")
        if self.lamps.get(button) != state:
            self.lamps[button] = state
            self.lamps_to_send.add(button)

    def is_open(self, door: Door) -> bool:
        return self.doors.get(door, False)

    def poll(self) -> list[object]:
        if self.pacing.due():
            for button in sorted(self.lamps_to_send):
                seq = self._next_seq()
                line = pp.encode_line("LAMP", str(seq), button, self.lamps[button].value.upper())
                if self._request(line, "ACK", seq) is not None:
                    self.lamps_to_send.discard(button)
            self._request(pp.encode_line("PING", str(self._next_seq())), "PONG", self.seq)
        events = self.link.take_events() + self.events
        self.events = []
        return events

    def close(self) -> None:
        self.link.close()

    # --- messages ----------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self.seq = (self.seq + 1) % pp.SEQ_MODULO
        return self.seq

    def _request(self, line: bytes, answer: str, seq: int) -> pp.PanelMessage | None:
        def is_answer(message: pp.PanelMessage) -> bool:
            return message.fields == (answer, str(seq))

        return self.link.exchange(line, self.reader, accept=is_answer, on_other=self._on_message)

    def _on_message(self, message: pp.PanelMessage) -> None:
        kind, fields = message.kind, message.fields
        if kind == "HELLO":
            log.info("button panel powered up (%s)", ",".join(fields[1:]))
            self.seen.clear()
            self.lamps_to_send = set(self.lamps)
            for button in sorted(self.pressed):
                self.events.append(ButtonChanged(button, False))
            self.pressed.clear()
        elif kind in ("BTN", "DOOR", "KEY") and len(fields) == 4:
            seq = pp.parse_seq(fields[1])
            if seq is None:
                log.warning("button panel: event %s has a bad number; ignored", fields)
                return
            self.link.send(pp.encode_line("ACK", fields[1]))
            if seq in self.seen:
                return  # a repeat of an event already reported
            self.seen.append(seq)
            self._on_event(kind, fields[2], fields[3])
        elif kind == "NAK":
            log.warning("button panel refused a line: %s", ",".join(fields[1:]))
        elif kind not in ("PONG", "ACK"):
            log.warning("button panel: unexpected message %s; ignored", fields)

    def _on_event(self, kind: str, name: str, value: str) -> None:
        if kind == "BTN" and pp.NAME.fullmatch(name) and value in ("DOWN", "UP"):
            down = value == "DOWN"
            if down != (name in self.pressed):
                (self.pressed.add if down else self.pressed.discard)(name)
                self.events.append(ButtonChanged(name, down))
        elif kind == "DOOR" and name in Door._value2member_map_ and value in ("OPEN", "CLOSED"):
            door, is_open = Door(name), value == "OPEN"
            if self.doors.get(door, False) != is_open:
                self.doors[door] = is_open
                self.events.append(DoorChanged(door, is_open))
        elif kind == "KEY" and name in Key._value2member_map_ and value in ("ON", "OFF"):
            key, on = Key(name), value == "ON"
            if self.keys.get(key, False) != on:
                self.keys[key] = on
                self.events.append(KeyTurned(key, on))
        else:
            log.warning("button panel: malformed %s event %s=%s; ignored", kind, name, value)

"""The serial button panel driver (`egm-panel` protocol): `ButtonPanel` and `DoorsAndKeys`.

Each poll sends the lamp commands that changed and a heartbeat PING. Button, door and key events
the panel sent on its own are read on the way and taken strictly in the panel's numbering order,
each acknowledged and reported once: the panel repeats unacknowledged events, in order, before
every PONG, so an event after a lost one waits for the repeat (a press and its release never
swap). A panel that misses heartbeats becomes a
`DeviceFault(kind="communication")`; when a new session starts (HELLO: the panel powered up, or
answered our SYNC) every lamp is sent again and buttons the host thought held are released.
"""

from __future__ import annotations

import logging

from hardware.core.clock import Clock
from hardware.interfaces import ButtonChanged, Door, DoorChanged, Key, KeyTurned, LampState
from hardware.serial import panel_protocol as pp
from hardware.serial.link import Interval, SerialLink
from hardware.serial.ports import PANEL_LINE, LineSettings, PortFactory, open_serial_port

log = logging.getLogger(__name__)

DEVICE = "button_panel"


class SerialButtonPanel:
    """A serial button panel with lamps, door switches and key switches."""

    def __init__(
        self,
        url: str,
        clock: Clock,
        *,
        port_factory: PortFactory = open_serial_port,
        timeout_s: float = 0.2,
        line: LineSettings = PANEL_LINE,
        fault_after_s: float = 3.0,
        poll_interval_s: float = 0.1,
    ) -> None:
        self.link: SerialLink[pp.PanelMessage] = SerialLink(
            DEVICE, url, line, clock, timeout_s=timeout_s, port_factory=port_factory,
            fault_after_s=fault_after_s, flush_input=False,
        )
        self.reader = pp.LineReader()
        self.pacing = Interval(clock, poll_interval_s)
        self.events: list[object] = []
        self.lamps: dict[str, LampState] = {}
        self.lamps_to_send: set[str] = set()
        self.pressed: set[str] = set()
        self.doors: dict[Door, bool] = {}
        self.keys: dict[Key, bool] = {}
        self.boot: str | None = None  # the panel's session, once its HELLO arrived
        self.expected = 1  # the session's next event number
        self.answered = False  # the panel has answered a heartbeat
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
            # a panel that answers but never showed us its session's HELLO is asked for a new one
            heartbeat = "SYNC" if self.boot is None and self.answered else "PING"
            if self._request(pp.encode_line(heartbeat, str(self._next_seq())), "PONG", self.seq):
                self.answered = True
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
        if kind == "HELLO" or kind in pp.EVENT_KINDS:
            self._on_numbered(kind, fields)
        elif kind == "NAK":
            log.warning("button panel refused a line: %s", ",".join(fields[1:]))
        elif kind not in ("PONG", "ACK"):
            log.warning("button panel: unexpected message %s; ignored", fields)

    def _on_numbered(self, kind: str, fields: tuple[str, ...]) -> None:
        """HELLO and events: strictly in the panel's order, each reported once (see panel_protocol)."""
        size = 4 if kind == "HELLO" else 5
        seq = pp.parse_seq(fields[2]) if len(fields) == size else None
        if seq is None or not pp.BOOT.fullmatch(fields[1]) or (seq == 0) != (kind == "HELLO"):
            log.warning("button panel: malformed %s; ignored", ",".join(fields))
            return
        boot = fields[1]
        if kind == "HELLO":
            if boot != self.boot:
                self.boot, self.expected = boot, 1
                self._on_hello(fields[3])
            self.link.send(pp.encode_line("ACK", boot, "0"))
            return
        if boot != self.boot:
            return  # another session: wait for its HELLO
        behind = (self.expected - seq) % (pp.SEQ_MODULO - 1)
        if seq == self.expected:
            self.expected = pp.next_seq(seq)
            self.link.send(pp.encode_line("ACK", boot, fields[2]))
            self._on_event(kind, fields[3], fields[4])
        elif behind < pp.SEQ_MODULO // 2:  # reported already; our ACK was lost
            self.link.send(pp.encode_line("ACK", boot, fields[2]))
        else:
            log.info("button panel: event %d came before %d; waiting for the repeat", seq, self.expected)

    def _on_hello(self, firmware: str) -> None:
        log.info("button panel session started (%s)", firmware)
        self.lamps_to_send = set(self.lamps)
        for button in sorted(self.pressed):
            self.events.append(ButtonChanged(button, False))
        self.pressed.clear()

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

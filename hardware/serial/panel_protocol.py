"""The `egm-panel` line protocol of our serial button panel (a microcontroller on a USB serial port).

Every message is one ASCII line: `BODY*CS\n`. BODY is comma-separated fields of printable ASCII
(no `*`), at most 60 characters; CS is the XOR of BODY's bytes as two upper-case hex digits (as in
NMEA 0183). Host -> panel:

    PING,<n>                           heartbeat; the panel answers PONG,<n>
    SYNC,<n>                           start a new session (as at power-up); answered PONG,<n>
    LAMP,<n>,<button>,ON|OFF|FLASH     set a button lamp; the panel answers ACK,<n>
    ACK,<boot>,<seq>                   the host took the panel's event <seq> of session <boot>

Panel -> host (events; <boot> is 4 hex digits chosen at random for each session):

    HELLO,<boot>,0,<firmware>          event 0 of a session: after power-up or SYNC, followed by the
                                       state of every door and key
    BTN,<boot>,<seq>,<button>,DOWN|UP  a button changed
    DOOR,<boot>,<seq>,<door>,OPEN|CLOSED
    KEY,<boot>,<seq>,<key>,ON|OFF
    PONG,<n> / ACK,<n>                 answers to the host
    NAK,<reason>                       the host's line was malformed

Events are numbered 1..999 in a session (then 1 again; 0 is the HELLO). The panel sends each event
at once, and every unacknowledged event again, in order, before each PONG. The host takes events
strictly in order: the next number is reported and ACKed, an older number of the same session is
ACKed again (the ACK was lost) but not reported, a later number waits for the repeat of the
missing ones, and a new session starts only at its HELLO. So each event counts once, a press never
overtakes its release, and a panel restart is never mistaken for old events. A host that does not
know the session (it just started) sends SYNC instead of PING.

>>> encode_line("PING", "7")
b'PING,7*0B\\n'
>>> LineReader().feed(b"BTN,1A2B,3,deal,DOWN*75\\n")
[PanelMessage(fields=('BTN', '1A2B', '3', 'deal', 'DOWN'))]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hardware.serial.link import BufferedParser, FrameError

MAX_BODY = 60
SEQ_MODULO = 1000  # event numbers 1..999; 0 is a session's HELLO
EVENT_KINDS = ("BTN", "DOOR", "KEY")
BOOT = re.compile(r"[0-9A-F]{4}")
NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")
LAMP_STATES = ("ON", "OFF", "FLASH")


@dataclass(frozen=True)
class PanelMessage:
    fields: tuple[str, ...]

    @property
    def kind(self) -> str:
        return self.fields[0]


def checksum(body: bytes) -> int:
    value = 0
    for byte in body:
        value ^= byte
    return value


def encode_line(*fields: str) -> bytes:
    body = ",".join(fields).encode("ascii")
    if len(body) > MAX_BODY or b"*" in body or b"\n" in body:
        raise ValueError(f"panel line {body!r} is too long or holds '*' or a newline")
    return body + b"*" + f"{checksum(body):02X}".encode("ascii") + b"\n"


class LineReader(BufferedParser):
    """Incremental parser of panel lines. Never raises: bad lines come back as `FrameError`s."""

    def feed(self, data: bytes) -> list[PanelMessage | FrameError]:
        self.buffer += data
        out: list[PanelMessage | FrameError] = []
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                if len(self.buffer) > MAX_BODY + 4:
                    out.append(FrameError("line too long", bytes(self.buffer)))
                    self.buffer.clear()
                return out
            line = bytes(self.buffer[:end]).removesuffix(b"\r")
            del self.buffer[: end + 1]
            out.append(parse_line(line))


def parse_line(line: bytes) -> PanelMessage | FrameError:
    body, star, cs = line.rpartition(b"*")
    if not star or len(cs) != 2:
        return FrameError("no checksum", line)
    if len(body) > MAX_BODY or any(not 0x20 <= b < 0x7F or b == ord("*") for b in body):
        return FrameError("malformed body", line)
    try:
        expected = int(cs, 16)
    except ValueError:
        return FrameError("checksum is not hex", line)
    if checksum(body) != expected or cs.upper() != cs:
        return FrameError("checksum mismatch", line)
    fields = tuple(body.decode("ascii").split(","))
    if not fields[0]:
        return FrameError("empty message", line)
    return PanelMessage(fields)


def parse_seq(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 3 else None


def next_seq(seq: int) -> int:
    """The event number after `seq` (1..999, wrapping to 1)."""
    return seq % (SEQ_MODULO - 1) + 1

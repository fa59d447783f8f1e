"""The `egm-panel` line protocol of our serial button panel (a microcontroller on a USB serial port).

Every message is one ASCII line: `BODY*CS\\n`. BODY is comma-separated fields of printable ASCII
(no `*`), at most 60 characters; CS is the XOR of BODY's bytes as two upper-case hex digits (as in
NMEA 0183). Host -> panel:

    PING,<seq>                         heartbeat; the panel answers PONG,<seq>
    LAMP,<seq>,<button>,ON|OFF|FLASH   set a button lamp; the panel answers ACK,<seq>
    ACK,<seq>                          the host got the panel's event <seq>

Panel -> host:

    HELLO,<firmware>                   after power-up (then the state of every door and key)
    BTN,<seq>,<button>,DOWN|UP         a button changed
    DOOR,<seq>,<door>,OPEN|CLOSED      a door switch changed
    KEY,<seq>,<key>,ON|OFF             a key switch turned
    PONG,<seq> / ACK,<seq>             answers to the host
    NAK,<reason>                       the host's line was malformed

The panel numbers its events 0..999 (wrapping) and sends each one again on every PING until the
host ACKs it; the host ignores numbers it has already seen, so an event counts once.

>>> encode_line("PING", "7")
b'PING,7*0B\\n'
>>> LineReader().feed(b"BTN,3,deal,DOWN*59\\n")
[PanelMessage(fields=('BTN', '3', 'deal', 'DOWN'))]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hardware.serial.link import FrameError

MAX_BODY = 60
SEQ_MODULO = 1000
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


class LineReader:
    """Incremental parser of panel lines. Never raises: bad lines come back as `FrameError`s."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def reset(self) -> None:
        self.buffer.clear()

    def pending(self) -> bool:
        return bool(self.buffer)

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

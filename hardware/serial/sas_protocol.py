"""SAS (Slot Accounting System, 6.02 style) wire format: wake-up bit, polls, CRC, BCD. Shared by the
cabinet's SAS port and the host simulator.

The line is 19,200 baud, 8 data bits and a 9th "wake-up" bit that marks the first byte of each poll.
The cabinet reads it with SPACE parity and `INPCK|PARMRK`, so Linux delivers
  - a byte B sent with the wake-up bit (a parity error under SPACE parity) as  FF 00 B,
  - a data byte FF                                                        as  FF FF,
  - every other byte as itself.
`WakeupDecoder` undoes exactly that; a pty carries the same escaped stream, so one parser serves a
real UART, a pty and a pyserial URL alike. The cabinet's replies carry no wake-up bit.

Polls (the host speaks first, always):
  general poll   0x80 | address (wake-up), answered with one exception code byte
  long poll      address (wake-up), command, then by command:
                   type R   nothing more (read polls: meters, ids)
                   type S   fixed-length data, then the CRC
                   type M   a length byte, that many data bytes, then the CRC
Replies to long polls are address, command, data, CRC; an ACK is the address alone, a NACK the
address with bit 7 set. The CRC is CRC-16/KERMIT over everything before it, sent low byte first.
A host that also sends a CRC after a type R poll is understood: bytes without a wake-up bit that
belong to no poll are ignored.

>>> encode_long_poll(1, 0x21, b"\\x00\\x00").hex(" ")
'01 21 00 00 5c 45'
>>> escape_for_line(bytes([0x81])).hex(" ")
'ff 00 81'
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.serial.crc import crc16_kermit

ESCAPE = 0xFF  # PARMRK's mark byte
GENERAL_POLL_BIT = 0x80
MAX_ADDRESS = 127
ADDRESS_BROADCAST = 0  # global broadcast: no machine answers it

# Type R: read polls, no data and no CRC.
R_POLLS = frozenset(
    {0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1C, 0x1E, 0x1F, 0x20,
     0x2A, 0x2B, 0x54, 0x55, 0x57, 0x70, 0x7E}
)
# Type S: fixed data length (bytes between the command and the CRC).
S_POLLS = {0x01: 0, 0x02: 0, 0x0E: 1, 0x21: 2, 0x4C: 6, 0x4D: 1, 0x58: 9, 0x74: 4, 0x7F: 7}
# Type M: a length byte follows the command.
M_POLLS = frozenset({0x2F, 0x6F, 0x71, 0x72})
# The host's side: how long each reply is (None: a length byte follows the command; 1: an ACK).
REPLY_LENGTHS: dict[int, int | None] = {
    0x01: 1, 0x02: 1, 0x0E: 1, 0x7F: 1,
    0x0F: 28, 0x10: 8, 0x11: 8, 0x12: 8, 0x13: 8, 0x14: 8, 0x15: 8, 0x16: 8, 0x17: 8,
    0x18: 8, 0x19: 24, 0x1A: 8, 0x1C: 36, 0x1E: 28, 0x1F: 24, 0x20: 8, 0x21: 6, 0x2A: 8, 0x2B: 8,
    0x4C: 10, 0x4D: 35, 0x55: 6, 0x57: 10, 0x58: 5, 0x7E: 11,
    0x2F: None, 0x54: None, 0x6F: None, 0x70: None, 0x71: None, 0x72: None, 0x74: None,
}


class BcdError(ValueError):
    """A field that should be packed BCD has a nibble above 9."""


def bcd(value: int, size: int) -> bytes:
    """`value` as `size` bytes of packed BCD, most significant first; wider values roll over as a
    meter does (only the low 2*size digits are sent).

    >>> bcd(1234, 4).hex()
    '00001234'
    """
    if value < 0:
        raise ValueError("BCD fields are never negative")
    digits = f"{value % 10 ** (2 * size):0{2 * size}d}"
    return bytes.fromhex(digits)


def from_bcd(data: bytes) -> int:
    """The number a packed-BCD field holds; BcdError when a nibble is not a decimal digit."""
    text = data.hex()
    if not text.isdigit():
        raise BcdError(f"{data.hex(' ')} is not packed BCD")
    return int(text) if text else 0


def with_crc(body: bytes) -> bytes:
    crc = crc16_kermit(body)
    return body + bytes([crc & 0xFF, crc >> 8])


def crc_ok(frame: bytes) -> bool:
    return len(frame) >= 3 and crc16_kermit(frame[:-2]) == frame[-2] | frame[-1] << 8


def encode_reply(address: int, command: int, data: bytes = b"") -> bytes:
    """A long-poll reply: address, command, data, CRC."""
    return with_crc(bytes([address, command]) + data)


def ack(address: int) -> bytes:
    return bytes([address])


def nack(address: int) -> bytes:
    return bytes([address | 0x80])


# --- the host's side -------------------------------------------------------------------------------
def encode_general_poll(address: int) -> bytes:
    return bytes([GENERAL_POLL_BIT | address])


def encode_long_poll(address: int, command: int, data: bytes = b"") -> bytes:
    """A long poll as the host sends it (before the wake-up convention): type R without CRC,
    type M with its length byte, types S and M with the CRC."""
    if command in R_POLLS:
        return bytes([address, command])
    if command in M_POLLS:
        return with_crc(bytes([address, command, len(data)]) + data)
    return with_crc(bytes([address, command]) + data)


def escape_for_line(poll: bytes) -> bytes:
    """What the cabinet reads for `poll` sent with the wake-up bit on its first byte, under SPACE
    parity and PARMRK: the stream a host writes straight into a pty (or a TCP bridge)."""
    rest = poll[1:].replace(bytes([ESCAPE]), bytes([ESCAPE, ESCAPE]))
    return bytes([ESCAPE, 0x00, poll[0]]) + rest


# --- the cabinet's side: wake-up decoding and poll framing -----------------------------------------
@dataclass(frozen=True)
class GeneralPoll:
    address: int

    @property
    def raw(self) -> bytes:
        return bytes([GENERAL_POLL_BIT | self.address])


@dataclass(frozen=True)
class LongPoll:
    address: int
    command: int
    data: bytes = b""  # between the command (or its length byte) and the CRC
    raw: bytes = b""  # the whole poll as sent, CRC included


Poll = GeneralPoll | LongPoll


@dataclass(frozen=True)
class Ignored:
    """Bytes that are no poll for this machine, and why. `other_address` marks a poll to another
    machine (the host's implied acknowledgement of this machine's last reply)."""

    reason: str
    data: bytes
    other_address: bool = False


class WakeupDecoder:
    """The PARMRK-escaped byte stream back to (byte, wake-up bit) pairs."""

    def __init__(self) -> None:
        self._state = 0  # 0 normal, 1 after FF, 2 after FF 00

    def reset(self) -> None:
        self._state = 0

    def feed(self, data: bytes) -> list[tuple[int, bool]]:
        out: list[tuple[int, bool]] = []
        for byte in data:
            if self._state == 2:
                out.append((byte, True))
                self._state = 0
            elif self._state == 1:
                if byte == 0x00:
                    self._state = 2
                else:  # FF FF is a data FF; anything else is no valid escape: a stray byte
                    self._state = 0
                    if byte == ESCAPE:
                        out.append((ESCAPE, False))
            elif byte == ESCAPE:
                self._state = 1
            else:
                out.append((byte, False))
        return out


def expected_length(frame: bytes) -> int | None:
    """How long the long poll starting `frame` (address, command[, length]) is, or None when its
    command is unknown. Returns 0 while the length byte of a type M poll is still to come."""
    command = frame[1]
    if command in R_POLLS:
        return 2
    if command in S_POLLS:
        return 2 + S_POLLS[command] + 2
    if command in M_POLLS:
        return 0 if len(frame) < 3 else 3 + frame[2] + 2
    return None


class PollReader:
    """Frames the polls addressed to `address` out of decoded (byte, wake-up) pairs.

    A wake-up byte always starts a new poll (an unfinished one is dropped). Returns complete polls
    for this machine and `Ignored` items for the rest. Never raises.
    """

    def __init__(self, address: int) -> None:
        if not 1 <= address <= MAX_ADDRESS:
            raise ValueError(f"SAS address {address} is out of range; use 1 to {MAX_ADDRESS}")
        self.address = address
        self._frame = bytearray()
        self._collecting = False

    def reset(self) -> None:
        self._frame.clear()
        self._collecting = False

    def pending(self) -> bool:
        return self._collecting

    def feed(self, symbols: list[tuple[int, bool]]) -> list[Poll | Ignored]:
        out: list[Poll | Ignored] = []
        for byte, wakeup in symbols:
            if wakeup:
                if self._collecting:
                    out.append(Ignored("poll cut short by the next wake-up byte", bytes(self._frame)))
                self.reset()
                self._start(byte, out)
            elif self._collecting:
                self._frame.append(byte)
                self._check(out)
            # a byte without wake-up outside a poll of ours: ignored silently (another machine's
            # reply, a type R poll's CRC, line noise)
        return out

    def _start(self, byte: int, out: list[Poll | Ignored]) -> None:
        if byte & GENERAL_POLL_BIT:
            address = byte & 0x7F
            if address == self.address:
                out.append(GeneralPoll(address))
            else:
                out.append(Ignored("general poll for another machine", bytes([byte]), other_address=True))
        elif byte == self.address:
            self._frame.append(byte)
            self._collecting = True
        else:
            out.append(Ignored("long poll for another machine", bytes([byte]), other_address=True))

    def _check(self, out: list[Poll | Ignored]) -> None:
        frame = bytes(self._frame)
        length = expected_length(frame)
        if length is None:
            out.append(Ignored(f"long poll 0x{frame[1]:02X} is not supported", frame))
            self.reset()
            return
        if length == 0 or len(frame) < length:
            return
        self.reset()
        command = frame[1]
        if command in R_POLLS:
            out.append(LongPoll(self.address, command, b"", frame))
        elif not crc_ok(frame):
            out.append(Ignored(f"long poll 0x{command:02X} has a bad CRC", frame))
        else:
            start = 3 if command in M_POLLS else 2
            out.append(LongPoll(self.address, command, frame[start:-2], frame))

"""JCM ID-003 wire format: frames, CRC, command and status codes. Shared by the driver and the sim.

A frame is `SYNC LNG CMD [DATA...] CRCL CRCH`:
- SYNC is 0xFC; LNG is the length of the whole frame (SYNC to CRC inclusive, 5 + len(DATA));
- the CRC is CRC-16/KERMIT (CCITT polynomial, reflected: 0x8408, initial value 0, no final XOR)
  over SYNC..DATA, sent low byte first.

References are listed in docs/hardware.md.

>>> encode_frame(STATUS_REQUEST).hex(" ")
'fc 05 11 27 56'
>>> crc16_kermit(b"123456789") == 0x2189
True
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.serial.crc import crc16_kermit
from hardware.serial.link import BufferedParser, FrameError

SYNC = 0xFC
MIN_LENGTH = 5  # SYNC + LNG + CMD + 2 CRC bytes
MAX_LENGTH = 250  # longest frame we accept (a 24-character ticket escrow is 31 bytes)

# --- controller -> acceptor ------------------------------------------------------------------
STATUS_REQUEST = 0x11
RESET = 0x40
STACK_1 = 0x41
STACK_2 = 0x42
RETURN = 0x43
HOLD = 0x44
ACK = 0x50  # also the acceptor's reply to operation commands
VERSION_REQUEST = 0x88  # answered with the same code and the firmware version in ASCII
SET_DENOMINATION = 0xC0  # enable/inhibit per denomination, 2 bytes, bit set = inhibited
SET_SECURITY = 0xC1  # 2 bytes, bit set = high security for that denomination
SET_INHIBIT = 0xC3  # 1 byte: 0x00 accept, 0x01 inhibit the whole acceptor
SET_BARCODE_FUNCTION = 0xC6  # 2 bytes: barcode type (0x01 Interleaved 2 of 5), digits (0x12 = 18)
SET_BARCODE_INHIBIT = 0xC7  # 1 byte: bit 0 inhibits notes, bit 1 inhibits tickets
SETTING_COMMANDS = frozenset(
    {SET_DENOMINATION, SET_SECURITY, SET_INHIBIT, SET_BARCODE_FUNCTION, SET_BARCODE_INHIBIT}
)

BARCODE_INTERLEAVED_2_OF_5 = 0x01
BARCODE_18_DIGITS = 0x12
INHIBIT_NOTES = 0x01
INHIBIT_TICKETS = 0x02

# --- acceptor -> controller: normal statuses --------------------------------------------------
ENABLE_IDLING = 0x11
ACCEPTING = 0x12
ESCROW = 0x13  # data: escrow code (0x61.. a note, 0x6F a ticket followed by its barcode)
STACKING = 0x14
VEND_VALID = 0x15  # the note is past the point of no return: credit it, then ACK
STACKED = 0x16
REJECTING = 0x17  # data: reject reason
RETURNING = 0x18
HOLDING = 0x19
DISABLE_INHIBIT = 0x1A
INITIALIZE = 0x1B

# --- power-up statuses -----------------------------------------------------------------------
POWER_UP = 0x40
POWER_UP_BILL_IN_ACCEPTOR = 0x41
POWER_UP_BILL_IN_STACKER = 0x42
POWER_UP_STATUSES = frozenset({POWER_UP, POWER_UP_BILL_IN_ACCEPTOR, POWER_UP_BILL_IN_STACKER})

# --- error statuses --------------------------------------------------------------------------
STACKER_FULL = 0x43
STACKER_OPEN = 0x44
ACCEPTOR_JAM = 0x45
STACKER_JAM = 0x46
PAUSE = 0x47
CHEATED = 0x48
FAILURE = 0x49  # data: failure code
COMMUNICATION_ERROR = 0x4A  # the acceptor received a frame with a bad CRC or length
INVALID_COMMAND = 0x4B

TICKET_ESCROW_CODE = 0x6F
FIRST_NOTE_CODE = 0x61
NOTE_CODES = range(0x61, 0x69)  # denominations 1..8; bit (code - 0x61) of SET_DENOMINATION

USD_NOTE_CODES: dict[int, int] = {  # escrow code -> cents, the usual US bill table
    0x61: 100,
    0x62: 200,
    0x63: 500,
    0x64: 1000,
    0x65: 2000,
    0x66: 5000,
    0x67: 10000,
}

REJECT_REASONS: dict[int, str] = {
    0x71: "insertion error",
    0x72: "magnetic pattern error",
    0x73: "bill remained in the head",
    0x74: "compensation error",
    0x75: "conveying error",
    0x76: "denomination not recognised",
    0x77: "photo pattern error",
    0x78: "photo level error",
    0x79: "inhibited denomination or acceptor inhibited",
    0x7B: "operation error (escrow not stacked or returned in time)",
    0x7C: "bill remained in the stacker path",
    0x7D: "length error",
    0x7E: "photo pattern error",
    0x98: "more than one bill inserted",
    0x9B: "ticket inserted upside down",
}

FAILURE_CODES: dict[int, str] = {
    0xA2: "stacker motor failure",
    0xA5: "transport motor speed failure",
    0xA6: "transport motor failure",
    0xAB: "cash box not ready",
    0xAF: "validator head removed",
    0xB0: "boot ROM failure",
    0xB1: "external ROM failure",
    0xB2: "ROM failure",
    0xB3: "external ROM write failure",
}

ERROR_KINDS: dict[int, tuple[str, str]] = {  # status -> (fault kind, what the attendant must do)
    STACKER_FULL: ("stacker_full", "The bill stacker is full; empty the cash box."),
    STACKER_OPEN: ("stacker_open", "The bill stacker is open or removed; close it."),
    ACCEPTOR_JAM: ("acceptor_jam", "A bill is jammed in the acceptor; open the head and clear it."),
    STACKER_JAM: ("stacker_jam", "A bill is jammed in the stacker; clear it."),
    CHEATED: ("cheated", "The bill acceptor detected a cheating attempt; check the cabinet."),
    FAILURE: ("failure", "The bill acceptor reports a hardware failure; service it."),
}


@dataclass(frozen=True)
class Frame:
    command: int
    data: bytes = b""

    def encode(self) -> bytes:
        return encode_frame(self.command, self.data)


def encode_frame(command: int, data: bytes = b"") -> bytes:
    body = bytes([SYNC, MIN_LENGTH + len(data), command]) + data
    crc = crc16_kermit(body)
    return body + bytes([crc & 0xFF, crc >> 8])


class FrameReader(BufferedParser):
    """Incremental ID-003 frame parser. Never raises: bad bytes come back as `FrameError`s.

    >>> r = FrameReader()
    >>> r.feed(b"\\x00" + encode_frame(0x11))
    [FrameError(reason='garbage before SYNC', data=b'\\x00'), Frame(command=17, data=b'')]
    """

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        self.buffer += data
        out: list[Frame | FrameError] = []
        while self.buffer:
            if self.buffer[0] != SYNC:
                start = self.buffer.find(SYNC)
                cut = len(self.buffer) if start < 0 else start
                out.append(FrameError("garbage before SYNC", bytes(self.buffer[:cut])))
                del self.buffer[:cut]
                continue
            if len(self.buffer) < 2:
                break
            length = self.buffer[1]
            if not MIN_LENGTH <= length <= MAX_LENGTH:
                out.append(FrameError(f"impossible length {length}", bytes(self.buffer[:2])))
                del self.buffer[:1]
                continue
            if len(self.buffer) < length:
                break
            raw = bytes(self.buffer[:length])
            if crc16_kermit(raw[:-2]) != raw[-2] | raw[-1] << 8:
                out.append(FrameError("CRC mismatch", raw))
                del self.buffer[:1]  # resynchronise on the next SYNC
                continue
            del self.buffer[:length]
            out.append(Frame(raw[2], raw[3:-2]))
        return out

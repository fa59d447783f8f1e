"""FutureLogic/JCM TCL printer protocol: commands, the status reply and its flag bits.

Shared by the TCL driver and the TCL simulator. The host sends ASCII commands framed by carets:
- `^S|^` status enquiry;
- `^P|<template>|<copies>|<field 1>|...|<field n>|^` print a ticket from a template held in the
  printer (field text may not contain `|` or `^`);
- `^C|^` clear the error and reset flags;  `^F|A|^` flush every pending job.

The printer answers a status enquiry with `*S|<address>|<firmware>|f1|f2|f3|f4|f5|P<t>|*` where
f1..f5 are single flag bytes (bit 6 always set, so each is printable; a flag byte can itself be
`|`, so the reply is parsed by position, never split). TCL has no checksum: a reply is accepted
only if every fixed byte and every flag byte is well formed. The flag bits used here are below;
docs/hardware.md lists them with their references.

>>> s = Status(flags=(0x40, 0x40, 0x40, 0x40, 0x40 | VALIDATION_DONE[1]))
>>> encode_status(s)
b'*S|0|GURU-1.00|@|@|@|@|`|P0|*'
>>> StatusReader().feed(encode_status(s))[0].validation_done
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hardware.serial.link import BufferedParser, FrameError

STATUS_REQUEST = b"^S|^"
CLEAR_ERRORS = b"^C|^"
FLUSH_ALL = b"^F|A|^"
FLAG_BASE = 0x40  # bit 6 is always set in a flag byte
FLAG_BITS = 0x3F

Flag = tuple[int, int]  # (index of the flag byte 0..4, bit)
# flag 1
VOLTAGE_ERROR: Flag = (0, 0x01)
HEAD_ERROR: Flag = (0, 0x02)
PAPER_OUT: Flag = (0, 0x04)
HEAD_UP: Flag = (0, 0x08)  # platen up / print head open
SYSTEM_ERROR: Flag = (0, 0x10)
BUSY: Flag = (0, 0x20)
# flag 2
PRINT_REGION_DATA_ERROR: Flag = (1, 0x08)
TEMPERATURE_ERROR: Flag = (1, 0x20)
# flag 3
PRINTER_OFFLINE: Flag = (2, 0x02)
FLASH_PROGRAM_ERROR: Flag = (2, 0x04)
LIBRARIES_CORRUPT: Flag = (2, 0x10)
COMMAND_ERROR: Flag = (2, 0x20)
# flag 4
PAPER_LOW: Flag = (3, 0x01)
PAPER_JAM: Flag = (3, 0x02)
CUTTER_ERROR: Flag = (3, 0x04)
# flag 5
RESET: Flag = (4, 0x01)  # the printer powered up or was reset since the flags were last cleared
BARCODE_DATA_ACCESSED: Flag = (4, 0x02)
CHASSIS_OPEN: Flag = (4, 0x04)
TOP_OF_FORM: Flag = (4, 0x10)
VALIDATION_DONE: Flag = (4, 0x20)  # the validation number of the last ticket is on the paper

FAULT_FLAGS: dict[Flag, tuple[str, str]] = {  # flag -> (fault kind, what the attendant must do)
    PAPER_OUT: ("paper_out", "The ticket printer is out of paper; load a new pack."),
    HEAD_UP: ("head_up", "The ticket printer's head is open; close it."),
    PAPER_JAM: ("paper_jam", "Paper is jammed in the ticket printer; clear it."),
    CHASSIS_OPEN: ("chassis_open", "The ticket printer's drawer is open; close it."),
    HEAD_ERROR: ("printer_error", "The ticket printer reports a print head error; service it."),
    VOLTAGE_ERROR: ("printer_error", "The ticket printer reports a supply voltage error; service it."),
    SYSTEM_ERROR: ("printer_error", "The ticket printer reports a system error; service it."),
    TEMPERATURE_ERROR: ("printer_error", "The ticket printer's head is too hot; let it cool."),
    CUTTER_ERROR: ("printer_error", "The ticket printer's cutter failed; service it."),
    PRINTER_OFFLINE: ("printer_error", "The ticket printer is offline; check it and switch it on line."),
    FLASH_PROGRAM_ERROR: ("printer_error", "The ticket printer's firmware is damaged; service it."),
    LIBRARIES_CORRUPT: ("printer_error", "The ticket printer's print libraries are damaged; service it."),
}

IDLE_FLAGS = (FLAG_BASE, FLAG_BASE, FLAG_BASE, FLAG_BASE, FLAG_BASE | 0x10 | 0x20)  # TOF, val. done
MAX_FIELD_LENGTH = 16  # address, firmware version


@dataclass(frozen=True)
class Status:
    address: str = "0"
    firmware: str = "GURU-1.00"
    flags: tuple[int, int, int, int, int] = IDLE_FLAGS
    template: str = "0"

    def has(self, flag: Flag) -> bool:
        index, bit = flag
        return bool(self.flags[index] & bit)

    def with_flag(self, flag: Flag, on: bool) -> Status:
        index, bit = flag
        flags = list(self.flags)
        flags[index] = flags[index] | bit if on else flags[index] & ~bit
        return replace(self, flags=(flags[0], flags[1], flags[2], flags[3], flags[4]))

    @property
    def busy(self) -> bool:
        return self.has(BUSY)

    @property
    def validation_done(self) -> bool:
        return self.has(VALIDATION_DONE)

    def faults(self) -> dict[str, str]:
        """Active fault kinds and their messages (several flags may share a kind)."""
        out: dict[str, str] = {}
        for flag, (kind, message) in FAULT_FLAGS.items():
            if self.has(flag) and kind not in out:
                out[kind] = message
        return out


def encode_status(status: Status) -> bytes:
    head = f"*S|{status.address}|{status.firmware}|".encode("ascii")
    flags = b"".join(bytes([f]) + b"|" for f in status.flags)
    return head + flags + f"P{status.template}|*".encode("ascii")


def encode_print(template: str, fields: list[str], copies: int = 1) -> bytes:
    """The print command; field text is restricted to printable ASCII without `|` and `^`."""
    for text in [template, *fields]:
        bad = [c for c in text if c in "|^" or not (" " <= c <= "~")]
        if bad:
            raise ValueError(f"TCL field {text!r} holds characters the printer cannot take: {bad}")
    return "|".join(["^P", template, str(copies), *fields, "^"]).encode("ascii")


class StatusReader(BufferedParser):
    """Incremental parser of status replies. Never raises: bad bytes come back as `FrameError`s."""

    def feed(self, data: bytes) -> list[Status | FrameError]:
        self.buffer += data
        out: list[Status | FrameError] = []
        while self.buffer:
            start = self.buffer.find(b"*")
            if start != 0:
                cut = len(self.buffer) if start < 0 else start
                out.append(FrameError("garbage before '*'", bytes(self.buffer[:cut])))
                del self.buffer[:cut]
                continue
            result = _parse_status(bytes(self.buffer))
            if result is None:
                break
            if isinstance(result, str):
                out.append(FrameError(result, bytes(self.buffer[:1])))
                del self.buffer[:1]
                continue
            status, used = result
            del self.buffer[:used]
            out.append(status)
        return out


def _text_field(buf: bytes, pos: int) -> tuple[str, int] | str | None:
    end = buf.find(b"|", pos, pos + MAX_FIELD_LENGTH + 1)
    if end < 0:
        return None if len(buf) - pos <= MAX_FIELD_LENGTH else "text field too long"
    raw = buf[pos:end]
    if not raw or any(not 0x20 < b < 0x7F or b in b"*^" for b in raw):
        return f"malformed text field {raw!r}"
    return raw.decode("ascii"), end + 1


def _parse_status(buf: bytes) -> tuple[Status, int] | str | None:
    """A status at the start of buf: (status, bytes used), an error sentence, or None for 'need more'."""
    prefix = b"*S|"
    if len(buf) < len(prefix):
        return None if prefix.startswith(buf) else "not a status reply"
    if not buf.startswith(prefix):
        return "not a status reply"
    pos = len(prefix)
    fields = []
    for _ in range(2):
        got = _text_field(buf, pos)
        if not isinstance(got, tuple):
            return got
        fields.append(got[0])
        pos = got[1]
    flags = []
    for _ in range(5):
        if len(buf) < pos + 2:
            return None
        flag, sep = buf[pos], buf[pos + 1]
        if flag & ~FLAG_BITS != FLAG_BASE or sep != ord("|"):
            return f"malformed status flag byte 0x{flag:02X}"
        flags.append(flag)
        pos += 2
    tail = buf[pos : pos + 4]
    if len(tail) < 4:
        expected = b"P?|*"
        partial_ok = all(e == ord("?") or e == t for e, t in zip(expected, tail, strict=False))
        return None if partial_ok else "malformed status tail"
    if tail[0] != ord("P") or tail[2:] != b"|*" or not 0x20 < tail[1] < 0x7F:
        return f"malformed status tail {tail!r}"
    status = Status(fields[0], fields[1], (flags[0], flags[1], flags[2], flags[3], flags[4]), chr(tail[1]))
    return status, pos + 4


class CommandReader(BufferedParser):
    """The printer's side: split the host's bytes into `^...^` commands (for the simulator)."""

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        self.buffer += data
        out: list[bytes | FrameError] = []
        while self.buffer:
            if self.buffer[0] != ord("^"):
                start = self.buffer.find(b"^")
                cut = len(self.buffer) if start < 0 else start
                out.append(FrameError("garbage before '^'", bytes(self.buffer[:cut])))
                del self.buffer[:cut]
                continue
            end = self.buffer.find(b"^", 1)
            if end < 0:
                break
            out.append(bytes(self.buffer[: end + 1]))
            del self.buffer[: end + 1]
        return out

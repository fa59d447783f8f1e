"""A SAS host (the casino's slot accounting system) that polls one gaming machine: the project's own,
for tests and demonstrations (`egm sim sas-host`).

It writes polls with the wake-up convention of sas_protocol: on a pty or a socket the escaped stream
(FF 00 B for the wake-up byte, FF FF for a data FF), on a real serial port MARK parity for the
wake-up byte and SPACE parity for the rest. It reads the machine's replies, checks their CRC, and
decodes the ones it knows: exceptions, meters, ROM signature, ticket validation and redemption, AFT.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
import tty
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

import serial

from hardware.serial.ports import Port
from hardware.serial.sas_link import SAS_LINE
from hardware.serial.sas_protocol import (
    REPLY_LENGTHS,
    bcd,
    crc_ok,
    encode_general_poll,
    encode_long_poll,
    escape_for_line,
    from_bcd,
)

EXCEPTION_NAMES = {
    0x00: "no activity",
    0x11: "slot door opened",
    0x12: "slot door closed",
    0x15: "card cage opened",
    0x16: "card cage closed",
    0x17: "AC power applied",
    0x18: "AC power lost",
    0x19: "cash box door opened",
    0x1A: "cash box door closed",
    0x27: "cash box full",
    0x28: "bill jam",
    0x29: "bill acceptor hardware failure",
    0x31: "CMOS RAM error (data recovered)",
    0x32: "CMOS RAM error (no data recovered)",
    0x37: "EPROM error (bad checksum compare)",
    0x3A: "memory error reset",
    0x3D: "cash out ticket printed",
    0x4F: "bill accepted",
    0x51: "hand pay pending",
    0x52: "hand pay reset",
    0x57: "system validation request",
    0x60: "printer communication error",
    0x61: "printer paper out",
    0x66: "cash out button pressed",
    0x67: "ticket inserted",
    0x68: "ticket transfer complete",
    0x69: "AFT transfer complete",
    0x70: "exception buffer overflow",
    0x74: "printer paper low",
    0x7E: "game started",
    0x7F: "game ended",
}


class FdPort:
    """The `Port` protocol over a raw file descriptor (the master side of a pty)."""

    def __init__(self, fd: int, keep_open: int | None = None) -> None:
        self.fd = fd
        self.keep_open = keep_open  # the slave side, held so that reads never see a hang-up (EIO)
        self.timeout: float | None = 0.0

    @property
    def in_waiting(self) -> int:
        ready, _, _ = select.select([self.fd], [], [], 0)
        return 1 if ready else 0

    def write(self, data: bytes, /) -> int:
        return os.write(self.fd, data)

    def read(self, size: int = 1, /) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], self.timeout or 0)
        return os.read(self.fd, size) if ready else b""

    def reset_input_buffer(self) -> None:
        while self.in_waiting:
            os.read(self.fd, 4096)

    def close(self) -> None:
        for fd in (self.fd, self.keep_open):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)


def open_pty_pair() -> tuple[FdPort, str]:
    """A raw pty pair: the host's end (the master) and the path the cabinet opens (the slave)."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    return FdPort(master, keep_open=slave), os.ttyname(slave)  # the cabinet opens the slave by path


@dataclass(frozen=True)
class Transfer:
    """An AFT transfer as the machine reports it (0x72 reply)."""

    position: int
    status: int
    receipt_status: int
    transfer_type: int
    cashable_cents: int
    restricted_cents: int
    nonrestricted_cents: int
    transaction_id: str


@dataclass(frozen=True)
class LockStatus:
    """The machine's AFT lock and status (0x74 reply)."""

    asset_number: int
    lock_status: int
    available_transfers: int
    host_cashout_status: int
    aft_status: int
    cashable_cents: int
    transfer_limit_cents: int


class SasHost:
    """Polls the gaming machine at `address` over `port` (see the module doc)."""

    def __init__(self, port: Port, address: int = 1, *, timeout_s: float = 0.5, parity_wakeup: bool = False):
        self.port = port
        self.address = address
        self.timeout_s = timeout_s
        self.parity_wakeup = parity_wakeup  # a real UART: wake-up by MARK parity, not escaped bytes
        self.log: list[tuple[str, bytes]] = []  # ("tx"/"rx", bytes) for the console and tests

    @classmethod
    def open(cls, url: str, address: int = 1, timeout_s: float = 0.5) -> SasHost:
        port = serial.serial_for_url(url, baudrate=SAS_LINE.baudrate, parity=serial.PARITY_SPACE, timeout=0)
        return cls(port, address, timeout_s=timeout_s, parity_wakeup=url.startswith("/dev/tty"))

    def close(self) -> None:
        self.port.close()

    # --- the wire ----------------------------------------------------------------------------------
    def send(self, poll: bytes) -> None:
        """Send one poll, the wake-up bit on its first byte."""
        self.log.append(("tx", poll))
        if not self.parity_wakeup:
            self.port.write(escape_for_line(poll))
            return
        port: serial.Serial = self.port  # type: ignore[assignment]
        port.parity = serial.PARITY_MARK
        port.write(poll[:1])
        port.flush()
        port.parity = serial.PARITY_SPACE
        port.write(poll[1:])

    def read(self, size: int, deadline: float) -> bytes:
        out = b""
        while len(out) < size and time.monotonic() < deadline:
            chunk = self.port.read(size - len(out)) if self.port.in_waiting else b""
            if chunk:
                out += chunk
            else:
                time.sleep(0.0002)
        return out

    def drain(self) -> bytes:
        """Everything waiting (chirps, late replies)."""
        out = b""
        while self.port.in_waiting:
            chunk = self.port.read(4096)
            if not chunk:
                break
            out += chunk
        return out

    def general_poll(self) -> int | None:
        """The exception code the machine reports, or None when it did not answer."""
        self.drain()
        self.send(encode_general_poll(self.address))
        reply = self.read(1, time.monotonic() + self.timeout_s)
        self.log.append(("rx", reply))
        return reply[0] if reply else None

    def sync(self) -> None:
        """A general poll to address 0, which no machine answers: the implied ACK of the last reply."""
        self.send(encode_general_poll(0))

    def long_poll(self, command: int, data: bytes = b"") -> bytes | None:
        """Send a long poll; the whole reply with a good CRC (or the 1-byte ACK/NACK), else None."""
        self.drain()
        self.send(encode_long_poll(self.address, command, data))
        reply = self._read_reply(command, time.monotonic() + self.timeout_s)
        self.log.append(("rx", reply or b""))
        return reply

    def _read_reply(self, command: int, deadline: float) -> bytes | None:
        first = self.read(1, deadline)
        if not first or first[0] != self.address:
            return first or None  # no answer, or a NACK (address | 0x80)
        expected = REPLY_LENGTHS.get(command)
        if expected == 1:
            return first
        head = first + self.read(1, deadline)
        if expected is None:
            head += self.read(1, deadline)
            if len(head) < 3:
                return None
            expected = 3 + head[2] + 2
        reply = head + self.read(expected - len(head), deadline)
        return reply if len(reply) == expected and crc_ok(reply) and reply[1] == command else None

    # --- exceptions --------------------------------------------------------------------------------
    def exceptions(self, limit: int = 100) -> Iterator[int]:
        """Every exception the machine has queued, each acknowledged, until it reports none."""
        for _ in range(limit):
            code = self.general_poll()
            if not code:
                return
            self.sync()
            yield code

    # --- meters and machine ------------------------------------------------------------------------
    def meter(self, command: int) -> int | None:
        """A single 4-byte BCD meter (0x10-0x17, 0x1A, 0x20, 0x2A, 0x2B)."""
        reply = self.long_poll(command)
        return from_bcd(reply[2:6]) if reply and len(reply) == 8 else None

    def meters(self, command: int) -> list[int] | None:
        """A reply made of 4-byte BCD meters (0x0F, 0x19, 0x1C, 0x1E)."""
        reply = self.long_poll(command)
        if not reply or len(reply) < 4:
            return None
        body = reply[2:-2]
        return [from_bcd(body[i : i + 4]) for i in range(0, len(body), 4)]

    def rom_signature(self, seed: int) -> int | None:
        reply = self.long_poll(0x21, seed.to_bytes(2, "little"))
        return int.from_bytes(reply[2:4], "little") if reply and len(reply) == 6 else None

    def date_time(self) -> datetime | None:
        reply = self.long_poll(0x7E)
        if not reply or len(reply) != 11:
            return None
        d, t = reply[2:6].hex(), reply[6:9].hex()
        return datetime(int(d[4:8]), int(d[0:2]), int(d[2:4]), int(t[0:2]), int(t[2:4]), int(t[4:6]))

    def set_date_time(self, when: datetime) -> bool:
        data = bytes.fromhex(when.strftime("%m%d%Y%H%M%S"))
        return self.long_poll(0x7F, data) == bytes([self.address])

    # --- TITO --------------------------------------------------------------------------------------
    def pending_cashout(self) -> tuple[int, int] | None:
        """0x57: (cash-out type, amount in cents); type 0x80 when no cash-out awaits a number."""
        reply = self.long_poll(0x57)
        return (reply[2], from_bcd(reply[3:8])) if reply and len(reply) == 10 else None

    def send_validation_number(self, validation_number: str, system_id: int = 1) -> int | None:
        """0x58: give the machine the validation number for its pending cash-out; its status."""
        reply = self.long_poll(0x58, bytes([system_id]) + bytes.fromhex(validation_number[-16:]))
        return reply[2] if reply and len(reply) == 5 else None

    def ticket_in_escrow(self) -> tuple[int, int, str] | None:
        """0x70: (ticket status, amount in cents, validation number) of the ticket in the acceptor."""
        reply = self.long_poll(0x70)
        if not reply or len(reply) < 10:
            return None
        return reply[3], from_bcd(reply[4:9]), reply[10:-2].hex()

    def redeem(self, code: int, amount_cents: int, validation_number: str) -> tuple[int, int] | None:
        """0x71: authorise (code 0x00) or refuse (0x80-0x8F) the ticket in escrow, or ask its
        status (0xFF); (machine status, amount in cents)."""
        data = bytes([code]) + bcd(amount_cents, 5) + b"\x00" + bytes.fromhex(validation_number)
        data += bcd(0, 4) + b"\x00\x00"  # restricted expiration, pool id
        if code == 0xFF:
            data = b"\xff"
        reply = self.long_poll(0x71, data)
        return (reply[3], from_bcd(reply[4:9])) if reply and len(reply) >= 11 else None

    def validation_info(self, function: int = 0) -> dict[str, object] | None:
        """0x4D: the ticket at buffer `function` (0: the oldest unread, 0xFF: look without reading)."""
        reply = self.long_poll(0x4D, bytes([function]))
        if not reply or len(reply) != 35:
            return None
        body = reply[2:-2]
        return {
            "type": body[0],
            "index": body[1],
            "date": body[2:6].hex(),
            "time": body[6:9].hex(),
            "validation_number": body[9:17].hex(),
            "amount_cents": from_bcd(body[17:22]),
            "ticket_number": from_bcd(body[22:24]),
            "system_id": body[24],
        }

    # --- AFT ---------------------------------------------------------------------------------------
    def aft_lock(self, code: int = 0x00, condition: int = 0x03, timeout_cs: int = 1000) -> LockStatus | None:
        """0x74: request a lock (0x00), cancel it (0x80) or just ask (0xFF)."""
        reply = self.long_poll(0x74, bytes([code, condition]) + bcd(timeout_cs, 2))
        if not reply or len(reply) < 40:
            return None
        b = reply[3:-2]
        return LockStatus(
            asset_number=int.from_bytes(b[0:4], "little"),
            lock_status=b[4],
            available_transfers=b[5],
            host_cashout_status=b[6],
            aft_status=b[7],
            cashable_cents=from_bcd(b[9:14]),
            transfer_limit_cents=from_bcd(b[24:29]),
        )

    def aft_transfer(
        self,
        transfer_type: int,
        cashable_cents: int,
        transaction_id: str,
        *,
        asset_number: int = 0,
        code: int = 0,
    ) -> Transfer | None:
        """0x72: move cashable credits in (type 0x00) or out (0x80) under `transaction_id`."""
        tid = transaction_id.encode("ascii")
        data = bytes([code, 0x00, transfer_type]) + bcd(cashable_cents, 5) + bcd(0, 5) + bcd(0, 5)
        data += b"\x00" + asset_number.to_bytes(4, "little") + bytes(20) + bytes([len(tid)]) + tid
        data += bcd(0, 4) + b"\x00\x00" + b"\x00"  # expiration, pool id, no receipt data
        return self._transfer(self.long_poll(0x72, data))

    def aft_interrogate(self, position: int = 0) -> Transfer | None:
        """0x72 with transfer code 0xFF: the last transfer (or the one at `position`), no effect."""
        return self._transfer(self.long_poll(0x72, bytes([0xFF, position])))

    @staticmethod
    def _transfer(reply: bytes | None) -> Transfer | None:
        if not reply or len(reply) < 31:
            return None
        b = reply[3:-2]
        id_length = b[24]
        return Transfer(
            position=b[0],
            status=b[1],
            receipt_status=b[2],
            transfer_type=b[3],
            cashable_cents=from_bcd(b[4:9]),
            restricted_cents=from_bcd(b[9:14]),
            nonrestricted_cents=from_bcd(b[14:19]),
            transaction_id=b[25 : 25 + id_length].decode("ascii", errors="replace"),
        )

"""AFT (advanced funds transfer) over SAS: the host locks the machine (0x74) and moves cashable
credits in and out (0x72), each transfer under the host's transaction id.

Each transfer is one wager-memory transaction: the meters (aft_in or aft_out, and the credit meter),
the transfer's record in the history, and the event-log entry that becomes exception 0x69 commit
together, before the reply acknowledges anything. So after a power cut at any instant the transfer
is either done and in the history, or it never happened; the host's interrogation (0x72 with
transfer code 0xFF) answers with the last transfer in the history, and the host compares its
transaction id. A transfer id already in the history moves nothing again: the machine answers
0x81 (transaction id not unique) with the original transfer's amounts. SAS asks only that the
last id be refused; this cabinet keeps every id that moved money (`sas_aft_ids`) for the transfer
log's life (until a RAM clear) and answers 0x81 to any of them. A transfer in that the credit meter
cannot take (`_credit_refusal`: the credit limit, or its digits) is refused with 0x84, as a note
would be. The lock lives only while the power is on and expires after the host's timeout; while it
stands, play and money in wait.
Supported: in-house cashable transfers to the machine (type 0x00) and to the host (0x80); restricted
and non-restricted promotional amounts, bonuses, debit and ticket transfers are refused (0x82/0x83).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from egm.memory.store import Transaction
from egm.money import format_cents
from hardware.serial.sas_protocol import BcdError, bcd, encode_reply, from_bcd

from .host_base import HostBase, LongPollHandler

HISTORY = "sas_aft"  # record: the last transfers, newest first
HISTORY_SIZE = 16
SEEN_IDS = "sas_aft_ids"  # record: every transaction id that moved money, for the transfer log's life

TO_MACHINE, TO_HOST = 0x00, 0x80
TRANSFER_TYPES = (TO_MACHINE, TO_HOST)
FULL_ONLY, PARTIAL_ALLOWED, CANCEL, INTERROGATE = 0x00, 0x01, 0x80, 0xFF
# transfer status
FULL, PARTIAL, NOT_UNIQUE, BAD_FUNCTION, BAD_AMOUNT, OVER_LIMIT, NOT_DENOMINATION = (
    0x00, 0x01, 0x81, 0x82, 0x83, 0x84, 0x85)
NOT_NOW, BAD_ASSET, BAD_ID, NO_INFORMATION = 0x87, 0x93, 0x95, 0xFF
# lock status
LOCKED, NOT_LOCKED = 0x00, 0xFF
AFT_STATUS = 0x90  # bit 7 AFT enabled, bit 4 in-house transfers enabled


@dataclass
class AftLock:
    """The host's lock: while it stands nobody plays; it ends at `until` (monotonic seconds)."""

    until: float
    condition: int


@dataclass(frozen=True)
class TransferRequest:
    code: int
    transfer_type: int
    cashable: int
    restricted: int
    nonrestricted: int
    flags: int
    asset_number: int
    transaction_id: str

    @classmethod
    def parse(cls, data: bytes) -> TransferRequest:
        """Raises ValueError (or BcdError) for a malformed request."""
        if len(data) < 46:
            raise ValueError("transfer request too short")
        id_length = data[43]
        tid = data[44 : 44 + id_length]
        if len(tid) != id_length or id_length > 20:
            raise ValueError("transaction id length does not match")
        return cls(
            code=data[0],
            transfer_type=data[2],
            cashable=from_bcd(data[3:8]),
            restricted=from_bcd(data[8:13]),
            nonrestricted=from_bcd(data[13:18]),
            flags=data[18],
            asset_number=int.from_bytes(data[19:23], "little"),
            transaction_id=tid.decode("ascii"),
        )


class AftPart(HostBase):
    """AFT lock and transfers (mixed into the SAS part)."""

    @functools.cached_property
    def _aft_state(self) -> dict[str, AftLock | None]:
        return {"lock": None}

    def _aft_lock(self) -> AftLock | None:
        lock = self._aft_state["lock"]
        if lock is not None and self.clock.monotonic() >= lock.until:
            self._aft_state["lock"] = lock = None
            self._drive_devices()
        return lock

    def _aft_lockout(self) -> str:
        if self._aft_lock() is not None:
            return "the casino host has locked this machine for a funds transfer; please wait"
        return ""

    def _history(self) -> list[dict[str, Any]]:
        assert self.memory is not None
        return list(self.memory.get(HISTORY) or [])

    def _seen_ids(self) -> list[str]:
        """Every transaction id that moved money since the last RAM clear (older memories: the history's)."""
        assert self.memory is not None
        kept = self.memory.get(SEEN_IDS)
        return list(kept) if kept is not None else [t["transaction_id"] for t in reversed(self._history())]

    def _can_transfer(self) -> bool:
        return self.state == "attract" and not self._standing_tilts() and self.memory is not None

    # --- 0x74 --------------------------------------------------------------------------------------
    def _lock_and_status(self, data: bytes) -> bytes | None:
        code, condition = data[0], data[1]
        try:
            timeout_cs = from_bcd(data[2:4])
        except BcdError:
            return None
        if code == 0x00 and self._can_transfer():
            self._aft_state["lock"] = AftLock(self.clock.monotonic() + timeout_cs / 100, condition)
            self._drive_devices()  # money in waits while the host holds the lock
        elif code == 0x80:
            self._aft_state["lock"] = None
            self._drive_devices()
        return self._lock_status()

    def _lock_status(self) -> bytes:
        assert self.memory is not None
        sas = self.config.devices.sas
        credits = self.memory.meters["current_credits"]
        available = 0
        if self._can_transfer():
            available = 0x01 | (0x02 if credits else 0)  # to the machine; from it when it holds credits
        body = (
            sas.asset_number.to_bytes(4, "little")
            + bytes([LOCKED if self._aft_lock() is not None else NOT_LOCKED, available, 0x00, AFT_STATUS,
                     HISTORY_SIZE])
            + bcd(credits, 5) + bcd(0, 5) + bcd(0, 5)
            + bcd(sas.transfer_limit_cents, 5)
            + bcd(0, 4) + b"\x00\x00"
        )
        return encode_reply(self._sas_address(), 0x74, bytes([len(body)]) + body)

    # --- 0x72 --------------------------------------------------------------------------------------
    def _transfer_funds(self, data: bytes) -> bytes | None:
        if len(data) >= 2 and data[0] == INTERROGATE:
            return self._interrogate(data[1])
        try:
            request = TransferRequest.parse(data)
        except (ValueError, UnicodeDecodeError):
            return None  # not a transfer: no reply, nothing moved
        history = self._history()
        earlier = next((t for t in history if t["transaction_id"] == request.transaction_id), None)
        if earlier is not None:
            return self._transfer_reply({**earlier, "status": NOT_UNIQUE}, 0)
        seen = self._seen_ids()
        if request.transaction_id in seen:  # older than the history: refused all the same
            return self._transfer_reply(self._record(request, NOT_UNIQUE, 0), 0)
        status, amount = self._check(request)
        if status not in (FULL, PARTIAL):
            return self._transfer_reply(self._record(request, status, 0), 0)
        record = self._record(request, status, amount)
        meter = "aft_in" if request.transfer_type == TO_MACHINE else "aft_out"
        direction = "to the machine" if request.transfer_type == TO_MACHINE else "to the host"

        def move(tx: Transaction) -> None:
            tx.meters.add(meter, amount)
            tx.meters.add("current_credits", amount if request.transfer_type == TO_MACHINE else -amount)
            tx.set(HISTORY, [record, *history][:HISTORY_SIZE])
            tx.set(SEEN_IDS, [*seen, request.transaction_id])
            tx.log(
                "sas_aft_complete",
                f"AFT {request.transaction_id}: {format_cents(amount)} {direction}.",
                transaction_id=request.transaction_id,
            )

        if not self._commit(move):  # nothing moved, nothing acknowledged
            return None
        self._aft_state["lock"] = None  # the transfer ends the host's lock
        self._drive_devices()
        assert self.memory is not None
        return self._transfer_reply(record, self.memory.meters[meter])

    def _check(self, request: TransferRequest) -> tuple[int, int]:
        """(status, amount to move) for a transfer request."""
        assert self.memory is not None
        sas = self.config.devices.sas
        if not request.transaction_id:
            return BAD_ID, 0
        if request.code not in (FULL_ONLY, PARTIAL_ALLOWED) or request.transfer_type not in TRANSFER_TYPES:
            return BAD_FUNCTION, 0
        if request.restricted or request.nonrestricted or request.cashable <= 0:
            return BAD_AMOUNT, 0
        if request.asset_number != sas.asset_number:
            return BAD_ASSET, 0
        if not self._can_transfer():
            return NOT_NOW, 0
        if request.cashable % self.config.denomination_cents:
            return NOT_DENOMINATION, 0
        if request.cashable > sas.transfer_limit_cents:
            return OVER_LIMIT, 0
        if request.transfer_type == TO_MACHINE and self._credit_refusal(request.cashable):
            return OVER_LIMIT, 0  # the credit limit (or the meter's digits), the same check as a note's
        if request.transfer_type == TO_HOST:
            credits = self.memory.meters["current_credits"]
            if request.cashable > credits:
                if request.code == FULL_ONLY or credits == 0:
                    return BAD_AMOUNT, 0
                return PARTIAL, credits
        return FULL, request.cashable

    def _record(self, request: TransferRequest, status: int, amount: int) -> dict[str, Any]:
        return {
            "transaction_id": request.transaction_id,
            "status": status,
            "transfer_type": request.transfer_type,
            "cashable_cents": amount,
            "flags": request.flags,
            "asset_number": request.asset_number,
            "at": self.clock.now().isoformat(),
        }

    def _interrogate(self, position: int) -> bytes:
        """The transfer at `position` of the history (0: the last), or status 0xFF: none."""
        history = self._history()
        index = max(position - 1, 0)
        if index >= len(history):
            return self._transfer_reply(None, 0)
        record = history[index]
        meter = "aft_in" if record["transfer_type"] == TO_MACHINE else "aft_out"
        assert self.memory is not None
        return self._transfer_reply(record, self.memory.meters[meter], position=index + 1)

    def _transfer_reply(self, record: Mapping[str, Any] | None, cumulative: int, position: int = 1) -> bytes:
        """addr 72 length | position, status, receipt status, type, cashable, restricted,
        nonrestricted (5 BCD each), flags, asset number, id length, id, date, time, expiration,
        pool id, then the cumulative cashable/restricted/non-restricted meters (size byte + BCD)."""
        if record is None:
            body = bytes([0x00, NO_INFORMATION])
        else:
            tid = record["transaction_id"].encode("ascii")
            at = record["at"]
            date, time = at[5:7] + at[8:10] + at[0:4], at[11:13] + at[14:16] + at[17:19]
            body = (
                bytes([position, record["status"], 0xFF, record["transfer_type"]])
                + bcd(record["cashable_cents"], 5) + bcd(0, 5) + bcd(0, 5)
                + bytes([record["flags"]]) + record["asset_number"].to_bytes(4, "little")
                + bytes([len(tid)]) + tid
                + bytes.fromhex(date) + bytes.fromhex(time)
                + bcd(0, 4) + b"\x00\x00"
                + bytes([5]) + bcd(cumulative, 5) + b"\x00" + b"\x00"
            )
        return encode_reply(self._sas_address(), 0x72, bytes([len(body)]) + body)

    long_polls: dict[int, LongPollHandler] = {0x72: _transfer_funds, 0x74: _lock_and_status}

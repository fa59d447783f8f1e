"""TITO with system validation over SAS: the host numbers the cash-out tickets and redeems tickets.

Cash-out (config [devices.sas] validation = "system"):
  1. CASH OUT: the cabinet records the request (`sas_cashout`) and reports exception 0x57;
  2. the host reads the amount with long poll 0x57 and sends the validation number with 0x58;
  3. the cabinet issues the ticket with that number (system id as the first two of its 18 digits),
     committed before it is printed, exactly as its own cash-out tickets are; 0x3D follows.
  A host that refuses (system id 0), times out (host_timeout_s) or is silent leaves the credits on
  the meter. 0x4C sets the machine's validation id and sequence; 0x4D reads the last 32 tickets
  issued (they are the ticket records wager memory keeps), oldest unread first.

Redemption (host_redemption = true): a ticket in the acceptor stays in escrow (`sas_redemption`),
exception 0x67; the host reads it with 0x70 and answers with 0x71. Only an authorisation (transfer
code 0x00 with an amount) credits it: the pending credit is committed, then the acceptor stacks the
ticket, and the credit lands when the acceptor confirms the stack (exception 0x68), as for bills. A
refusal (0x80-0x8F), a timeout or a lost link returns the ticket, and no credit moves. 0x71 with
code 0xFF asks how the redemption went.
Before anything is committed the authorisation is checked against the cabinet's own knowledge: a
ticket this cabinet issued whose record says redeemed is refused (0x80) whatever the host says, and
logged as a host fault (`sas_host_fault`, exception 0x20); an amount the credit meter cannot take
(`_credit_refusal`: the credit limit, or its digits) is refused with 0x84. Either way the ticket is
returned before it is stacked.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from egm.events import ACCEPTED, BillEscrowed, Result
from egm.memory.store import Transaction
from egm.money import format_cents
from egm.payout.tickets import spoken_time
from hardware.serial.sas_protocol import BcdError, bcd, encode_reply, from_bcd

from .host_base import HostBase, LongPollHandler

CASHOUT = "sas_cashout"  # record: a cash-out waiting for the host's validation number
REDEMPTION = "sas_redemption"  # record: the ticket in the acceptor and how its redemption stands
VALIDATION = "sas_validation"  # record: validation id and sequence (0x4C), tickets read (0x4D)
TICKET_BUFFER = 32

NOT_WAITING = 0x80  # 0x57: no cash-out waits for a number
CASHABLE = 0x00
# 0x71 machine status
REDEEMED, PENDING, REJECTED, TIMED_OUT, LINK_DOWN, NO_TICKET = 0x00, 0x40, 0x80, 0x88, 0x89, 0xFF
BAD_AMOUNT, AMOUNT_LIMIT, NOT_DENOMINATION, NOT_NOW = 0x83, 0x84, 0x85, 0x87
STATUS_OF = {"pending": PENDING, "redeemed": REDEEMED, "rejected": REJECTED, "timed_out": TIMED_OUT,
             "link_down": LINK_DOWN, "amount_limit": AMOUNT_LIMIT}


def _barcode_bcd(barcode: str) -> bytes:
    return bytes.fromhex(barcode.rjust(18, "0")[-18:])


class TitoPart(HostBase):
    """Ticket validation and redemption with the host (mixed into the SAS part)."""

    long_polls: ClassVar[dict[int, LongPollHandler]] = {}

    # --- cash-out: the host's validation number ----------------------------------------------------
    def _host_numbers_tickets(self) -> bool:
        sas = self.config.devices.sas
        return sas.enabled and sas.validation == "system"

    def _request_validation(self, amount: int) -> Result:
        """Cash-out under system validation: ask the host for the ticket's number (exception 0x57)."""
        if not self._host_link_up():
            return Result(False, "the casino host is not answering and numbers the tickets; "
                                 "the credits stay on the meter, call an attendant")
        request = {"amount_cents": amount, "deadline": self._deadline()}

        def ask(tx: Transaction) -> None:
            tx.set(CASHOUT, request)
            message = f"Cash-out of {format_cents(amount)} waits for the host's validation number."
            tx.log("sas_validation_request", message)

        if not self._commit(ask):
            return Result(False, self._tilt_detail())
        self.machine.trigger("cash_out")
        return Result(True, "waiting for the casino host's validation number")

    def _pending_cashout(self, data: bytes) -> bytes:
        """0x57: the cash-out type and amount waiting for a validation number."""
        assert self.memory is not None
        request = self.memory.get(CASHOUT)
        if request is None:
            return encode_reply(self._sas_address(), 0x57, bytes([NOT_WAITING]) + bcd(0, 5))
        return encode_reply(self._sas_address(), 0x57, bytes([CASHABLE]) + bcd(request["amount_cents"], 5))

    def _receive_validation_number(self, data: bytes) -> bytes | None:
        """0x58: the host's validation number for the pending cash-out (system id 0: refused)."""
        assert self.memory is not None
        request = self.memory.get(CASHOUT)
        status = 0x00
        try:
            number = f"{from_bcd(data[1:9]):016d}"
        except BcdError:
            number, status = "", 0x81  # improper validation number
        if request is None or self.state != "cashout":
            status = 0x80  # not in a cash-out
        reply = encode_reply(self._sas_address(), 0x58, bytes([status]))
        if status != 0x00:
            return reply
        system_id = data[0]
        if system_id > 99:  # it is the first two of the ticket's 18 digits
            return encode_reply(self._sas_address(), 0x58, bytes([0x81]))
        if system_id == 0:
            self._end_validation_wait("the host refused the cash-out (validation system id 0)")
            return reply
        barcode = f"{system_id:02d}{number}"
        if not self._print_cash_out_ticket(request["amount_cents"], barcode, clear=CASHOUT):
            return encode_reply(self._sas_address(), 0x58, bytes([0x81]))
        return reply

    def _end_validation_wait(self, why: str) -> None:
        def cancel(tx: Transaction) -> None:
            tx.set(CASHOUT, None)
            tx.log("sas_validation_failed", f"Cash-out not printed: {why}; the credits stay on the meter.")

        if self._commit(cancel) and self.state == "cashout":
            self.machine.trigger("ticket_done")
        self._settle()

    # --- 0x4C and 0x4D -----------------------------------------------------------------------------
    def _validation_record(self) -> dict[str, Any]:
        assert self.memory is not None
        return dict(self.memory.get(VALIDATION) or {"id": 0, "sequence": 0, "read": 0})

    def _set_validation_id(self, data: bytes) -> bytes | None:
        """0x4C: the machine's validation id and next sequence number (binary, 3 bytes each); an id
        of 0 only reads them."""
        machine_id = int.from_bytes(data[0:3], "little")
        sequence = int.from_bytes(data[3:6], "little")
        record = self._validation_record()
        if machine_id:
            record.update(id=machine_id, sequence=sequence)
            message = f"SAS validation id set to {machine_id}, sequence {sequence}."
            if not self._commit(lambda tx: (tx.set(VALIDATION, record), tx.log("sas_validation", message))):
                return None
        body = record["id"].to_bytes(3, "little") + record["sequence"].to_bytes(3, "little")
        return encode_reply(self._sas_address(), 0x4C, body)

    def _ticket_buffer(self) -> list[dict[str, Any]]:
        """The last 32 tickets issued, oldest first (wager memory keeps the last 35)."""
        assert self.memory is not None
        return list(reversed(self.memory.last_tickets()[:TICKET_BUFFER]))

    def _validation_info(self, data: bytes) -> bytes | None:
        """0x4D: function 0 sends the oldest ticket the host has not read and marks it read; 0xFF
        shows it without marking; 1-32 send that buffer entry. All zeros: nothing to send."""
        function = data[0]
        tickets = self._ticket_buffer()
        record = self._validation_record()
        unread = [t for t in tickets if t["sequence"] > record["read"]]
        if function in (0x00, 0xFF):
            ticket = unread[0] if unread else None
        elif 1 <= function <= len(tickets):
            ticket = tickets[function - 1]
        else:
            ticket = None
        if ticket is None:
            return encode_reply(self._sas_address(), 0x4D, bytes(31))
        if function == 0x00:
            record["read"] = ticket["sequence"]
            if not self._commit(lambda tx: tx.set(VALIDATION, record)):
                return None
        index = tickets.index(ticket) + 1
        issued = datetime.fromisoformat(ticket["issued_at"])
        expires = datetime.fromisoformat(ticket["expires_at"])
        barcode = ticket["validation_number"]
        system_id = int(barcode[:2]) if self._host_numbers_tickets() else 0
        body = (
            bytes([0x00, index])
            + bytes.fromhex(issued.strftime("%m%d%Y%H%M%S"))
            + bytes.fromhex(barcode[-16:])
            + bcd(ticket["amount_cents"], 5)
            + bcd(ticket["sequence"], 2)
            + bytes([system_id])
            + bytes.fromhex(expires.strftime("%m%d%Y"))
            + b"\x00\x00"
        )
        return encode_reply(self._sas_address(), 0x4D, body)

    # --- redemption --------------------------------------------------------------------------------
    def _host_redeems(self) -> bool:
        sas = self.config.devices.sas
        return sas.enabled and sas.host_redemption

    def _host_ticket_escrowed(self, event: BillEscrowed) -> Result:
        """A ticket in the acceptor: hold it in escrow and ask the host (exception 0x67)."""
        acceptor = self.devices.bill_acceptor
        barcode = event.barcode or ""
        if len(barcode) != 18 or not barcode.isdigit():
            acceptor.return_escrow()
            return self._refuse(event, f"The ticket '{barcode}' is not an 18-digit validation number; "
                                       "it is returned.")
        if not self._host_link_up():
            acceptor.return_escrow()
            return self._refuse(event, "The casino host is not answering; the ticket is returned.")
        record = {"barcode": barcode, "status": "waiting", "amount_cents": 0, "deadline": self._deadline()}

        def hold(tx: Transaction) -> None:
            tx.set(REDEMPTION, record)
            tx.log("sas_ticket_inserted", f"Ticket {barcode} in escrow: waiting for the host's redemption.")

        if not self._commit(hold):
            acceptor.return_escrow()
            return Result(False, self._tilt_detail())
        return ACCEPTED

    def _ticket_validation_data(self, data: bytes) -> bytes:
        """0x70: the ticket in escrow (status 0x00) or none (0xFF); the cabinet cannot read an
        amount from the barcode, so it sends 0."""
        assert self.memory is not None
        record = self.memory.get(REDEMPTION)
        if record is None or record["status"] != "waiting":
            body = bytes([0xFF]) + bcd(0, 5) + b"\x00"
        else:
            body = bytes([0x00]) + bcd(0, 5) + b"\x00" + _barcode_bcd(record["barcode"])
        return encode_reply(self._sas_address(), 0x70, bytes([len(body)]) + body)

    def _redeem_ticket(self, data: bytes) -> bytes | None:
        """0x71: the host authorises (0x00) or refuses (0x80-0x8F) the ticket in escrow, or asks
        how its redemption stands (0xFF)."""
        assert self.memory is not None
        record = self.memory.get(REDEMPTION)
        code = data[0] if data else 0xFF
        if code == 0xFF or record is None:
            return self._redemption_status(record)
        if record["status"] != "waiting":
            return self._redemption_status(record)  # already decided: the same answer, no effect
        try:
            amount = from_bcd(data[1:6])
        except BcdError:
            return self._redemption_reply(BAD_AMOUNT, 0, record["barcode"])
        if code >= 0x80:
            self._end_redemption(record, "rejected", f"the host refused it (code 0x{code:02X})")
            return self._redemption_reply(REJECTED, 0, record["barcode"])
        if code != 0x00 or amount <= 0 or len(data) < 7:
            return self._redemption_reply(BAD_AMOUNT, amount, record["barcode"])
        if amount % self.config.denomination_cents:
            return self._redemption_reply(NOT_DENOMINATION, amount, record["barcode"])
        if self.memory.get("bill") is not None:
            return self._redemption_reply(NOT_NOW, amount, record["barcode"])
        barcode = record["barcode"]
        own = self.memory.tickets.get(barcode)
        if own is not None and own["status"] != "issued":  # the cabinet's record outranks the host's word
            fault = (f"The host authorised ticket {barcode} for {amount} cents, but this cabinet issued it "
                     f"and it was already redeemed on {spoken_time(own.get('redeemed_at'))}: refused, "
                     "a host fault.")
            self._end_redemption(record, "rejected", "this cabinet's record says it was redeemed", fault)
            return self._redemption_reply(REJECTED, amount, barcode)
        if refusal := self._credit_refusal(amount):
            self._end_redemption(record, "amount_limit", f"the host authorised {amount} cents. {refusal}")
            return self._redemption_reply(AMOUNT_LIMIT, amount, barcode)
        authorised = {**record, "status": "pending", "amount_cents": amount}
        pending = {"barcode": record["barcode"], "amount_cents": amount, "host": True}

        def authorise(tx: Transaction) -> None:
            tx.set(REDEMPTION, authorised)
            tx.set("bill", pending)  # the credit, committed before the acceptor stacks
            tx.log("sas_ticket_authorised",
                   f"Host authorised ticket {record['barcode']} for {format_cents(amount)}.")

        if not self._commit(authorise):
            return None
        self.devices.bill_acceptor.stack()
        return self._redemption_reply(PENDING, amount, record["barcode"])

    def _redemption_status(self, record: Mapping[str, Any] | None) -> bytes:
        if record is None:
            return self._redemption_reply(NO_TICKET, 0, "")
        status = STATUS_OF.get(record["status"], PENDING)
        return self._redemption_reply(status, record["amount_cents"], record["barcode"])

    def _redemption_reply(self, status: int, amount: int, barcode: str) -> bytes:
        body = bytes([status]) + bcd(amount, 5) + b"\x00" + (_barcode_bcd(barcode) if barcode else b"")
        return encode_reply(self._sas_address(), 0x71, bytes([len(body)]) + body)

    def _end_redemption(self, record: Mapping[str, Any], status: str, why: str, host_fault: str = "") -> None:
        """The ticket goes back to the player: no credit (a host fault, when given, is logged with it:
        exception 0x20)."""
        ended = {**record, "status": status}

        def end(tx: Transaction) -> None:
            tx.set(REDEMPTION, ended)
            if host_fault:
                tx.log("sas_host_fault", host_fault, barcode=record["barcode"])
            tx.log("sas_ticket_returned", f"Ticket {record['barcode']} returned: {why}; nothing credited.")

        if self._commit(end):
            self.devices.bill_acceptor.return_escrow()

    def _ticket_credited(self, tx: Transaction, pending: Mapping[str, Any]) -> None:
        """The acceptor stacked a host-authorised ticket: the redemption is complete (0x68)."""
        if not pending.get("host") or self.memory is None:
            return
        record = self.memory.get(REDEMPTION)
        if record is not None and record["barcode"] == pending["barcode"]:
            tx.set(REDEMPTION, {**record, "status": "redeemed"})  # its "ticket_in" entry is 0x68

    # --- the host's deadlines ----------------------------------------------------------------------
    def _host_deadlines(self, link_lost: bool = False) -> None:
        """Give up on a cash-out or a ticket the host left waiting (checked at every host event)."""
        if self.memory is None:
            return
        now = self.clock.base.now().isoformat()  # the deadlines' clock (`_deadline`)
        request = self.memory.get(CASHOUT)
        if request is not None and (link_lost or request["deadline"] < now or self.state != "cashout"):
            why = "the host link was lost" if link_lost else "the host sent no validation number in time"
            self._end_validation_wait(why)
        record = self.memory.get(REDEMPTION)
        if record is not None and record["status"] == "waiting" and (link_lost or record["deadline"] < now):
            status, why = ("link_down", "the host link was lost") if link_lost else ("timed_out", "no answer")
            self._end_redemption(record, status, why)

    long_polls = {
        0x4C: _set_validation_id,
        0x4D: _validation_info,
        0x57: _pending_cashout,
        0x58: _receive_validation_number,
        0x70: _ticket_validation_data,
        0x71: _redeem_ticket,
    }

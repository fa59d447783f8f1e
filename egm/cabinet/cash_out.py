"""Cash out: a TITO ticket for the credits (its validation number committed before it is printed), or a
hand pay when the amount reaches the jurisdiction's limit; a jackpot's hand pay is reset here too."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from egm.events import ACCEPTED, CashOut, Result, TicketFailed, TicketPrinted
from egm.memory.store import Transaction
from egm.money import format_cents
from egm.payout.handpay import requires_hand_pay
from egm.payout.tickets import issue_ticket
from hardware.interfaces import TicketData

from .core import CabinetPart


class CashOutPart(CabinetPart):
    """Handles CashOut, TicketPrinted and TicketFailed; the attendant key resets a hand pay here."""

    def _cash_out(self, event: CashOut) -> Result:
        if not self._allowed("cash_out"):
            return self._not_now(event, "cashing out")
        if waiting := self.waiting_for_server():  # a start sent: its stake must still be on the meter
            return self._refuse(event, f"Cashing out is not allowed now: {waiting}.")
        memory = self.memory
        assert memory is not None
        amount = self.credits_cents
        if amount <= 0:
            return self._refuse(event, "There are no credits to cash out.")
        if requires_hand_pay(amount, self.jurisdiction.hand_pay_limit_cents):
            if not self._commit(
                lambda tx: (
                    tx.set("handpay", {"kind": "cancelled_credits", "amount_cents": amount}),
                    tx.log("hand_pay", f"Cash-out of {format_cents(amount)} locks up for a hand pay."),
                )
            ):
                return Result(False, self._tilt_detail())
            self.machine.trigger("cash_out_handpay")
            return Result(True, "hand pay: call an attendant")
        if not self.devices.printer.ready():
            return self._refuse(event, "The ticket printer is not ready; call an attendant.")
        if self._host_numbers_tickets():
            return self._request_validation(amount)
        if not self._print_cash_out_ticket(amount):
            return Result(False, self._tilt_detail())
        return ACCEPTED

    def _print_cash_out_ticket(self, amount: int, validation_number: str | None = None, *,
                               clear: str | None = None) -> bool:
        """Issue the cash-out ticket (numbered by the cabinet, or by the host when given), commit it,
        then print it. `clear` names a record the same transaction removes (the host's request)."""
        memory = self.memory
        assert memory is not None
        sequence = memory.get("ticket_sequence", 0) + 1
        ticket = issue_ticket(
            bytes.fromhex(memory.get("ticket_key")),
            machine_number=self.config.machine_number,
            sequence=sequence,
            amount_cents=amount,
            issued_at=self.clock.now(),
            expiry_days=self.config.ticket_expiry_days,
            host_validation_number=validation_number,
        )

        def start_cash_out(tx: Transaction) -> None:
            tx.set("ticket_sequence", sequence)
            tx.set("cashout", ticket)
            if clear is not None:
                tx.set(clear, None)
            kind = "cash_out" if validation_number is None else "cash_out_host_numbered"  # pressed earlier
            tx.log(kind, f"Cash-out of {format_cents(amount)}: printing ticket "
                         f"{ticket['validation_number']}.")

        if not self._commit(start_cash_out):
            return False
        if self.state != "cashout":
            self.machine.trigger("cash_out")
        self.devices.printer.print_ticket(
            TicketData(
                validation_number=ticket["validation_number"],
                amount_cents=amount,
                site_name=self.config.site_name,
                site_address=self.config.site_address,
                machine_number=self.config.machine_number,
                issued_at=datetime.fromisoformat(ticket["issued_at"]),
                sequence=sequence,
                expires_days=self.config.ticket_expiry_days,
            )
        )
        return True

    def _ticket_printed(self, event: TicketPrinted) -> Result:
        pending = self.memory.get("cashout") if self.memory else None
        if pending is None or pending["validation_number"] != event.validation_number:
            return self._refuse(
                event, f"The printer confirmed ticket {event.validation_number}, which is not pending."
            )
        self._ticket_issued(pending, after_power_loss=False)
        return ACCEPTED

    def _ticket_issued(self, ticket: dict[str, Any], *, after_power_loss: bool) -> None:
        amount = ticket["amount_cents"]
        note = (
            " (printer confirmation lost in a power cut: ticket stands as issued)" if after_power_loss else ""
        )

        def issued(tx: Transaction) -> None:
            tx.meters.add("tickets_out", amount)
            tx.meters.add("cancelled_credits", amount)
            tx.meters.add("current_credits", -amount)
            tx.put_ticket(ticket["validation_number"], ticket)
            tx.set("cashout", None)
            self._player_left(tx)
            tx.log("ticket_out",
                   f"Ticket {ticket['validation_number']} for {format_cents(amount)} issued{note}.")

        if self._commit(issued):
            self.session_tickets.append(ticket)
            if self.state == "cashout":
                self.machine.trigger("ticket_done")
            self._settle()

    def _player_left(self, tx: Transaction) -> None:
        """A cash-out emptied the meter: the next player starts at the default denomination."""
        if tx.meters["current_credits"] == 0:
            tx.set("denomination", None)

    def _ticket_failed(self, event: TicketFailed) -> Result:
        pending = self.memory.get("cashout") if self.memory else None
        if pending is None or pending["validation_number"] != event.validation_number:
            return self._refuse(event, f"The printer failed ticket {event.validation_number}, which is not "
                                       "pending.")

        def cancel(tx: Transaction) -> None:
            tx.set("cashout", None)
            tx.log(
                "ticket_failed",
                f"Ticket {event.validation_number} not printed: {event.reason}; credits kept.",
            )

        if self._commit(cancel) and self.state == "cashout":
            self.machine.trigger("ticket_done")
        self._settle()
        return Result(True, f"ticket not printed ({event.reason}); the credits stay on the meter")

    def _hand_pay_reset(self) -> Result:
        memory = self.memory
        assert memory is not None
        pending = memory.get("handpay")
        amount = pending["amount_cents"]

        def paid(tx: Transaction) -> None:
            if pending["kind"] == "jackpot":
                tx.meters.add("jackpot", amount)
            else:
                tx.meters.add("handpaid_cancelled_credits", amount)
                tx.meters.add("cancelled_credits", amount)
                tx.meters.add("current_credits", -amount)
                self._player_left(tx)
            tx.set("handpay", None)
            what = "a win" if pending["kind"] == "jackpot" else "a cash-out"
            tx.log("hand_pay_reset", f"Attendant reset: hand pay of {format_cents(amount)} ({what}) paid.")

        if not self._commit(paid):
            return Result(False, self._tilt_detail())
        self.machine.trigger("attendant_reset")
        self._settle()
        return ACCEPTED

    handlers = {CashOut: _cash_out, TicketPrinted: _ticket_printed, TicketFailed: _ticket_failed}

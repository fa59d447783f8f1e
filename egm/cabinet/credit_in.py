"""Credit in: bills and tickets inserted. An item is escrowed, recorded as pending, then stacked and
credited in one transaction; a power cut between the two credits it exactly once at the next boot."""

from __future__ import annotations

from typing import Any

from egm.events import ACCEPTED, BillEscrowed, BillRejected, BillReturned, BillStacked, Result
from egm.memory.store import Transaction
from egm.money import format_cents
from egm.payout.tickets import TicketRefused, check_redemption

from .core import CabinetPart


class CreditInPart(CabinetPart):
    """Handles BillEscrowed, BillStacked, BillReturned and BillRejected."""

    def _bill_escrowed(self, event: BillEscrowed) -> Result:
        acceptor = self.devices.bill_acceptor
        if self.state != "attract" or self.memory is None or self.memory.get("bill") is not None:
            acceptor.return_escrow()
            return self._not_now(event, "inserting a bill or ticket")
        if event.barcode is not None:
            try:
                ticket = check_redemption(
                    bytes.fromhex(self.memory.get("ticket_key")),
                    self.memory.tickets,
                    event.barcode,
                    event.amount_cents,
                    self.clock.now(),
                )
            except TicketRefused as exc:
                acceptor.return_escrow()
                return self._refuse(event, str(exc))
            pending = {"barcode": event.barcode, "amount_cents": ticket["amount_cents"]}
        else:
            if event.amount_cents not in self.config.bill_denominations_cents:
                acceptor.return_escrow()
                return self._refuse(
                    event,
                    f"This machine does not take the {format_cents(event.amount_cents)} note (not enabled); "
                    "it was returned.",
                )
            pending = {"barcode": None, "amount_cents": event.amount_cents}
        limit = self.credit_limit_cents
        if limit and self.credits_cents + pending["amount_cents"] > limit:
            acceptor.return_escrow()
            return self._refuse(
                event,
                f"That would take your credit past this machine's limit of {format_cents(limit)}; it was "
                "returned. Play or cash out first.",
            )
        if not self._commit(lambda tx: tx.set("bill", pending)):
            acceptor.return_escrow()
            return Result(False, self._tilt_detail())
        acceptor.stack()
        return ACCEPTED

    def _bill_stacked(self, event: BillStacked) -> Result:
        pending = self.memory.get("bill") if self.memory else None
        if pending is None or pending["barcode"] != event.barcode:
            return self._refuse(
                event, "the acceptor stacked an item the cabinet did not escrow; call an attendant"
            )
        self._credit_stacked(pending, after_power_loss=False)
        return ACCEPTED

    def _credit_stacked(self, pending: dict[str, Any], *, after_power_loss: bool) -> None:
        memory = self.memory
        assert memory is not None
        amount, barcode = pending["amount_cents"], pending["barcode"]
        note = " (settled after a power loss)" if after_power_loss else ""

        def credit(tx: Transaction) -> None:
            if barcode is None:
                tx.meters.add_bill(amount)
                tx.log("bill_in", f"{amount}-cent note stacked and credited{note}.")
            else:
                tx.meters.add("tickets_in", amount)
                tx.meters.add("current_credits", amount)
                redeemed = {**memory.tickets[barcode], "status": "redeemed", "redeemed_at": tx.now}
                tx.put_ticket(barcode, redeemed)
                tx.log("ticket_in", f"Ticket {barcode} for {amount} cents redeemed{note}.")
            tx.set("bill", None)

        self._commit(credit)

    def _bill_returned(self, event: BillReturned) -> Result:
        if self.memory is not None and self.memory.get("bill") is not None:
            self._commit(
                lambda tx: (tx.set("bill", None), tx.log("bill_returned", "Escrowed item returned."))
            )
        return ACCEPTED

    def _bill_rejected(self, event: BillRejected) -> Result:
        return self._refuse(event, event.reason)  # the device says why, in the player's words

    handlers = {
        BillEscrowed: _bill_escrowed,
        BillStacked: _bill_stacked,
        BillReturned: _bill_returned,
        BillRejected: _bill_rejected,
    }

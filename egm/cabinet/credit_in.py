"""Credit in: bills and tickets inserted.

An item is escrowed, recorded as pending (the `bill` record), then stacked and credited in one
transaction when the acceptor reports it stacked (VEND VALID). A pending item is settled only by
what the acceptor reports, never by the cabinet's guess:
  - stacked (VEND VALID, or power-up with the bill in the stacker): credited, once;
  - returned (the same item given back, or power-up with the bill in the acceptor): nothing credited;
  - still in escrow after the cabinet restarted: stacked now, credited on VEND VALID;
  - the acceptor cannot tell (plain power-up, or idle with nothing in escrow): the record is kept,
    marked unreconciled, and the cabinet tilts until an attendant reconciles it against the cash
    box (`ReconcileBill`: found in the cash box, it is credited; not found, it is not).
"""

from __future__ import annotations

from typing import Any

from egm.events import (
    ACCEPTED,
    AcceptorPoweredUp,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    PowerUpPath,
    ReconcileBill,
    Result,
)
from egm.memory.store import Transaction
from egm.money import format_cents
from egm.payout.tickets import TicketRefused, check_redemption
from hardware.interfaces import same_item

from .core import CabinetPart


def _same_item(pending: dict[str, Any], amount_cents: int, barcode: str | None) -> bool:
    """Whether a device's report is about the pending item."""
    return same_item(pending["amount_cents"], pending["barcode"], amount_cents, barcode)


def _item_name(pending: dict[str, Any]) -> str:
    amount = format_cents(pending["amount_cents"])
    if pending["barcode"] is None:
        return f"{amount} note"
    return f"ticket {pending['barcode']} for {amount}"


class CreditInPart(CabinetPart):
    """Handles BillEscrowed, BillStacked, BillReturned, BillRejected, AcceptorPoweredUp, ReconcileBill."""

    def _bill_escrowed(self, event: BillEscrowed) -> Result:
        acceptor = self.devices.bill_acceptor
        pending = self.memory.get("bill") if self.memory else None
        if pending is not None and not pending.get("unreconciled") and self.state == "attract":
            if _same_item(pending, event.amount_cents, event.barcode):
                acceptor.stack()  # still in escrow after the cabinet restarted: stack it now
                return ACCEPTED
        if self.state != "attract" or self.memory is None or pending is not None:
            acceptor.return_escrow()
            return self._not_now(event, "inserting a bill or ticket")
        if lockout := self._lockout():
            acceptor.return_escrow()
            return self._refuse(event, f"Inserting a bill or ticket is not allowed: {lockout}.")
        if event.barcode is not None and self._host_redeems():
            return self._host_ticket_escrowed(event)
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
            # the ticket as it was when accepted: it is redeemed from this even if it expires meanwhile
            pending = {"barcode": event.barcode, "amount_cents": ticket["amount_cents"], "ticket": ticket}
        else:
            if event.amount_cents not in self.config.bill_denominations_cents:
                acceptor.return_escrow()
                return self._refuse(
                    event,
                    f"This machine does not take the {format_cents(event.amount_cents)} note (not enabled); "
                    "it was returned.",
                )
            pending = {"barcode": None, "amount_cents": event.amount_cents}
        if refusal := self._credit_refusal(pending["amount_cents"]):
            acceptor.return_escrow()
            return self._refuse(event, f"{refusal}; it was returned. Play or cash out first.")
        if not self._commit(lambda tx: tx.set("bill", pending)):
            acceptor.return_escrow()  # not committed: giving it back agrees with the memory
            return Result(False, self._tilt_detail())
        acceptor.stack()
        return ACCEPTED

    def _bill_stacked(self, event: BillStacked) -> Result:
        pending = self.memory.get("bill") if self.memory else None
        if pending is not None and not _same_item(pending, event.amount_cents, event.barcode):
            self._mark_unreconciled(pending, "the acceptor stacked an item that does not match it")
        if pending is None or not _same_item(pending, event.amount_cents, event.barcode):
            return self._refuse(
                event, "The acceptor stacked an item the cabinet did not escrow; call an attendant."
            )
        self._credit_stacked(pending, how="stacked and credited")
        return ACCEPTED

    def _credit_stacked(self, pending: dict[str, Any], *, how: str) -> bool:
        memory = self.memory
        assert memory is not None
        amount, barcode = pending["amount_cents"], pending["barcode"]

        def credit(tx: Transaction) -> None:
            if barcode is None:
                tx.meters.add_bill(amount)
                tx.log("bill_in", f"Note of {format_cents(amount)} {how}.")
            else:
                tx.meters.add("tickets_in", amount)
                tx.meters.add("current_credits", amount)
                ticket = memory.tickets.get(barcode, pending.get("ticket"))
                if ticket is not None:  # a ticket of this cabinet's own (the host's may be any)
                    tx.put_ticket(barcode, {**ticket, "status": "redeemed", "redeemed_at": tx.now})
                tx.log("ticket_in", f"Ticket {barcode} for {format_cents(amount)} redeemed ({how}).")
                self._ticket_credited(tx, pending)
            tx.set("bill", None)

        committed = self._commit(credit)
        self._settle()
        return committed

    def _bill_returned(self, event: BillReturned) -> Result:
        pending = self.memory.get("bill") if self.memory else None
        if pending is not None and _same_item(pending, event.amount_cents, event.barcode):
            self._clear_pending(pending, "returned to the customer; not credited")
        return ACCEPTED

    def _clear_pending(self, pending: dict[str, Any], what: str) -> None:
        name = _item_name(pending)
        self._commit(lambda tx: (tx.set("bill", None), tx.log("bill_returned", f"The {name} was {what}.")))
        self._settle()

    def _bill_rejected(self, event: BillRejected) -> Result:
        return self._refuse(event, event.reason)  # the device says why, in the player's words

    def _acceptor_powered_up(self, event: AcceptorPoweredUp) -> Result:
        """The acceptor says where the item in its path went: settle the pending item from that."""
        pending = self.memory.get("bill") if self.memory else None
        if pending is None or pending.get("unreconciled"):
            return ACCEPTED  # nothing pending, or already waiting for the attendant
        known = event.amount_cents > 0 or event.barcode is not None
        if known and not _same_item(pending, event.amount_cents, event.barcode):
            self._mark_unreconciled(pending, "the acceptor reported another item in its path")
        elif event.path is PowerUpPath.IN_STACKER:
            self._credit_stacked(pending, how="stacked (reported by the acceptor at power-up) and credited")
        elif event.path is PowerUpPath.IN_ACCEPTOR:
            self._clear_pending(pending, "in the acceptor at its power-up and given back; not credited")
        else:
            self._mark_unreconciled(pending, "the acceptor cannot say whether it was stacked or returned")
        return ACCEPTED

    def _mark_unreconciled(self, pending: dict[str, Any], why: str) -> None:
        sentence = (
            f"The pending {_item_name(pending)} is unreconciled: {why}. Count the cash box, then turn "
            "the ATTENDANT key and say whether it is there; nothing is credited until then."
        )
        self._commit(
            lambda tx: (
                tx.set("bill", {**pending, "unreconciled": sentence}),
                tx.log("bill_unreconciled", sentence),
            )
        )
        self._settle()

    def _reconcile_bill(self, event: ReconcileBill) -> Result:
        """The attendant counted the cash box: credit the unreconciled item if it is there."""
        pending = self.memory.get("bill") if self.memory else None
        if pending is None or not pending.get("unreconciled"):
            return self._refuse(event, "There is no unreconciled bill or ticket to settle.")
        if not self._attendant_key_on:
            return self._refuse(event, "Turn the ATTENDANT key before settling a pending note or ticket.")
        if event.in_cash_box:
            committed = self._credit_stacked(
                pending, how="found in the cash box by the attendant and credited"
            )
            return ACCEPTED if committed else Result(False, self._tilt_detail())
        self._clear_pending(pending, "not found in the cash box by the attendant; not credited")
        return ACCEPTED

    handlers = {
        BillEscrowed: _bill_escrowed,
        BillStacked: _bill_stacked,
        BillReturned: _bill_returned,
        BillRejected: _bill_rejected,
        AcceptorPoweredUp: _acceptor_powered_up,
        ReconcileBill: _reconcile_bill,
    }

"""TITO tickets: issuing them with unguessable validation numbers, and checking tickets inserted.

A validation number is 18 decimal digits taken from HMAC-SHA256 under the cabinet's ticket key
(a random secret in wager memory) over the machine number, the ticket sequence, the amount and the
issue time. Without the key nobody can produce a number the cabinet will accept, and changing the
amount of a stored ticket breaks the number. The record also carries a signature (the full MAC) so
that an altered record is refused even where the number still happens to match.

A ticket inserted is accepted only when it is one this cabinet issued, its record and signature
check, the amount read (when the reader gives one) equals the amount issued, it has not expired and
it was not already redeemed. Every refusal is a sentence saying why.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from egm.money import format_cents

VALIDATION_DIGITS = 18


class TicketRefused(Exception):
    """A ticket-in that the cabinet will not credit; the message says why."""


def spoken_date(iso: str) -> str:
    """An ISO time as a date a player reads.

    >>> spoken_date("2026-11-26T06:08:32.713575+00:00")
    '26 Nov 2026'
    """
    return datetime.fromisoformat(iso).strftime("%d %b %Y").lstrip("0")


def spoken_time(iso: str | None) -> str:
    """An ISO time as a player reads it (UTC, to the minute).

    >>> spoken_time("2026-11-26T06:08:32.713575+00:00"), spoken_time(None)
    ('26 Nov 2026 at 06:08 UTC', 'an earlier visit')
    """
    if not iso:
        return "an earlier visit"
    return f"{spoken_date(iso)} at {datetime.fromisoformat(iso).strftime('%H:%M')} UTC"


def _mac(key: bytes, *fields: object) -> bytes:
    return hmac.new(key, "|".join(map(str, fields)).encode(), hashlib.sha256).digest()


def validation_number(
    key: bytes, machine_number: str, sequence: int, amount_cents: int, issued_at: str
) -> str:
    """The 18-digit validation number of a ticket."""
    digest = _mac(key, "validation", machine_number, sequence, amount_cents, issued_at)
    return f"{int.from_bytes(digest[:16], 'big') % 10**VALIDATION_DIGITS:0{VALIDATION_DIGITS}d}"


def _signature(key: bytes, ticket: Mapping[str, Any]) -> str:
    return _mac(
        key,
        "signature",
        ticket["validation_number"],
        ticket["machine_number"],
        ticket["sequence"],
        ticket["amount_cents"],
        ticket["issued_at"],
        ticket["expires_at"],
    ).hex()


def issue_ticket(
    key: bytes,
    *,
    machine_number: str,
    sequence: int,
    amount_cents: int,
    issued_at: datetime,
    expiry_days: int,
    host_validation_number: str | None = None,
) -> dict[str, Any]:
    """The wager-memory record of a new cash-out ticket (status "issued"). Its validation number is
    the cabinet's own unless the casino host gave one (SAS system validation)."""
    if amount_cents <= 0:
        raise ValueError("a ticket must be for a positive amount")
    issued = issued_at.isoformat()
    own_number = validation_number(key, machine_number, sequence, amount_cents, issued)
    ticket: dict[str, Any] = {
        "validation_number": host_validation_number or own_number,
        "machine_number": machine_number,
        "sequence": sequence,
        "amount_cents": amount_cents,
        "issued_at": issued,
        "expires_at": (issued_at + timedelta(days=expiry_days)).isoformat(),
        "status": "issued",
    }
    ticket["signature"] = _signature(key, ticket)
    return ticket


def check_redemption(
    key: bytes, tickets: Mapping[str, Mapping[str, Any]], barcode: str, amount_read_cents: int, now: datetime
) -> Mapping[str, Any]:
    """The issued ticket a barcode redeems, or TicketRefused saying why it is not honoured."""
    if len(barcode) != VALIDATION_DIGITS or not barcode.isdigit():
        raise TicketRefused(
            "This ticket's validation number cannot be read (it needs 18 digits); it was returned."
        )
    ticket = tickets.get(barcode)
    if ticket is None:
        raise TicketRefused(
            "This ticket was not issued by this machine (unknown or forged validation number); "
            "it was returned: call an attendant."
        )
    expected_number = validation_number(
        key, ticket["machine_number"], ticket["sequence"], ticket["amount_cents"], ticket["issued_at"]
    )
    if expected_number != barcode or not hmac.compare_digest(ticket["signature"], _signature(key, ticket)):
        raise TicketRefused(
            "This ticket fails its security check (altered); it was returned: call an attendant."
        )
    if amount_read_cents and amount_read_cents != ticket["amount_cents"]:
        raise TicketRefused(
            f"This ticket reads {format_cents(amount_read_cents)} but was issued for "
            f"{format_cents(ticket['amount_cents'])}; it was returned: call an attendant."
        )
    if ticket["status"] != "issued":
        raise TicketRefused(
            f"This ticket was already redeemed on {spoken_time(ticket.get('redeemed_at'))}; it was returned."
        )
    if ticket["expires_at"] < now.isoformat():
        raise TicketRefused(
            f"This ticket expired on {spoken_date(ticket['expires_at'])}; it was returned: see the cashier."
        )
    return ticket

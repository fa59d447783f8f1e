"""TITO tickets: unguessable 18-digit validation numbers and ticket-in checks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from egm.payout.handpay import requires_hand_pay
from egm.payout.tickets import TicketRefused, check_redemption, issue_ticket, validation_number

KEY = bytes(range(32))
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def issued(sequence: int = 1, amount: int = 2500, key: bytes = KEY) -> dict:
    return issue_ticket(
        key, machine_number="0001", sequence=sequence, amount_cents=amount, issued_at=NOW, expiry_days=30
    )


def test_validation_numbers_are_18_digits_keyed_and_distinct() -> None:
    numbers = {issued(sequence=s)["validation_number"] for s in range(1, 2001)}
    assert len(numbers) == 2000
    assert all(len(n) == 18 and n.isdigit() for n in numbers)
    other_key = issued(key=bytes(32))["validation_number"]
    assert other_key != issued()["validation_number"]  # without the key the number cannot be derived


def test_a_ticket_issued_here_redeems_once() -> None:
    ticket = issued()
    tickets = {ticket["validation_number"]: ticket}
    assert check_redemption(KEY, tickets, ticket["validation_number"], 2500, NOW)["amount_cents"] == 2500
    tickets[ticket["validation_number"]] = {**ticket, "status": "redeemed", "redeemed_at": NOW.isoformat()}
    with pytest.raises(TicketRefused, match="already redeemed"):
        check_redemption(KEY, tickets, ticket["validation_number"], 0, NOW)


@pytest.mark.parametrize(
    ("barcode", "amount_read", "tamper", "reason"),
    [
        ("12345", 0, None, "needs 18 digits"),
        ("123456789012345678", 0, None, "not issued by this machine"),
        (None, 9999, None, r"reads \$99.99"),
        (None, 0, {"amount_cents": 250000}, "security check"),
        (None, 0, {"signature": "00" * 32}, "security check"),
    ],
)
def test_bad_tickets_are_refused_with_a_reason(barcode, amount_read, tamper, reason) -> None:
    ticket = issued()
    number = ticket["validation_number"]
    tickets = {number: {**ticket, **(tamper or {})}}
    with pytest.raises(TicketRefused, match=reason):
        check_redemption(KEY, tickets, barcode or number, amount_read, NOW)


def test_expired_ticket_is_refused() -> None:
    ticket = issued()
    tickets = {ticket["validation_number"]: ticket}
    with pytest.raises(TicketRefused, match="expired"):
        check_redemption(KEY, tickets, ticket["validation_number"], 0, NOW + timedelta(days=31))


def test_validation_number_depends_on_the_amount() -> None:
    a = validation_number(KEY, "0001", 7, 100, NOW.isoformat())
    b = validation_number(KEY, "0001", 7, 101, NOW.isoformat())
    assert a != b


def test_hand_pay_is_at_or_above_the_limit() -> None:
    assert requires_hand_pay(120000, 120000)
    assert not requires_hand_pay(119999, 120000)

"""Hand pay: amounts at or above the jurisdiction's hand-pay limit are paid by an attendant.

A cash-out at or above the limit cancels the credits as a hand pay (meter
handpaid_cancelled_credits); a single game win at or above it is not credited but paid by hand
(meter jackpot). Either way the cabinet locks up until the attendant key resets it, and the meters
move only at that reset, when the attendant has paid.
"""

from __future__ import annotations


def requires_hand_pay(amount_cents: int, hand_pay_limit_cents: int) -> bool:
    """True when the amount must be paid by hand (the US W-2G rule: at or above the limit)."""
    return amount_cents >= hand_pay_limit_cents

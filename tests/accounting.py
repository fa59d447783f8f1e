"""The accounting identity, read from a meters record (`egm autoplay --json`, `Meters.to_record()`):
credits = money in + wins - wagers - money out, in cents. Written out here so a test checks it
independently of `Meters.balance_error`, the cabinet's own check."""

from __future__ import annotations

from collections.abc import Mapping


def identity_gap(meters: Mapping[str, int]) -> int:
    """Credits on the meter minus what the identity says they must be (0 when it holds)."""
    money_in = meters["bills_in"] + meters["tickets_in"]
    money_out = meters["tickets_out"] + meters["handpaid_cancelled_credits"]
    return meters["current_credits"] - (money_in + meters["coin_out"] - meters["coin_in"] - money_out)

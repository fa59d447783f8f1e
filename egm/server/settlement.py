"""How a finished round pays online: the win is credited, unless it is above the pay table's maximum
win or reaches the jurisdiction's hand-pay limit, when the round goes to `review` (the online hand pay:
an operator pays it). The game's pools are kept per (account, game)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from egm.games.base import Game, Outcome, Wager
from egm.money import format_cents
from egm.payout.handpay import requires_hand_pay


@dataclass(frozen=True)
class Settled:
    win_cents: int
    status: str  # complete, or review (not credited: an operator pays it)
    result_code: str
    hand_pay_reason: str | None
    pools_cents: Mapping[str, int] = field(default_factory=dict)
    outcome: Mapping[str, Any] = field(default_factory=dict)  # the result and the game's summary
    balance_cents: int = 0

    @property
    def credited(self) -> bool:
        return self.status == "complete"


def settle(game: Game, outcome: Outcome, wager: Wager, hand_pay_limit_cents: int) -> Settled:
    win_cents = outcome.win_credits * wager.denom_cents
    max_win = game.paytable.header.max_win_cents
    reason = None
    if win_cents > max_win:
        reason = f"it is above the pay table's maximum win of {format_cents(max_win)}"
    elif requires_hand_pay(win_cents, hand_pay_limit_cents):
        reason = f"it reaches the hand-pay limit of {format_cents(hand_pay_limit_cents)}"
    return Settled(win_cents=win_cents, status="review" if reason else "complete",
                   result_code=outcome.result_code, hand_pay_reason=reason,
                   pools_cents=dict(outcome.pools_cents),
                   outcome={"win_cents": win_cents, "hand_paid": reason is not None,
                            "result_code": outcome.result_code, "summary": dict(outcome.summary)})

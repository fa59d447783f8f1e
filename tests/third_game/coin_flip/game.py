"""Coin Flip on the cabinet: the coin is tossed when the round starts (all its randomness), the player
calls it, and a right call pays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from egm.games.base import Decision, DecisionRefused, Game, Outcome, Round, RoundView, Wager, play_reference
from egm.games.record import open_record, seal
from egm.rng import Rng

SIDES = ("heads", "tails")
RECORD_FORMAT = 1


class CoinFlipRules(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    stake_units: int = Field(ge=1)
    pays_units: int = Field(ge=0)

    @property
    def stake_bets(self) -> int:  # the wager offer (egm.games.base.WagerOffer): the stake is this many bets
        return self.stake_units

    @property
    def side_bet_limits(self) -> dict[str, int]:
        return {}  # no side bet


class CoinFlipRound(Round):
    def __init__(self, rules: CoinFlipRules, wager: Wager, coin: str, call: str | None = None) -> None:
        self.rules, self.wager, self.coin, self.call = rules, wager, coin, call

    @property
    def step(self) -> str:
        return "call" if self.call is None else "complete"

    def decide(self, decision: Decision) -> None:
        if self.call is not None:
            raise DecisionRefused("the coin has been called; this game is complete")
        if decision.kind != "call" or decision.args.get("side") not in SIDES:
            raise DecisionRefused("call the coin: Decision('call', {'side': 'heads' or 'tails'})")
        self.call = decision.args["side"]

    def reference_decision(self) -> Decision:
        return Decision("call", {"side": "heads"})

    def outcome(self) -> Outcome:
        if self.call is None:
            raise RuntimeError("the outcome is known once the coin is called")
        won = self.call == self.coin
        return Outcome(win_credits=self.rules.pays_units * self.wager.bet_credits if won else 0,
                       result_code="W" if won else "L", summary={"coin": self.coin, "call": self.call})

    def to_record(self) -> dict[str, Any]:
        return seal(CoinFlip.game_id, RECORD_FORMAT, self.wager, {"coin": self.coin, "call": self.call})

    def view(self) -> RoundView:
        done = self.call is not None
        return RoundView(
            game_id=CoinFlip.game_id, step=self.step, bet_credits=self.wager.bet_credits,
            stake_credits=self.wager.stake_credits, decision_awaited=not done, auto_decision=not done,
            win_credits=self.outcome().win_credits if done else None,
            result_text=f"{self.coin.upper()}, CALLED {str(self.call).upper()}" if done else "",
            table={"call": self.call, "coin": self.coin if done else None},
        )


class CoinFlip(Game):
    game_id = "coin-flip"
    title = "Coin Flip"
    steps = ("call", "complete")

    def default_wager(self, denom_cents: int) -> Wager:
        bet = self.paytable.header.default_bet_credits
        stake = bet * self.paytable.rules.stake_units
        return Wager(bet_credits=bet, stake_credits=stake, denom_cents=denom_cents)

    def new_round(self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int]) -> CoinFlipRound:
        return CoinFlipRound(self.paytable.rules, wager, SIDES[rng.randbelow(2)])

    def restore(self, record: Mapping[str, Any]) -> CoinFlipRound:
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        return CoinFlipRound(self.paytable.rules, opened.wager, opened.body["coin"], opened.body["call"])


def replay(paytable: Any, seed: int) -> dict[str, Any]:
    game = CoinFlip(paytable)
    wager = game.default_wager(paytable.header.denominations_cents[0])
    round_ = game.new_round(wager, Rng.from_seed(seed), {})
    outcome = play_reference(round_)
    return {"seed": seed, "paytable_id": paytable.id, **outcome.summary, "win_credits": outcome.win_credits}

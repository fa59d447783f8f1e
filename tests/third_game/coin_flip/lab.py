"""Coin Flip in the lab: the reference engine's own rounds, and the exact RTP (a fair coin)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from egm.games.base import Outcome
from egm.lab.adapters import ExactFigure, ReferenceAdapter
from egm.lab.stats import Tally


class CoinFlipLab(ReferenceAdapter):
    game_id = "coin-flip"
    reference_strategy = "call-heads/1"
    games_default = 20_000

    def initial_pools(self, paytable: Any) -> dict[str, int]:
        return {}

    def record(self, tally: Tally, outcome: Outcome, pools_before: Mapping[str, int]) -> None:
        tally.results[outcome.result_code] += 1

    def awards(self, paytable: Any) -> tuple[str, ...]:
        return ()

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        rules = paytable.rules
        rtp = Fraction(rules.pays_units, 2 * rules.stake_units)
        return [ExactFigure("rtp", rtp, "a fair coin: pays x 1/2 / stake", is_rtp=True)]

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        pays = paytable.rules.pays_units * paytable.header.default_bet_credits
        return ExactFigure("theoretical_max_win", pays, "a right call")

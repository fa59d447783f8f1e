"""One Dragon Poker hand from the three set hands to the ledger: rows, bonuses, settlement.

The cabinet's game and `egm dragon replay` both play a hand through `play_hand`, so they cannot
disagree. The patent's reveal order (claim 1): the player hand is set, the dealer hand is revealed
and set by the house way and compared row by row with the player's, then the Dragon hand is revealed
and set by the house way and compared with each row's winner, then the points are settled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from egm.games.dragon_poker.bonuses import row_bonuses
from egm.games.dragon_poker.paytable import ROWS, DragonPokerRules
from egm.games.dragon_poker.rows import RowResult, compare_rows
from egm.games.dragon_poker.setting import SetHand
from egm.games.dragon_poker.settlement import Ledger, Side, settle
from egm.poker import describe

REVEAL_ORDER = ("player_set", "dealer_revealed", "player_vs_dealer", "dragon_revealed",
                "winners_vs_dragon", "points")


@dataclass(frozen=True)
class HandResult:
    """Everything decided in one hand, by side (P, H, D) and by row."""

    settings: dict[Side, SetHand]
    rows: dict[str, RowResult]
    bonuses: dict[Side, dict[str, int]]  # each side's bonus points by row
    bonus_points: dict[Side, int]  # each side's total
    ledger: Ledger

    def to_dict(self) -> dict[str, Any]:
        """The hand for recall, the display and replay (cards as text, sides by letter)."""
        return {
            "settings": {side.value: setting.to_dict() for side, setting in self.settings.items()},
            "hand_descriptions": {
                side.value: {row: describe(setting.values[row]) for row in ROWS}
                for side, setting in self.settings.items()
            },
            "rows": {row: {"winner": result.winner.value} for row, result in self.rows.items()},
            "player_vs_dealer": {row: result.player_vs_dealer.value for row, result in self.rows.items()},
            "winner": self.ledger.winner,
            "result_code": self.ledger.result_code,
            "bonus_points": {side.value: points for side, points in self.bonus_points.items()},
            "bonus_points_by_row": {side.value: dict(by_row) for side, by_row in self.bonuses.items()},
            "ledger": self.ledger.to_dict(),
        }


def play_hand(player: SetHand, dealer: SetHand, dragon: SetHand, rules: DragonPokerRules,
              jackpot_before: int) -> HandResult:
    """Compare the rows, score the bonuses and settle, with the jackpot in points."""
    settings = {Side.PLAYER: player, Side.HOUSE: dealer, Side.DRAGON: dragon}
    rows = compare_rows(player, dealer, dragon)
    bonuses = {side: row_bonuses(setting, rules) for side, setting in settings.items()}
    totals = {side: sum(by_row.values()) for side, by_row in bonuses.items()}
    ledger = settle(tuple(rows[row].winner for row in ROWS), totals, rules, jackpot_before)
    return HandResult(settings=settings, rows=rows, bonuses=bonuses, bonus_points=totals, ledger=ledger)

"""Bonus points: what each side's set hand earns for strong rows, won or lost.

Every side (player, dealer and Dragon) earns, for each of its rows, the pay table's
`bonus_points.<row>.<hand rank>` (e.g. front three of a kind 2, four of a kind 3, straight flush 4).
A bonus is earned whether or not that row wins (the patent's Fig. 3: the Dragon's four eights lose
their row and still earn 3).
"""

from __future__ import annotations

from egm.games.dragon_poker.paytable import ROWS, DragonPokerRules
from egm.games.dragon_poker.setting import SetHand
from egm.poker import category


def row_bonuses(setting: SetHand, rules: DragonPokerRules) -> dict[str, int]:
    """Bonus points of each row of a set hand, keyed front, middle, back."""
    return {row: rules.bonus_points.points(row, category(setting.values[row])) for row in ROWS}


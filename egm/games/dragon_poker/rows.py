"""The row comparisons: player vs dealer, then that row's winner vs the Dragon.

For each row (front, middle, back), with the evaluator's values (higher beats lower):

1. player vs dealer: the player must beat the dealer; a tie goes to the house (dealer);
2. the winner of step 1 vs the Dragon: the Dragon wins its ties with the player, and the house wins
   its ties with the Dragon.

>>> row_winner(player=7, dealer=7, dragon=7)  # the house wins both ties
RowResult(player_vs_dealer=<Side.HOUSE: 'H'>, winner=<Side.HOUSE: 'H'>)
>>> row_winner(player=8, dealer=7, dragon=8).winner  # the Dragon wins its tie with the player
<Side.DRAGON: 'D'>
"""

from __future__ import annotations

from typing import NamedTuple

from egm.games.dragon_poker.paytable import ROWS
from egm.games.dragon_poker.setting import SetHand
from egm.games.dragon_poker.settlement import Side


class RowResult(NamedTuple):
    player_vs_dealer: Side  # who won step 1
    winner: Side  # who won the row


def row_winner(player: int, dealer: int, dragon: int) -> RowResult:
    """The winner of one row from the three hands' values."""
    if player > dealer:
        return RowResult(Side.PLAYER, Side.PLAYER if player > dragon else Side.DRAGON)
    return RowResult(Side.HOUSE, Side.HOUSE if dealer >= dragon else Side.DRAGON)


def compare_rows(player: SetHand, dealer: SetHand, dragon: SetHand) -> dict[str, RowResult]:
    """Each row's result, keyed front, middle, back."""
    return {row: row_winner(player.values[row], dealer.values[row], dragon.values[row]) for row in ROWS}

"""The patent's ledger: who pays whom, in points, once the three rows are decided.

`settle(row_winners, bonus, rules, jackpot_before)` is a pure function; the lab's compiled kernel
mirrors it step for step. The steps (docs/dragon-poker.md, "Settlement") are:

1. The hand's winner is the side that won 2 or 3 rows; if player, dealer and Dragon won one row each,
   the hand is a split and the player pays the house `split_points`.
2. A player or dealer win: the loser of the two pays the winner `win_points` (2 or 3 rows).
3. Bonus exchange between player and dealer, whoever wins: the dealer pays the player the player's
   bonus points and the player pays the dealer the dealer's bonus points.
4. The Dragon's points are its bonus points, plus its win points when it won the hand. The player and
   the dealer each pay the Dragon's points into the running jackpot, less their own bonus points of
   the hand (never below 0): the Dragon never pays anyone.
5. A player or dealer win takes the whole jackpot as it stood before this hand; the jackpot restarts
   at its seed (paid by the house) and this hand's payments into it go to the new jackpot.

The patent's Fig. 3 (player front three aces +2 wins the front; the Dragon wins middle and back, with
four eights +3 in its back):

>>> from egm.games.dragon_poker.paytable import DragonPokerRules, WinPoints
>>> rules = DragonPokerRules.model_construct(win_points=WinPoints(two_rows=2, three_rows=3),
...                                          split_points=1, jackpot_seed_points=0)
>>> ledger = settle((Side.PLAYER, Side.DRAGON, Side.DRAGON), {Side.PLAYER: 2, Side.HOUSE: 0,
...                 Side.DRAGON: 3}, rules, jackpot_before=0)
>>> ledger.winner, ledger.player_to_jackpot, ledger.house_to_jackpot, ledger.bonus_exchange
('D', 3, 5, 2)
>>> ledger.player_net, ledger.house_net, ledger.jackpot_after
(-1, -7, 8)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from egm.games.dragon_poker.paytable import DragonPokerRules

SPLIT = "split"


class Side(StrEnum):
    """The three seats of a hand, by their scoreboard letter."""

    PLAYER = "P"
    HOUSE = "H"  # the dealer's hand, played for the house
    DRAGON = "D"


def hand_winner(row_winners: Sequence[Side]) -> tuple[str, int]:
    """The hand's winner ("P", "H", "D" or "split") and how many rows it won (0 for a split).

    >>> hand_winner((Side.PLAYER, Side.DRAGON, Side.PLAYER))
    ('P', 2)
    >>> hand_winner((Side.HOUSE, Side.PLAYER, Side.DRAGON))
    ('split', 0)
    """
    if len(row_winners) != 3:
        raise ValueError("a hand has exactly three rows: front, middle and back")
    for side in Side:
        rows_won = sum(1 for winner in row_winners if winner == side)
        if rows_won >= 2:
            return side.value, rows_won
    return SPLIT, 0


def hand_result_code(front: str, middle: str, back: str) -> str:
    """A hand's scoreboard code from the winner of each row ("P", "H" or "D"), by the game's rule: two
    or three rows win ("P2", "H3", "D2"), one row each is a split ("S"). The live table's keypad and
    the cabinet's scoreboard (`Ledger.result_code`, through hand_winner and result_code) agree.

    >>> hand_result_code("P", "D", "P"), hand_result_code("D", "D", "D"), hand_result_code("H", "P", "D")
    ('P2', 'D3', 'S')
    """
    rows = (front, middle, back)
    if not all(row in set(Side) for row in rows):
        raise ValueError(f"each row's winner is P, H or D; got {list(rows)}")
    return result_code(*hand_winner(tuple(Side(row) for row in rows)))


def result_code(winner: str, rows_won: int) -> str:
    """The scoreboard code: the winner's letter and its rows ("P2", "H3", "D2"), or "S" for a split.

    >>> result_code("D", 3), result_code("split", 0)
    ('D3', 'S')
    """
    return "S" if winner == SPLIT else f"{winner}{rows_won}"


def jackpot_award(before: int, won: bool, paid_in: int, reseed: int, whole: int = 1) -> tuple[int, int]:
    """(prize, jackpot after) for one hand, in any unit (points here, cents on the cabinet).

    A win takes every whole multiple of `whole` in the jackpot (a remainder smaller than `whole`
    stays in it); then the house adds `reseed` on a win, and this hand's payments `paid_in` go in.

    >>> jackpot_award(8, True, 6, 0), jackpot_award(6, False, 12, 0), jackpot_award(1050, True, 0, 0, 100)
    ((8, 6), (0, 18), (1000, 50))
    """
    prize = before - before % whole if won else 0
    return prize, before - prize + (reseed if won else 0) + paid_in


@dataclass(frozen=True)
class Ledger:
    """One hand's settlement in points. Positive is money received.

    win_points: what the hand's winner earned for its rows (0 on a split).
    bonus_exchange: what the dealer pays the player for bonuses (negative: the player pays the dealer).
    split_payment: what the player pays the house on a split.
    dragon_points: the Dragon's points charged to each of player and dealer (before offsets).
    player_to_jackpot, house_to_jackpot: what each pays into the jackpot after its offset.
    jackpot_won_by: "P" or "H" when that side took the jackpot, else "".
    jackpot_won: what it took; jackpot_reseed: the house's seed for the new jackpot.
    player_points: the player's net excluding any jackpot won (the cabinet returns
      max(0, stake + player_points) x bet, plus the jackpot).
    player_net, house_net: the full result of each, jackpot included. player_net + house_net +
      (jackpot_after - jackpot_before) == 0: every point is accounted for.
    """

    winner: str
    rows_won: int
    win_points: int
    bonus_exchange: int
    split_payment: int
    dragon_points: int
    player_to_jackpot: int
    house_to_jackpot: int
    jackpot_before: int
    jackpot_won_by: str
    jackpot_won: int
    jackpot_reseed: int
    jackpot_after: int
    player_points: int
    player_net: int
    house_net: int

    @property
    def result_code(self) -> str:
        return result_code(self.winner, self.rows_won)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def settle(
    row_winners: Sequence[Side],
    bonus: Mapping[Side, int],
    rules: DragonPokerRules,
    jackpot_before: int,
) -> Ledger:
    """Settle one hand (see the module doc for the five steps)."""
    if any(points < 0 for points in bonus.values()) or jackpot_before < 0:
        raise ValueError("bonus points and the jackpot cannot be negative")
    winner, rows_won = hand_winner(row_winners)
    win_points = rules.win_points.for_rows(rows_won) if rows_won else 0

    # Step 1-2: the player-dealer exchange for the rows.
    split_payment = rules.split_points if winner == SPLIT else 0
    row_exchange = {Side.PLAYER: win_points, Side.HOUSE: -win_points}.get(winner, 0)
    # Step 3: bonus exchange between player and dealer.
    bonus_exchange = bonus[Side.PLAYER] - bonus[Side.HOUSE]
    # Step 4: the Dragon's points, paid into the jackpot by each side less its own bonuses.
    dragon_points = bonus[Side.DRAGON] + (win_points if winner == Side.DRAGON else 0)
    player_to_jackpot = max(0, dragon_points - bonus[Side.PLAYER])
    house_to_jackpot = max(0, dragon_points - bonus[Side.HOUSE])
    # Step 5: a player or dealer win takes the jackpot; the house reseeds it.
    jackpot_won_by = winner if winner in (Side.PLAYER, Side.HOUSE) else ""
    reseed = rules.jackpot_seed_points if jackpot_won_by else 0
    jackpot_won, jackpot_after = jackpot_award(
        jackpot_before, bool(jackpot_won_by), player_to_jackpot + house_to_jackpot, reseed
    )

    player_points = row_exchange + bonus_exchange - split_payment - player_to_jackpot
    house_points = -row_exchange - bonus_exchange + split_payment - house_to_jackpot - reseed
    return Ledger(
        winner=winner,
        rows_won=rows_won,
        win_points=win_points,
        bonus_exchange=bonus_exchange,
        split_payment=split_payment,
        dragon_points=dragon_points,
        player_to_jackpot=player_to_jackpot,
        house_to_jackpot=house_to_jackpot,
        jackpot_before=jackpot_before,
        jackpot_won_by=jackpot_won_by,
        jackpot_won=jackpot_won,
        jackpot_reseed=reseed,
        jackpot_after=jackpot_after,
        player_points=player_points,
        player_net=player_points + (jackpot_won if jackpot_won_by == Side.PLAYER else 0),
        house_net=house_points + (jackpot_won if jackpot_won_by == Side.HOUSE else 0),
    )

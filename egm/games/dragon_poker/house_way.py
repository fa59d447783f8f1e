"""The house way, version "house-way/1": how the house sets a 13-card hand (docs/house-way.md).

The dealer and the Dragon are always set this way; the player may press HOUSE WAY to be set the
same way, and it is the reference strategy for the player seat in the lab.

1. back = the best 5-card hand of the 13 cards (`egm.poker.best_hand`, whose documented canonical
   choice decides between equal-valued card sets, e.g. which suit or which joker);
2. middle = the best 5-card hand of the 8 cards left;
3. front = the 3 cards left.

Each row lists its cards by descending card index (`SetHand`).

It is deterministic and never fouls: the back is the best of a superset of the middle's cards, so
back >= middle; the middle is the best five of eight cards that include the front's three, so it is
at least any five holding those three, which is at least the front (the evaluator's single total
order ranks a 5-card hand at least as high as any 3 of its cards).

>>> from egm.cards import parse_cards
>>> setting = set_house_way(parse_cards("As Ah Ad Kc Kd Qs Qh 9c 8d 7h 5s 4c 2d"))
>>> setting.foul() is None, HOUSE_WAY_VERSION
(True, 'house-way/1')
"""

from __future__ import annotations

from collections.abc import Sequence

from egm.cards import Card
from egm.games.dragon_poker.setting import SetHand
from egm.poker import best_hand

HOUSE_WAY_VERSION = "house-way/1"


def set_house_way(hand: Sequence[Card]) -> SetHand:
    """Set a 13-card hand by the house way (see the module doc)."""
    if len(hand) != 13:
        raise ValueError(f"the house way sets a 13-card hand, not {len(hand)} cards")
    _, back = best_hand(hand, 5)
    rest = [card for card in hand if card not in back]
    _, middle = best_hand(rest, 5)
    front = tuple(card for card in rest if card not in middle)
    return SetHand(front=front, middle=tuple(middle), back=tuple(back))

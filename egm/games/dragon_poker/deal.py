"""The deal: four face-down 13-card hands, A to D, and the 2 bonus cards, from one shuffle.

The exact consumption of the random stream (the lab's compiled kernel reproduces it bit for bit):

1. deck = the 54 cards in index order (`egm.cards.DECK`: 2c 2d 2h 2s 3c ... As, then the two jokers);
2. `rng.shuffle(deck)` - one Fisher-Yates pass, 53 calls of `randbelow` (egm/rng.py);
3. hand A = deck[0:13], B = deck[13:26], C = deck[26:39], D = deck[39:52], bonus cards = deck[52:54].

Nothing else of the round is random: the house way and the settlement are deterministic.

>>> from egm.rng import Rng
>>> dealt = deal(Rng.from_seed(5))
>>> sorted(len(cards) for cards in dealt.hands.values()), len(dealt.bonus_cards)
([13, 13, 13, 13], 2)
>>> dealt == Deal.from_indices(dealt.to_indices())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from egm.cards import DECK, DECK_SIZE, Card
from egm.rng import Rng

HAND_LABELS = ("A", "B", "C", "D")
HAND_SIZE = 13


@dataclass(frozen=True)
class Deal:
    """The shuffled deck, as dealt: `hands[label]` (13 cards, dealt order) and the 2 bonus cards."""

    deck: tuple[Card, ...]

    def __post_init__(self) -> None:
        if sorted(card.index for card in self.deck) != list(range(DECK_SIZE)):
            raise ValueError("a deal is a permutation of the 54-card deck")

    @property
    def hands(self) -> dict[str, tuple[Card, ...]]:
        return {label: self.deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i, label in enumerate(HAND_LABELS)}

    @property
    def bonus_cards(self) -> tuple[Card, ...]:
        return self.deck[len(HAND_LABELS) * HAND_SIZE:]

    def to_indices(self) -> list[int]:
        return [card.index for card in self.deck]

    @classmethod
    def from_indices(cls, indices: Sequence[int]) -> Deal:
        return cls(tuple(Card(i) for i in indices))


def deal(rng: Rng) -> Deal:
    """Shuffle a fresh deck with `rng` and deal it (see the module doc for the exact consumption)."""
    deck = list(DECK)
    rng.shuffle(deck)
    return Deal(tuple(deck))

"""The deal, laid card by card: the animation every card table shares (Dragon Poker, Poker Grid).

A table numbers its cards in the order the game deals them and asks, each frame, which are on the
table yet (`shows`). The deal starts when a fresh round arrives (and again after a power cut: the same
cards); a press hurries it to its end state, every card laid, and then acts on the dealt table. The
deal shows no result, so hurrying it can never skip one: a table deals only a round that awaits the
player's first decision (a reveal is the scene's `busy`, during which input is refused).

>>> deal = Deal(card_s=0.1)
>>> deal.begin(now=5.0, cards=3)
>>> deal.laid(5.25), deal.shows(5.25, 2), deal.dealing(5.25)
(2, False, True)
>>> deal.hurry(); deal.laid(5.25), deal.dealing(5.25)
(3, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Deal:
    """One table's deal: `cards` cards, one every `card_s` seconds from `start` (None: all laid)."""

    card_s: float
    cards: int = 0
    start: float | None = None

    def begin(self, now: float, cards: int) -> None:
        """Deal `cards` cards from `now` on."""
        self.start, self.cards = now, cards

    def hurry(self) -> None:
        """Every card on the table at once (a press during the deal)."""
        self.start = None

    def laid(self, now: float) -> int:
        """How many cards are on the table now."""
        if self.start is None:
            return self.cards
        return min(self.cards, int((now - self.start) / self.card_s))

    def shows(self, now: float, index: int) -> bool:
        """Whether the card dealt `index`-th (from 0) is on the table now."""
        return self.start is None or index < self.laid(now)

    def dealing(self, now: float) -> bool:
        """True while cards are still to be laid."""
        return self.laid(now) < self.cards

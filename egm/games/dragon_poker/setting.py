"""A 13-card hand set into three rows: front 3, middle 5, back 5, and the rules a setting must keep.

A setting fouls unless back >= middle >= front in the evaluator's single total order (a three-card
front ranks only as high card, pair or three of a kind). The machine refuses a foul, a reused card
and a card from outside the hand, and says which rule was broken.

>>> from egm.cards import parse_cards
>>> hand = parse_cards("As Ah Ad Kc Kd Qs Qh 9c 8d 7h 5s 4c 2d")
>>> setting = choose_setting(hand, ["As", "Ah", "Ad"], ["Kc", "Kd", "Qs", "Qh", "9c"])
... # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
egm.games.base.DecisionRefused: Foul: the back (Eight High) must beat or equal the middle
(Two Pair, Kings and Queens); set a stronger back or a weaker middle.
>>> setting = choose_setting(hand, ["9c", "8d", "7h"], ["Kc", "Kd", "Qs", "Qh", "5s"])
>>> [str(c) for c in setting.back], setting.foul() is None
(['As', 'Ah', 'Ad', '4c', '2d'], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from egm.cards import Card
from egm.games.base import DecisionRefused
from egm.games.dragon_poker.paytable import ROW_SIZES, ROWS
from egm.poker import describe, evaluate


@dataclass(frozen=True)
class SetHand:
    """A hand set into front (3 cards), middle (5) and back (5); each row is kept in descending
    card-index order (the order `egm.poker.best_hand` gives), whatever order it was chosen in."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    def __post_init__(self) -> None:
        for row in ROWS:
            if len(self.row(row)) != ROW_SIZES[row]:
                raise ValueError(f"the {row} holds {ROW_SIZES[row]} cards, not {len(self.row(row))}")
            object.__setattr__(self, row, tuple(sorted(self.row(row), reverse=True)))

    def row(self, name: str) -> tuple[Card, ...]:
        return getattr(self, name)

    @cached_property
    def values(self) -> dict[str, int]:
        """The evaluator's value of each row (higher beats lower)."""
        return {row: evaluate(self.row(row)) for row in ROWS}

    def foul(self) -> str | None:
        """Why this setting fouls, or None when back >= middle >= front."""
        for upper, lower in (("back", "middle"), ("middle", "front")):
            if self.values[upper] < self.values[lower]:
                return (f"Foul: the {upper} ({describe(self.values[upper])}) must beat or equal the "
                        f"{lower} ({describe(self.values[lower])}); set a stronger {upper} or a "
                        f"weaker {lower}.")
        return None

    def to_dict(self) -> dict[str, list[str]]:
        return {row: [str(card) for card in self.row(row)] for row in ROWS}


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise DecisionRefused(f"{text!r} is not a card: write rank (23456789TJQKA) then suit (cdhs), or JK.")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise DecisionRefused(str(exc)) from None


def _same(held: Card, named: Card) -> bool:
    """True when the named card is this card of the hand (either joker answers to "JK")."""
    return held == named or (held.is_joker and named.is_joker)


def choose_setting(hand: Sequence[Card], front: Any, middle: Any) -> SetHand:
    """The player's setting: `front` (3 cards) and `middle` (5) as text; the back is the other 5.

    Refuses (DecisionRefused) a wrong card count, a card not in the hand, a card used twice and a
    foul. "JK" stands for either joker of the hand.
    """
    for row, chosen in (("front", front), ("middle", middle)):
        if not isinstance(chosen, (list, tuple)) or len(chosen) != ROW_SIZES[row]:
            raise DecisionRefused(f"The {row} takes exactly {ROW_SIZES[row]} cards from the player hand.")
    remaining = list(hand)
    rows: list[tuple[Card, ...]] = []
    for chosen in (front, middle):
        row_cards = []
        for text in chosen:
            card = _card(text)
            match = next((c for c in remaining if _same(c, card)), None)
            if match is None:
                if any(_same(c, card) for c in hand):
                    raise DecisionRefused(f"Card {card} is used twice; each card of the player hand "
                                          "goes in exactly one row.")
                raise DecisionRefused(f"Card {card} is not in the player hand; set only the player "
                                      "hand's 13 cards.")
            remaining.remove(match)
            row_cards.append(match)
        rows.append(tuple(row_cards))
    setting = SetHand(front=rows[0], middle=rows[1], back=tuple(remaining))
    reason = setting.foul()
    if reason is not None:
        raise DecisionRefused(reason)
    return setting

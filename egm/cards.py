"""Playing cards: the 54-card deck (52 plus two fully wild jokers).

A card is an immutable value with an index 0..53: index = rank * 4 + suit for the 52 natural cards
(rank 0 = deuce .. 12 = ace; suit 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades) and 52, 53 for
the two jokers. Text notation is rank (`23456789TJQKA`) plus suit (`cdhs`), and `JK` for a joker.

>>> Card.parse("As").index, str(Card(52)), Card.parse("Td") < Card.parse("Jc")
(51, 'JK', True)
>>> [str(c) for c in parse_cards("2c Ah JK")]
['2c', 'Ah', 'JK']
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER_TEXT = "JK"
JOKER_INDICES = (52, 53)
DECK_SIZE = 54


@dataclass(frozen=True, order=True, slots=True)
class Card:
    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < DECK_SIZE:
            raise ValueError(f"card index {self.index} is outside 0..53")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse "As", "Td" or "JK". (Both jokers are written JK; parse gives the first.)"""
        if text == JOKER_TEXT:
            return cls(JOKER_INDICES[0])
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise ValueError(f"'{text}' is not a card: write rank (23456789TJQKA) then suit (cdhs), or JK.")
        return cls(RANKS.index(text[0]) * 4 + SUITS.index(text[1]))

    @property
    def is_joker(self) -> bool:
        return self.index >= 52

    @property
    def rank(self) -> int:
        """0 (deuce) .. 12 (ace); jokers have no rank."""
        if self.is_joker:
            raise ValueError("a joker has no rank")
        return self.index >> 2

    @property
    def suit(self) -> int:
        if self.is_joker:
            raise ValueError("a joker has no suit")
        return self.index & 3

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TEXT
        return RANKS[self.index >> 2] + SUITS[self.index & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))


def parse_cards(text: str) -> list[Card]:
    """Parse space-separated cards. A second "JK" in the same text is the second joker."""
    cards: list[Card] = []
    jokers = 0
    for token in text.split():
        if token == JOKER_TEXT:
            if jokers == 2:
                raise ValueError("a deck holds only two jokers")
            cards.append(Card(JOKER_INDICES[jokers]))
            jokers += 1
        else:
            cards.append(Card.parse(token))
    return cards


SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_words(code: str) -> str:
    """A card as players write it: rank and suit symbol, a joker as JOKER, a wild square as WILD.

    >>> [card_words(c) for c in ("Kc", "Td", "2s", "JK", "W")]
    ['K♣', '10♦', '2♠', 'JOKER', 'WILD']
    """
    if code == "JK":
        return "JOKER"
    if code == "W":
        return "WILD"
    rank, suit = code[:-1], code[-1:]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit, suit)

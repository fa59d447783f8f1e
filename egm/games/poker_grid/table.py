"""One game of Poker Grid in progress: the board, each seat's hand, the draw pile, scores and moves.

A game is a pure function of its shuffled deck and its placements, so that is all its record holds;
`Table.from_record` replays the placements (rescoring each) to rebuild the same game exactly.

Set-up (seat 0 is the customer): the top `seats x hand_size` cards are dealt one at a time, seat 0
first; the next two go face up on the starter spaces (in the pay table's order); the rest, in order,
are the draw pile. Seat 0 plays first; after each placement the seat draws the top card while any
remain, and the turn passes to the next seat still holding cards.

>>> from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
>>> from egm.games.poker_grid.board import Layout
>>> table = Table(Layout.from_rules(PokerGridRules.model_validate(EXAMPLE)), 5, 2, list(range(54)))
>>> [str(Card(c)) for c in table.hands[0]], table.turn, len(table.draw_pile)
(['2c', '2h', '3c', '3h', '4c'], 0, 42)
>>> move = table.place(0, Card.parse("2h").index, table.layout.square(3, 1))
>>> move.play.hand, move.play.points, table.turn, [str(Card(c)) for c in table.hands[0]][-1]
(None, 0, 1, '5c')
>>> try:
...     table.place(0, 0, 0)
... except IllegalPlacement as exc:
...     print(exc)
it is the machine's turn; wait for your turn
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from egm.cards import DECK_SIZE, Card
from egm.games.grid import square_name
from egm.games.poker_grid.board import EMPTY, WILD, Layout
from egm.games.poker_grid.scoring import Play, score
from egm.games.seats import possessive
from egm.games.seats import seat_name as seat_name  # the scene names seats from here


class IllegalPlacement(ValueError):
    """A placement the rules do not allow; the message names the rule. Nothing changed."""


@dataclass(frozen=True)
class Move:
    """One placement and the hand it scored."""

    seat: int
    card: int
    square: int
    play: Play


class Table:
    """The state of one game. Build it from a shuffled deck; change it only through `place`."""

    def __init__(self, layout: Layout, hand_size: int, seats: int, deck: Sequence[int]) -> None:
        if sorted(deck) != list(range(DECK_SIZE)):
            raise ValueError("the deck must hold each of the 54 cards once")
        self.layout = layout
        self.hand_size = hand_size
        self.seats = seats
        self.deck = tuple(deck)
        dealt = seats * hand_size
        self.hands: list[list[int]] = [list(deck[seat:dealt:seats]) for seat in range(seats)]
        self.position = layout.empty_position()
        starters = deck[dealt : dealt + len(layout.starter_squares)]
        for square, card in zip(layout.starter_squares, starters, strict=True):
            self.position[square] = card
        self.draw_pile = list(deck[dealt + len(starters) :])
        self.turn = 0
        self.scores = [0] * seats
        self.moves: list[Move] = []

    @property
    def finished(self) -> bool:
        return not any(self.hands)

    def legal_squares(self) -> list[int]:
        return self.layout.legal_squares(self.position)

    def check(self, seat: int, card: int, square: int) -> None:
        """Raise IllegalPlacement naming the rule if `seat` may not play `card` onto `square` now."""
        if self.finished:
            raise IllegalPlacement("The game is over; every card has been played.")
        if seat != self.turn:
            raise IllegalPlacement(f"It is {possessive(self.turn, self.seats)} turn; wait for your turn.")
        if card not in self.hands[seat]:
            raise IllegalPlacement(
                f"{Card(card)} is not in {possessive(seat, self.seats)} hand; play a card from the hand."
            )
        row, col = self.layout.row_col(square)
        held = self.position[square]
        if held == WILD:
            raise IllegalPlacement(
                f"The square at {square_name(row, col)} is a wild space; no card is placed on a wild space."
            )
        if held != EMPTY:
            raise IllegalPlacement(
                f"The square at {square_name(row, col)} already holds {Card(held)}; choose an empty square."
            )
        if not any(self.position[n] >= 0 for n in self.layout.neighbours(square)):
            raise IllegalPlacement(
                f"The square at {square_name(row, col)} is not next to a card on the board; place the card "
                "side by side or end to end with a card already played (not diagonally)."
            )

    def place(self, seat: int, card: int, square: int) -> Move:
        """Play `card` from `seat`'s hand onto `square`, score it, draw, and pass the turn."""
        self.check(seat, card, square)
        move = Move(seat, card, square, score(self.layout, self.position, square, card))
        self.position[square] = card
        self.hands[seat].remove(card)
        if self.draw_pile:
            self.hands[seat].append(self.draw_pile.pop(0))
        self.scores[seat] += move.play.points
        self.moves.append(move)
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if self.hands[nxt]:
                self.turn = nxt
                break
        return move

    def to_record(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "deck": list(self.deck),
            "moves": [[move.seat, move.card, move.square] for move in self.moves],
        }

    @classmethod
    def from_record(cls, layout: Layout, hand_size: int, record: Mapping[str, Any]) -> Table:
        table = cls(layout, hand_size, record["seats"], record["deck"])
        for seat, card, square in record["moves"]:
            table.place(seat, card, square)
        return table

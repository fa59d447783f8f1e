"""Poker Grid on the cabinet: the `Game` plug-in.

The stake (`stake_units` units of the bet) buys one game against machine opponents (as many as the
pay table's pays are certified for); a wager the pay table does not offer is refused
(`Game.refuse_wager`). The customer (seat 0) places a card with
`Decision("place", {"card": "As", "row": r, "col": c})`; the machine opponents' turns follow at once,
by the pay table's machine strategy, so the turn is the customer's again whenever the round waits
for a decision. When every card is played the result pays by margin, plus an award for each premium
hand the customer made (see `paytable`).

>>> from types import SimpleNamespace
>>> from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules
>>> header = SimpleNamespace(
...     strategy="grid-opponent/1", denominations_cents=[1], bets_credits=[1], default_bet_credits=1
... )
>>> game = PokerGrid(SimpleNamespace(header=header, rules=PokerGridRules.model_validate(EXAMPLE)))
>>> round_ = game.new_round(game.default_wager(1), Rng.from_seed(7), {})
>>> round_.step, len(round_.view().table["hand"])
('play', 5)
>>> from egm.games.base import play_reference
>>> outcome = play_reference(round_)
>>> game.restore(round_.to_record()).view() == round_.view(), len(round_.to_record()["moves"])
(True, 52)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from egm.cards import DECK_SIZE, JOKER_TEXT, Card
from egm.games.base import Decision, DecisionRefused, Wager
from egm.games.board_game import BoardGame, BoardRound
from egm.games.margin import award_words, margin_reason
from egm.games.poker_grid import compiled
from egm.games.poker_grid.board import EMPTY, WILD, Layout
from egm.games.poker_grid.paytable import PokerGridRules
from egm.games.poker_grid.strategy import MACHINE_STRATEGIES, Strategy
from egm.games.poker_grid.table import IllegalPlacement, Move, Table
from egm.games.record import open_record, seal
from egm.games.seats import not_your_seat
from egm.rng import Rng

CUSTOMER = 0
RECORD_FORMAT = 1

def move_json(layout: Layout, move: Move) -> dict[str, Any]:
    """A move as the replay contract and recall show it."""
    row, col = layout.row_col(move.square)
    return {
        "seat": move.seat,
        "card": str(Card(move.card)),
        "row": row,
        "col": col,
        "line": move.play.line,
        "cells": [list(layout.row_col(square)) for square in move.play.squares],
        "category": move.play.hand or "none",
        "points": move.play.points,
    }


def shuffled_deck(rng: Rng) -> list[int]:
    """The round's deck (the game's only randomness); the lab deals its compiled games from it too."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return deck


class PokerGrid(BoardGame):
    game_id: ClassVar[str] = "poker-grid"
    title: ClassVar[str] = "Poker Grid"
    machine_strategies = MACHINE_STRATEGIES
    rules: PokerGridRules
    strategy: Strategy

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.layout = Layout.from_rules(self.rules)

    def prepare(self) -> None:
        compiled.warm_up()  # both machine strategies' searches, whichever this pay table names
        self.practice()

    def new_round(
        self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int], opponents: int | None = None
    ) -> PokerGridRound:
        """Shuffle the deck (the round's only randomness) and deal. `opponents` defaults to the pay
        table's `opponents_default`, the one count its pays are certified for (paytable.PokerGridRules)."""
        self.check_wager(wager)
        opponents = self.rules.opponents_default if opponents is None else opponents
        certified = self.rules.opponents_default
        if not certified <= opponents <= self.rules.opponents_max:
            raise ValueError(
                f"this pay table has pays for {certified} opponent(s) only, not {opponents}; "
                "choose the pay table certified for that opponent count"
            )
        table = Table(self.layout, self.rules.hand_size, 1 + opponents, shuffled_deck(rng))
        return PokerGridRound(self, wager, table)

    def restore(self, record: Mapping[str, Any]) -> PokerGridRound:
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        table = Table.from_record(self.layout, self.rules.hand_size, opened.body)
        return PokerGridRound(self, opened.wager, table)


class PokerGridRound(BoardRound):
    def __init__(self, game: PokerGrid, wager: Wager, table: Table) -> None:
        self.game = game
        self.wager = wager
        self.table = table
        self._machine_turns()

    @property
    def step(self) -> str:
        return "complete" if self.table.finished else "play"

    def _machine_turns(self) -> None:
        """Play the machine opponents until the customer is to move or the game is over."""
        while not self.table.finished and self.table.turn != CUSTOMER:
            card, square = self.game.strategy(self.table)
            self.table.place(self.table.turn, card, square)

    def _parse(self, decision: Decision) -> tuple[int, int, int]:
        """(seat, card, square) of a placement decision, or DecisionRefused naming what is wrong."""
        if decision.kind != "place":
            raise DecisionRefused(f"Poker Grid takes 'place' decisions, not '{decision.kind}'.")
        args = decision.args
        seat = args.get("seat", CUSTOMER)
        row, col, text = args.get("row"), args.get("col"), args.get("card")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seat, row, col)):
            raise DecisionRefused("A placement needs whole-number 'row' and 'col' (and 'seat', if given).")
        if not isinstance(text, str):
            raise DecisionRefused("A placement needs the 'card' to play, written like 'As' or 'JK'.")
        try:
            card = Card.parse(text).index
            square = self.game.layout.square(row, col)
        except ValueError as exc:
            raise DecisionRefused(str(exc)) from exc
        if text == JOKER_TEXT:  # either joker: the one the seat holds
            card = next((c for c in self.table.hands[CUSTOMER] if Card(c).is_joker), card)
        return seat, card, square

    def decide(self, decision: Decision) -> None:
        seat, card, square = self._parse(decision)
        if seat != CUSTOMER:
            raise DecisionRefused(not_your_seat(seat, self.table.seats))
        try:
            self.table.place(seat, card, square)
        except IllegalPlacement as exc:
            raise DecisionRefused(str(exc)) from exc
        self._machine_turns()

    def reference_decision(self) -> Decision:
        return self.decision_for(*self.game.strategy(self.table))

    def decision_for(self, card: int, square: int) -> Decision:
        """The customer's decision to play `card` (an index) onto `square`."""
        row, col = self.game.layout.row_col(square)
        return Decision("place", {"card": str(Card(card)), "row": row, "col": col})

    def standings(self) -> list[int]:
        return list(self.table.scores)

    def awards(self) -> list[str]:
        """The premium hands the customer made that carry an award, in order of play."""
        awards = self.game.rules.hand_awards
        return [
            move.play.hand
            for move in self.table.moves
            if move.seat == CUSTOMER and move.play.hand and awards.for_hand(move.play.hand)
        ]

    def won_units(self, awards: list[str]) -> int:
        return self.game.rules.won_units(self.margin, awards)

    def pays(self, awards: list[str]) -> list[tuple[str, int]]:
        rules = self.game.rules
        return [margin_reason(rules.result_pays, self.margin),
                *((f"{award_words(hand)} award", rules.hand_awards.for_hand(hand)) for hand in awards)]

    def summary(self, awards: list[str]) -> dict[str, Any]:
        return {"result": self.result, "margin": self.margin, "scores": list(self.table.scores),
                "awards": awards}

    def to_record(self) -> dict[str, Any]:
        return seal(self.game.game_id, RECORD_FORMAT, self.wager, self.table.to_record())

    def table_view(self) -> dict[str, Any]:
        """The table scene's own data (egm/games/poker_grid/scene.py reads it)."""
        layout = self.game.layout
        table = self.table

        def shown(held: int) -> str:
            return "" if held == EMPTY else "W" if held == WILD else str(Card(held))

        last = [move_json(layout, move) for move in table.moves[self._last_customer_move() :]]
        return {
            "step": self.step,
            "rows": layout.rows,
            "cols": layout.cols,
            "board": [[shown(table.position[r * layout.cols + c]) for c in range(layout.cols)]
                      for r in range(layout.rows)],
            "hand": [str(Card(card)) for card in table.hands[CUSTOMER]],
            "legal": [] if self.finished else [list(layout.row_col(s)) for s in table.legal_squares()],
            "last_plays": last,
            "scores": list(table.scores),
            "draw_pile": len(table.draw_pile),
            "opponent_cards": [len(hand) for hand in table.hands[1:]],
            "result": self.result if self.finished else None,
            **(self._pays() if self.finished else {}),
        }

    def _pays(self) -> dict[str, Any]:
        """How the finished game pays, for the end screen: the margin, the units its tier pays, and
        each premium hand's award (units are bets)."""
        rules = self.game.rules
        return {
            "margin": self.margin,
            "margin_units": rules.result_units(self.margin),
            "awards": [{"hand": hand, "units": rules.hand_awards.for_hand(hand)} for hand in self.awards()],
        }

    def _last_customer_move(self) -> int:
        """The index of the customer's latest move (the plays since then are the ones to show)."""
        indices = [i for i, move in enumerate(self.table.moves) if move.seat == CUSTOMER]
        return indices[-1] if indices else len(self.table.moves)

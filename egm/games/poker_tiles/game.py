"""Poker Tiles on the cabinet: the `Game` plug-in.

The stake (`stake_units` units of the bet) buys one short-form game against machine opponents (the pay
table's default count, or any count up to its maximum). The pool is shuffled in `new_round`, the round's
only randomness; the opening (deal, declarations, any swaps) follows from it. The customer is seat 0
and takes one turn per decision:

* `Decision("play", {"tiles": [{"row": r, "col": c, "card": "Jd"}, {"row": r, "col": c + 1,
  "card": "JK", "as": "Jh"}]})`: a joker needs `as`, its declared card;
* `Decision("swap_joker", {"row": r, "col": c, "card": "Jh"})`: the natural card for the joker there;
* `Decision("pass")`;
* `Decision("exchange", {"tiles": ["2c", "7d"]})`.

The machine opponents' turns follow at once, by the pay table's machine strategy, so whenever the
round waits, it is the customer's turn. At the end the result pays by margin, plus an award for each
line the customer scored with a premium hand (see `paytable`).

>>> from types import SimpleNamespace
>>> from egm.games.poker_tiles.paytable import EXAMPLE, PokerTilesRules
>>> header = SimpleNamespace(strategy="tiles-greedy/1", default_bet_credits=1, denominations_cents=[1],
...                          bets_credits=[1])
>>> game = PokerTiles(SimpleNamespace(header=header, rules=PokerTilesRules.model_validate(EXAMPLE)))
>>> round_ = game.new_round(game.default_wager(1), Rng.from_seed(7), {})
>>> round_.step, len(round_.view().table["rack"])
('play', 5)
>>> while not round_.finished:
...     round_.decide(round_.reference_decision())
>>> game.restore(round_.to_record()).view() == round_.view(), round_.outcome().win_credits > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from egm.cards import JOKER_TEXT, Card
from egm.games.base import Decision, DecisionRefused, Wager
from egm.games.board_game import BoardGame, BoardRound
from egm.games.margin import award_words, margin_reason
from egm.games.poker_tiles.board import Layout
from egm.games.poker_tiles.engine import EMPTY, JOKER
from egm.games.poker_tiles.hands import HANDS
from egm.games.poker_tiles.paytable import PokerTilesRules
from egm.games.poker_tiles.strategy import MACHINE_STRATEGIES, Strategy, Turn
from egm.games.poker_tiles.table import IllegalMove, Move, Table, full_pool, tile_text
from egm.games.record import open_record, seal
from egm.games.seats import not_your_seat
from egm.rng import Rng

CUSTOMER = 0
RECORD_FORMAT = 1

def move_json(layout: Layout, move: Move) -> dict[str, Any]:
    """A move as the replay contract and recall show it."""
    out: dict[str, Any] = {"seat": move.seat, "kind": move.kind}
    if move.kind == "play":
        out["tiles"] = [
            {"row": layout.row_col(t.square)[0], "col": layout.row_col(t.square)[1],
             "card": tile_text(t.code), "as": tile_text(t.face)}
            for t in move.tiles
        ]
        out["hands"] = [
            {"cells": [list(layout.row_col(s)) for s in line.squares], "category": HANDS[line.hand],
             "base": int(layout.values[line.hand]), "multiplier": line.multiplier, "points": line.points}
            for line in move.lines
        ]
        out["points"] = move.points
    elif move.kind == "swap_joker":
        row, col = layout.row_col(move.square)
        out.update(row=row, col=col, card=tile_text(move.card))
    elif move.kind == "exchange":
        out["tiles"] = [tile_text(code) for code in move.returned]
    if move.kind in ("play", "exchange"):
        out["drawn"] = [tile_text(code) for code in move.drawn]
    return out


class PokerTiles(BoardGame):
    game_id: ClassVar[str] = "poker-tiles"
    title: ClassVar[str] = "Poker Tiles"
    machine_strategies = MACHINE_STRATEGIES
    rules: PokerTilesRules
    strategy: Strategy

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.layout = Layout.from_rules(self.rules)

    def prepare(self) -> None:
        self.practice()

    def new_round(
        self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int], opponents: int | None = None
    ) -> PokerTilesRound:
        """Shuffle the 108 tiles (the round's only randomness) and open the game. `opponents` defaults
        to the pay table's `opponents_default` and may be 1 .. `opponents_max`."""
        self.check_wager(wager)
        seats = 1 + self.opponent_count(opponents)
        pool = full_pool()
        rng.shuffle(pool)
        return PokerTilesRound(self, wager, Table(self.layout, seats, pool, self.rules.rounds))

    def restore(self, record: Mapping[str, Any]) -> PokerTilesRound:
        """Rebuild a round from its record by replaying every move (each checked and rescored)."""
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        return PokerTilesRound(self, opened.wager, Table.from_record(self.layout, opened.body))


class PokerTilesRound(BoardRound):
    def __init__(self, game: PokerTiles, wager: Wager, table: Table) -> None:
        self.game = game
        self.wager = wager
        self.table = table
        self._machine_turns()  # after a restore: nothing, the record holds every machine turn

    @property
    def step(self) -> str:
        return "complete" if self.table.finished else "play"

    def _machine_turns(self) -> None:
        """Play the machine opponents until the customer is to move or the game is over."""
        table = self.table
        while not table.finished and table.turn != CUSTOMER:
            kind, args = self.game.strategy(table)
            table.apply(table.turn, kind, args)

    # --- decisions ------------------------------------------------------------------------------------
    def _card(self, text: Any, what: str) -> int:
        if not isinstance(text, str):
            raise DecisionRefused(f"{what} must be a card written like 'As', 'Td' or 'JK'.")
        try:
            return Card.parse(text).index if text != JOKER_TEXT else JOKER
        except ValueError as exc:
            raise DecisionRefused(str(exc)) from exc

    def _square(self, args: Mapping[str, Any]) -> int:
        row, col = args.get("row"), args.get("col")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
            raise DecisionRefused("A tile needs whole-number 'row' and 'col'.")
        try:
            return self.game.layout.square(row, col)
        except ValueError as exc:
            raise DecisionRefused(str(exc)) from exc

    def _turn(self, decision: Decision) -> Turn:
        """The turn record of a customer decision, or DecisionRefused naming what is malformed."""
        args = decision.args
        if decision.kind == "play":
            tiles = args.get("tiles")
            if not isinstance(tiles, list) or not all(isinstance(t, Mapping) for t in tiles):
                raise DecisionRefused(
                    "A play needs 'tiles': a list of {row, col, card} (and 'as' for a joker).")
            record = []
            for tile in tiles:
                code = self._card(tile.get("card"), "A tile's 'card'")
                declared = tile.get("as")
                if code == JOKER:
                    face = EMPTY if declared is None else self._card(declared, "A joker's 'as'")
                    if face == JOKER:
                        raise DecisionRefused("A joker is declared as a card (rank and suit), not as JK.")
                else:
                    face = code if declared is None else self._card(declared, "A tile's 'as'")
                record.append([self._square(tile), code, face])
            return ["play", record]
        if decision.kind == "swap_joker":
            return ["swap_joker", [self._square(args), self._card(args.get("card"), "The swapped 'card'")]]
        if decision.kind == "pass":
            return ["pass", []]
        if decision.kind == "exchange":
            tiles = args.get("tiles")
            if not isinstance(tiles, list):
                raise DecisionRefused("An exchange needs 'tiles': the list of tiles to give back.")
            return ["exchange", [self._card(t, "An exchanged tile") for t in tiles]]
        raise DecisionRefused(
            f"Poker Tiles takes 'play', 'swap_joker', 'pass' or 'exchange' decisions, not '{decision.kind}'."
        )

    def decide(self, decision: Decision) -> None:
        seat = decision.args.get("seat", CUSTOMER)
        if seat != CUSTOMER:
            raise DecisionRefused(not_your_seat(seat, self.table.seats))
        if self.table.finished:
            raise DecisionRefused("The game is over; no more moves can be made.")
        kind, args = self._turn(decision)
        try:
            self.table.apply(CUSTOMER, kind, args)
        except IllegalMove as exc:
            raise DecisionRefused(str(exc)) from exc
        self._machine_turns()

    def reference_decision(self) -> Decision:
        return self.decision_for(self.game.strategy(self.table))

    def decision_for(self, turn: Turn) -> Decision:
        """The customer's decision for a turn record."""
        kind, args = turn
        layout = self.game.layout
        if kind == "play":
            tiles = []
            for square, code, face in args:
                row, col = layout.row_col(square)
                tiles.append({"row": row, "col": col, "card": tile_text(code), "as": tile_text(face)})
            return Decision("play", {"tiles": tiles})
        if kind == "swap_joker":
            row, col = layout.row_col(args[0])
            return Decision("swap_joker", {"row": row, "col": col, "card": tile_text(args[1])})
        if kind == "exchange":
            return Decision("exchange", {"tiles": [tile_text(code) for code in args]})
        return Decision("pass")

    def _open_squares(self) -> list[int]:
        """The squares a play may start from, as the table lights them: the starting area's while the
        board is empty, then every empty square next to a tile (a play's further tiles may extend a
        line beyond these; the rules, `Table.check_play`, decide)."""
        table, layout = self.table, self.game.layout
        if table.board_empty:
            return list(layout.start)
        return [s for s in range(layout.size)
                if table.face[s] == EMPTY and any(table.face[n] != EMPTY for n in layout.neighbours(s))]

    # --- result -------------------------------------------------------------------------------------
    def standings(self) -> list[int]:
        return list(self.table.scores)

    def awards(self) -> list[str]:
        """The premium hands of the customer's scored lines that carry an award, in order of play."""
        rules = self.game.rules
        return [
            HANDS[line.hand]
            for move in self.table.moves
            if move.seat == CUSTOMER
            for line in move.lines
            if rules.award_units(HANDS[line.hand])
        ]

    def won_units(self, awards: list[str]) -> int:
        rules = self.game.rules
        return rules.result_units(self.margin) + sum(rules.award_units(hand) for hand in awards)

    def pays(self, awards: list[str]) -> list[tuple[str, int]]:
        rules = self.game.rules
        return [margin_reason(rules.result_pays, self.margin),
                *((f"{award_words(hand)} award", rules.award_units(hand)) for hand in awards)]

    def summary(self, awards: list[str]) -> dict[str, Any]:
        return {
            "result": self.result,
            "place": self.place,
            "margin": self.margin,
            "scores": list(self.table.scores),
            "end_adjustments": list(self.table.end_adjustments),
            "awards": awards,
        }

    def to_record(self) -> dict[str, Any]:
        return seal(self.game.game_id, RECORD_FORMAT, self.wager, self.table.to_record())

    def table_view(self) -> dict[str, Any]:
        """The table scene's own data (egm/games/poker_tiles/scene.py reads it)."""
        layout = self.game.layout
        table = self.table

        def cell(square: int) -> dict[str, Any] | None:
            if table.face[square] == EMPTY:
                return None
            return {"card": tile_text(int(table.face[square])), "joker": bool(table.joker[square])}

        since = [i for i, move in enumerate(table.moves) if move.seat == CUSTOMER]
        last = table.moves[since[-1] if since else 0:]
        return {
            "step": self.step,
            "rows": layout.rows,
            "cols": layout.cols,
            "start": [list(layout.row_col(s)) for s in layout.start],
            "centre": list(layout.row_col(layout.centre)),
            "card_squares": [list(entry) for entry in layout.card_squares],
            "board": [[cell(r * layout.cols + c) for c in range(layout.cols)] for r in range(layout.rows)],
            "rack": [tile_text(code) for code in table.racks[CUSTOMER]],
            "legal": [] if self.finished else [list(layout.row_col(s)) for s in self._open_squares()],
            "turn": table.turn,
            "first_play": table.board_empty,
            "joker_swaps": [[*layout.row_col(s), tile_text(c)] for s, c in table.joker_swaps(CUSTOMER)],
            "last_moves": [move_json(layout, move) for move in last],
            "scores": list(table.scores),
            "pool": len(table.pool),
            "turns_left": max(0, table.rounds * table.seats - table.turns_taken),
            "opponent_tiles": [len(rack) for rack in table.racks[1:]],
            "end_adjustments": list(table.end_adjustments) if table.finished else None,
            "result": self.result if self.finished else None,
        }

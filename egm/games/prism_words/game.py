"""Prism Words on the cabinet: the `Game` plug-in.

The stake (`stake_units` units of the bet) buys one game against machine opponents (the pay table's
default count, or any count up to its maximum). The customer is seat 0. Its decisions:

* `Decision("play", {"placements": [{"row": 7, "col": 7, "block": 12, "face": "left"}, ...]})`,
  each placement naming a block on the customer's rack, the face shown ("left" or "right") and, for
  a star face, the `"letter"` it stands for (A-Z);
* `Decision("exchange")`: the whole rack back to the bag, as many drawn; it costs the turn;
* `Decision("pass")`.

The machine opponents' turns follow at once, by the pay table's machine strategy, so the turn is the
customer's whenever the round waits for a decision. At the end the result pays by margin, plus an
award for each play of the customer's that earned the pattern bonus and each depleted rack.

The pay table's ROM assets (block set and lexicon) are read when the game is built and refused
(`AssetError`, a ROM error) unless their SHA-256 is the pay table's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from egm.games.base import Decision, DecisionRefused, Wager
from egm.games.board_game import BoardGame, BoardRound
from egm.games.margin import award_words, margin_reason
from egm.games.prism_words.blocks import (
    FACE_NAMES,
    LETTERS,
    STAR,
    Block,
    block_text,
    check_block_set,
    parse_blocks,
)
from egm.games.prism_words.board import NO_SUCH_BLOCK, IllegalPlay, Placement
from egm.games.prism_words.lexicon import AssetError, load_lexicon, read_asset
from egm.games.prism_words.paytable import PrismWordsRules
from egm.games.prism_words.strategy import MACHINE_STRATEGIES, Choice, Strategy, apply_choice
from egm.games.prism_words.table import EXCHANGE, PASS, PLAY, Move, Rulebook, Table, draw_for_first
from egm.games.record import open_record, seal
from egm.games.seats import not_your_seat
from egm.rng import Rng

CUSTOMER = 0
RECORD_FORMAT = 1
AWARD_WORDS = {  # the pay table's awards as the end screen names them
    "pattern_bonus": "Pattern-bonus word",
    "depleted_rack": "All six blocks played",
}

def load_rulebook(rules: PrismWordsRules, paytable_dir: Path) -> Rulebook:
    """The block set and lexicon the pay table names, hash-checked, with its grid and options."""
    text = read_asset(paytable_dir / rules.blocks, rules.blocks_sha256).decode("utf-8")
    try:
        blocks = parse_blocks(text)
        check_block_set(blocks)
    except ValueError as exc:
        raise AssetError(f"{paytable_dir / rules.blocks}: {exc}") from exc
    lexicon = load_lexicon(paytable_dir / rules.lexicon, rules.lexicon_sha256)
    return Rulebook(blocks, lexicon, rules.rows, rules.cols, (rules.centre[0], rules.centre[1]),
                    scoring=rules.scoring, rack_size=rules.rack_size, first_word_min=rules.first_word_min,
                    turns_per_seat=rules.turns_per_seat)


def move_json(move: Move) -> dict[str, Any]:
    """A move as the replay contract and recall show it."""
    if move.play is None:
        return {"seat": move.seat, "kind": move.kind}
    return {
        "seat": move.seat,
        "kind": move.kind,
        "placements": [p.to_json() for p in move.play.placements],
        "words": [word.to_json() for word in move.play.words],
        "rack_bonus": move.play.rack_bonus,
        "points": move.points,
    }


def block_json(block: Block) -> dict[str, Any]:
    """Both faces of a rack block, for the display."""
    return {"left": block.text().split(".")[0], "right": block.text().split(".")[1],
            "star": block.has_star}


class PrismWords(BoardGame):
    game_id: ClassVar[str] = "prism-words"
    title: ClassVar[str] = "Prism Words"
    machine_strategies = MACHINE_STRATEGIES
    rules: PrismWordsRules
    strategy: Strategy

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.book = load_rulebook(self.rules, Path(paytable.path).parent)

    def prepare(self) -> None:
        self.practice()

    def new_round(
        self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int], opponents: int | None = None
    ) -> PrismWordsRound:
        """Draw for first, shuffle the bag and draw the bag seed (the round's only randomness), and
        deal. `opponents` defaults to the pay table's `opponents_default`, 1 .. `opponents_max`."""
        self.check_wager(wager)
        seats = 1 + self.opponent_count(opponents)
        first_draws, starter = draw_for_first(rng, seats, self.book.blocks)
        bag = list(range(len(self.book.blocks)))
        rng.shuffle(bag)
        bag_seed = int.from_bytes(rng.read(8), "little")
        return PrismWordsRound(self, wager, first_draws, Table(self.book, seats, starter, bag, bag_seed))

    def restore(self, record: Mapping[str, Any]) -> PrismWordsRound:
        opened = open_record(record, self.game_id, RECORD_FORMAT)
        return PrismWordsRound(self, opened.wager, opened.body["first_draws"],
                               Table.from_record(self.book, opened.body))


def parse_placement(book: Rulebook, item: Any) -> Placement:
    """One placement of a play decision, or DecisionRefused naming what is wrong with it."""
    if not isinstance(item, Mapping):
        raise DecisionRefused("Each placement is an object with 'row', 'col', 'block' and 'face'.")
    row, col, block, face = (item.get(key) for key in ("row", "col", "block", "face"))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col, block)):
        raise DecisionRefused("A placement needs whole-number 'row', 'col' and 'block'.")
    if face not in FACE_NAMES:
        raise DecisionRefused(f"A block is placed showing its 'left' or 'right' face, not {face!r}.")
    if not 0 <= block < len(book.blocks):
        raise DecisionRefused(NO_SUCH_BLOCK)
    name = block_text(book.blocks[block])
    side = FACE_NAMES.index(face)
    shown = book.blocks[block].face(side)[0]
    letter = item.get("letter")
    if shown == STAR:
        if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in LETTERS:
            raise DecisionRefused(f"The {face} face of the {name} is a star; declare the letter (A to Z) "
                                  "it stands for.")
        return Placement(row, col, block, side, LETTERS.index(letter.upper()))
    if letter is not None and (not isinstance(letter, str) or letter.upper() != LETTERS[shown]):
        raise DecisionRefused(f"The {face} face of the {name} shows {LETTERS[shown]}, not {letter!r}; only "
                              "a star takes a declared letter.")
    return Placement(row, col, block, side, shown)


class PrismWordsRound(BoardRound):
    def __init__(self, game: PrismWords, wager: Wager, first_draws: list[list[list[int]]], table: Table
                 ) -> None:
        self.game = game
        self.wager = wager
        self.first_draws = first_draws
        self.table = table
        self._machine_turns()

    @property
    def step(self) -> str:
        return "complete" if self.table.finished else "play"

    def apply(self, seat: int, choice: Choice) -> Move:
        """Make a strategy's (or the customer's) move for `seat`; IllegalPlay when refused."""
        return apply_choice(self.table, seat, choice)

    def _machine_turns(self) -> None:
        """Play the machine opponents until the customer is to move or the game is over."""
        while not self.table.finished and self.table.turn != CUSTOMER:
            self.apply(self.table.turn, self.game.strategy(self.table))

    def _parse(self, decision: Decision) -> tuple[int, Choice]:
        args = decision.args
        seat = args.get("seat", CUSTOMER)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise DecisionRefused("'seat', if given, is a whole number.")
        if decision.kind in (EXCHANGE, PASS):
            return seat, Choice(decision.kind)
        if decision.kind != PLAY:
            raise DecisionRefused(f"Prism Words takes 'play', 'exchange' or 'pass' decisions, not "
                                  f"'{decision.kind}'.")
        items = args.get("placements")
        if not isinstance(items, list) or not items:
            raise DecisionRefused("A play needs 'placements': a list of the blocks put on the grid.")
        return seat, Choice(PLAY, tuple(parse_placement(self.game.book, item) for item in items))

    def decide(self, decision: Decision) -> None:
        if self.table.finished:
            raise DecisionRefused("The game is over; no move is taken after the end.")
        seat, choice = self._parse(decision)
        if seat != CUSTOMER:
            raise DecisionRefused(not_your_seat(seat, self.table.seats))
        try:
            self.apply(seat, choice)
        except IllegalPlay as exc:
            raise DecisionRefused(str(exc)) from exc
        self._machine_turns()

    def reference_decision(self) -> Decision:
        return self.decision_for(self.game.strategy(self.table))

    def decision_for(self, choice: Choice) -> Decision:
        """The customer's decision for a strategy's choice."""
        if choice.kind != PLAY:
            return Decision(choice.kind)
        items = []
        for p in choice.placements:
            item: dict[str, Any] = {"row": p.row, "col": p.col, "block": p.block, "face": FACE_NAMES[p.side]}
            if self.game.book.blocks[p.block].face(p.side)[0] == STAR:
                item["letter"] = LETTERS[p.letter]
            items.append(item)
        return Decision(PLAY, {"placements": items})

    def standings(self) -> list[int]:
        return list(self.table.scores)

    def awards(self) -> list[str]:
        """The awards the customer earned, in order of play: one per play with a pattern bonus, one per
        depleted rack (only those the pay table pays)."""
        pays = self.game.rules.awards
        return [award for award in self.table.awards(CUSTOMER) if pays.for_award(award)]

    def won_units(self, awards: list[str]) -> int:
        return self.game.rules.units(self.margin, awards)

    def pays(self, awards: list[str]) -> list[tuple[str, int]]:
        rules = self.game.rules
        return [margin_reason(rules.result_pays, self.margin),
                *((AWARD_WORDS.get(a, award_words(a)), rules.awards.for_award(a)) for a in awards)]

    def summary(self, awards: list[str]) -> dict[str, Any]:
        return {
            "result": self.result,
            "margin": self.margin,
            "scores": list(self.table.scores),
            "end_adjustments": list(self.table.end_adjustments),
            "awards": awards,
        }

    def to_record(self) -> dict[str, Any]:
        return seal(self.game.game_id, RECORD_FORMAT, self.wager,
                    {"first_draws": self.first_draws, **self.table.to_record()})

    def table_view(self) -> dict[str, Any]:
        """The table scene's own data (egm/games/prism_words/scene.py reads it)."""
        table, book = self.table, self.game.book
        grid = table.grid
        squares = []
        for square, letter in enumerate(grid.letter):
            if letter >= 0:
                squares.append({"row": square // grid.cols, "col": square % grid.cols,
                                "letter": LETTERS[letter], "value": grid.value[square],
                                "face": FACE_NAMES[grid.side[square]], "block": grid.block[square],
                                "star": book.blocks[grid.block[square]].face(grid.side[square])[0] == STAR})
        last = [move_json(move) for move in table.moves[self._last_customer_move():]]
        return {
            "step": self.step,
            "rows": grid.rows,
            "cols": grid.cols,
            "centre": list(grid.centre),
            # the rules a table needs to show a play's words and points before it is sent
            "doubling": book.doubling,
            "rack_size": book.rack_size,
            "first_word_min": book.first_word_min,
            "grid": squares,
            "rack": [{"block": block, **block_json(book.blocks[block])} for block in table.racks[CUSTOMER]],
            "turn": table.turn,
            "last_moves": last,
            "scores": list(table.scores),
            "bag": len(table.bag),
            "opponent_blocks": [len(rack) for rack in table.racks[1:]],
            "end_adjustments": list(table.end_adjustments) if table.finished else None,
            "result": self.result if self.finished else None,
        }

    def _last_customer_move(self) -> int:
        """The index of the customer's latest move (the moves since then are the ones to show)."""
        indices = [i for i, move in enumerate(self.table.moves) if move.seat == CUSTOMER]
        return indices[-1] if indices else 0

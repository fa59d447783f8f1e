"""The board games' refusals reach the player unchanged (the cabinet's screen, the game server's 422),
so they are in the player's words (issues 28 and 31): no seat numbers, the seats YOU and MACHINE, no
block or tile ids, no snake_case, and squares counted from 1 ("row 8, column 5", as the browser
tables name them). Each refusal is driven through the game's own decisions (or, where only a machine
seat can reach it, its table), and nothing moves."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from egm.config import PROJECT_ROOT as ROOT
from egm.games import descriptor_of, descriptors
from egm.games.base import Decision, DecisionRefused
from egm.games.poker_tiles.game import PokerTiles, PokerTilesRound
from egm.games.poker_tiles.table import IllegalMove, Table
from egm.games.prism_words.board import IllegalPlay, Placement
from egm.games.prism_words.game import PrismWords, PrismWordsRound
from egm.games.property.game import PropertyGame, PropertyRound
from egm.games.property.paytable import PropertyRules, example_rules
from egm.rng import Rng
from egm.rom import load_paytable
from tests.prism_support import example_paytable
from tests.property_support import shipped_paytable
from tests.tiles_support import LAYOUT, code, paytable, put, stacked_pool, tiles

DEVELOPER_WORDS = {
    "a seat number": re.compile(r"\bseat \d", re.IGNORECASE),
    "a 0-based (row, col)": re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)"),
    "snake_case": re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b"),
    "a block or tile id": re.compile(r"\b(block|tile)s? \d", re.IGNORECASE),
}


def assert_player_words(sentence: str, square: tuple[int, int] | None = None) -> None:
    """`sentence` is a full sentence in the player's words; `square` (0-based row, col), when given,
    is named as the player counts it."""
    for what, pattern in DEVELOPER_WORDS.items():
        assert not pattern.search(sentence), f"{what} in {sentence!r}"
    assert not sentence[0].islower() and sentence.endswith("."), sentence
    if square is not None:
        row, col = square
        assert f"row {row + 1}, column {col + 1}" in sentence, sentence


def refusal(state: Callable[[], Any], act: Callable[[], Any], error: type[Exception]) -> str:
    """The sentence `act` is refused with; `state` (a JSON-able snapshot) is the same after."""
    before = json.dumps(state(), sort_keys=True, default=str)
    with pytest.raises(error) as info:
        act()
    assert json.dumps(state(), sort_keys=True, default=str) == before
    return str(info.value)


# --- Poker Tiles -----------------------------------------------------------------------------------
def tiles_round() -> PokerTilesRound:
    game = PokerTiles(paytable())
    table = Table(LAYOUT, 2, stacked_pool("9c 9d 9s JK 4c", "3c 8d Ks 6h Jc"), 10)
    return PokerTilesRound(game, game.default_wager(1), table)


def tiles_refusal(round_: PokerTilesRound, kind: str, **args: Any) -> str:
    return refusal(round_.to_record, lambda: round_.decide(Decision(kind, args)), DecisionRefused)


def tile(row: int, col: int, card: str, **more: str) -> dict[str, Any]:
    return {"row": row, "col": col, "card": card, **more}


def test_poker_tiles_refusals_on_the_first_turn() -> None:
    round_ = tiles_round()
    sentence = tiles_refusal(round_, "play", tiles=[tile(6, 66, "9c")])
    assert sentence == "The square at row 7, column 67 is off the 13 x 13 board."
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(6, 6, "Kd"), tile(6, 7, "9c")]))
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(6, 6, "9c"), tile(6, 7, "9c")]))
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(6, 6, "JK"), tile(6, 7, "9d")]), (6, 6))
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(6, 6, "9c", **{"as": "9h"})]), (6, 6))
    sentence = tiles_refusal(round_, "play", tiles=[tile(6, 4, "9c"), tile(6, 5, "9d")])
    assert "STARTING ZONE centre" in sentence
    assert_player_words(sentence, LAYOUT.row_col(LAYOUT.centre))
    sentence = tiles_refusal(round_, "pass", seat=1)
    assert sentence == "You decide for YOU only; MACHINE plays its own turns."


def test_poker_tiles_refusals_on_a_board_in_play() -> None:
    round_ = tiles_round()
    table = round_.table
    put(table, "6 6 9h", "6 7 9s")
    joker = LAYOUT.square(6, 8)
    table.face[joker], table.joker[joker] = code("9c"), 1
    assert "Kd is not in your rack" in tiles_refusal(round_, "play", tiles=[tile(5, 6, "Kd")])
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(5, 6, "Kd")]))
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(6, 6, "9c")]), (6, 6))
    assert_player_words(tiles_refusal(round_, "play", tiles=[tile(4, 6, "9c"), tile(7, 6, "9d")]), (5, 6))
    assert_player_words(tiles_refusal(round_, "swap_joker", row=6, col=6, card="9c"), (6, 6))
    sentence = tiles_refusal(round_, "swap_joker", row=6, col=8, card="9d")
    assert sentence.startswith("The joker at row 7, column 9 stands for")
    assert_player_words(sentence, (6, 8))


def test_poker_tiles_refuses_a_move_out_of_turn_naming_whose_turn_it_is() -> None:
    table = Table(LAYOUT, 3, stacked_pool("9c 9d 2s 7h 4c", "3c 8d Ks 6h Jc", "3d 8h Kc 6s Jd"), 10)
    table.play(0, tiles("6 6 9c", "6 7 9d"))
    sentence = refusal(lambda: table.to_record(), lambda: table.pass_turn(0), IllegalMove)
    assert sentence == "It is machine 1's turn; wait for your turn."
    sentence = refusal(lambda: table.to_record(), lambda: table.play(1, tiles("5 6 Kd")), IllegalMove)
    assert sentence == "Kd is not in machine 1's rack; play tiles from your rack."


# --- Prism Words -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def prism() -> PrismWords:
    return PrismWords(example_paytable())


def prism_round(game: PrismWords, customer_first: bool) -> PrismWordsRound:
    for seed in range(50):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        if (round_.table.starter == 0) == customer_first:
            return round_
    raise AssertionError("no seed gives that starter")


def prism_refusal(round_: PrismWordsRound, decision: Decision) -> str:
    return refusal(round_.to_record, lambda: round_.decide(decision), DecisionRefused)


def place(row: int, col: int, block: int, face: str = "left", letter: str | None = None) -> dict:
    item: dict = {"row": row, "col": col, "block": block, "face": face}
    if letter is not None:
        item["letter"] = letter
    return item


def play(*placements: dict) -> Decision:
    return Decision("play", {"placements": list(placements)})


def test_prism_words_refusals_name_squares_blocks_and_seats_in_player_words(prism: PrismWords) -> None:
    round_ = prism_round(prism, customer_first=False)  # the machine's word is on the grid
    table, blocks = round_.table, prism.book.blocks
    rack = table.racks[0]
    plain = [b for b in rack if not blocks[b].has_star]
    filled = next((r, c) for r in range(table.grid.rows) for c in range(table.grid.cols)
                  if table.grid.filled(r, c))
    sentence = prism_refusal(round_, play(place(15, 3, plain[0])))
    assert sentence == "The square at row 16, column 4 is off the 15 x 15 grid."
    assert_player_words(prism_refusal(round_, play(place(*filled, plain[0]))), filled)
    assert_player_words(prism_refusal(round_, play(place(3, 3, plain[0]), place(3, 3, plain[1]))), (3, 3))
    stranger = next(b for b in range(len(blocks)) if b not in rack and not blocks[b].has_star)
    sentence = prism_refusal(round_, play(place(3, 3, stranger)))
    assert sentence.endswith("block is not in your rack; play blocks from the rack.")
    assert_player_words(sentence)
    assert_player_words(prism_refusal(round_, play(place(3, 3, len(blocks)))))
    star = next(b for b in range(len(blocks)) if blocks[b].has_star)
    side = "right" if blocks[star].right == 26 else "left"
    assert_player_words(prism_refusal(round_, play(place(3, 3, star, side))))
    wrong = "Q" if blocks[plain[0]].left != 16 else "Z"
    assert_player_words(prism_refusal(round_, play(place(3, 3, plain[0], "left", wrong))))
    assert_player_words(prism_refusal(round_, play(place(3, 3, plain[0], "back"))))
    sentence = prism_refusal(round_, Decision("pass", {"seat": 1}))
    assert sentence == "You decide for YOU only; MACHINE plays its own turns."


def test_prism_words_table_refusals_only_a_machine_seat_reaches(prism: PrismWords) -> None:
    table = prism_round(prism, customer_first=True).table
    block = table.racks[1][0]
    assert_player_words(refusal(table.to_record, lambda: table.play(1, [Placement(7, 7, block, 0, 0)]),
                                IllegalPlay))
    mine = table.racks[0][0]
    assert_player_words(refusal(table.to_record, lambda: table.play(0, [Placement(7, 7, mine, 2, 0)]),
                                IllegalPlay))


# --- Property --------------------------------------------------------------------------------------
ORIENTAL, BOARDWALK = 6, 39


def property_at_turn() -> PropertyRound:
    game = PropertyGame(shipped_paytable(PropertyRules.model_validate(example_rules())))
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(3), {})
    while round_.awaiting != "turn":
        round_.decide(round_.reference_decision())
    return round_


def property_refusal(round_: PropertyRound, kind: str, **args: Any) -> str:
    def state() -> Any:
        return [round_.to_record(), round_.table_view(), round_.table.bank]

    return refusal(state, lambda: round_.decide(Decision(kind, args)), DecisionRefused)


def test_property_refusals_name_seats_and_board_money_in_player_words() -> None:
    round_ = property_at_turn()
    table = round_.table
    table.owner[ORIENTAL] = 0
    trade = {"give": [ORIENTAL], "get": []}
    sentence = property_refusal(round_, "trade", **{"with": 0, **trade, "cash": 0})
    assert sentence == "A trade is made with another player still in the game."
    sentence = property_refusal(round_, "trade", **{"with": 1, "give": [], "get": [BOARDWALK], "cash": 0})
    assert sentence == "Boardwalk is not the machine's title to trade."
    cash = table.seats[0].cash
    sentence = property_refusal(round_, "trade", **{"with": 1, **trade, "cash": cash + 1})
    assert sentence.startswith(f"You would owe board ${cash + 1:,} ") and \
        sentence.endswith(f"and have board ${cash:,}.")
    machine = table.seats[1].cash
    sentence = property_refusal(round_, "trade", **{"with": 1, **trade, "cash": -(machine + 1)})
    assert sentence.startswith(f"MACHINE would owe board ${machine + 1:,} ")
    for sentence in (property_refusal(round_, "roll", seat=1), property_refusal(round_, "roll", seat=7)):
        assert sentence.startswith("You decide for YOU only; ")
        assert_player_words(sentence)


# --- The one rule for every refusal ----------------------------------------------------------------
# A refusal is shown as written, by the cabinet (its red notice) and by the browser (the table's status
# line), so it is written once in sentence case: a capital first letter (or a quoted value the player
# gave), a full stop at the end, and never a sentence in capitals (a control's name, PLAY or HOUSE WAY,
# may stand in capitals inside it).
# the refusal calls, each with the index of its sentence argument (the cabinet's `_refuse(event, reason)`)
REFUSALS = {"DecisionRefused": 0, "Refused": 0, "WagerRefused": 0, "IllegalMove": 0, "IllegalPlay": 0,
            "IllegalPlacement": 0, "_refuse": 1}
SOURCES = ("egm/games", "egm/play", "egm/cabinet")
DECISION_KINDS = ("place", "play", "pass", "exchange", "swap_joker", "designate", "set", "house_way", "roll",
                  "jail", "buy", "bid", "build", "sell_building", "mortgage", "unmortgage", "trade", "auto")
NONSENSE = {"row": "x", "col": -1, "card": 7, "tiles": "x", "placements": 3, "space": 99, "seat": 1,
            "front": "x", "hands": 2, "amount": "x", "give": 4, "with": 9, "block": "x", "face": "up"}


def refusal_problem(sentence: str) -> str | None:
    """Why `sentence` breaks the rule, or None."""
    letters = [c for c in sentence if c.isalpha()]
    if sentence[:1].islower():
        return "starts in lower case"
    if not sentence.endswith((".", "?", "!")):
        return "has no full stop"
    if sum(c.isupper() for c in letters) > sum(c.islower() for c in letters):
        return "is in capitals"
    return None


def test_the_rule_tells_a_sentence_from_a_fragment_and_a_shout() -> None:
    assert refusal_problem("The square at row 4, column 7 holds a tile; choose an empty square.") is None
    assert refusal_problem("'xx' is not a card: write rank then suit.") is None
    assert refusal_problem("the game is over.") == "starts in lower case"
    assert refusal_problem("The game is over") == "has no full stop"
    assert refusal_problem("WAITING FOR THE GAME SERVER: it has not answered yet.") == "is in capitals"


def literal_refusals() -> list[tuple[str, str, str]]:
    """(where, first piece, last piece) of every refusal whose sentence is written in the source: the
    constant text at its start and its end ("" where a value stands there)."""
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = getattr(node, "func", None)
                name = getattr(name, "id", getattr(name, "attr", None))
                if not isinstance(node, ast.Call) or name not in REFUSALS or len(node.args) <= REFUSALS[name]:
                    continue
                arg = node.args[REFUSALS[name]]
                parts = [arg] if isinstance(arg, ast.Constant) else getattr(arg, "values", None)
                if not parts:
                    continue
                text = [p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else ""
                        for p in (parts[0], parts[-1])]
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", *text))
    return found


def test_every_refusal_written_in_the_games_and_the_cabinets_source_is_a_sentence() -> None:
    found = literal_refusals()
    assert len(found) > 120  # every game's and the cabinet's refusals are read, not an empty walk
    assert any(where.startswith("egm/cabinet/") for where, _, _ in found)
    broken = [(where, first, last) for where, first, last in found
              if first[:1].islower() or (last and not last.endswith((".", "?", "!")))]
    assert broken == []


@pytest.mark.parametrize("game_id", list(descriptors()))
def test_every_games_refusals_of_nonsense_are_sentences(game_id: str) -> None:
    """Each game refuses decisions it does not take, and arguments that are no arguments, in
    sentences that keep the rule (the wrapped refusals of its engine and of the card parser too)."""
    paytable = load_paytable(ROOT / "paytables" / f"{game_id}.toml")
    game = descriptor_of(game_id).game.load()(paytable)
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(7), {})
    sentences = set()
    for kind in DECISION_KINDS:
        for args in ({}, NONSENSE, {key: [value] for key, value in NONSENSE.items()}):
            try:
                round_.decide(Decision(kind, args))
            except DecisionRefused as refused:
                sentences.add(str(refused))
            else:  # taken: a fresh round for the next nonsense
                round_ = game.new_round(game.default_wager(1), Rng.from_seed(7), {})
    assert len(sentences) >= 3, sentences
    assert {s: refusal_problem(s) for s in sentences if refusal_problem(s)} == {}

"""Poker Tiles' table in a real browser, at 390x844 (touch, where the 13 x 13 board's squares are
~28 px and the lens gives 44 px targets) and 1440x900: a play the rules refuse comes back to the rack
with the game's sentence and moves nothing; a play made by hand (its first tile by a drag, a finger on
the phone and the mouse on the desktop, the others by tap-then-tap) lands as the server records it; an
exchange and a pass by hand; a reload mid-round shows the same board; AUTO PLAY finishes the round, and
the end says what was paid and why, in money, matching the session's balance and the history."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from egm.cards import Card
from egm.games.poker_tiles.board import Layout
from egm.games.poker_tiles.engine import EMPTY, JOKER
from egm.games.poker_tiles.paytable import PokerTilesRules
from egm.games.poker_tiles.table import legal_plays, tile_text
from tests.test_web_poker_grid import (
    arrivals,
    assert_no_sideways_scroll,
    card_text,
    start_round,
    table_of,
    tap_square,
    wait_ready,
    watch_arrivals,
)
from tests.test_web_shell import finish_by_auto
from tests.web_support import drag, end_shown, new_player, round_paid, session_of

DEPOSIT = 2000
ROOT = Path(__file__).resolve().parent.parent
LAYOUT = Layout.from_rules(PokerTilesRules.model_validate(
    tomllib.loads((ROOT / "paytables" / "poker-tiles.toml").read_text())["game"]))


def square(page: Any, row: int, col: int, holds: str | None = None) -> Any:
    """A square by its name: "row 7, column 5: K♣" holding a tile played ("joker as K♣" for a joker);
    holds None: whatever it shows."""
    name = re.escape(f"row {row + 1}, column {col + 1}")
    pattern = f"^{name}(: .*)?$" if holds is None else f"^{name}: {re.escape(holds)}$"
    return page.get_by_role("group", name="Board").get_by_role("button", name=re.compile(pattern))


def rack(page: Any) -> Any:
    return page.get_by_role("group", name="Your rack").get_by_role("button")


def a_play(table: dict[str, Any]) -> list[tuple[int, int, str, str]] | None:
    """A legal play of the rack on the board shown, as (row, col, tile, plays as): the most tiles,
    natural tiles before jokers (the engine's own move generator, on the view's board)."""
    face = np.full(LAYOUT.size, EMPTY, dtype=np.int64)
    for r, line in enumerate(table["board"]):
        for c, held in enumerate(line):
            if held:
                face[r * LAYOUT.cols + c] = Card.parse(held["card"]).index
    codes = [JOKER if t == "JK" else Card.parse(t).index for t in table["rack"]]
    plays = legal_plays(LAYOUT, face, codes)
    if not len(plays):
        return None
    best = max(range(len(plays)), key=lambda i: (JOKER not in plays.codes[i, : plays.counts[i]],
                                                  int(plays.counts[i]), -i))
    return [(*LAYOUT.row_col(t.square), tile_text(t.code), tile_text(t.face)) for t in plays.tiles(best)]


def put(page: Any, size: str, tile: str, row: int, col: int, by_drag: bool) -> None:
    """One tile from the rack onto a square: by a drag, or by a tap on the tile and then on the square
    (on the phone, where the squares are ~28 px, through the lens)."""
    piece = rack(page).filter(has=page.locator(f"[data-card='{tile}']")).first
    if by_drag:
        drag(page, size, piece, square(page, row, col))
        return
    if size == "phone":  # 13 squares across 390 px: the lens is what makes them touchable
        assert square(page, row, col).bounding_box()["width"] < 44
    piece.tap() if size == "phone" else piece.click()
    assert piece.get_attribute("aria-pressed") == "true"
    tap_square(page, size, row, col, square(page, row, col))


def declare(page: Any, card: str) -> None:
    panel = page.get_by_role("group", name="Declare the joker")
    panel.get_by_label("Rank").select_option(card[0])
    panel.get_by_label("Suit").select_option(card[1])
    panel.get_by_role("button", name="DECLARE").click()


def assert_touch_targets(page: Any) -> None:
    controls = [*rack(page).all(), page.get_by_role("button", name="AUTO PLAY"),
                *page.get_by_role("button", name=re.compile("^(PLAY TILES|TAKE BACK|PASS|EXCHANGE)$")).all()]
    for control in controls:
        if control.is_visible():
            box = control.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (control, box)


def far_square(table: dict[str, Any]) -> tuple[int, int]:
    """An empty square next to no tile, outside the starting area: no play may start there."""
    board, start = table["board"], [tuple(s) for s in table["start"]]
    for r in range(table["rows"]):
        for c in range(table["cols"]):
            near = [board[y][x] for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    if 0 <= y < table["rows"] and 0 <= x < table["cols"]]
            if not board[r][c] and not any(near) and (r, c) not in start:
                return r, c
    raise AssertionError("the board has no free corner")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_of_poker_tiles_by_hand_then_auto(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    start_round(page, web_server, "poker-tiles")
    rack(page).first.wait_for(timeout=180_000)  # a fresh server may still compile the engine
    table = table_of(page)
    balance = session_of(page)["balance_cents"]

    # A play the rules refuse: one tile far from every tile. It comes back with the game's sentence.
    row, col = far_square(table)
    natural = next(k for k, tile in enumerate(table["rack"]) if tile != "JK")  # a joker asks for its card
    drag(page, size, rack(page).nth(natural), square(page, row, col))
    square(page, row, col, f"{card_text(table['rack'][natural])}, placed this turn").wait_for()
    assert rack(page).count() == 4
    page.get_by_role("button", name="PLAY TILES").click()
    said = page.locator("#say")
    sentence = "A play must build on the board: place tiles next to a tile already played."
    if table["first_play"]:
        sentence = "The first play must be a hand of 2 to 5 tiles inside the starting area."
    said.filter(has_text=sentence).wait_for()
    assert said.text_content() == sentence
    page.wait_for_function("() => document.querySelectorAll('.pb-piece').length === 5")
    square(page, row, col).wait_for()
    assert "placed this turn" not in (square(page, row, col).get_attribute("aria-label") or "")
    assert table_of(page)["board"] == table["board"] and session_of(page)["balance_cents"] == balance

    # Plays by hand until one tile has gone down by a drag and one by tap-then-tap.
    dragged = tapped = False
    turns: list[Any] = []  # what each turn was, for the failure's message
    for _ in range(8):
        table = table_of(page)
        play = a_play(table)
        turns.append(play or table["rack"])
        if play is None:
            page.get_by_role("button", name="AUTO PLAY").click()
            wait_ready(page)
            continue
        for k, (r, c, tile, face) in enumerate(play):
            by_drag = k == 0 and not dragged
            put(page, size, tile, r, c, by_drag)
            if tile == "JK":
                declare(page, face)
            words = f"joker as {card_text(face)}" if tile == "JK" else card_text(tile)
            square(page, r, c, f"{words}, placed this turn").wait_for()
            dragged, tapped = dragged or by_drag, tapped or not by_drag
        if size == "phone":
            assert_touch_targets(page)
        watch_arrivals(page)
        page.get_by_role("button", name="PLAY TILES").click()
        for r, c, tile, face in play:
            square(page, r, c, f"joker as {card_text(face)}" if tile == "JK" else card_text(tile)).wait_for()
        wait_ready(page)
        played = table_of(page)
        # The machine's reply is shown as a move: its tiles arrive one by one, in the order it laid them.
        laid = [[t["row"], t["col"]] for m in played["last_moves"] if m["seat"] != 0 and m["kind"] == "play"
                for t in m["tiles"]]
        if laid:
            assert arrivals(page, len(laid)) == laid
        assert [move for move in played["last_moves"] if move["seat"] == 0][0]["tiles"] == [
            {"row": r, "col": c, "card": tile, "as": face} for r, c, tile, face in sorted(play)]
        assert page.get_by_role("list", name="Latest moves").get_by_role("listitem").first.text_content() \
            .startswith("YOU played ")
        if dragged and tapped:
            break
    assert dragged and tapped, turns
    assert_no_sideways_scroll(page)

    pictures = os.environ.get("EGM_DOCS_IMG")
    if pictures:
        page.wait_for_function("() => !document.querySelector('.pb-sq.arrived')")  # the machine's move shown
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(Path(pictures) / f"web-poker-tiles-{size}.png"))

    # An exchange by hand: the first tile of the rack goes back to the pool.
    given = table_of(page)["rack"][0]
    page.get_by_role("button", name="EXCHANGE", exact=True).click()
    page.get_by_role("checkbox", name=f"Exchange {card_text(given)}").first.check()
    page.get_by_role("button", name="EXCHANGE THESE").click()
    page.get_by_role("list", name="Latest moves").get_by_text(f"YOU exchanged {card_text(given)}").wait_for()
    wait_ready(page)
    assert table_of(page)["last_moves"][0] == {**table_of(page)["last_moves"][0], "kind": "exchange",
                                                "tiles": [given]}

    # A pass by hand.
    page.get_by_role("button", name="PASS", exact=True).click()
    page.get_by_role("list", name="Latest moves").get_by_text("YOU passed").wait_for()
    wait_ready(page)
    assert table_of(page)["last_moves"][0]["kind"] == "pass"

    # Reload mid-round: the same board and rack.
    before = table_of(page)
    page.reload()
    rack(page).first.wait_for()
    for r, line in enumerate(before["board"]):
        for c, held in enumerate(line):
            if held:
                words = f"joker as {card_text(held['card'])}" if held["joker"] else card_text(held["card"])
                square(page, r, c, words).wait_for()
    assert [b.get_attribute("aria-label") for b in rack(page).all()] == [
        f"Tile {card_text(t)}" for t in before["rack"]]

    finish_by_auto(page)
    session, played = round_paid(page, "poker-tiles", DEPOSIT)

    end, view, pays, unit_cents = end_shown(page, played)
    assert pays == [f"{words}: {units} × your bet = ${units * unit_cents / 100:,.2f}"
                    for words, units in view["table"]["pays"]]
    assert "Tiles left in the racks: YOU " in (end.text_content() or "")
    assert_no_sideways_scroll(page)

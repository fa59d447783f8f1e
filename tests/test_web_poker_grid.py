"""Poker Grid's table in a real browser, at 390x844 (touch) and 1440x900: a card dropped on a square
that is not next to a card snaps back with the game's sentence and moves nothing; a card placed by a
drag (a finger on the phone, the mouse on the desktop) and one by tap-then-tap land where they were
put; a reload mid-round shows the same board; AUTO PLAY finishes the round, and the end says what was
paid and why, in money, matching the session's balance and the history."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_shell import finish_by_auto
from tests.web_support import drag, end_shown, new_player, round_paid, session_of

DEPOSIT = 1000
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(code: str) -> str:
    if code == "JK":
        return "JOKER"
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def table_of(page: Any) -> dict[str, Any]:
    table: dict[str, Any] = session_of(page)["open_round"]["view"]["table"]
    return table


def square(page: Any, row: int, col: int, holds: str = "") -> Any:
    """A square of the board by its name: "row 4, column 3" when empty, "row 4, column 3: K♣" (and
    ", scored 2 points" when the card scored) when it holds a card."""
    name = f"row {row + 1}, column {col + 1}"
    pattern = f"^{re.escape(name)}: {re.escape(holds)}(, scored .*)?$" if holds else f"^{re.escape(name)}$"
    return page.get_by_role("group", name="Board").get_by_role("button", name=re.compile(pattern))


def hand_cards(page: Any) -> Any:
    return page.get_by_role("group", name="Your hand").get_by_role("button")


def start_round(page: Any, server: Any, game_id: str) -> None:
    """The game's table, once the shell has booted (its PLAY is the wager form's until then), and PLAY."""
    page.goto(f"{server.base}/play/{game_id}")
    page.wait_for_function("() => document.querySelector('#auto').textContent")
    page.get_by_role("button", name="PLAY", exact=True).click()


WATCH_ARRIVALS = """() => {
  window.arrivals = [];
  new MutationObserver((changes) => {
    for (const {target} of changes) {  // a square once, when it first shows as arrived
      const square = [Number(target.dataset.row), Number(target.dataset.col)];
      const seen = window.arrivals.some((s) => String(s) === String(square));
      if (target.classList.contains("arrived") && !seen) {
        window.arrivals.push(square);
      }
    }
  }).observe(document.querySelector(".pb-grid"),
             {subtree: true, attributes: true, attributeFilter: ["class"]});
}"""


def watch_arrivals(page: Any) -> None:
    """Record each square the machine's move is shown arriving on, in order (board.js's reveal)."""
    page.evaluate(WATCH_ARRIVALS)


def arrivals(page: Any, count: int) -> list[list[int]]:
    page.wait_for_function(f"() => window.arrivals.length >= {count}")
    page.wait_for_function("() => !document.querySelector('.pb-sq.arrived')")  # settled
    shown: list[list[int]] = page.evaluate("window.arrivals")
    return shown


def wait_ready(page: Any) -> None:
    """The table waits for the player: the decision's request has come back."""
    page.wait_for_function("() => !document.querySelector('#auto').disabled")


def assert_no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def assert_touch_targets(page: Any) -> None:
    """The hand and AUTO PLAY are 44 px or more; so are the board's squares, or a tap opens the lens."""
    for control in [*hand_cards(page).all(), page.get_by_role("button", name="AUTO PLAY")]:
        box = control.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (control, box)


def tap_square(page: Any, size: str, row: int, col: int, target: Any) -> None:
    """A piece chosen, press the square `target` (tap on the phone, click on the desktop). Where the
    board's squares are under 44 px the press opens the lens: its squares are 44 px or more, and the
    lens's square is the one pressed."""
    small = target.bounding_box()["width"] < 44
    target.tap() if size == "phone" else target.click()
    lens = page.get_by_role("group", name="Lens")
    assert lens.is_visible() == small
    if small:
        for square in lens.get_by_role("button").all():
            box = square.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        place = lens.get_by_role("button", name=f"Place at row {row + 1}, column {col + 1}", exact=True)
        place.tap() if size == "phone" else place.click()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_of_poker_grid_by_drag_tap_and_auto(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    start_round(page, web_server, "poker-grid")
    hand_cards(page).first.wait_for(timeout=180_000)  # a fresh server may still compile the engine
    assert hand_cards(page).count() == 5
    table = table_of(page)
    balance = session_of(page)["balance_cents"]

    # A drop on a square that holds a card is refused here, without a request: it snaps back.
    starter = next((r, c) for r in range(table["rows"]) for c in range(table["cols"])
                   if table["board"][r][c] not in ("", "W"))
    held = card_text(table["board"][starter[0]][starter[1]])
    drag(page, size, hand_cards(page).first, square(page, *starter, held))
    said = page.locator("#say")
    said.filter(has_text="already holds a card").wait_for()
    where = f"row {starter[0] + 1}, column {starter[1] + 1}"
    assert said.text_content() == f"The square at {where} already holds a card; choose a lit square."
    page.wait_for_function("() => !document.querySelector('.pb-piece.lifted')")
    assert hand_cards(page).count() == 5 and table_of(page)["board"] == table["board"]

    # An illegal drop: a square next to no card. It snaps back, the game's sentence is shown, nothing moves.
    row, col = next((r, c) for r in range(table["rows"]) for c in range(table["cols"])
                    if table["board"][r][c] == "" and [r, c] not in table["legal"])
    drag(page, size, hand_cards(page).first, square(page, row, col))
    said.filter(has_text="is not next to a card on the board").wait_for()
    assert said.text_content() == (f"The square at row {row + 1}, column {col + 1} is not next to a card on "
                                   "the board; place the card side by side or end to end with a card already "
                                   "played (not diagonally).")
    square(page, row, col).wait_for()  # empty again
    page.wait_for_function("() => !document.querySelector('.pb-piece.lifted')")
    assert hand_cards(page).count() == 5
    assert table_of(page)["board"] == table["board"] and session_of(page)["balance_cents"] == balance

    # A move by drag onto a lit square.
    card = table["hand"][0]
    row, col = table["legal"][0]
    assert "legal" in (square(page, row, col).get_attribute("class") or "")
    watch_arrivals(page)
    drag(page, size, hand_cards(page).first, square(page, row, col))
    square(page, row, col, card_text(card)).wait_for()
    wait_ready(page)
    after_drag = table_of(page)
    assert after_drag["board"][row][col] == card
    assert after_drag["last_plays"][0]["card"] == card and after_drag["last_plays"][0]["seat"] == 0
    # The machine's reply is shown as a move: its card arrives on its square (outlined, then settled).
    machine_moves = [[m["row"], m["col"]] for m in after_drag["last_plays"] if m["seat"] != 0]
    assert machine_moves and arrivals(page, len(machine_moves)) == machine_moves
    assert_no_sideways_scroll(page)
    assert_touch_targets(page)

    # A move by tap-then-tap: the card, then the square.
    card = after_drag["hand"][2]
    row, col = after_drag["legal"][-1]
    chosen = hand_cards(page).nth(2)
    chosen.tap() if size == "phone" else chosen.click()
    assert chosen.get_attribute("aria-pressed") == "true"
    tap_square(page, size, row, col, square(page, row, col))
    square(page, row, col, card_text(card)).wait_for()
    wait_ready(page)
    assert table_of(page)["board"][row][col] == card

    # The machine's latest card is on the board where the view says, and named in the latest plays.
    machine = next(move for move in table_of(page)["last_plays"] if move["seat"] == 1)
    square(page, machine["row"], machine["col"], card_text(machine["card"])).wait_for()
    plays = page.get_by_role("list", name="Latest plays").text_content() or ""
    assert f"MACHINE: {card_text(machine['card'])} at row {machine['row'] + 1}" in plays

    pictures = os.environ.get("EGM_DOCS_IMG")
    if pictures:
        page.wait_for_function("() => !document.querySelector('.pb-sq.arrived')")  # the machine's move shown
        page.screenshot(path=str(Path(pictures) / f"web-poker-grid-{size}.png"))

    # Reload mid-round: the same board and hand.
    before = table_of(page)
    page.reload()
    hand_cards(page).first.wait_for()
    for r, line in enumerate(before["board"]):
        for c, held in enumerate(line):
            if held and held != "W":
                square(page, r, c, card_text(held)).wait_for()
    assert [b.get_attribute("aria-label") for b in hand_cards(page).all()] == [
        f"Card {card_text(code)}" for code in before["hand"]]

    finish_by_auto(page)
    session, played = round_paid(page, "poker-grid", DEPOSIT)

    # The end: the result, each pay in money (units x the bet at the coin played), the total paid.
    _, view, pays, unit_cents = end_shown(page, played)
    assert pays == [f"{words}: {units} × your bet = ${units * unit_cents / 100:,.2f}"
                    for words, units in view["table"]["pays"]]
    assert pays[0].startswith("Margin ")
    assert_no_sideways_scroll(page)


def test_reduced_motion_shows_the_machines_move_at_once(browser: Any, web_server: Any) -> None:
    page, _ = new_player(browser, web_server, "desktop", deposit_cents=DEPOSIT)
    page.emulate_media(reduced_motion="reduce")
    start_round(page, web_server, "poker-grid")
    hand_cards(page).first.wait_for(timeout=180_000)
    table = table_of(page)
    row, col = table["legal"][0]
    watch_arrivals(page)
    hand_cards(page).first.click()
    square(page, row, col).click()
    square(page, row, col, card_text(table["hand"][0])).wait_for()
    wait_ready(page)
    machine = next(move for move in table_of(page)["last_plays"] if move["seat"] == 1)
    assert square(page, machine["row"], machine["col"], card_text(machine["card"])).is_visible()
    assert page.evaluate("window.arrivals") == []  # a reveal marks its first square at once: none ran

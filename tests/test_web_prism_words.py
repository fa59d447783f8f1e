"""Prism Words' table in a real browser, at 390x844 (touch) and 1440x900: a face dropped where no play
can reach snaps back with the rule's sentence; a play by drag (a finger on the phone, the mouse on
the desktop) and one by tap-then-tap (through the lens on the phone) show their words and points
before PLAY and land where they were put; a play the lexicon refuses comes back with the game's
sentence and moves nothing; the machine's play is on the grid and in the latest moves; a reload
mid-round shows the same grid and rack; EXCHANGE and PASS by hand; BEST WORD finishes the round, and
the end says what was paid and why, in money, matching the session's balance and the history.

The plays the test makes are found by the game's own move generator on the grid and rack the view
shows (nothing hidden is read)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from egm.games.prism_words.blocks import FACE_NAMES, LETTERS, STAR
from egm.games.prism_words.board import IllegalPlay, Placement, ScoredPlay
from egm.games.prism_words.game import PrismWords
from egm.games.prism_words.strategy import legal_plays
from egm.games.prism_words.table import Table
from egm.rng import Rng
from tests.prism_support import book, example_paytable, shipped_blocks
from tests.web_support import DESKTOP, drag, end_shown, new_player, round_paid, session_of

DEPOSIT = 1000
CENTRE = (7, 7)


def table_of(page: Any) -> dict[str, Any]:
    table: dict[str, Any] = session_of(page)["open_round"]["view"]["table"]
    return table


def position(view: dict[str, Any]) -> Table:
    """The customer's position as the view shows it: the grid and the rack (the bag's order is
    irrelevant to what can be played, so it is not needed)."""
    table = Table(book(), 2, 0, list(range(96)), bag_seed=1)
    for sq in view["grid"]:
        table.grid.put(Placement(sq["row"], sq["col"], sq["block"], FACE_NAMES.index(sq["face"]),
                                 LETTERS.index(sq["letter"])), sq["value"])
    table.racks[0] = [item["block"] for item in view["rack"]]
    table.bag = [b for b in range(96) if b not in table.racks[0]][: view["bag"]]
    return table


def a_play(view: dict[str, Any], blocks: int) -> ScoredPlay:
    """A legal play of about `blocks` blocks, no star face (so no letter is asked)."""
    table = position(view)
    plays = legal_plays(table, table.racks[0])
    rack = {item["block"]: item for item in view["rack"]}
    options = []
    for index in range(plays.count):
        placements = plays.placements(index)
        if all(rack[p.block][FACE_NAMES[p.side]] != "*" for p in placements):
            options.append((abs(len(placements) - blocks), -plays.points(index), placements))
    assert options, "the rack has no play without a star"
    _, _, placements = min(options, key=lambda option: option[:2])
    return table.score(0, placements)


def not_a_word(view: dict[str, Any]) -> tuple[Placement, str]:
    """One block next to the grid that spells no listed word, and the game's sentence for it."""
    table = position(view)
    filled = {(sq["row"], sq["col"]) for sq in view["grid"]}
    for row, col in sorted(filled):
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            square = (row + dr, col + dc)
            if square in filled or not all(0 <= v < 15 for v in square):
                continue
            for item in view["rack"]:
                face = item["left"]
                if face == "*":
                    continue
                placement = Placement(*square, item["block"], 0, LETTERS.index(face[0]))
                try:
                    table.score(0, [placement])
                except IllegalPlay as refused:
                    if "lexicon" in str(refused):
                        return placement, str(refused)
    raise AssertionError("every block next to the grid spells a word")


def grid_square(page: Any, row: int, col: int, holds: str = "") -> Any:
    """A square of the grid by its accessible name: what it holds, or nothing (the centre pocket)."""
    holds = holds or ("centre pocket" if (row, col) == CENTRE else "")
    name = f"row {row + 1}, column {col + 1}" + (f": {holds}" if holds else "")
    return page.get_by_role("group", name="Grid").get_by_role("button", name=name, exact=True)


def rack_faces(page: Any) -> Any:
    return page.get_by_role("group", name="Your rack").get_by_role("button")


def said(face: str) -> str:
    return "star" if face == "*" else face


def face_button(page: Any, view: dict[str, Any], placement: Placement) -> Any:
    item = next(item for item in view["rack"] if item["block"] == placement.block)
    face = FACE_NAMES[placement.side]
    name = f"Block {said(item['left'])} {said(item['right'])}, {face} face {said(item[face])}"
    return page.get_by_role("group", name="Your rack").get_by_role("button", name=name, exact=True)


def shown(view: dict[str, Any], placement: Placement) -> str:
    """The square's accessible words once the block is played: its letter and numeral."""
    item = next(item for item in view["rack"] if item["block"] == placement.block)
    return item[FACE_NAMES[placement.side]]


def tap_then_tap(page: Any, size: str, piece: Any, row: int, col: int) -> None:
    """Tap a face, then the square; on the phone the squares are small, so the lens opens and the
    square is tapped there."""
    if size == "phone":
        piece.tap()
        expect(piece).to_have_attribute("aria-pressed", "true")
        grid_square(page, row, col).tap()
        lens = page.get_by_role("group", name="Lens")
        place = lens.get_by_role("button", name=f"Place at row {row + 1}, column {col + 1}", exact=True)
        for control in lens.get_by_role("button").all():
            box = control.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (control, box)
        place.tap()
    else:
        piece.click()
        expect(piece).to_have_attribute("aria-pressed", "true")
        grid_square(page, row, col).click()


def wait_ready(page: Any) -> None:
    """The table waits for the player: the decision's request has come back."""
    page.wait_for_function("() => !document.querySelector('#auto').disabled")


def preview_text(play: ScoredPlay) -> str:
    """What the table shows of a play before it is sent: each word's scoring phases, the total."""
    words = []
    for word in play.words:
        phases = f"{word.text} {word.basic}" + (" ×2" if word.doubled else "")
        phases += f" +{word.pattern_bonus}" if word.pattern_bonus else ""
        words.append(phases + (f" = {word.points}" if word.doubled or word.pattern_bonus else ""))
    bonus = f" · all six blocks +{play.rack_bonus}" if play.rack_bonus else ""
    return " · ".join(words) + bonus + f" = {points(play.points)}"


def make_play(page: Any, size: str, view: dict[str, Any], play: ScoredPlay, by: str) -> dict[str, Any]:
    """Stage the play's blocks by drag or by tap-then-tap, check the words and points shown, PLAY."""
    for placement in play.placements:
        piece = face_button(page, view, placement)
        # each square of a legal play is lit, whatever of the play is already staged
        target = page.get_by_role("group", name="Grid").locator(
            f'[data-row="{placement.row}"][data-col="{placement.col}"]')
        expect(target).to_have_class(re.compile(r"\blegal\b"))
        if by == "drag":
            drag(page, size, piece, grid_square(page, placement.row, placement.col))
        else:
            tap_then_tap(page, size, piece, placement.row, placement.col)
        page.locator(f'.pw-staged[data-row="{placement.row}"][data-col="{placement.col}"]').wait_for()
    assert page.get_by_label("Your play").text_content() == preview_text(play)
    watch_arrivals(page)
    page.get_by_role("group", name="Your move").get_by_role("button", name="PLAY").click()
    for placement in play.placements:
        grid_square(page, placement.row, placement.col, shown(view, placement)).wait_for()
    wait_ready(page)
    after = table_of(page)
    mine = after["last_moves"][0]
    assert mine["seat"] == 0 and mine["points"] == play.points
    assert [(p["row"], p["col"], p["block"]) for p in mine["placements"]] == [
        (p.row, p.col, p.block) for p in play.placements]
    return after


def assert_no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def assert_touch_targets(page: Any, size: str) -> None:
    controls = [*rack_faces(page).all(), page.get_by_role("button", name="BEST WORD"),
                *page.get_by_role("group", name="Your move").get_by_role("button").all()]
    if size == "desktop":  # on the phone the grid's squares are reached through the lens
        controls += page.get_by_role("group", name="Grid").get_by_role("button").all()
    for control in controls:
        box = control.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (control, box)


def machine_on_the_grid(page: Any, view: dict[str, Any]) -> None:
    machine = [move for move in view["last_moves"] if move["seat"] == 1]
    assert machine, "the machine has moved since the customer's play"
    for move in machine:
        for p in move.get("placements", []):
            square = next(sq for sq in view["grid"] if (sq["row"], sq["col"]) == (p["row"], p["col"]))
            holds = square["letter"] + (" (star)" if square["star"] else str(square["value"]))
            grid_square(page, p["row"], p["col"], holds).wait_for()
    moves = page.get_by_role("list", name="Latest moves").text_content() or ""
    assert "MACHINE" in moves
    # Shown as a move: its blocks arrived on the grid one after another, in the order played.
    page.wait_for_function("() => !document.querySelector('.pb-sq.hide, .pb-sq.arrived')")
    placed = [[p["row"], p["col"]] for move in machine for p in move.get("placements", [])]
    arrivals = page.evaluate("window.arrivals")
    assert arrivals == placed, (arrivals, placed)


def watch_arrivals(page: Any) -> None:
    """Record the squares the board marks as arriving (the machine's move), each once, in order."""
    page.evaluate("""() => {
        window.arrivals = [];
        new MutationObserver((changes) => {
          for (const change of changes) {
            const square = [Number(change.target.dataset.row), Number(change.target.dataset.col)];
            const seen = window.arrivals.some(([r, c]) => r === square[0] && c === square[1]);
            if (change.target.classList.contains("arrived") && !seen) window.arrivals.push(square);
          }
        }).observe(document.querySelector(".pb-grid"), {subtree: true, attributes: true,
                                                        attributeFilter: ["class"]});
      }""")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_of_prism_words_by_drag_tap_and_best_word(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/prism-words")
    # the table is mounted (its move buttons wait, hidden, for a round)
    page.get_by_role("group", name="Your move", include_hidden=True).wait_for(state="attached")
    page.get_by_role("button", name="PLAY").click()
    rack_faces(page).first.wait_for()
    view = table_of(page)
    assert rack_faces(page).count() == 12  # six blocks, two faces each
    balance = session_of(page)["balance_cents"]

    # An illegal drop: a corner no play can reach. It snaps back with the rule's sentence.
    corner = next((r, c) for r, c in ((0, 0), (14, 14), (0, 14), (14, 0))
                  if not any(abs(sq["row"] - r) + abs(sq["col"] - c) < 8 for sq in view["grid"]))
    first = rack_faces(page).first
    drag(page, size, first, grid_square(page, *corner))
    sentence = ("The first word must cover the centre pocket (the gold square) and spell at least 4 letters."
                if not view["grid"] else
                "The play is not connected to the blocks on the grid; join a word already there.")
    page.locator("#say").filter(has_text=sentence).wait_for()
    grid_square(page, *corner).wait_for()  # still empty, and not lit
    assert "legal" not in (grid_square(page, *corner).get_attribute("class") or "")
    page.wait_for_function("() => !document.querySelector('.pb-piece.lifted')")
    assert rack_faces(page).count() == 12 and not page.locator(".pw-staged").count()

    # A play by drag, its words and points shown before it is sent.
    view = make_play(page, size, view, a_play(view, 2), "drag")
    machine_on_the_grid(page, view)
    assert_no_sideways_scroll(page)
    assert_touch_targets(page, size)

    # A play the lexicon refuses: the game's sentence, the block back on the rack, nothing moved.
    placement, refused = not_a_word(view)
    balance = session_of(page)["balance_cents"]
    tap_then_tap(page, size, face_button(page, view, placement), placement.row, placement.col)
    page.get_by_role("group", name="Your move").get_by_role("button", name="PLAY").click()
    page.locator("#say").filter(has_text="is not in the lexicon").wait_for()
    assert refused.lower() in (page.locator("#say").text_content() or "").lower()
    grid_square(page, placement.row, placement.col).wait_for()  # empty again
    face_button(page, view, placement).wait_for()
    assert table_of(page)["grid"] == view["grid"] and session_of(page)["balance_cents"] == balance

    # A play by tap-then-tap.
    view = make_play(page, size, view, a_play(view, 1), "tap")
    machine_on_the_grid(page, view)

    pictures = os.environ.get("EGM_DOCS_IMG")
    if pictures:
        page.screenshot(path=str(Path(pictures) / f"web-prism-words-{size}.png"))

    # Reload mid-round: the same grid and rack.
    page.reload()
    rack_faces(page).first.wait_for()
    for sq in view["grid"]:
        holds = sq["letter"] + (" (star)" if sq["star"] else str(sq["value"]))
        grid_square(page, sq["row"], sq["col"], holds).wait_for()
    assert [b.get_attribute("aria-label") for b in rack_faces(page).all()] == [
        f"Block {said(item['left'])} {said(item['right'])}, {face} face {said(item[face])}"
        for item in view["rack"] for face in FACE_NAMES]

    # EXCHANGE and PASS by hand (the machine plays between them, so the game goes on).
    page.get_by_role("button", name="EXCHANGE").click()
    wait_ready(page)
    view = table_of(page)
    assert view["last_moves"][0]["kind"] == "exchange" and len(view["rack"]) == 6
    page.get_by_role("button", name="PASS").click()
    wait_ready(page)
    assert table_of(page)["last_moves"][0]["kind"] == "pass"

    finish_by_auto_word(page)
    session, played = round_paid(page, "prism-words", DEPOSIT)

    # The end: the result, the points, each pay in money (units x the bet at the coin played), the total.
    end, final, pays, unit_cents = end_shown(page, played)
    groups: dict[str, list[int]] = {}  # an award earned by several plays is one line
    for words, units in final["table"]["pays"]:
        groups.setdefault(words, []).append(units)
    assert pays == [f"{words}{f' ({len(each)} plays)' if len(each) > 1 else ''}: {sum(each)} × your bet "
                    f"= ${sum(each) * unit_cents / 100:,.2f}" for words, each in groups.items()]
    assert pays[0].startswith("Margin ")
    text = end.text_content() or ""
    you, machine = final["table"]["scores"]
    assert f"Final points: YOU {points(you)}, MACHINE {points(machine)}." in text
    assert_no_sideways_scroll(page)


def points(n: int) -> str:
    return f"{n} point" + ("" if abs(n) == 1 else "s")


def finish_by_auto_word(page: Any, presses: int = 100) -> None:
    """BEST WORD (the game's auto play, one turn a press) until the round is over."""
    for _ in range(presses):
        page.wait_for_function("""() => document.querySelector('#say').dataset.kind === 'result'
                                  || !document.querySelector('#auto').disabled""")
        if page.locator("#say").get_attribute("data-kind") == "result":
            return
        page.get_by_role("button", name="BEST WORD").click()
    raise AssertionError(f"the round did not end in {presses} presses of BEST WORD")


STAR_RACK = [95, 73, 77, 74, 2, 80]  # *.B4, S1.A1, T1.A1, S1.E1, A1.M2, T1.N1


def test_a_star_face_asks_its_letter_and_the_play_is_the_decision(browser: Any, web_server: Any) -> None:
    """The table module on its own, with a view made by hand (an empty grid, a rack holding the
    left-face star) and a ctx that records what it is asked to send: the star's letter is asked
    before PLAY lights, the words and points count the star as 0, the decision names each block, its
    face and the star's letter; a refusal sends every staged block back to the rack; a staged block
    pressed goes back, and CLEAR takes them all back."""
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(f"{web_server.base}/healthz")
    blocks = shipped_blocks()
    rack = [{"block": b, "left": blocks[b].text().split(".")[0], "right": blocks[b].text().split(".")[1],
             "star": blocks[b].has_star} for b in STAR_RACK]
    view = {"step": "play", "decision_awaited": True, "bet_credits": 1, "stake_credits": 100,
            "result_text": "", "table": {
                "step": "play", "rows": 15, "cols": 15, "centre": [7, 7], "doubling": True, "rack_size": 6,
                "first_word_min": 4, "grid": [], "rack": rack, "turn": 0, "last_moves": [], "scores": [0, 0],
                "bag": 84, "opponent_blocks": [6], "end_adjustments": None, "result": None}}
    page.evaluate("""async (view) => {
        const { mount } = await import("/static/games/prism-words/table.js");
        const root = document.createElement("section");
        document.body.append(root);
        window.sent = [];
        window.refuse = null;
        const ctx = {
          decide: (decision) => {
            window.sent.push(decision);
            return new Promise((_, reject) => { window.refuse = () => reject(new Error("refused")); });
          },
          say: (text) => { window.said = text; }, money: (n) => `$${(n / 100).toFixed(2)}`,
          cents: (n) => `$${(n / 100).toFixed(2)}`, credits: (n) => `${n} credits`, words: (s) => s,
          reducedMotion: true, busy: () => false,
        };
        mount(root, ctx).update(view, { complete: false, winCents: null, stakeCents: 100, denomCents: 1 });
      }""", view)
    rack_faces(page).first.wait_for()
    play = [("Block star B4, left face star", 7, 6), ("Block S1 A1, right face A1", 7, 7),
            ("Block T1 A1, left face T1", 7, 8), ("Block S1 E1, left face S1", 7, 9)]
    for name, row, col in play:
        face = page.get_by_role("group", name="Your rack").get_by_role("button", name=name, exact=True)
        tap_then_tap(page, "desktop", face, row, col)
        page.locator(f'.pw-staged[data-row="{row}"][data-col="{col}"]').wait_for()
    expect(rack_faces(page)).to_have_count(4)
    # A staged block pressed on the grid goes back to the rack; put it down again.
    page.get_by_role("group", name="Grid").locator('[data-row="7"][data-col="9"]').click()
    expect(rack_faces(page)).to_have_count(6)
    name, row, col = play[-1]
    tap_then_tap(page, "desktop", page.get_by_role("button", name=name, exact=True), row, col)
    send = page.get_by_role("group", name="Your move").get_by_role("button", name="PLAY")
    expect(send).to_be_disabled()  # the star's letter is not chosen yet
    assert page.get_by_label("Your play").text_content() == "?ATS 3 = 3 points"
    page.get_by_label("The star stands for").select_option("C")
    expect(send).to_be_enabled()
    assert page.get_by_label("Your play").text_content() == "CATS 3 = 3 points"
    send.click()
    assert page.evaluate("window.sent") == [{"kind": "play", "args": {"placements": [
        {"row": 7, "col": 6, "block": 95, "face": "left", "letter": "C"},
        {"row": 7, "col": 7, "block": 73, "face": "right"},
        {"row": 7, "col": 8, "block": 77, "face": "left"},
        {"row": 7, "col": 9, "block": 74, "face": "left"}]}}]
    page.evaluate("window.refuse()")
    expect(page.locator(".pw-staged")).to_have_count(0)
    expect(rack_faces(page)).to_have_count(12)
    # CLEAR takes every staged block back.
    name, row, col = play[1]
    tap_then_tap(page, "desktop", page.get_by_role("button", name=name, exact=True), row, col)
    expect(rack_faces(page)).to_have_count(10)
    page.get_by_role("button", name="CLEAR").click()
    expect(rack_faces(page)).to_have_count(12)


def test_the_tables_rules_light_every_legal_play_and_score_it_as_the_game_does(browser: Any,
                                                                               web_server: Any) -> None:
    """rules.js against the game's engine on real positions (rounds played by the reference decision):
    for a sample of every legal play of the customer's rack, each of its squares, put down in order,
    is lit (never refused), and the words and points shown before sending are the engine's."""
    game = PrismWords(example_paytable())
    cases = []
    for seed in (1, 2, 3):
        round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
        for turn in range(8):
            if round_.finished:
                break
            if turn % 2 == 0:
                cases += position_cases(round_)
            round_.decide(round_.reference_decision())
    assert len(cases) > 500
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(f"{web_server.base}/healthz")
    answers = page.evaluate("""async (cases) => {
        const rules = await import("/static/games/prism-words/rules.js");
        return cases.map(([table, staged]) => ({
          refused: staged.map((s, i) => rules.refusal(table, staged.slice(0, i), s.row, s.col))
            .filter(Boolean),
          words: rules.preview(table, staged).words.map((w) => [w.word, w.points]),
          points: rules.preview(table, staged).points,
        }));
      }""", [[table, staged] for table, staged, _ in cases])
    for (_, staged, play), answer in zip(cases, answers, strict=True):
        made = [(s["row"], s["col"], s["letter"]) for s in staged]
        assert answer["refused"] == [], (made, answer)
        assert answer["words"] == [[w.text, w.points] for w in play.words], (made, answer)
        assert answer["points"] == play.points


def position_cases(round_: Any, sample: int = 120) -> list[tuple[dict[str, Any], list[dict[str, Any]], Any]]:
    """(the view's table, a legal play as the table stages it, the engine's scored play) for an even
    sample of the legal plays of the customer's rack."""
    view = round_.view().table
    table = round_.table
    plays = legal_plays(table, table.racks[0])
    out = []
    for index in range(0, plays.count, max(1, plays.count // sample)):
        placements = plays.placements(index)
        staged = [{"row": p.row, "col": p.col, "block": p.block, "face": FACE_NAMES[p.side],
                   "letter": LETTERS[p.letter], "value": table.book.blocks[p.block].face(p.side)[1],
                   "star": table.book.blocks[p.block].face(p.side)[0] == STAR} for p in placements]
        out.append((view, staged, table.score(0, placements)))
    return out

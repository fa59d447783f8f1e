"""Dragon Poker's table in a real browser (issue 28), at 390x844 (touch) and 1440x900: the hands
designated by tap, the player's hand set by a drag (a finger at phone size, the mouse at desktop) and
by tap-then-tap, a foul refused with the game's sentence and snapped back, a reload mid-round, and a
whole round by HOUSE WAY with the pair bonus. Each round ends with what was paid on the table, and the
balance on screen is the session's, equal to the deposit less the stake plus the win in the history.

With EGM_DOCS_IMG=DIR set, the settled table is pictured as DIR/web-dragon-poker-{phone,desktop}.png."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from egm.cards import parse_cards
from egm.games.base import DecisionRefused
from egm.games.dragon_poker.house_way import set_house_way
from egm.games.dragon_poker.setting import choose_setting
from tests.web_support import api_from_page, new_player, round_paid, session_of
from tests.web_support import drag as drag_piece

DEPOSIT = 1000
GAME = "dragon-poker"
SIZES = ["phone", "desktop"]
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(code: str) -> str:
    """A card as the table names it: "Kc" is K♣, "Td" 10♦, "JK" the joker."""
    return "JOKER" if code == "JK" else ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def hand_of(cards: list[str]) -> Any:
    """The cards as the game holds them (a second "JK" is the second joker)."""
    return parse_cards(" ".join(cards))


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def press(page: Any, size: str, locator: Any) -> None:
    """A finger tap on the phone, a mouse click on the desktop."""
    if size == "phone":
        locator.tap()
    else:
        locator.click()


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def tray(page: Any) -> Any:
    return page.get_by_role("group", name="Your cards", exact=True)


def row_zone(page: Any, row: str) -> Any:
    return page.get_by_role("group", name=f"{row} ({3 if row == 'front' else 5} cards)", exact=True)


def names_in(zone: Any) -> list[str]:
    return sorted(b.get_attribute("aria-label") for b in zone.get_by_role("button").all()
                  if b.get_attribute("data-card"))


def open_table(browser: Any, web_server: Any, size: str) -> Any:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/{GAME}")
    # The shell is ready once it has mounted the table and labelled AUTO (before that, PLAY would
    # submit the wager form as a plain HTML form).
    page.wait_for_function("() => document.querySelector('#auto').textContent === 'HOUSE WAY'")
    return page


def pair_line(page: Any) -> Any:
    """The table's pair-bonus line (the wager form has a Pair Bonus choice too)."""
    return page.locator("#table").get_by_label("Pair bonus", exact=True)


def check_layout(page: Any, size: str) -> None:
    """Nothing scrolls sideways; every control of the table has a name; at phone size each is at least
    44 x 44 CSS px."""
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    for control in page.locator("#table button:visible").all():
        name = control.get_attribute("aria-label") or control.text_content() or ""
        assert name.strip(), control.evaluate("b => b.outerHTML")
        box = control.bounding_box()
        if size == "phone":
            assert box["width"] >= 44 and box["height"] >= 44, (name, box)


def designate_by_tap(page: Any, size: str, yours: str = "B", dealer: str = "D", dragon: str = "A") -> None:
    page.get_by_role("heading", name="Choose the hands").wait_for()
    check_layout(page, size)
    for label in (yours, dealer, dragon):
        press(page, size, page.get_by_role("button", name=f"Hand {label}"))
    assert page.get_by_role("button", name=f"Hand {yours}: yours").is_visible()
    press(page, size, button(page, "CONFIRM HANDS"))
    tray(page).get_by_role("button").nth(12).wait_for()


def player_cards(page: Any) -> list[str]:
    hands = session_of(page)["open_round"]["view"]["table"]["hands"]
    [mine] = [hand["cards"] for hand in hands.values() if hand["role"] == "player"]
    return list(mine)


def card_in(zone: Any, code: str) -> Any:
    return zone.get_by_role("button", name=card_text(code), exact=True).first


def tap_then_tap(page: Any, size: str, code: str, row: str) -> None:
    press(page, size, card_in(tray(page), code))
    press(page, size, button(page, f"{row.capitalize()} row"))
    assert card_text(code) in names_in(row_zone(page, row)), (code, row)


def drag(page: Any, size: str, code: str, row: str, onto: Any = None) -> None:
    """Drag a card of the hand onto a row (or `onto` another place) with the finger or the mouse."""
    card = card_in(tray(page), code)
    card.scroll_into_view_if_needed()
    drag_piece(page, size, card, onto or row_zone(page, row))


def settled(page: Any) -> Any:
    paid = page.get_by_role("table", name="What was paid")
    paid.wait_for(timeout=20_000)
    return paid


def check_money(page: Any) -> dict[str, Any]:
    """The balance on screen is the session's: the deposit less the stake plus the win in the history;
    the table's "Paid" line is the win. Answers the round's view as the server holds it."""
    paid = settled(page)
    session, played = round_paid(page, GAME, DEPOSIT)
    assert paid.get_by_role("row").last.inner_text().split() == ["Paid", money(played["win_cents"])]
    round_ = api_from_page(page, "GET", f"/api/v1/rounds/{played['round_id']}")["reply"]
    assert round_["win_cents"] == played["win_cents"]
    # The jackpot meter shows the pool after the hand, and the hand's result heads the scoreboard.
    table = round_["view"]["table"]
    jackpot = page.get_by_label("Dragon jackpot").inner_text()
    assert jackpot == f"DRAGON JACKPOT {money(table['jackpot_cents'])}"
    code = played["result_code"]
    board = {"P": "YOU", "H": "DEALER", "D": "DRAGON"}
    shown = page.get_by_label("Scoreboard, newest first").get_by_role("listitem").first.inner_text()
    assert shown == (f"{board[code[0]]} {code[1:]}" if code != "S" else "SPLIT")
    return dict(round_["view"])


def same_setting(held: dict[str, list[str]], meant: dict[str, list[str]]) -> bool:
    return all(sorted(held[row]) == sorted(meant[row]) for row in ("front", "middle", "back"))


def foul_of(cards: list[str]) -> tuple[dict[str, list[str]], str]:
    """A setting of these cards that fouls, and the game's sentence for it."""
    rng = random.Random(28)
    hand = hand_of(cards)
    for _ in range(5000):
        order = rng.sample(cards, len(cards))
        try:
            choose_setting(hand, order[:3], order[3:8])
        except DecisionRefused as refused:
            return {"front": order[:3], "middle": order[3:8], "back": order[8:]}, str(refused)
    raise AssertionError("no foul found")


@pytest.mark.parametrize("size", SIZES)
def test_designate_by_tap_then_set_by_drag_and_by_tap(browser: Any, web_server: Any, size: str) -> None:
    page = open_table(browser, web_server, size)
    press(page, size, page.get_by_role("button", name="PLAY"))
    designate_by_tap(page, size)
    check_layout(page, size)
    cards = player_cards(page)
    meant = set_house_way(hand_of(cards)).to_dict()
    # A card dropped off the rows snaps back to the hand.
    drag(page, size, meant["back"][0], "", onto=page.get_by_label("Dragon jackpot"))
    assert card_text(meant["back"][0]) in names_in(tray(page)) and names_in(row_zone(page, "front")) == []
    drag(page, size, meant["front"][0], "front")  # by the finger on the phone, the mouse on the desktop
    assert card_text(meant["front"][0]) in names_in(row_zone(page, "front"))
    for code in meant["front"][1:]:
        tap_then_tap(page, size, code, "front")
    # A tap on a card in a row takes it back to the hand; tap-then-tap puts it back.
    press(page, size, card_in(row_zone(page, "front"), meant["front"][1]))
    assert card_text(meant["front"][1]) in names_in(tray(page))
    tap_then_tap(page, size, meant["front"][1], "front")
    # A full row takes no more: the card snaps back, and the table says why.
    drag(page, size, meant["middle"][0], "front")
    assert card_text(meant["middle"][0]) in names_in(tray(page))
    assert page.locator("#say").text_content() == "The front holds 3 cards: take one out first."
    for code in meant["middle"]:
        tap_then_tap(page, size, code, "middle")
    # The back takes the five cards left by itself.
    assert names_in(row_zone(page, "back")) == sorted(card_text(c) for c in meant["back"])
    assert names_in(tray(page)) == []
    check_layout(page, size)
    press(page, size, button(page, "SET HAND"))
    view = check_money(page)
    assert same_setting(view["table"]["settings"]["P"], meant)
    ledger = page.get_by_role("table", name="Ledger").inner_text()
    assert "Your net" in ledger
    check_layout(page, size)
    pictures = os.environ.get("EGM_DOCS_IMG")
    if pictures:
        page.screenshot(path=str(Path(pictures) / f"web-{GAME}-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_foul_is_refused_and_snaps_back_then_a_reload_and_the_round_finishes(
        browser: Any, web_server: Any, size: str) -> None:
    page = open_table(browser, web_server, size)
    press(page, size, page.get_by_role("button", name="PLAY"))
    designate_by_tap(page, size, yours="C", dealer="A", dragon="B")
    cards = player_cards(page)
    foul, sentence = foul_of(cards)
    for row in ("front", "middle"):
        for code in foul[row]:
            tap_then_tap(page, size, code, row)
    assert names_in(row_zone(page, "back")) == sorted(card_text(c) for c in foul["back"])
    press(page, size, button(page, "SET HAND"))
    page.wait_for_function("(s) => document.querySelector('#say').textContent === s", arg=sentence)
    # The last card placed and the back the table filled by itself are back in the hand.
    last = foul["middle"][-1]
    page.wait_for_function("() => document.querySelectorAll('[data-row=back] [data-card]').length === 0")
    assert sorted(names_in(tray(page))) == sorted(card_text(c) for c in [last, *foul["back"]])
    assert button(page, "SET HAND").is_disabled()
    assert session_of(page)["open_round"]["step_no"] == 1  # nothing moved on the server
    page.emulate_media(reduced_motion="reduce")  # after the reload: no animation, the hand settled at once
    page.reload()
    tray(page).get_by_role("button").nth(12).wait_for()  # the same step: all 13 cards to set
    meant = set_house_way(hand_of(cards)).to_dict()
    # The keyboard places a card too (Enter on the card, then on the row).
    card_in(tray(page), meant["front"][0]).press("Enter")
    button(page, "Front row").press("Enter")
    assert card_text(meant["front"][0]) in names_in(row_zone(page, "front"))
    for row in ("front", "middle"):
        for code in meant[row][1 if row == "front" else 0:]:
            tap_then_tap(page, size, code, row)
    page.evaluate("""() => new MutationObserver(() => { window.shown = document.querySelector('[data-phase]')
        ?.dataset.phase; }).observe(document.querySelector('#table'), {childList: true, subtree: true})""")
    press(page, size, button(page, "SET HAND"))
    page.wait_for_function("() => window.shown === 'points'", timeout=1000)  # no phase in between
    view = check_money(page)
    assert same_setting(view["table"]["settings"]["P"], meant)
    assert page.get_by_role("region", name="YOU").is_visible()


@pytest.mark.parametrize("size", SIZES)
def test_house_way_plays_a_whole_round_with_the_pair_bonus(browser: Any, web_server: Any, size: str) -> None:
    page = open_table(browser, web_server, size)
    # The pair bonus is bet with the wager, in the shell's wager form; the table picks the open round up
    # again on a reload.
    page.get_by_label("Coin").select_option("5")
    page.locator("#bet").select_option("1")
    page.locator("#wager").get_by_label("Pair Bonus").select_option("2")
    assert page.get_by_label("Stake").inner_text() == "Stake $0.60"
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("button", name="HOUSE WAY").wait_for()
    page.reload()
    assert pair_line(page).inner_text() == "PAIR BONUS BET $0.10"
    house_way = page.get_by_role("button", name="HOUSE WAY")
    press(page, size, house_way)  # chooses A yours, B the dealer's, C the Dragon's
    tray(page).get_by_role("button").nth(12).wait_for()
    cards = player_cards(page)
    page.evaluate("""() => { window.phases = [];
        new MutationObserver(() => { const p = document.querySelector('[data-phase]')?.dataset.phase;
          if (p && window.phases.at(-1) !== p) window.phases.push(p); })
        .observe(document.querySelector('#table'), {childList: true, subtree: true});
        window.saidAt = null;  // the phase on screen when the shell's end line ("WIN $x...") appeared
        new MutationObserver(() => { if (window.saidAt === null && document.querySelector('#say')
            .dataset.kind === 'result') {
          window.saidAt = document.querySelector('[data-phase]').dataset.phase; } })
        .observe(document.querySelector('#say'), {attributes: true, childList: true, subtree: true}); }""")
    press(page, size, house_way)
    view = check_money(page)
    page.wait_for_function("() => window.saidAt !== null")
    assert page.evaluate("window.saidAt") == "points"  # the end line never spoils the reveal
    # The reveal went phase by phase in the patent's order.
    assert page.evaluate("window.phases") == view["table"]["reveal_order"] == [
        "player_set", "dealer_revealed", "player_vs_dealer", "dragon_revealed", "winners_vs_dragon", "points"]
    table = view["table"]
    assert table["hands"]["A"]["role"] == "player" and table["hands"]["A"]["cards"] == cards
    assert same_setting(table["settings"]["P"], set_house_way(hand_of(cards)).to_dict())
    pair = table["pair_bonus"]
    paid = page.get_by_role("table", name="What was paid").inner_text()
    if pair["win_credits"]:
        assert f"{pair['hand'].replace('_', ' ').upper()} PAYS {money(pair['win_credits'] * 5)}" in \
            pair_line(page).inner_text()
        assert money(pair["win_credits"] * 5) in paid
    else:
        assert pair_line(page).inner_text() == "PAIR BONUS: NO PAIR, $0.10 LOST"
    stake_back = table["money"]["stake_return_credits"] * 5
    assert f"Your stake $0.50 comes back as\t{money(stake_back)}" in paid
    check_layout(page, size)

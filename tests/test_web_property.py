"""Property's table in a real browser, at 390x844 (touch, reduced motion) and at 1440x900 (the machine's
turn played out on the board): a whole round whose every kind of decision the round offers is made by
hand (a mortgage, a trade, rolls, buying and declining, the auction's bid, a house and the jail's
choices when they come), a reload mid-round at the same decision, AUTO PLAY to the end, and then the
money: the balance on screen is the session's, the history's stake and win add up, and the end names
the winner, the margin in board money and what each reason paid in money. Nothing scrolls sideways,
every control is at least 44 px, and the page says no id, no snake_case and no trademark.

With EGM_DOCS_IMG=DIR set, the table is pictured there mid-round (docs/img/web-property-*.png)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from egm.games.base import Decision
from egm.games.property.game import PropertyGame, PropertyRound
from egm.games.property.strategy import RandomStrategy
from egm.rng import Rng
from tests.property_support import shipped_paytable
from tests.web_support import SIZES, api_from_page, new_player, round_paid, session_of

DEPOSIT = 5000
HAND_DECISIONS = 40  # the most decisions made by hand before AUTO PLAY finishes the round
LAYOUT = """() => {
  const small = [];
  for (const el of document.querySelectorAll("button, input, select, summary, a")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.width < 44 || r.height < 44)) small.push(el.textContent || el.outerHTML);
  }
  const labels = [...document.querySelectorAll("[aria-label]")].map((el) => el.getAttribute("aria-label"));
  return {scroll: document.documentElement.scrollWidth, inner: innerWidth, small,
          text: document.body.innerText + "\\n" + labels.join("\\n")};
}"""
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
BOARD_DOLLARS = re.compile(r"board \$([\d,]+)")


def press(page: Any, locator: Any, touch: bool) -> None:
    """A real tap on the phone, a click on the desktop."""
    if touch:
        locator.tap()
    else:
        locator.click()


def table_now(page: Any) -> dict[str, Any]:
    """The table the server holds now (the player's open round)."""
    return dict(session_of(page)["open_round"]["view"]["table"])


def settle(page: Any) -> bool:
    """Wait until the table awaits the player or the round is over (pressing SKIP TO NOW while the
    machine's turn plays out); answers whether it was playing out."""
    played_out = False
    skip = page.get_by_role("region", name="Your decision").get_by_role("button", name="SKIP TO NOW")
    while True:
        page.wait_for_function("""() => document.querySelector('#say').dataset.kind === 'result'
            || (document.querySelector('.prop-prompt')?.textContent
                && !document.querySelector('#auto').disabled)""")
        if page.locator("#say").get_attribute("data-kind") == "result" or not skip.count():
            return played_out
        played_out = True
        skip.click()


def check_page(page: Any) -> str:
    """Nothing scrolls sideways, every control is >= 44 px, and no id, snake_case or trademark shows."""
    layout = page.evaluate(LAYOUT)
    assert layout["scroll"] <= layout["inner"], layout["scroll"]
    assert not layout["small"], layout["small"]
    text = layout["text"]
    assert "monopoly" not in text.lower()
    assert not SNAKE.findall(text), SNAKE.findall(text)
    return str(text)


NAMES_INSIDE = """() => [...document.querySelectorAll(".prop-cell")].map((cell) => {
  const name = cell.querySelector(".name").getBoundingClientRect(), box = cell.getBoundingClientRect();
  const size = parseFloat(getComputedStyle(cell.querySelector(".name")).fontSize);
  return name.width > 0 && size >= 10 && name.left >= box.left && name.right <= box.right
    && name.top >= box.top && name.bottom <= box.bottom;
})"""


def check_names(page: Any, spaces: list[dict[str, Any]], touch: bool) -> None:
    """Every space's name is readable: on the desktop's board itself, whole inside its cell; on the
    phone (a compact track of prices) in the list of spaces, whose rows open the space's deed."""
    if not touch:
        assert all(page.evaluate(NAMES_INSIDE))
        return
    press(page, page.get_by_text("All 40 spaces"), touch)
    rows = page.locator(".prop-spaces").get_by_role("button")
    assert [row.split(",")[0] for row in rows.all_text_contents()] == [s["name"] for s in spaces]
    press(page, rows.last, touch)
    deed = page.get_by_role("region", name="Space")
    assert deed.get_by_role("heading", name=spaces[-1]["name"]).is_visible()
    press(page, page.get_by_text("All 40 spaces"), touch)


def cash_on_screen(page: Any, seat_name: str) -> int:
    label = page.locator(".prop-money").nth(0 if seat_name == "YOU" else 1).get_attribute("aria-label") or ""
    assert label.startswith(f"{seat_name}: cash board $"), label
    return int(BOARD_DOLLARS.search(label).group(1).replace(",", ""))  # type: ignore[union-attr]


def one_hand_decision(page: Any, table: dict[str, Any], made: set[str], touch: bool) -> None:
    """Make the decision the round awaits by hand, taking each kind the round offers once."""
    decide = page.get_by_role("region", name="Your decision")
    kind, legal, cash = table["decision"], table["legal"], table["seats"][0]["cash"]
    spaces = table["spaces"]

    def on_title(owner: str, space: int, action: str) -> None:
        titles = page.get_by_label(f"{owner}'s titles")
        press(page, titles.get_by_role("button", name=spaces[space]["name"]), touch)
        detail = page.get_by_role("region", name="Space")
        assert detail.get_by_role("heading", name=spaces[space]["name"]).is_visible()
        press(page, detail.get_by_role("button", name=action), touch)

    if kind in ("turn", "jail") and legal["build"] and "build" not in made:
        on_title("YOU", legal["build"][0], "BUILD A H")
        made.add("build")
    elif kind == "turn" and legal["mortgage"] and "mortgage" not in made:
        space = legal["mortgage"][0]
        on_title("YOU", space, f"MORTGAGE FOR board ${spaces[space]['mortgage']}")
        settle(page)
        after = table_now(page)
        assert after["mortgaged"][space] and after["seats"][0]["cash"] == cash + spaces[space]["mortgage"]
        assert cash_on_screen(page, "YOU") == cash + spaces[space]["mortgage"]
        made.add("mortgage")
    elif kind == "turn" and "trade" not in made and _machine_title(table) is not None:
        on_title("MACHINE", _machine_title(table), "OFFER board $")  # type: ignore[arg-type]
        page.wait_for_function("() => document.querySelector('#say').textContent.includes('your trade')")
        assert table_now(page)["last_trade"]["get"] == [_machine_title(table)]
        made.add("trade")
    elif kind == "jail":
        choice = "PAY THE FINE" if cash >= 50 else "ROLL FOR DOUBLES"
        press(page, decide.get_by_role("button", name=choice), touch)
        made.add("jail")
    elif kind == "buy":
        space = spaces[table["waiting"]["space"]]
        if "buy" not in made and cash >= space["price"]:
            press(page, decide.get_by_role("button", name=f"BUY FOR board ${space['price']}"), touch)
            made.add("buy")
        else:
            press(page, decide.get_by_role("button", name="DECLINE: AUCTION IT"), touch)
            made.add("decline")
    elif kind == "auction":
        amount = min(cash, spaces[table["waiting"]["space"]]["price"] // 2)
        decide.get_by_label("Your bid in board $").fill(str(amount))
        press(page, decide.get_by_role("button", name=f"BID board ${amount:,}"), touch)
        made.add("bid")
    else:
        press(page, decide.get_by_role("button", name="ROLL THE DICE"), touch)
        made.add("roll")


def _machine_title(table: dict[str, Any]) -> int | None:
    """A title the machine holds in a group without buildings (one it may trade)."""
    spaces = table["spaces"]
    for space, owner in enumerate(table["owner"]):
        group = spaces[space]["group"]
        built = group and any(table["houses"][s] for s, o in enumerate(spaces) if o["group"] == group)
        if owner == 1 and not built:
            return space
    return None


def finish_by_auto(page: Any, presses: int = 600) -> None:
    for _ in range(presses):
        page.wait_for_function("""() => document.querySelector('#say').dataset.kind === 'result'
                                  || !document.querySelector('#auto').disabled""")
        if page.locator("#say").get_attribute("data-kind") == "result":
            return
        page.get_by_role("button", name="AUTO PLAY", exact=True).click()
    raise AssertionError(f"the round did not end in {presses} presses of AUTO PLAY")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_of_property_by_hand_then_auto(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    touch = size == "phone"
    if touch:
        page.emulate_media(reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{web_server.base}/play/property")
    page.locator(".prop").wait_for(state="attached")  # the table is mounted: the shell has wired PLAY
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("img", name=re.compile(r"YOU here")).wait_for()
    made: set[str] = set()
    played_out = False
    for _ in range(HAND_DECISIONS):
        played_out |= settle(page)
        table = table_now(page)
        assert cash_on_screen(page, "YOU") == table["seats"][0]["cash"]
        assert cash_on_screen(page, "MACHINE") == table["seats"][1]["cash"]
        one_hand_decision(page, table, made, touch)
        if {"roll", "buy", "decline", "bid", "mortgage", "trade"} <= made:
            break
    played_out |= settle(page)
    assert {"roll", "mortgage", "trade"} <= made and made & {"buy", "decline"}, made
    assert "decline" not in made or "bid" in made, made  # a declined title goes to auction: YOU bid
    assert played_out == (not touch)  # the machine's turn plays out unless reduced motion is asked for
    pictures = os.environ.get("EGM_DOCS_IMG")
    if pictures:
        page.evaluate("scrollTo(0, 0)")
        page.screenshot(path=str(Path(pictures) / f"web-property-{size}.png"))
    check_names(page, table_now(page)["spaces"], touch)
    check_page(page)

    before = table_now(page)
    prompt = page.locator(".prop-prompt").text_content()
    page.reload()
    settle(page)
    assert table_now(page) == before
    assert page.locator(".prop-prompt").text_content() == prompt
    assert page.get_by_text(f"Round {before['round']} of {before['rounds']}").is_visible()

    finish_by_auto(page)
    settle(page)
    session, played = round_paid(page, "property", DEPOSIT)

    final = api_from_page(page, "GET", f"/api/v1/rounds/{played['round_id']}")["reply"]["view"]
    margin = final["table"]["final"]["margin"]
    end = page.get_by_role("region", name="Result")
    winner = "YOU WIN BY" if margin > 0 else "MACHINE WINS BY" if margin < 0 else "A TIE"
    heading = end.get_by_role("heading").text_content() or ""
    assert heading.startswith(winner), heading
    if margin:
        assert heading.endswith(f"board ${abs(margin):,}"), heading
    lines = end.get_by_role("listitem").all_text_contents()
    paid = [int(re.search(r"\$(\d+)\.(\d\d)$", line).expand(r"\1\2")) for line in lines]  # type: ignore[union-attr]
    bet_cents = played["stake_cents"] // final["stake_credits"] * final["bet_credits"]
    assert paid == [units * bet_cents for _, units in final["table"]["pays"]]
    assert sum(paid) == played["win_cents"]
    assert any(line.startswith("Margin in board money") for line in lines), lines
    assert f"Paid ${played['win_cents'] / 100:,.2f}" in (end.text_content() or "")
    check_page(page)
    assert not errors, errors
    page.context.close()


# -- the table module on views made by the engine (what it posts, what it shows) -------------------------

MOUNT = """async ([view, info]) => {
  const { mount } = await import("/static/games/property/table.js");
  window.decided = [];
  window.said = [];
  const root = document.createElement("section");
  document.body.replaceChildren(root);
  const money = (cents) => `$${(cents / 100).toFixed(2)}`;
  window.table = mount(root, {
    decide: (decision) => { window.decided.push(decision); return new Promise(() => {}); },
    say: (text) => window.said.push(text), money, cents: money, credits: (n) => `${n} credits`,
    reducedMotion: true, busy: () => false });
  window.table.update(view, info);
}"""
OPEN = {"complete": False, "winCents": None, "stakeCents": 20, "denomCents": 1}


def module_page(browser: Any, web_server: Any, round_: PropertyRound) -> Any:
    """A page with only Property's table module mounted on `round_`'s view; it records what it posts."""
    page = browser.new_context(**SIZES["desktop"]).new_page()
    page.goto(f"{web_server.base}/healthz")
    page.evaluate(MOUNT, [round_.view().to_json(), OPEN])
    return page


def redraw(page: Any, view: dict[str, Any]) -> None:
    page.evaluate("([view, info]) => window.table.update(view, info)", [view, OPEN])


def reference_round(seed: int, until: Any) -> PropertyRound:
    """A shipped-pay-table round played by the reference decisions until `until(round)`."""
    game = PropertyGame(shipped_paytable())
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
    while not round_.finished and not until(round_):
        round_.decide(round_.reference_decision())
    return round_


def test_the_table_posts_each_space_action_and_each_jail_choice(browser: Any, web_server: Any) -> None:
    round_ = next(r for r in (reference_round(s, lambda r: r.awaiting == "jail") for s in range(60))
                  if not r.finished)
    table = round_.table
    for space in (1, 3, 5):  # the purple group with a house on Mediterranean, and Reading mortgaged
        table.owner[space] = 0
    table.houses[1], table.mortgaged[5] = 1, True
    table.seats[0].jail_cards.append("chance")
    legal = round_.view().table["legal"]
    assert (legal["build"], legal["sell_building"], legal["unmortgage"]) == ([3], [1], [5])
    page = module_page(browser, web_server, round_)
    titles = page.get_by_label("YOU's titles")
    space = page.get_by_role("region", name="Space")
    titles.get_by_role("button", name="Baltic Avenue").click()
    space.get_by_role("button", name="BUILD A HOUSE (board $50)").click()
    titles.get_by_role("button", name="Mediterranean Avenue, 1 house").click()
    assert space.get_by_text("1 house here").is_visible()
    space.get_by_role("button", name="SELL A HOUSE").click()
    titles.get_by_role("button", name="Reading Railroad, mortgaged").click()
    space.get_by_role("button", name="LIFT THE MORTGAGE").click()
    space.get_by_label("Trade price in board $").fill("-5")
    space.get_by_role("button", name=re.compile("^OFFER IT TO MACHINE")).click()
    assert page.evaluate("window.said") == ["A trade price is a whole number of board dollars."]
    machine_cash = table.seats[1].cash
    space.get_by_label("Trade price in board $").fill(str(machine_cash + 1))
    space.get_by_role("button", name=re.compile("^OFFER IT TO MACHINE")).click()
    assert page.evaluate("window.said")[-1] == f"MACHINE has only board ${machine_cash:,} in cash."
    space.get_by_label("Trade price in board $").fill("150")
    space.get_by_role("button", name="OFFER IT TO MACHINE FOR board $150").click()
    decide = page.get_by_role("region", name="Your decision")
    assert "You are in jail" in (decide.text_content() or "")
    for name in ("PAY THE FINE", "USE YOUR CARD", "ROLL FOR DOUBLES"):
        decide.get_by_role("button", name=name).click()
    assert page.evaluate("window.decided") == [
        {"kind": "build", "args": {"space": 3}}, {"kind": "sell_building", "args": {"space": 1}},
        {"kind": "unmortgage", "args": {"space": 5}},
        {"kind": "trade", "args": {"with": 1, "give": [5], "get": [], "cash": -150}},
        {"kind": "pay_fine"}, {"kind": "use_card"}, {"kind": "roll"}]
    assert page.get_by_role("img", name=re.compile(r"^Jail.*YOU here \(in jail\)")).is_visible()
    page.context.close()


def test_a_bid_for_a_scarce_house_and_an_amount_refused_before_it_is_sent(browser: Any, web_server: Any
                                                                          ) -> None:
    round_ = reference_round(3, lambda r: r.awaiting == "turn")
    page = module_page(browser, web_server, round_)
    view = round_.view().to_json()
    view["table"] = {**view["table"], "decision": "auction", "choices": ["bid"],
                     "waiting": {"seat": 0, "kind": "auction", "space": 1, "lot": "house"}}
    redraw(page, view)
    decide = page.get_by_role("region", name="Your decision")
    prompt = decide.text_content() or ""
    assert "Auction of a scarce house for Mediterranean Avenue: bids open at board $50" in prompt
    assert decide.get_by_label("Your bid in board $").input_value() == "50"
    cash = view["table"]["seats"][0]["cash"]
    decide.get_by_label("Your bid in board $").fill(str(cash + 1))
    decide.get_by_role("button", name=f"BID board ${cash + 1:,}").click()
    assert page.evaluate("window.said") == [
        f"A bid is a whole number of board dollars from 0 to your board ${cash:,}."]
    decide.get_by_label("Your bid in board $").fill("60")
    decide.get_by_role("button", name="BID board $60").click()
    decide.get_by_role("button", name="PASS").click()
    assert page.evaluate("window.decided") == [{"kind": "bid", "args": {"amount": 60}},
                                               {"kind": "bid", "args": {"amount": 0}}]
    page.context.close()


def card_on_the_board(round_: PropertyRound) -> bool:
    """The rule: the latest card drawn stays until YOU throw again, unless it came after that throw
    (among the events since YOU last decided)."""
    table = round_.view().table
    log = table["log"]
    drawn = [k for k, e in enumerate(log) if e["kind"] == "card" and "text" in e]
    if not drawn:
        return False
    thrown = any(e["kind"] == "roll" and e["seat"] == 0 for e in log[drawn[-1]:])
    return not thrown or drawn[-1] >= len(log) - len(table["recent"])


def test_the_card_drawn_stays_until_you_throw_again(browser: Any, web_server: Any) -> None:
    round_ = reference_round(4, card_on_the_board)
    card = next(e for e in reversed(round_.view().table["log"]) if e["kind"] == "card" and "text" in e)
    page = module_page(browser, web_server, round_)
    shown = page.get_by_label("Card drawn")
    deck = {"chance": "Chance", "community_chest": "Community Chest"}[card["deck"]]
    assert shown.is_visible() and shown.text_content() == deck + card["text"]
    while card_on_the_board(round_):
        round_.decide(round_.reference_decision())
    assert not round_.finished
    redraw(page, round_.view().to_json())
    assert not shown.is_visible()
    page.context.close()


def varied_round(seed: int) -> PropertyRound:
    """A whole game: the reference decisions on YOU's seat (seeds 1 to 6), or random ones after a
    trade proposed at YOU's first turn (from 7: mortgages, lifted mortgages, trades, jail cards)."""
    if seed <= 6:
        return reference_round(seed, lambda r: False)
    random = RandomStrategy(Rng.from_seed(seed + 100))
    game = PropertyGame(shipped_paytable())
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(seed), {})
    while round_.awaiting != "turn":
        round_.decide(round_.strategy_decision(random))
    theirs = round_.table.owner.index(1)
    round_.decide(Decision("trade", {"with": 1, "give": [], "get": [theirs],
                                     "cash": 2 * game.board.price[theirs]}))
    while not round_.finished:
        round_.decide(round_.strategy_decision(random))
    return round_


def test_every_event_of_whole_games_reads_in_player_words(browser: Any, web_server: Any) -> None:
    page = browser.new_context(**SIZES["desktop"]).new_page()
    page.goto(f"{web_server.base}/healthz")
    for seed in range(1, 13):
        round_ = varied_round(seed)
        events, spaces = round_.table.events, round_.view().table["spaces"]
        lines = page.evaluate("""async ([events, spaces]) => {
            const { describe, seatNames } = await import("/static/games/property/words.js");
            return events.map((e) => describe(e, spaces, seatNames(2)));
        }""", [events, spaces])
        for event, line in zip(events, lines, strict=True):
            assert re.match(r"(YOU|MACHINE|THE BANK|No bid) ", line), (event, line)
            wrong = re.search(r"undefined|NaN|null|seat \d|\$-|monopoly|[a-z]_[a-z]", line, re.IGNORECASE)
            assert not wrong, (event, line)
            if event.get("amount"):
                assert f"board ${event['amount']:,}" in line, (event, line)
    page.context.close()

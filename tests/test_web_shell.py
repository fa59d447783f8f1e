"""The table shell in a real browser, on the generic table (`?table=generic`, which every game can be
played on), at both sizes: a round started with PLAY and played by AUTO alone (the balance and the
session's net position on screen are the server's); the side bets in the wager form; a double tap sends
one request; a decision sent while offline shows NOT SENT and is retried with the same request id; a lost
websocket shows OFFLINE and heals by snapshot; a reload mid-round resumes at the same step; a 423 and a
reality-check push show the reality-check dialog; and no response or push before a round completes
holds its hidden deal, for every game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.test_server_rounds import _hidden
from tests.web_support import api_from_page, new_player, round_paid, session_of, unusable

DEPOSIT = 1000
SIZES = ["phone", "desktop"]


def auto_button(page: Any) -> Any:
    """The button that plays the game's reference decision, by its name (AUTO PLAY, HOUSE WAY...)."""
    return page.get_by_role("button", name=page.locator("#shell").get_attribute("data-auto-label"))


def finish_by_auto(page: Any, presses: int = 400) -> None:
    """Press AUTO until the round is over (a board game's round is many steps, one per press)."""
    auto = auto_button(page)
    for _ in range(presses):
        page.wait_for_function("""() => document.querySelector('#say').dataset.kind === 'result'
                                  || !document.querySelector('#auto').disabled""")
        if page.locator("#say").get_attribute("data-kind") == "result":
            return
        auto.click()
    raise AssertionError(f"the round did not end in {presses} presses of AUTO")


def dollars(cents: int, sign: bool = False) -> str:
    text = f"-${-cents / 100:,.2f}" if cents < 0 else f"${cents / 100:,.2f}"
    return f"+{text}" if sign and cents > 0 else text


def posts_to(page: Any, tail: str) -> list[dict[str, Any]]:
    """The bodies of the POSTs the page sends to a URL ending in `tail`, as they are sent (live list)."""
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}"))
            if r.method == "POST" and r.url.endswith(tail) else None)
    return sent


def step_shown(page: Any) -> str:
    return page.locator("#table .step").text_content() or ""


@pytest.mark.parametrize("size", SIZES)
def test_a_round_on_the_generic_table_by_auto(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: play").wait_for()
    assert unusable(page) == []
    finish_by_auto(page)
    session, played = round_paid(page, "poker-grid", DEPOSIT)
    net = played["win_cents"] - played["stake_cents"]
    assert session["limits"]["reality_check"]["net_cents"] == net
    page.wait_for_function("([net]) => document.getElementById('net').textContent === net",
                           arg=[dollars(net, sign=True)])
    assert page.get_by_label("Time").text_content()  # the clock is on screen
    said = page.locator("#say").text_content() or ""
    win = played["win_cents"]
    assert said.startswith(f"WIN ${win / 100:,.2f}." if win else "No win."), said
    assert unusable(page) == []


def test_side_bets_are_in_the_wager_form_by_the_pay_tables_name(browser: Any, web_server: Any) -> None:
    page, _ = new_player(browser, web_server, "phone", deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/dragon-poker?table=generic")
    game = next(g for g in api_from_page(page, "GET", "/api/v1/games")["reply"] if g["id"] == "dragon-poker")
    starts = posts_to(page, "/api/v1/rounds")
    page.get_by_label("Pair Bonus").select_option("2")
    bet, denom = game["bets_credits"][0], game["denominations_cents"][0]
    stake = (bet * game["stake_bets"] + 2) * denom
    assert page.get_by_label("Stake").text_content() == f"Stake {dollars(stake)}"
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: designate").wait_for()
    assert starts[0]["side_bets"] == {"pair_bonus": 2}
    assert session_of(page)["open_round"]["stake_cents"] == stake
    assert session_of(page)["balance_cents"] == DEPOSIT - stake


@pytest.mark.parametrize("size", SIZES)
def test_a_double_tap_sends_one_request(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    starts, decisions = posts_to(page, "/api/v1/rounds"), posts_to(page, "/decisions")
    page.get_by_role("button", name="PLAY").dblclick()
    page.get_by_role("heading", name="Step: play").wait_for()
    before = session_of(page)["open_round"]["step_no"]
    auto_button(page).dblclick()
    page.wait_for_function("() => !document.querySelector('#auto').disabled"
                           " || document.querySelector('#say').dataset.kind === 'result'")
    page.wait_for_load_state("networkidle")
    assert len(starts) == 1 and len(decisions) == 1
    assert session_of(page)["open_round"]["step_no"] == before + 1
    assert len(api_from_page(page, "GET", "/api/v1/wallet/transactions")["reply"]["transactions"]) == 2


@pytest.mark.parametrize("size", SIZES)
def test_a_decision_sent_offline_shows_not_sent_and_is_retried_with_the_same_id(
        browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: play").wait_for()
    before = session_of(page)["open_round"]["step_no"]
    decisions = posts_to(page, "/decisions")
    page.route("**/decisions", lambda route: route.abort("internetdisconnected"))
    auto_button(page).click()
    page.get_by_text("NOT SENT", exact=False).wait_for()
    for _ in range(100):  # the shell retries every 2 s while the connection is lost
        if len(decisions) >= 2:
            break
        page.wait_for_timeout(200)
    assert session_of(page)["open_round"]["step_no"] == before  # nothing reached the server
    page.unroute("**/decisions")
    page.wait_for_function("() => !document.querySelector('#link').textContent")
    page.wait_for_load_state("networkidle")
    assert len(decisions) >= 3 and len({d["request_id"] for d in decisions}) == 1
    after = session_of(page)
    assert (after["open_round"] or {"step_no": before + 1})["step_no"] == before + 1  # applied once


@pytest.mark.parametrize("size", SIZES)
def test_a_lost_socket_shows_offline_and_heals_by_snapshot(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    sockets: list[Any] = []
    cut = {"on": False}

    def route(ws: Any) -> None:
        if cut["on"]:
            ws.close()
        else:
            sockets.append(ws)
            ws.connect_to_server()

    page.route_web_socket("**/ws", route)
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    page.get_by_label("Balance").get_by_text(dollars(DEPOSIT)).wait_for()
    cut["on"] = True
    sockets[-1].close()
    page.get_by_text("OFFLINE").wait_for()
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    paid = api_from_page(page, "POST", "/api/v1/wallet/deposit", {"request_id": "while-offline",
                                                                   "amount_cents": 250}, csrf)
    assert paid["status"] == 200
    assert page.get_by_label("Balance").text_content() == dollars(DEPOSIT)  # no push reached the page
    cut["on"] = False
    page.wait_for_function("() => !document.querySelector('#link').textContent")  # reconnected
    page.get_by_label("Balance").get_by_text(dollars(DEPOSIT + 250)).wait_for()  # healed by the hello


@pytest.mark.parametrize("size", SIZES)
def test_a_reload_mid_round_resumes_at_the_same_step(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/dragon-poker?table=generic")
    page.get_by_role("button", name="PLAY").click()
    auto_button(page).click()
    page.get_by_role("heading", name="Step: set").wait_for()
    page.reload()
    page.get_by_role("heading", name="Step: set").wait_for()
    assert session_of(page)["open_round"]["step_no"] == 1
    assert page.get_by_role("button", name="PLAY").is_hidden()
    finish_by_auto(page)
    assert session_of(page)["open_round"] is None


def test_a_423_and_a_reality_check_push_show_the_reality_check_dialog(browser: Any, web_server: Any) -> None:
    page, _ = new_player(browser, web_server, "phone", deposit_cents=DEPOSIT)
    sockets: list[Any] = []
    page.route_web_socket("**/ws", lambda ws: (sockets.append(ws), ws.connect_to_server()))
    sentence = ("Reality check: you have played for 0 h 30 min this session and are down $1.20; acknowledge "
                "it (POST /api/v1/reality-check/ack) to play on.")
    page.route("**/api/v1/rounds", lambda route: route.fulfill(
        status=423, content_type="application/json",
        body=json.dumps({"code": "reality_check_due", "sentence": sentence, "reality_check": {}})))
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    page.get_by_role("button", name="PLAY").click()
    dialog = page.get_by_role("dialog", name="Reality check")
    dialog.get_by_text(sentence).wait_for()
    assert session_of(page)["open_round"] is None
    dialog.get_by_role("button", name="PLAY ON").click()  # nothing is due on the server: it just closes
    dialog.wait_for(state="hidden")

    sockets[-1].send(json.dumps({"type": "reality_check", "due": True, "elapsed_s": 3720, "net_cents": 250}))
    pushed = "Reality check: you have played for 1 h 2 min this session and are up $2.50."
    dialog.get_by_text(pushed).wait_for()
    assert unusable(page) == []


def body_of(response: Any) -> str:
    """A response's text ("" for an image, a redirect or a body the browser no longer holds)."""
    if response.request.resource_type == "image" or 300 <= response.status < 400:
        return ""
    try:
        return str(response.text())
    except Exception:  # noqa: BLE001 (Playwright raises its own Error for a body it dropped)
        return ""


@pytest.mark.parametrize("game_id", ["dragon-poker", "poker-grid", "poker-tiles", "prism-words", "property"])
def test_nothing_hidden_reaches_the_page_before_the_round_is_complete(
        browser: Any, web_server: Any, game_id: str) -> None:
    """Every response body and websocket message the page received before the round's last decision
    was answered is compared with the round's record from the replay: no deck, bag order or seed."""
    page, _ = new_player(browser, web_server, "desktop", deposit_cents=100_000)
    seen: list[Any] = []
    page.on("response", lambda response: seen.append(response))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: seen.append(payload)))
    page.goto(f"{web_server.base}/play/{game_id}?table=generic")
    page.get_by_role("button", name="PLAY").click()
    finish_by_auto(page, presses=2000)
    texts = [item if isinstance(item, str) else body_of(item) for item in seen]
    last = max(i for i, text in enumerate(texts) if '"complete":true' in text.replace(" ", ""))
    [played] = api_from_page(page, "GET", "/api/v1/history")["reply"]["rounds"]
    record = api_from_page(page, "GET", f"/api/v1/rounds/{played['round_id']}/replay")["reply"]["record"]
    hidden = _hidden(record)
    assert hidden, f"{game_id}: its record has no deal to hide"
    for text in texts[:last]:
        compact = text.replace(" ", "")
        assert '"record"' not in compact
        leaked = [h for h in hidden if h in compact]
        assert not leaked, f"{game_id}: {leaked[0][:60]} reached the page before the round was complete"

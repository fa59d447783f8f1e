"""The player's server-rendered pages in a real browser, at 390x844 (touch) and 1440x900: the lobby with
every game's art, register and log in (a table sends a stranger to log in and back), the demo cashier
(deposit, withdraw, a refused withdrawal moving nothing) and its transactions, limits and the reality
check's interval, a time-out, the history and the replay of a round; and the vendored htmx is the pinned
file. Every page: nothing scrolls sideways, every control has a name and is at least 44 px."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_shell import finish_by_auto
from tests.web_support import PASSWORD, api_from_page, new_player, register_by_form, session_of, unusable

ROOT = Path(__file__).resolve().parents[1]
HTMX = ROOT / "egm" / "server" / "web" / "static" / "htmx.min.js"
HTMX_VERSION = "2.0.11"
HTMX_SHA256 = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"
SIZES = ["phone", "desktop"]


def test_htmx_is_the_pinned_release_and_the_docs_name_it() -> None:
    """htmx.org 2.0.11's dist/htmx.min.js from the npm tarball, byte for byte, as docs/web.md records."""
    body = HTMX.read_bytes()
    assert hashlib.sha256(body).hexdigest() == HTMX_SHA256
    assert f'version:"{HTMX_VERSION}"'.encode() in body
    docs = (ROOT / "docs" / "web.md").read_text()
    assert HTMX_VERSION in docs and HTMX_SHA256 in docs


def picture(page: Any, name: str) -> None:
    """With EGM_DOCS_IMG=DIR set, the page as it stands goes to DIR/<name>.png (docs/img/web-*.png)."""
    folder = os.environ.get("EGM_DOCS_IMG")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def dollars(cents: int) -> str:
    return f"-${-cents / 100:,.2f}" if cents < 0 else f"${cents / 100:,.2f}"


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_every_game_with_its_art(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size)
    page.goto(f"{web_server.base}/")
    games = api_from_page(page, "GET", "/api/v1/games")["reply"]
    for game in games:
        tile = page.get_by_role("link", name=f"Play {game['title']}")
        tile.wait_for()
        art = tile.locator("img")
        assert art.evaluate("img => img.complete && img.naturalWidth") == 480, game["id"]
    assert unusable(page) == []
    picture(page, f"web-lobby-{size}")
    page.get_by_role("link", name="Rules of Dragon Poker").click()  # the cabinet's HELP pages
    pays = page.get_by_role("region", name="Dragon Poker: Points Table")
    assert pays.get_by_role("row", name="Win two rows").locator("td").all_text_contents() == [
        "Win two rows", "2 x bet"]
    assert unusable(page) == []
    page.goto(f"{web_server.base}/")
    page.get_by_role("link", name=f"Play {games[0]['title']}").click()
    page.wait_for_url(f"**/play/{games[0]['id']}")


@pytest.mark.parametrize("size", SIZES)
def test_register_deposit_withdraw_and_the_transactions(browser: Any, web_server: Any, size: str) -> None:
    from tests.web_support import SIZES as CONTEXTS

    page = browser.new_context(**CONTEXTS[size]).new_page()
    page.goto(f"{web_server.base}/play/dragon-poker")  # a stranger at a table is asked to log in first
    page.wait_for_url("**/login?next=/play/dragon-poker")
    assert unusable(page) == []
    page.get_by_role("link", name="Register").last.click()
    page.get_by_label("Name").fill("not a name!")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="REGISTER").click()
    page.locator(".say[data-kind=refused]").wait_for()  # the server's sentence on a bad name; still here
    assert "/register" in page.url
    login = register_by_form(page, web_server, "/play/dragon-poker")
    assert session_of(page)["player"]["login"] == login

    page.get_by_role("link", name="Account").click()
    page.get_by_label("Deposit, in dollars").fill("25.50")
    page.get_by_role("button", name="DEPOSIT").click()
    page.get_by_text("Deposited $25.50. Your balance is $25.50.").wait_for()
    page.get_by_label("Withdraw, in dollars").fill("10")
    page.get_by_role("button", name="WITHDRAW").click()
    page.get_by_text("Withdrew $10.00. Your balance is $15.50.").wait_for()
    page.get_by_label("Withdraw, in dollars").fill("100")
    page.get_by_role("button", name="WITHDRAW").click()
    page.get_by_text("more than", exact=False).wait_for()  # the server's sentence; nothing moved
    page.get_by_label("Deposit, in dollars").fill("ten dollars")
    page.get_by_role("button", name="DEPOSIT").click()
    page.get_by_text("Enter an amount in dollars, e.g. 25 or 25.50.").wait_for()

    assert session_of(page)["balance_cents"] == 1550
    assert page.get_by_label("Balance").text_content() == "$15.50"
    rows = page.locator("#transactions tbody tr")
    rows.nth(1).wait_for()
    shown = [[cell.strip() for cell in row.locator("td").all_text_contents()][1:] for row in rows.all()]
    assert shown == [["Withdrawal", "-$10.00", "$15.50"], ["Deposit", "$25.50", "$25.50"]]
    ledger = api_from_page(page, "GET", "/api/v1/wallet/transactions")["reply"]["transactions"]
    assert [(t["kind"], t["amount_cents"]) for t in ledger] == [("withdraw", -1000), ("deposit", 2550)]
    assert unusable(page) == []
    picture(page, f"web-account-{size}")

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{web_server.base}/")
    page.goto(f"{web_server.base}/account")
    page.wait_for_url("**/login?next=/account")
    page.get_by_label("Name").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="LOG IN").click()
    page.wait_for_url("**/account")
    assert page.get_by_label("Balance").text_content() == "$15.50"


def test_a_double_tap_on_deposit_deposits_once(browser: Any, web_server: Any) -> None:
    page, _ = new_player(browser, web_server, "phone")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/v1/wallet/deposit") else None)
    page.goto(f"{web_server.base}/account")
    page.get_by_label("Deposit, in dollars").fill("3")
    page.get_by_role("button", name="DEPOSIT").dblclick()
    page.get_by_text("Deposited $3.00. Your balance is $3.00.").wait_for()
    page.wait_for_load_state("networkidle")
    assert len(sent) == 1 and session_of(page)["balance_cents"] == 300


def test_the_transactions_come_a_page_at_a_time(browser: Any, web_server: Any) -> None:
    """101 deposits: the newest 100 first, then OLDER TRANSACTIONS brings the first one (htmx)."""
    page, _ = new_player(browser, web_server, "desktop", deposit_cents=1)
    page.goto(f"{web_server.base}/account")
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    for n in range(2, 102):
        assert api_from_page(page, "POST", "/api/v1/wallet/deposit",
                             {"request_id": f"many-{n}", "amount_cents": n}, csrf)["status"] == 200
    page.reload()
    rows = page.locator("#transactions tbody tr")
    assert rows.count() == 101  # 100 and the button's row
    assert rows.first.locator("td").nth(2).text_content() == "$1.01"
    page.get_by_role("button", name="OLDER TRANSACTIONS").click()
    page.get_by_role("button", name="OLDER TRANSACTIONS").wait_for(state="detached")
    assert rows.count() == 101 and rows.last.locator("td").nth(2).text_content() == "$0.01"
    assert rows.last.locator("td").nth(3).text_content() == "$0.01"


@pytest.mark.parametrize("size", SIZES)
def test_limits_and_the_reality_check_interval(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=500)
    page.goto(f"{web_server.base}/limits")
    page.get_by_label("Limit on").select_option("deposit")
    page.get_by_label("Over", exact=True).select_option("day")
    page.get_by_label("Amount, in dollars").fill("20")
    page.get_by_role("button", name="SET LIMIT").click()
    row = page.get_by_role("row", name=re.compile("Deposits over 24 hours"))
    row.get_by_text("$20.00").first.wait_for()
    assert row.locator("td").all_text_contents()[:3] == ["$20.00", "$5.00", "$15.00"]

    page.get_by_label("Amount, in dollars").fill("50")  # a raise waits for the cooling-off
    page.get_by_role("button", name="SET LIMIT").click()
    change = page.get_by_role("row", name="Deposits over 24 hours: Change waiting")
    change.get_by_text("raise to $50.00", exact=False).wait_for()
    limits = api_from_page(page, "GET", "/api/v1/limits")["reply"]
    assert limits["deposit"]["day"]["amount_cents"] == 2000
    assert limits["deposit"]["day"]["pending"]["amount_cents"] == 5000
    assert "CONFIRM" not in change.inner_text()  # not before the cooling-off ends

    with sqlite3.connect(web_server.db_url.removeprefix("sqlite:///")) as db:  # the cooling-off is over
        db.execute("UPDATE rg_limit SET cooling_off_until = requested_at WHERE id = ?",
                   (limits["deposit"]["day"]["pending"]["id"],))
    page.reload()
    confirm = change.get_by_role("button", name="Confirm Deposits over 24 hours change")
    table = page.locator(".scroll").first  # the CONFIRM is on screen, not off the table's side
    widths = table.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
    assert widths[0] <= widths[1], f"the limits table scrolls sideways: {widths}"
    assert unusable(page) == []
    confirm.click()
    change.wait_for(state="detached")  # the panel comes back without the change: the raise is in force
    assert row.locator("td").all_text_contents()[:3] == ["$50.00", "$5.00", "$45.00"]
    assert api_from_page(page, "GET", "/api/v1/limits")["reply"]["deposit"]["day"]["amount_cents"] == 5000

    page.get_by_label("Remind me every").select_option("30")
    page.get_by_role("button", name="SAVE REMINDER").click()
    page.get_by_text("Reality check: every 30 minutes.").wait_for()
    assert api_from_page(page, "GET", "/api/v1/limits")["reply"]["reality_check"]["interval_min"] == 30
    assert unusable(page) == []

    page.goto(f"{web_server.base}/account")  # the limit refuses a deposit, with the server's sentence
    page.get_by_label("Deposit, in dollars").fill("46")
    page.get_by_role("button", name="DEPOSIT").click()
    page.get_by_text("deposit limit", exact=False).wait_for()
    assert session_of(page)["balance_cents"] == 500


@pytest.mark.parametrize(("period", "said", "refused"), [
    ("a time-out of 1 day", "Your time-out has started", "time-out until"),
    ("a self-exclusion of 183 days", "your balance of $7.00 has been withdrawn to you", "self-exclu")])
def test_a_break_logs_out_and_keeps_the_player_out(browser: Any, web_server: Any, period: str, said: str,
                                                   refused: str) -> None:
    page, login = new_player(browser, web_server, "phone", deposit_cents=700)
    page.goto(f"{web_server.base}/limits")
    page.get_by_label("For", exact=True).select_option(label=period)
    page.get_by_label("I understand").check()
    page.get_by_role("button", name="START THE BREAK").click()
    page.get_by_text(said, exact=False).wait_for()
    assert api_from_page(page, "GET", "/api/v1/session")["status"] == 401  # logged out at once
    page.goto(f"{web_server.base}/login")
    page.get_by_label("Name").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="LOG IN").click()
    page.get_by_text(refused, exact=False).wait_for()
    assert "/login" in page.url


@pytest.mark.parametrize("size", SIZES)
def test_the_history_replays_a_round_step_by_step(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=1000)
    page.goto(f"{web_server.base}/play/dragon-poker?table=generic")
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: designate").wait_for()
    finish_by_auto(page)
    [played] = api_from_page(page, "GET", "/api/v1/history")["reply"]["rounds"]
    steps = api_from_page(page, "GET", f"/api/v1/rounds/{played['round_id']}/replay")["reply"]["steps"]

    page.get_by_role("link", name="History").click()
    row = page.get_by_role("row", name=re.compile("Dragon Poker #1"))
    assert row.locator("td").all_text_contents()[2:4] == [dollars(played["stake_cents"]),
                                                          dollars(played["win_cents"])]
    assert unusable(page) == []
    page.get_by_role("link", name="Replay Dragon Poker game 1").click()
    name = page.locator("#step-name")
    name.get_by_text(f"({len(steps)} of {len(steps)})", exact=False).wait_for()  # it opens on the end
    said = page.locator("#say").text_content() or ""
    assert said.startswith(f"WIN {dollars(played['win_cents'])}." if played["win_cents"] else "No win.")
    # The replay draws each step with the game's own table (Dragon Poker's, not the generic one the
    # round was played on).
    page.get_by_role("heading", name="The hand is settled").wait_for()
    for _ in steps[1:]:
        page.get_by_role("button", name="Previous step").click()
    assert name.text_content() == f"The deal (1 of {len(steps)})"
    page.get_by_role("heading", name="Choose the hands").wait_for()  # the table as it stood after the deal
    assert page.get_by_role("button", name="Previous step").is_disabled()
    page.get_by_role("button", name="Next step").click()
    assert name.text_content().startswith("Step 1: ")
    assert unusable(page) == []

    stranger, _ = new_player(browser, web_server, size)  # another player's round is not found
    assert api_from_page(stranger, "GET", f"/history/{played['round_id']}/steps")["status"] == 404
    page.goto(f"{web_server.base}/play/dragon-poker?table=generic")  # an open round is not replayed
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: designate").wait_for()
    open_id = session_of(page)["open_round"]["round_id"]
    assert api_from_page(page, "GET", f"/history/{open_id}/steps")["status"] == 409

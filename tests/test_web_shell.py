"""The table shell in a real browser, on the generic table (`?table=generic`, which every game can be
played on): a round started with PLAY and played by AUTO alone, at both sizes; the balance on screen
is the server's, and equals the deposit less the stake plus the win."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web_support import api_from_page, new_player, session_of

DEPOSIT = 1000


def finish_by_auto(page: Any, presses: int = 400) -> None:
    """Press AUTO until the round is over (a board game's round is many steps, one per press)."""
    for _ in range(presses):
        page.wait_for_function("""() => document.querySelector('#say').dataset.kind === 'result'
                                  || !document.querySelector('#auto').disabled""")
        if page.locator("#say").get_attribute("data-kind") == "result":
            return
        page.get_by_role("button", name="AUTO").click()
    raise AssertionError(f"the round did not end in {presses} presses of AUTO")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_round_on_the_generic_table_by_auto(browser: Any, web_server: Any, size: str) -> None:
    page, _ = new_player(browser, web_server, size, deposit_cents=DEPOSIT)
    page.goto(f"{web_server.base}/play/poker-grid?table=generic")
    page.get_by_role("button", name="PLAY").click()
    page.get_by_role("heading", name="Step: play").wait_for()
    finish_by_auto(page)
    session = session_of(page)
    assert session["open_round"] is None
    [played] = api_from_page(page, "GET", "/api/v1/history")["reply"]["rounds"]
    assert played["status"] == "complete" and played["game_id"] == "poker-grid"
    assert session["balance_cents"] == DEPOSIT - played["stake_cents"] + played["win_cents"]
    assert page.get_by_label("Balance").text_content() == f"${session['balance_cents'] / 100:,.2f}"
    said = page.locator("#say").text_content() or ""
    win = played["win_cents"]
    assert said.startswith(f"WIN ${win / 100:,.2f}." if win else "No win."), said

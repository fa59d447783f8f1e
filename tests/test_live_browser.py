"""The live table in a real browser: the dealer's keypad and the display in two browser contexts, on
two server instances sharing one PostgreSQL (the display's pushes cross instances by LISTEN/NOTIFY).

ENTER, UNDO, a fourth press, a correction without and with the supervisor's PIN, a void, a new
session; the display shows the patent's Figs. 5, 7 and 9 when fed Figs. 3, 6 and 8; the OFFLINE banner
when its server stops, and the board healed when it returns. With EGM_DOCS_IMG=DIR set, the display's
pictures are written there (docs/img/live-*.png are made this way).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import ServerProcess

PASSWORDS = {"operator": "operator password 1", "dealer": "dealer password 22",
             "supervisor": "supervisor pin 4242"}
UPDATE_S = 15  # generous: the push takes well under a second (benchmarks/bench_live.py measures it)


def _call(base: str, path: str, body: dict[str, Any], cookie: str = "",
          csrf: str = "") -> tuple[int, dict, str]:
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Origin": base, "Cookie": cookie, "X-CSRF-Token": csrf})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, json.loads(answer.read()), answer.headers.get("set-cookie", "")


@pytest.fixture(scope="module")
def servers(pg_cluster: Any, compiled_build: Any,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    workdir = tmp_path_factory.mktemp("live")
    db_url = pg_cluster.url(pg_cluster.create_database())
    for role, password in PASSWORDS.items():  # staff accounts, as the operator makes them
        secret = workdir / f"{role}.txt"
        secret.write_text(password + "\n")
        subprocess.run([sys.executable, "-m", "egm.cli", "server", "user", "add", "--db", db_url,
                        "--login", role, "--role", role, "--password-file", str(secret)],
                       check=True, capture_output=True, timeout=300)
    pair = [ServerProcess(db_url, workdir), ServerProcess(db_url, workdir)]
    for server in pair:
        server.start()
    yield pair
    for server in pair:
        server.stop()


@pytest.fixture
def table(servers: list[ServerProcess]) -> dict[str, Any]:
    base = servers[0].base
    _, reply, cookie = _call(base, "/api/v1/auth/login",
                             {"login": "operator", "password": PASSWORDS["operator"]})
    _, created, _ = _call(base, "/live/tables", {"name": f"Dragon Poker {uuid.uuid4().hex[:4].upper()}"},
                          cookie.split(";")[0], reply["csrf_token"])
    return dict(created)


def dealer_page(browser: Any, servers: list[ServerProcess], table: dict[str, Any]) -> Any:
    page = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{servers[0].base}/live/tables/{table['table_id']}/dealer")
    page.get_by_label("Dealer login").fill("dealer")
    page.get_by_label("Password").fill(PASSWORDS["dealer"])
    page.get_by_role("button", name="LOG IN").click()
    page.get_by_role("button", name="ENTER").wait_for()
    return page


def display_page(browser: Any, servers: list[ServerProcess], table: dict[str, Any]) -> Any:
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(f"{servers[1].base}/live/tables/{table['table_id']}/display?token={table['display_token']}")
    return page


def press(page: Any, front: str, middle: str, back: str) -> None:
    names = {"P": "Player", "H": "House", "D": "Dragon"}
    for part, side in (("FRONT", front), ("MIDDLE", middle), ("BACK", back)):
        page.get_by_role("button", name=f"{part} {names[side]}").click()


def enter_hand(dealer: Any) -> int:
    """Press ENTER and wait until the keypad says the hand is saved; its number."""
    dealer.get_by_role("button", name="ENTER").click()
    saved = dealer.get_by_text(re.compile(r"^Saved: hand \d+")).inner_text()
    return int(saved.split()[2].rstrip(","))


def codes_shown(display: Any) -> list[str]:
    cells = display.locator("#rows td.code").all_inner_texts()
    return [cell.replace("CORRECTED", "").strip() for cell in cells]


def wait_codes(display: Any, codes: list[str]) -> None:
    deadline = time.monotonic() + UPDATE_S
    while codes_shown(display) != codes:
        assert time.monotonic() < deadline, f"the display shows {codes_shown(display)}, not {codes}"
        time.sleep(0.05)


def test_the_display_draws_figs_5_7_and_9_from_figs_3_6_and_8(browser, servers, table) -> None:
    dealer, display = dealer_page(browser, servers, table), display_page(browser, servers, table)
    pictures = os.environ.get("EGM_DOCS_IMG")
    shown: list[str] = []
    for figure, winners, code in (("fig5", "PDD", "D2"), ("fig7", "HPD", "S"), ("fig9", "PPD", "P2")):
        press(dealer, *winners)
        enter_hand(dealer)
        shown.append(code)
        wait_codes(display, shown)
        row = display.locator("#rows tr").last
        assert [p.get_attribute("class") for p in row.locator(".pip").all()] == [f"pip {w}" for w in winners]
        if pictures:
            display.screenshot(path=str(Path(pictures) / f"live-{figure}.png"))
    assert display.locator("#totals [data-side=S]").inner_text().strip() == "S1"


def test_the_keypad_enter_undo_correct_void_and_new_session(browser, servers, table) -> None:
    dealer, display = dealer_page(browser, servers, table), display_page(browser, servers, table)
    enter = dealer.get_by_role("button", name="ENTER")
    press(dealer, "P", "P", "H")
    assert enter.is_enabled()
    dealer.get_by_role("button", name="FRONT Dragon").click()  # a fourth press: refused, nothing changes
    assert "All three are set" in dealer.locator("#status").inner_text()
    dealer.get_by_role("button", name="UNDO").click()  # clears the last press (BACK)
    assert enter.is_disabled()
    assert dealer.get_by_role("button", name="BACK House").get_attribute("aria-pressed") == "false"
    dealer.get_by_role("button", name="BACK Dragon").click()
    hand_id = enter_hand(dealer)
    wait_codes(display, ["P2"])

    dealer.get_by_role("button", name=f"Correct hand {hand_id}").click()
    dialog = dealer.get_by_role("dialog", name="Correct a hand")
    dialog.get_by_label("MIDDLE").select_option("D")
    dialog.get_by_label("Reason").fill("middle hand misread")
    dialog.get_by_label("Supervisor PIN").fill("not the pin 0000")
    dialog.get_by_role("button", name="CORRECT").click()
    dealer.get_by_text("supervisor other than the dealer").wait_for()
    assert codes_shown(display) == ["P2"]
    dialog.get_by_label("Supervisor PIN").fill(PASSWORDS["supervisor"])
    dialog.get_by_role("button", name="CORRECT").click()
    wait_codes(display, ["D2"])
    assert "CORRECTED" in display.locator("#rows tr").last.inner_text()

    press(dealer, "H", "H", "H")
    newest = enter_hand(dealer)
    wait_codes(display, ["D2", "H3"])
    dealer.get_by_role("button", name=f"Void hand {newest}").click()
    wait_codes(display, ["D2"])

    dealer.get_by_role("button", name="NEW SESSION").click()
    wait_codes(display, [])


def test_the_display_says_offline_when_its_server_stops_and_heals(browser, servers, table) -> None:
    dealer, display = dealer_page(browser, servers, table), display_page(browser, servers, table)
    banner = display.get_by_role("alert")
    press(dealer, "D", "D", "D")
    enter_hand(dealer)
    wait_codes(display, ["D3"])
    servers[1].stop()
    banner.wait_for(state="visible", timeout=UPDATE_S * 1000)
    assert "OFFLINE" in banner.inner_text()
    press(dealer, "P", "H", "P")  # entered on the other instance while the display's is down
    enter_hand(dealer)
    servers[1].start()
    wait_codes(display, ["D3", "P2"])  # reconnected: the whole board, including what it missed
    banner.wait_for(state="hidden", timeout=UPDATE_S * 1000)

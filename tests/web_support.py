"""The player's browser client under test: one real server (SQLite) per test module, and players made
in a real browser page. The tables' own tests build on these (docs/web.md, "How it is tested")."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def web_server(compiled_build: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The server the module's browsers play on; once they are done, `egm server audit` must find its
    books balanced (every balance from the ledger, every round's stake and win from its record)."""
    workdir: Path = tmp_path_factory.mktemp("web")
    server = ServerProcess(f"sqlite:///{workdir / 'egm.db'}", workdir).start()
    yield server
    server.stop()
    audit = subprocess.run([sys.executable, "-c", "import sys; from egm.cli import main; sys.exit(main())",
                            "server", "audit", "--db", server.db_url, "--json"],
                           capture_output=True, text=True, timeout=600, cwd=workdir)
    assert audit.returncode == 0, f"egm server audit: {audit.stdout[-2000:]}{audit.stderr[-2000:]}"


def api_from_page(page: Any, method: str, path: str, body: dict[str, Any] | None = None,
                  csrf: str = "") -> dict[str, Any]:
    """A request made by the page itself (its cookies, its Origin), as the player's browser makes it;
    answers {status, reply}."""
    result: dict[str, Any] = page.evaluate(
        """async ([method, path, body, csrf]) => {
             const r = await fetch(path, {method, credentials: "same-origin",
               headers: body ? {"Content-Type": "application/json", "X-CSRF-Token": csrf} : {},
               body: body ? JSON.stringify(body) : undefined});
             return {status: r.status, reply: await r.json().catch(() => ({}))};
           }""", [method, path, body, csrf])
    return result


def new_player(browser: Any, server: ServerProcess, size: str, deposit_cents: int = 0) -> tuple[Any, str]:
    """A fresh browser context at `size` with a registered player logged in (and a deposit made);
    answers (page, login)."""
    page = browser.new_context(**SIZES[size]).new_page()
    page.goto(f"{server.base}/healthz")
    login = f"p{uuid.uuid4().hex[:10]}"
    made = api_from_page(page, "POST", "/api/v1/auth/register", {"login": login, "password": PASSWORD})
    assert made["status"] == 201, made
    if deposit_cents:
        paid = api_from_page(page, "POST", "/api/v1/wallet/deposit",
                             {"request_id": f"dep-{login}", "amount_cents": deposit_cents},
                             made["reply"]["csrf_token"])
        assert paid["status"] == 200, paid
    return page, login


def session_of(page: Any) -> dict[str, Any]:
    answer = api_from_page(page, "GET", "/api/v1/session")
    assert answer["status"] == 200, answer
    return dict(answer["reply"])


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    """A finger drag from `start` to `end` (CSS pixels in the viewport), as the touch screen sends it:
    touchStart, touchMoves, touchEnd through the Chrome DevTools Protocol (Playwright's touchscreen
    only taps). The page's Pointer Events handlers see pointerType "touch"."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def drag(page: Any, size: str, piece: Any, target: Any) -> None:
    """`piece` dragged onto `target`: a finger drag on the phone (CDP touch events), a mouse drag on the
    desktop."""
    start, end = centre(piece), centre(target)
    if size == "phone":
        touch_drag(page, start, end)
        return
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


CONTROLS = "button, a[href], input, select, textarea, [role=button], [tabindex]:not([tabindex='-1'])"


def unusable(page: Any) -> list[str]:
    """What breaks the phone-first rules on the page as it stands: the page scrolls sideways, or a visible
    control has no accessible name or is smaller than 44 x 44 CSS px. Empty when all is well."""
    found: list[str] = page.evaluate(
        """(selector) => {
             const bad = [];
             const root = document.documentElement;
             if (root.scrollWidth > innerWidth) bad.push(`scrolls sideways: ${root.scrollWidth} px`);
             const named = (node) => {
               const by = node.getAttribute("aria-labelledby");
               const text = node.getAttribute("aria-label")
                 || (by && by.split(" ").map((id) => document.getElementById(id)?.textContent).join(" "))
                 || [...(node.labels || [])].map((l) => l.textContent).join(" ")
                 || (node.type !== "hidden" && node.tagName !== "SELECT" && node.tagName !== "INPUT"
                     && node.textContent)
                 || node.getAttribute("title") || node.querySelector?.("img[alt]")?.alt || "";
               return text.trim();
             };
             for (const node of document.querySelectorAll(selector)) {
               const box = node.getBoundingClientRect();
               const style = getComputedStyle(node);
               const shown = box.width > 0 && style.visibility !== "hidden";
               if (!shown || node.closest("[hidden], dialog:not([open])")) continue;
               const what = node.outerHTML.slice(0, 80);
               if (!named(node)) bad.push(`no accessible name: ${what}`);
               const size = `${Math.round(box.width)}x${Math.round(box.height)} px`;
               if (box.width < 44 || box.height < 44) bad.push(`${size}: ${what}`);
             }
             return bad;
           }""", CONTROLS)
    return found


def register_by_form(page: Any, server: ServerProcess, next_path: str = "/") -> str:
    """A new player registered through the register page, as a person does it; answers the login."""
    login = f"p{uuid.uuid4().hex[:10]}"
    page.goto(f"{server.base}/register?next={next_path}")
    page.get_by_label("Name").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="REGISTER").click()
    page.wait_for_url(f"{server.base}{next_path}")
    return login


def round_paid(page: Any, game_id: str, deposit_cents: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """After a player's one round: no round is open, the history holds it complete, the balance is the
    deposit less the stake plus the win, and the page shows that balance. Answers (session, played)."""
    session = session_of(page)
    assert session["open_round"] is None
    [played] = api_from_page(page, "GET", "/api/v1/history")["reply"]["rounds"]
    assert played["status"] == "complete" and played["game_id"] == game_id
    assert session["balance_cents"] == deposit_cents - played["stake_cents"] + played["win_cents"]
    page.wait_for_function("(text) => document.querySelector('#balance').textContent === text",
                           arg=f"${session['balance_cents'] / 100:,.2f}")
    return session, played


def end_shown(page: Any, played: dict[str, Any]) -> tuple[Any, dict[str, Any], list[str], int]:
    """The end of a board game's round (Poker Grid, Poker Tiles, Prism Words) against its record: the
    heading is the result, the record's pays (units x the bet) add up to the win, and the end says what
    was paid for what stake. Answers (the end's region, the final view, the pays as listed, the cents
    one unit pays)."""
    end = page.get_by_role("region", name="What was paid")
    view = api_from_page(page, "GET", f"/api/v1/rounds/{played['round_id']}")["reply"]["view"]
    assert end.get_by_role("heading").text_content() == view["result_text"]
    unit_cents = played["stake_cents"] // view["stake_credits"] * view["bet_credits"]
    total = sum(units for _, units in view["table"]["pays"]) * unit_cents
    assert total == played["win_cents"]
    stake = played["stake_cents"]
    assert f"Paid ${total / 100:,.2f} for a stake of ${stake / 100:,.2f}." in (end.text_content() or "")
    pays = end.get_by_role("list", name="Pays").get_by_role("listitem").all_text_contents()
    return end, view, pays, unit_cents

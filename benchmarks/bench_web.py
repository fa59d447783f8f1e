"""The browser client's speed, measured in Debian's chromium with Playwright's Performance API readings,
against a real `egm server` process on 127.0.0.1 (SQLite) that has already served the page once (warm):

- first page load: a fresh browser context (empty cache) opens a game's table; the navigation's
  load event, and the moment PLAY is ready (the shell has loaded the table module and the session);
- a decision's round trip: from the press of AUTO (a click handler's timestamp) to the table's redraw
  (the first change under #table after it), p50 / p95 over --decisions presses;
- page weight without images: the bytes of every resource the table page (and the lobby) loads, images
  excluded (the Resource Timing body sizes; nothing is compressed on 127.0.0.1).

    python benchmarks/bench_web.py [--game poker-grid] [--loads 10] [--decisions 100] [--generic]

Prints JSON; asserts nothing about time. docs/web.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, ServerProcess  # noqa: E402
from tests.rom_support import ensure_compiled_build  # noqa: E402
from tests.web_support import DESKTOP, new_player  # noqa: E402

READY = "() => !document.getElementById('start').disabled"
LOADED = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return {load_ms: nav.loadEventEnd - nav.startTime, ready_ms: performance.now()};
}"""
WEIGHT = """() => {
  const entries = ["navigation", "resource"].flatMap((type) => performance.getEntriesByType(type));
  const kept = entries.filter((e) => e.initiatorType !== "img" && !/\\.(png|svg|jpe?g|webp)$/.test(e.name));
  return {bytes: kept.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0),
          transferred: kept.reduce((sum, e) => sum + (e.transferSize || 0), 0),
          files: kept.map((e) => [e.name.replace(location.origin, ""), e.decodedBodySize])};
}"""
PRESSABLE = """() => {
  const auto = document.getElementById("auto"), start = document.getElementById("start");
  return (!auto.hidden && !auto.disabled) || (!document.getElementById("wager").hidden && !start.disabled);
}"""
# Each press of AUTO stamps its time; the first change under #table after it stamps the redraw.
WATCH = """() => {
  window.trips = [];
  let pressed = null;
  document.getElementById("auto").addEventListener("click", () => { pressed = performance.now(); }, true);
  new MutationObserver(() => {
    if (pressed !== null) { window.trips.push(performance.now() - pressed); pressed = null; }
  }).observe(document.getElementById("table"), {subtree: true, childList: true, characterData: true,
                                                attributes: true});
}"""


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def first_loads(browser: Any, server: ServerProcess, url: str, loads: int) -> dict[str, Any]:
    page, _ = new_player(browser, server, "desktop")
    cookies = page.context.cookies()
    page.goto(url)  # the server's first serving of the page: now it is warm
    page.wait_for_function(READY)
    load, ready = [], []
    for _ in range(loads):
        context = browser.new_context(**DESKTOP)  # a fresh context: nothing cached
        context.add_cookies(cookies)
        fresh = context.new_page()
        fresh.goto(url)
        fresh.wait_for_function(READY)
        timing = fresh.evaluate(LOADED)
        load.append(timing["load_ms"])
        ready.append(timing["ready_ms"])
        context.close()
    return {"load_event_ms_p50": round(statistics.median(load), 1), "load_event_ms_max": round(max(load), 1),
            "ready_to_play_ms_p50": round(statistics.median(ready), 1),
            "ready_to_play_ms_max": round(max(ready), 1)}


def round_trips(browser: Any, server: ServerProcess, url: str, decisions: int) -> dict[str, Any]:
    page, _ = new_player(browser, server, "desktop", deposit_cents=10_000_000)
    page.goto(url)
    page.wait_for_function(READY)
    page.evaluate(WATCH)
    auto, start = page.locator("#auto"), page.locator("#start")
    presses = 0
    while presses < decisions:
        page.wait_for_function(PRESSABLE)
        if start.is_visible():
            start.click()
            page.wait_for_function("() => document.getElementById('wager').hidden"
                                   " || document.getElementById('say').dataset.kind === 'result'")
            continue
        auto.click()
        presses += 1
        page.wait_for_function(f"() => window.trips.length >= {presses}")
    trips = page.evaluate("() => window.trips")
    return {"decisions": len(trips), "round_trip_ms_p50": percentile(trips, 0.5),
            "round_trip_ms_p95": percentile(trips, 0.95), "round_trip_ms_max": round(max(trips), 1)}


def weight(browser: Any, server: ServerProcess, url: str) -> dict[str, Any]:
    page, _ = new_player(browser, server, "desktop")
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return dict(page.evaluate(WEIGHT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="poker-grid")
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--generic", action="store_true", help="play on the generic table")
    args = parser.parse_args()
    ensure_compiled_build()
    with tempfile.TemporaryDirectory() as workdir:
        server = ServerProcess(f"sqlite:///{workdir}/egm.db", Path(workdir)).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                url = f"{server.base}/play/{args.game}" + ("?table=generic" if args.generic else "")
                table = weight(browser, server, url)
                lobby = weight(browser, server, f"{server.base}/")
                print(json.dumps({
                    "game": args.game, "table": "generic" if args.generic else "its own (or generic)",
                    **first_loads(browser, server, url, args.loads),
                    **round_trips(browser, server, url, args.decisions),
                    "table_page_bytes_without_images": table["bytes"],
                    "table_page_files": table["files"],
                    "lobby_bytes_without_images": lobby["bytes"],
                }, indent=1))
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

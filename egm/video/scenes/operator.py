"""The operator (audit) menu, reached with the operator key: meters, recall of the last games (each
drawn again by its game's table scene from the recall record), the event log, the ROM check, RAM
clear behind a confirmation, and (for the kiosk) shutdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from egm.events import ChangeSetting, RamClear, RunRomCheck, SetBetLevels, SetJurisdiction
from egm.games import UnknownGame, descriptor_of
from egm.money import format_denomination
from egm.video import snap
from egm.video.layout import CONTENT_RECT
from egm.video.scene import Frame, Resources, Scene, UiAction
from egm.video.scenes import game_scene
from egm.video.scenes.clock_setting import ClockSetting
from egm.video.service_info import log_time, unavailable_lines
from egm.video.theme import AMBER, CABINET, CYAN, GOLD, GREEN, LIGHT_GREY, RED, WHITE, money, panel
from egm.video.widgets import Button, draw_all, hit_any

TABS = ("meters", "recall", "events", "devices", "settings", "pools", "rom", "ram_clear", "shutdown")
TAB_LABELS = {
    "meters": "METERS",
    "recall": "GAME\nRECALL",
    "events": "EVENT\nLOG",
    "devices": "DEVICE\nSTATUS",
    "settings": "SETTINGS",
    "pools": "POOL\nMETERS",
    "rom": "ROM\nDETAILS",
    "ram_clear": "RAM\nCLEAR",
    "shutdown": "SHUT\nDOWN",
}
TAB_STEP, TAB_W = 205, 195
PAGED = ("meters", "events", "rom")  # tabs with NEXT / PREVIOUS PAGE (also PAGE DOWN / UP and the wheel)
PAGE_KEYS = {pygame.K_PAGEDOWN: 1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -1, pygame.K_UP: -1}
METER_ROWS, METER_STEP, METER_COLUMN = 14, 44, 700  # two columns of meters a page
PAGER = (pygame.Rect(1500, 300, 340, 100), pygame.Rect(1500, 430, 340, 100))  # OLDER / NEWER
BODY = pygame.Rect(40, 150, 1840, 760)
TEXT_W = 1400  # the width of a page's text: left of the pager
EVENT_SIZE, EVENT_STEP = 26, 34  # the event log's text size and line step
ROM_SIZE, ROM_STEP = 22, 30  # the ROM details' text size and line step
EVENTS_TOP, EVENTS_BOTTOM = BODY.y + 80, BODY.bottom - 110  # where a page's text goes, above the buttons
RECALL_RECT = pygame.Rect(60, 240, 1344, 651)  # 0.7 of the 1920x930 table
LEVELS_X, LEVEL_STEP = BODY.x + 760, 130  # a game's bet-level toggles on the settings page
METER_WORDS = {  # meters whose trade name alone is taken for something else
    "jackpot": "jackpot (wins paid by hand)",  # not a pool: the Dragon jackpot is on POOL METERS
}
COUNT_METERS = ("games_played", "games_won", "games_lost", "door_opens", "power_resets")


class OperatorScene(Scene):
    name = "operator"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.tab = "meters"
        self.recall_index = 0  # 0 = the last game
        self.page = 0  # the event log's or the ROM file list's page (0 = the first)
        self.confirm = False
        self.tables: dict[str, Scene] = {}
        self.picture: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self.events_laid_out: tuple[tuple[Any, ...], list[list[tuple[list[str], Any]]]] | None = None
        self.rom_laid_out: tuple[tuple[Any, ...], list[list[tuple[list[str], Any]]]] | None = None
        self.clock_setting = ClockSetting()  # the SETTINGS page's date and time row

    def enter(self, frame: Frame) -> None:
        self.tab, self.recall_index, self.confirm, self.page = "meters", 0, False, 0
        self.clock_setting.reset()

    def update(self, frame: Frame) -> None:
        self.clock_setting.update(frame)

    def buttons(self, frame: Frame) -> list[Button]:
        out = [
            Button(
                tab,
                TAB_LABELS[tab],
                pygame.Rect(40 + i * TAB_STEP, 20, TAB_W, 110),
                "on",
                CYAN if tab == self.tab else AMBER,  # the open page's tab stands out
            )
            for i, tab in enumerate(TABS)
        ]
        if self.tab == "recall":
            count = len(snap.recall(frame.snapshot))
            out += [
                Button("older", "OLDER", pygame.Rect(1460, 300, 380, 110),
                       "on" if self.recall_index + 1 < count else "off"),
                Button(
                    "newer", "NEWER", pygame.Rect(1460, 440, 380, 110), "on" if self.recall_index else "off"
                ),
            ]
        elif self.tab in PAGED:
            pages = self.pages(frame)
            out += [
                Button("page_older", "OLDER" if self.tab == "events" else "NEXT PAGE", PAGER[0],
                       "on" if self.page + 1 < pages else "off"),
                Button("page_newer", "NEWER" if self.tab == "events" else "PREVIOUS PAGE", PAGER[1],
                       "on" if self.page else "off"),
            ]
            if self.tab == "rom":
                out.append(Button("rom_check", "RUN ROM\nCHECK", pygame.Rect(1500, 600, 340, 120), "on"))
        elif self.tab == "settings":
            refused = service(frame).get("refusals", {})
            for i, (name, _, _, offer) in enumerate(service(frame).get("settings", [])):
                y = BODY.y + 78 + i * 56
                if name == "date_time":
                    out += self.clock_setting.buttons(frame, y)
                elif isinstance(offer, tuple):  # a game's bet levels: a toggle each
                    out += level_toggles(name.split(":", 1)[1], offer, y, name not in refused)
                elif offer is not None:
                    rect = pygame.Rect(1560, y, 260, 50)
                    lamp = "off" if name in refused else "on"
                    out.append(Button(f"set:{name}:{offer}", "CHANGE", rect, lamp))
        elif self.tab == "ram_clear":
            if self.confirm:
                out += [
                    Button(
                        "ram_yes", "YES, CLEAR\nALL MEMORY", pygame.Rect(560, 640, 380, 130), "flash", RED
                    ),
                    Button("ram_no", "NO, KEEP", pygame.Rect(980, 640, 380, 130), "on", GREEN),
                ]
                if credit := unverified_credit(frame):  # a memory in RAM error still shows a credit
                    label = f"HAND PAY {money(credit)}\nTHEN CLEAR"
                    out.append(Button("ram_handpay", label, pygame.Rect(140, 640, 380, 130), "flash", AMBER))
            else:
                lamp = "off" if "ram_clear" in service(frame).get("refusals", {}) else "on"
                out.append(Button("ram_ask", "RAM CLEAR...", pygame.Rect(760, 640, 400, 130), lamp, RED))
        elif self.tab == "shutdown":
            out.append(Button("shutdown_yes", "SHUT DOWN\nNOW", pygame.Rect(760, 600, 400, 130), "on", RED))
        return out

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        if self.tab in PAGED and event.type in (pygame.KEYDOWN, pygame.MOUSEWHEEL):
            step = PAGE_KEYS.get(event.key, 0) if event.type == pygame.KEYDOWN else -event.y
            self.page = min(max(0, self.page + (step > 0) - (step < 0)), self.pages(frame) - 1)
            return []
        if event.type != pygame.MOUSEBUTTONUP:
            return []
        button = hit_any(self.buttons(frame), event.pos)
        if button is None:
            return []
        if not button.enabled:  # a dark button: the press cannot succeed now; say why
            why = refusal_of(button.action, service(frame).get("refusals", {}))
            return [UiAction("notice", why)] if why else []
        action = button.action
        if action in TABS:
            self.tab, self.confirm, self.page = action, False, 0
            self.clock_setting.reset()
        elif action.startswith("clock:"):
            return self.clock_setting.press(action, frame)
        elif action == "page_older":
            self.page = min(self.page + 1, self.pages(frame) - 1)
        elif action == "page_newer":
            self.page = max(0, self.page - 1)
        elif action.startswith("set:jurisdiction:"):
            return [SetJurisdiction(action.split(":")[2])]
        elif action.startswith("set:"):
            _, name, value = action.split(":")
            return [ChangeSetting(name, int(value))]
        elif action.startswith("bets:"):
            _, game_id, levels = action.split(":")
            return [SetBetLevels(game_id, tuple(int(b) for b in levels.split(",") if b))]
        elif action == "older":
            self.recall_index = min(self.recall_index + 1, max(0, len(snap.recall(frame.snapshot)) - 1))
        elif action == "newer":
            self.recall_index = max(0, self.recall_index - 1)
        elif action == "rom_check":
            return [RunRomCheck()]
        elif action == "ram_ask":
            self.confirm = True
        elif action == "ram_no":
            self.confirm = False
        elif action == "ram_yes":
            self.confirm = False
            return [RamClear()]
        elif action == "ram_handpay":
            self.confirm = False
            return [RamClear(hand_pay_cents=unverified_credit(frame))]
        elif action == "shutdown_yes":
            return [UiAction("shutdown")]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        panel(surface, BODY)
        getattr(self, f"_draw_{self.tab}")(surface, frame)
        warnings = frame.snapshot.get("warnings") or []  # for the attendant: e.g. paper low
        if warnings:
            self.res.kit.text(surface, "ATTENTION: " + "  ".join(warnings), (BODY.right - 30, BODY.y + 26),
                              26, AMBER, bold=True, anchor="topright")
        draw_all(surface, self.res.kit, self.buttons(frame), frame.now)

    def _title(self, surface: pygame.Surface, text: str) -> None:
        self.res.kit.text(surface, text, (BODY.x + 30, BODY.y + 20), 40, GOLD, bold=True)

    def _draw_meters(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        pages = self.meter_pages(frame)
        self._title(surface, f"METERS: page {self.page + 1} of {len(pages)}")
        for i, (name, value) in enumerate(pages[min(self.page, len(pages) - 1)]):
            x = BODY.x + 30 + (i // METER_ROWS) * METER_COLUMN
            y = BODY.y + 84 + (i % METER_ROWS) * METER_STEP
            kit.text(surface, name, (x, y), kit.fit(name, METER_COLUMN - 230, 26), LIGHT_GREY)
            kit.text(surface, value, (x + METER_COLUMN - 40, y), 26, WHITE, bold=True, anchor="topright")

    def meter_pages(self, frame: Frame) -> list[list[tuple[str, str]]]:
        """Every meter the cabinet keeps, as (name, value) lines, two columns a page."""
        names = service(frame).get("paytable_names", {})
        lines = meter_lines(snap.meters(frame.snapshot), names)
        per = 2 * METER_ROWS
        return [lines[i:i + per] for i in range(0, len(lines), per)] or [[]]

    def _draw_recall(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        records = snap.recall(frame.snapshot)
        if not records:
            self._title(surface, "GAME RECALL: no game played yet")
            return
        index = min(self.recall_index, len(records) - 1)
        record = records[index]  # newest first: 1 is the last game
        self._title(surface, f"GAME RECALL: game {index + 1} of {len(records)} (1 = last)")
        surface.blit(self.recall_picture(record, frame.now), RECALL_RECT)
        pygame.draw.rect(surface, GOLD, RECALL_RECT, width=3)
        for i, line in enumerate(recall_lines(record)):
            kit.text(surface, line, (1460, 600 + i * 40), 26, WHITE)

    def recall_picture(self, record: Mapping[str, Any], now: float) -> pygame.Surface:
        """The recalled game's table, drawn by its own scene from the record's view, scaled to fit;
        drawn once per record."""
        key = (record.get("seq"), record.get("number"), record.get("at"))
        if self.picture is None or self.picture[0] != key:
            gid = str(record.get("game_id", ""))
            table = self.tables.get(gid) or self.tables.setdefault(gid, game_scene(self.res, gid))
            picture = pygame.Surface(CONTENT_RECT.size)
            picture.fill(CABINET)
            shown = {"game_id": gid, "view": record.get("view"), "number": record.get("number")}
            denom = (record.get("wager") or {}).get("denom_cents")  # its money in the credits it was bet in
            recall_frame = Frame({"state": "audit", "game": shown, "denomination_cents": denom}, now)
            table.enter(recall_frame)
            table.draw(picture, recall_frame)
            self.picture = (key, pygame.transform.smoothscale(picture, RECALL_RECT.size))
        return self.picture[1]

    def pages(self, frame: Frame) -> int:
        """How many pages the open tab fills (the meters, the event log, the ROM details)."""
        if self.tab == "meters":
            return len(self.meter_pages(frame))
        if self.tab == "events":
            return len(self.event_pages(frame))
        if self.tab == "rom":
            return len(self.rom_pages(frame))
        return 1

    def _draw_events(self, surface: pygame.Surface, frame: Frame) -> None:
        log = snap.event_log(frame.snapshot)
        pages = self.event_pages(frame)
        self._title(surface, f"EVENT LOG (newest first): page {self.page + 1} of {len(pages)}, "
                             f"{len(log)} entries")
        y = EVENTS_TOP
        for parts, colour in pages[min(self.page, len(pages) - 1)]:
            y = self._draw_parts(surface, parts, y, EVENT_SIZE, EVENT_STEP, colour)

    def event_pages(self, frame: Frame) -> list[list[tuple[list[str], Any]]]:
        """The event log in pages, laid out once per log."""
        log = snap.event_log(frame.snapshot)
        key = ("events", len(log), repr(log[0]) if log else "")
        if self.events_laid_out is None or self.events_laid_out[0] != key:
            # the sequence number orders the log, whatever the times say (the clock may be set back)
            lines = [(f"#{e.get('seq', '')}  {log_time(e.get('at', ''))}  {e.get('message', '')}", LIGHT_GREY)
                     for e in log]  # the message is the sentence; its kind stays in the record
            self.events_laid_out = (key, self.lay_out(lines, EVENTS_TOP))
        return self.events_laid_out[1]

    def rom_pages(self, frame: Frame) -> list[list[tuple[list[str], Any]]]:
        """The ROM details in pages: the version, the last check and the pay tables, then every
        program file of the manifest with its hash, none left out; laid out once per check."""
        rom, unavailable = service(frame).get("rom", {}), unavailable_lines(frame.snapshot)
        key = ("rom", rom.get("last_check", ""), len(rom.get("files", [])), tuple(unavailable))
        if self.rom_laid_out is None or self.rom_laid_out[0] != key:
            check = rom.get("last_check", "")
            files = rom.get("files", [])
            lines = [(f"Software: {rom.get('version', '')}", WHITE),
                     (f"Last check: {check}", GREEN if "verified" in check else RED)]
            lines += [(f"Pay table {pid} v{version}  sha256 {digest}", CYAN)
                      for pid, version, digest in rom.get("paytables", [])]
            lines += [(sentence, RED) for sentence in unavailable]  # a game left out, and why
            lines.append((f"Program files in the manifest: {len(files)}", GOLD))
            lines += [(f"{digest}  {path}", LIGHT_GREY) for path, digest in files]
            self.rom_laid_out = (key, self.lay_out(lines, BODY.y + 80, ROM_SIZE, ROM_STEP))
        return self.rom_laid_out[1]

    def lay_out(self, lines: list[tuple[str, Any]], top: int, size: int = EVENT_SIZE,
                step: int = EVENT_STEP) -> list[list[tuple[list[str], Any]]]:
        """Lines in pages: each wrapped to the page's width beside the pager (never shrunk), as many
        whole lines on a page as fit above the buttons."""
        room = EVENTS_BOTTOM - top
        pages: list[list[tuple[list[str], Any]]] = [[]]
        used = 0
        for text, colour in lines:
            parts = self.res.kit.wrap(text, TEXT_W, size)
            need = len(parts) * step + step // 4
            if pages[-1] and used + need > room:
                pages.append([])
                used = 0
            pages[-1].append((parts, colour))
            used += need
        return pages

    def _draw_parts(self, surface: pygame.Surface, parts: list[str], y: int, size: int, step: int,
                    colour: Any) -> int:
        """One wrapped line: its parts, continuations indented, none below the page's bottom."""
        for i, part in enumerate(parts):
            if y + step > EVENTS_BOTTOM:
                return y
            self.res.kit.text(surface, part, (BODY.x + 30 + (30 if i else 0), y), size, colour)
            y += step
        return y + step // 4

    def _draw_rom(self, surface: pygame.Surface, frame: Frame) -> None:
        pages = self.rom_pages(frame)
        self._title(surface, "ROM DETAILS")
        where = f"page {self.page + 1} of {len(pages)}"
        self.res.kit.text(surface, where, (BODY.x + 330, BODY.y + 30), 30, GOLD)
        y = BODY.y + 80
        for parts, colour in pages[min(self.page, len(pages) - 1)]:
            y = self._draw_parts(surface, parts, y, ROM_SIZE, ROM_STEP, colour)

    def _draw_devices(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "DEVICE STATUS")
        heads = (("DEVICE", 0), ("LINK", 300), ("NOW", 620), ("LAST FAULT", 1000))
        for title, dx in heads:
            kit.text(surface, title, (BODY.x + 30 + dx, BODY.y + 90), 26, GOLD, bold=True)
        for i, row in enumerate(service(frame).get("devices", [])):
            y = BODY.y + 140 + i * 56
            for (_, dx), value in zip(heads, row, strict=True):
                colour = (GREEN if value == "OK" else RED) if dx == 620 else WHITE
                width = 360 if dx < 1000 else 800
                kit.text(surface, value, (BODY.x + 30 + dx, y), kit.fit(value, width, 26), colour)

    def _draw_settings(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "SETTINGS (each change is logged with its old and new value)")
        for i, (name, label, value, _) in enumerate(service(frame).get("settings", [])):
            y = BODY.y + 88 + i * 56
            kit.text(surface, label, (BODY.x + 30, y), 28, LIGHT_GREY)
            if name == "date_time":  # its fields are buttons
                self.clock_setting.draw(surface, kit, BODY.x + 30, y, value)
            elif name.startswith("bet_levels:"):  # the toggles, then the unit
                kit.text(surface, value, (LEVELS_X + 4 * LEVEL_STEP, y), 28, WHITE, bold=True)
            else:
                kit.text(surface, value, (BODY.x + 760, y), 28, WHITE, bold=True)

    def _draw_pools(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "POOL METERS: the running pools (since the last RAM clear)")
        rows = service(frame).get("pools", [])
        if not rows:
            kit.text(surface, "No game on this cabinet has a running pool.", (BODY.x + 30, BODY.y + 100), 28,
                     WHITE)
        for i, (label, value) in enumerate(rows):
            y = BODY.y + 88 + i * 50
            kit.text(surface, label, (BODY.x + 30, y), 28, LIGHT_GREY)
            kit.text(surface, value, (BODY.x + 1000, y), 28, WHITE, bold=True, anchor="topright")

    def _draw_ram_clear(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "RAM CLEAR")
        lines = [
            "Erases every meter, the game recall, the event log and the jackpot pool,",
            "then restarts the machine. It cannot be undone.",
        ]
        if self.confirm:
            lines.append("Are you sure? Touch YES to clear all memory.")
        for i, line in enumerate(lines):
            kit.text(
                surface, line, (960, 330 + i * 56), 38, RED if i == 2 else WHITE, bold=i == 2, anchor="midtop"
            )
        if credit := unverified_credit(frame):
            source = frame.snapshot["ram_clear_evidence"]["source"]
            headline = f"Credit read from the damaged memory (unverified): {money(credit)}"
            kit.text(surface, headline, (960, 200), 38, AMBER, bold=True, anchor="midtop")
            kit.text(surface, f"Read from {source}. Hand-pay it before clearing.", (960, 256), 26, WHITE,
                     anchor="midtop")

    def _draw_shutdown(self, surface: pygame.Surface, frame: Frame) -> None:
        self._title(surface, "SHUT DOWN")
        self.res.kit.text(
            surface,
            "Stops the cabinet software. Wager memory is already saved.",
            (960, 400),
            38,
            WHITE,
            anchor="midtop",
        )


def level_toggles(game_id: str, levels: tuple[tuple[int, bool], ...], y: int, changeable: bool = True
                  ) -> list[Button]:
    """One toggle per bet level of a game: green while enabled; a press sends the levels with that one
    switched. Dark when the press cannot succeed: the levels do not change now (`changeable`), or it
    is the last level enabled."""
    enabled = {b for b, on in levels if on}
    out = []
    for k, (level, on) in enumerate(levels):
        after = sorted(enabled - {level} if on else enabled | {level})
        rect = pygame.Rect(LEVELS_X + k * LEVEL_STEP, y, LEVEL_STEP - 12, 50)
        lamp = "on" if changeable and after else "off"
        out.append(Button(f"bets:{game_id}:{','.join(map(str, after))}", f"{level:,}", rect, lamp,
                          GREEN if on else LIGHT_GREY))
    return out


def refusal_of(action: str, refusals: Mapping[str, str]) -> str:
    """Why a dark service-page button's press cannot succeed now (the cabinet's words)."""
    kind, _, rest = action.partition(":")
    if kind == "set":
        return refusals.get(rest.split(":")[0], "")
    if kind == "bets":
        game_id, _, after = rest.partition(":")
        now = refusals.get(f"bet_levels:{game_id}", "")
        return now or ("" if after else refusals.get(f"bet_levels:{game_id}:last", ""))
    if action == "ram_ask":
        return refusals.get("ram_clear", "")
    return ""


def unverified_credit(frame: Frame) -> int:
    """The credit a memory in RAM error still shows (the cabinet's best surviving evidence), or 0."""
    evidence = frame.snapshot.get("ram_clear_evidence") or {}
    return int(evidence.get("credit_cents", 0))


def service(frame: Frame) -> Mapping[str, Any]:
    """The service pages' data the controller adds to the operator menu's snapshot."""
    return frame.snapshot.get("service") or {}


def meter_lines(meters: Mapping[str, Any], paytable_names: Mapping[str, str] | None = None
                ) -> list[tuple[str, str]]:
    """Meters as (name, value) lines: counts as 10-digit numbers, money meters (cents) in dollars;
    the per-game meters under the game's title, the per-pay-table meters under the pay table's name
    (`paytable_names`: pay table id -> its name), notes by their value.

    >>> meter_lines({"coin_in": 1234, "games_played": 3, "per_game": {"dragon-poker": {"coin_in": 10}}})
    [('COIN IN', '$12.34'), ('GAMES PLAYED', '0000000003'), ('DRAGON POKER COIN IN', '$0.10')]
    >>> meter_lines({"per_paytable": {"dp-std": {"games_played": 1}}}, {"dp-std": "Dragon Poker pay table 2"})
    [('DRAGON POKER PAY TABLE 2 GAMES PLAYED', '0000000001')]
    """
    names = paytable_names or {}
    lines: list[tuple[str, str]] = []
    for name, value in meters.items():
        if isinstance(value, Mapping):
            for key, inner in value.items():
                if name == "per_game":
                    lines += _titled(game_title(key), inner)
                elif name == "per_paytable":
                    lines += _titled(names.get(key, f"pay table {key}"), inner)
                else:  # notes by denomination: "500" -> "$5.00 NOTES"
                    lines.append((f"{money(int(key))} NOTES", f"{int(inner):010d}"))
            continue
        lines.append(meter_line(name, value))
    return lines


def meter_line(name: str, value: Any, prefix: str = "") -> tuple[str, str]:
    label = f"{prefix} {METER_WORDS.get(name, name.replace('_', ' '))}".strip().upper()
    return label, f"{int(value):010d}" if name in COUNT_METERS else money(int(value))


def _titled(title: str, meters: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [meter_line(name, value, title) for name, value in meters.items()]


def game_title(game_id: str) -> str:
    """A game's title as players know it."""
    try:
        return descriptor_of(game_id).title
    except UnknownGame:
        return "a game no longer installed"


def recall_lines(record: Mapping[str, Any]) -> list[str]:
    """The recall record's money lines beside the redrawn table."""
    outcome = record.get("outcome") or {}
    view = record.get("view")
    result = getattr(view, "result_text", "") or str(outcome.get("result_code", ""))
    denom = int((record.get("wager") or {}).get("denom_cents") or 0)
    return [
        f"Game number {record.get('number', '?')}",
        f"Result: {result}",
        f"Denomination {format_denomination(denom)}" if denom else "",
        f"Stake {money(int(outcome.get('stake_cents', 0)))}",
        f"Won {money(int(outcome.get('win_cents', 0)))}",
        "Hand pay" if outcome.get("hand_paid") else "",
        log_time(record.get("at", "")),
    ]

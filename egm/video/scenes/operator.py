"""The operator (audit) menu, reached with the operator key: meters, recall of the last games (each
drawn again by its game's table scene from the recall record), the event log, the ROM check, RAM
clear behind a confirmation, and (for the kiosk) shutdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from egm.events import RamClear, RunRomCheck
from egm.video import snap
from egm.video.layout import CONTENT_RECT
from egm.video.scene import Frame, Resources, Scene, UiAction
from egm.video.scenes import game_scene
from egm.video.theme import AMBER, CABINET, CYAN, GOLD, GREEN, LIGHT_GREY, RED, WHITE, money, panel
from egm.video.widgets import Button, draw_all, hit

TABS = ("meters", "recall", "events", "rom", "ram_clear", "shutdown")
TAB_LABELS = {
    "meters": "METERS",
    "recall": "GAME\nRECALL",
    "events": "EVENT\nLOG",
    "rom": "ROM\nCHECK",
    "ram_clear": "RAM\nCLEAR",
    "shutdown": "SHUT\nDOWN",
}
BODY = pygame.Rect(40, 150, 1840, 760)
RECALL_RECT = pygame.Rect(60, 240, 1344, 651)  # 0.7 of the 1920x930 table
COUNT_METERS = ("games_played", "games_won", "games_lost", "door_opens", "power_resets")


class OperatorScene(Scene):
    name = "operator"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.tab = "meters"
        self.recall_index = 0  # 0 = the last game
        self.confirm = False
        self.tables: dict[str, Scene] = {}
        self.picture: tuple[tuple[Any, ...], pygame.Surface] | None = None

    def enter(self, frame: Frame) -> None:
        self.tab, self.recall_index, self.confirm = "meters", 0, False

    def buttons(self, frame: Frame) -> list[Button]:
        out = [
            Button(
                tab,
                TAB_LABELS[tab],
                pygame.Rect(40 + i * 306, 20, 290, 110),
                "on",
                CYAN if tab == self.tab else AMBER,  # the open page's tab stands out
            )
            for i, tab in enumerate(TABS)
        ]
        if self.tab == "recall":
            out += [
                Button("older", "OLDER", pygame.Rect(1460, 300, 380, 110), "on"),
                Button(
                    "newer", "NEWER", pygame.Rect(1460, 440, 380, 110), "on" if self.recall_index else "off"
                ),
            ]
        elif self.tab == "rom":
            out.append(Button("rom_check", "RUN ROM\nCHECK", pygame.Rect(760, 700, 400, 130), "on"))
        elif self.tab == "ram_clear":
            if self.confirm:
                out += [
                    Button(
                        "ram_yes", "YES, CLEAR\nALL MEMORY", pygame.Rect(560, 640, 380, 130), "flash", RED
                    ),
                    Button("ram_no", "NO, KEEP", pygame.Rect(980, 640, 380, 130), "on", GREEN),
                ]
            else:
                out.append(Button("ram_ask", "RAM CLEAR...", pygame.Rect(760, 640, 400, 130), "on", RED))
        elif self.tab == "shutdown":
            out.append(Button("shutdown_yes", "SHUT DOWN\nNOW", pygame.Rect(760, 600, 400, 130), "on", RED))
        return out

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        if event.type != pygame.MOUSEBUTTONUP:
            return []
        button = hit(self.buttons(frame), event.pos)
        if button is None:
            return []
        action = button.action
        if action in TABS:
            self.tab, self.confirm = action, False
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
        elif action == "shutdown_yes":
            return [UiAction("shutdown")]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        panel(surface, BODY)
        getattr(self, f"_draw_{self.tab}")(surface, frame)
        draw_all(surface, self.res.kit, self.buttons(frame), frame.now)

    def _title(self, surface: pygame.Surface, text: str) -> None:
        self.res.kit.text(surface, text, (BODY.x + 30, BODY.y + 20), 40, GOLD, bold=True)

    def _draw_meters(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "METERS")
        for i, (name, value) in enumerate(meter_lines(snap.meters(frame.snapshot))[:30]):
            x = BODY.x + 40 + (i // 15) * 900
            y = BODY.y + 84 + (i % 15) * 44
            kit.text(surface, name, (x, y), 26, LIGHT_GREY)
            kit.text(surface, value, (x + 840, y), 26, WHITE, bold=True, anchor="topright")

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
            recall_frame = Frame({"state": "audit", "game": shown}, now)
            table.enter(recall_frame)
            table.draw(picture, recall_frame)
            self.picture = (key, pygame.transform.smoothscale(picture, RECALL_RECT.size))
        return self.picture[1]

    def _draw_events(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "EVENT LOG (newest first)")
        for i, entry in enumerate(snap.event_log(frame.snapshot)[:16]):
            text = f"{str(entry.get('at', ''))[:19]}  {entry.get('kind', '')}: {entry.get('message', '')}"
            kit.text(surface, text[:120], (BODY.x + 30, BODY.y + 80 + i * 42), 26, LIGHT_GREY)

    def _draw_rom(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        self._title(surface, "PROGRAM AND PAY-TABLE ROM")
        kit.text(
            surface,
            "Verifies every program file and pay table against the signed manifest.",
            (BODY.x + 30, BODY.y + 90),
            30,
            WHITE,
        )
        checks = [e for e in snap.event_log(frame.snapshot) if str(e.get("kind", "")).startswith("rom")][:8]
        if not checks:
            kit.text(surface, "No ROM check in the log yet.", (BODY.x + 30, BODY.y + 150), 28, LIGHT_GREY)
        for i, entry in enumerate(checks):
            ok = "verified" in str(entry.get("message", ""))
            text = f"{str(entry.get('at', ''))[:19]}  {entry.get('message', '')}"
            kit.text(surface, text[:110], (BODY.x + 30, BODY.y + 150 + i * 42), 28, GREEN if ok else RED)

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


def meter_lines(meters: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Meters as (name, value) lines: counts as 10-digit numbers, money meters (cents) in dollars,
    per-game and per-denomination tables flattened.

    >>> meter_lines({"coin_in": 1234, "games_played": 3, "per_game": {"dragon-poker": {"coin_in": 10}}})
    [('COIN IN', '$12.34'), ('GAMES PLAYED', '0000000003'), ('DRAGON-POKER COIN IN', '$0.10')]
    """
    lines: list[tuple[str, str]] = []
    for name, value in meters.items():
        if isinstance(value, Mapping):
            inner = "" if name.startswith(("per_", "bills_by")) else name
            lines += meter_lines(value, f"{prefix}{inner} ".lstrip() if inner else prefix)
            continue
        label = (prefix + (f"{money(int(name))} notes" if name.isdigit() else name)).replace("_", " ").upper()
        count = name in COUNT_METERS or name.isdigit()
        lines.append((label, f"{int(value):010d}" if count else money(int(value))))
    return lines


def recall_lines(record: Mapping[str, Any]) -> list[str]:
    """The recall record's money lines beside the redrawn table."""
    outcome = record.get("outcome") or {}
    return [
        f"Game number {record.get('number', '?')}",
        f"Result {outcome.get('result_code', '')}",
        f"Stake {money(int(outcome.get('stake_cents', 0)))}",
        f"Won {money(int(outcome.get('win_cents', 0)))}",
        "Hand pay" if outcome.get("hand_paid") else "",
        str(record.get("at", ""))[:19],
    ]

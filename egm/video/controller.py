"""The video controller (the patent's 220): reads the cabinet's state, draws the scene for it, and
turns keyboard, mouse, touch and the emulated device controls into cabinet events.

It never changes money. Every input becomes either a cabinet event (sent with `cabinet.handle`, whose
refusal reason is shown on screen), an emulated-device action (a bill inserted, a door opened: the
cabinet learns of it by polling its devices, exactly as with real hardware), or a purely visual
action (the help overlay, the device drawer, dismissing a printed ticket, the bet level chosen for the
next game, which the cabinet checks when the game starts).
"""

from __future__ import annotations

import os
import signal
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from egm.audio.controller import AudioController
from egm.clock import Clock
from egm.config import CabinetConfig
from egm.events import CashOut, Key, PlayerDecision, Result, StartGame
from egm.games.base import Game, Round, RoundView
from egm.games.descriptor import InfoPage
from egm.video import service_info, snap
from egm.video.bet_choice import BetChoice
from egm.video.drawer import DRAWER_RECT, DeviceDrawer
from egm.video.inputs import DEVICE_KEYS, PANEL_KEYS, PointerFilter
from egm.video.layout import BAR_RECT, CONTENT_RECT, LOGICAL_SIZE, Viewport
from egm.video.overlays import (
    draw_help,
    draw_server_banner,
    draw_ticket_overlay,
    draw_toasts,
    help_pages,
    shade,
)
from egm.video.panel import AUTO_PLAY, BET_BUTTONS, DENOMINATION, MENU, PanelBar
from egm.video.scene import Frame, Resources, Scene, UiAction
from egm.video.scenes import game_scene
from egm.video.scenes.attract import AttractScene
from egm.video.scenes.boot import BootScene
from egm.video.scenes.cash_out import CashOutScene
from egm.video.scenes.game_select import GameSelectScene
from egm.video.scenes.hand_pay import HandPayScene
from egm.video.scenes.operator import OperatorScene
from egm.video.scenes.tilt import TiltScene
from egm.video.sound_cues import cues
from egm.video.theme import CABINET, GOLD, WHITE, money, panel
from egm.video.wagering import PanelWager
from egm.video.widgets import draw_all, hit, hit_any
from hardware.factory import Devices

TOAST_S = 3.0
CELEBRATE_S = 4.0  # a pool won: the celebration over the table after the reveal
RECALL_SHOWN = 10
HELD_CUES = ("win", "jackpot")  # played once the reveal has shown the result
GAME_KEYS = {f"game_{n}": getattr(pygame, f"K_{n}") for n in range(1, 10)} | {"game_back": pygame.K_BACKSPACE}
"""The panel functions that are the game's own buttons: the keys its scene answers (1-9, BACKSPACE)."""
STATE_SCENES: tuple[tuple[str, type[Scene]], ...] = (  # state prefix -> scene
    ("tilt", TiltScene),
    ("handpay", HandPayScene),
    ("audit", OperatorScene),
    ("cashout", CashOutScene),
    ("powerup", BootScene),
    ("selftest", BootScene),
    ("ramclear", BootScene),
)


class CabinetPort(Protocol):
    """What the display needs from the cabinet controller (egm.cabinet.Cabinet)."""

    games: Mapping[str, Game]
    round: Round | None

    def handle(self, event: object) -> Result: ...

    def poll_devices(self) -> Any: ...

    def snapshot(self) -> dict[str, Any]: ...

    def recall(self) -> list[dict[str, Any]]: ...

    def event_log(self, limit: int | None = None) -> list[dict[str, Any]]: ...

    def refusal(self, event: object) -> str | None: ...


@dataclass
class Toast:
    text: str
    until: float
    error: bool = True


class VideoController(PanelBar, PanelWager, DeviceDrawer):
    """One display of one cabinet."""

    def __init__(
        self,
        cabinet: CabinetPort,
        devices: Devices,
        config: CabinetConfig,
        clock: Clock,
        audio: AudioController,
        *,
        kiosk: bool = False,
        size: tuple[int, int] = LOGICAL_SIZE,
        power_cut: Callable[[], None] | None = None,
    ) -> None:
        self.cabinet = cabinet
        self.devices = devices
        self.config = config
        self.clock = clock
        self.audio = audio
        self.kiosk = kiosk
        self.res = Resources.create()
        self.logical = pygame.Surface(LOGICAL_SIZE)
        self.viewport = Viewport(size)
        self.pointer = PointerFilter(self.viewport)
        self.power_cut = power_cut or (lambda: os.kill(os.getpid(), signal.SIGKILL))
        self.running = True
        self.overlay: str | None = None  # "help", "drawer" or "ticket"
        self.help_page = 0
        self.toasts: list[Toast] = []
        self.keys_on: set[Key] = set()
        self.bets: dict[str, BetChoice] = {}  # the wager chosen on the panel, per game (default: the game's)
        self.table: Mapping[str, Any] | None = None  # the round on the table, live or just finished
        self.shown_outcome: Mapping[str, Any] | None = None
        self.pending_cues: list[str] = []
        self.was_busy = False
        self.rollup_start: float | None = None
        self.held_credit = 0  # the credit shown before a reveal (held while a win goes elsewhere)
        self.rom_files: dict[str, Any] | None = None  # the ROM details, read once
        self.recall_views: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.tickets_seen = len(self._printed())
        self.scenes: dict[str, Scene] = {}
        self.snapshot: dict[str, Any] = self._display(cabinet.snapshot())
        self.frame = Frame(self.snapshot, clock.monotonic())
        self.scene: Scene = self.scene_for(self.snapshot)
        self.scene.enter(self.frame)
        if hasattr(cabinet, "display_attached"):
            cabinet.display_attached = True  # the panel's presses come here (BET, HELP, the game's own)

    # --- the loop body --------------------------------------------------------------------------
    def update(self) -> Frame:
        """Poll the devices, take a snapshot, play sounds for what changed, pick the scene."""
        self._poll_devices()
        self._refresh()
        printed = self._printed()
        if len(printed) > self.tickets_seen and not self.scene.busy(self.frame):  # after a reveal
            self.tickets_seen = len(printed)
            self.overlay = "ticket"
        return self.frame

    def _refresh(self) -> None:
        previous = self.snapshot
        self.snapshot = self._display(self.cabinet.snapshot())
        self.pending_cues += cues(previous, self.snapshot)
        volume = (self.snapshot.get("settings") or {}).get("volume_percent")
        if volume is not None:  # the operator's volume setting
            self.audio.volume = volume / 100
        now = self.clock.monotonic()
        self.toasts = [t for t in self.toasts if t.until > now]
        self.frame = Frame(self.snapshot, now)
        scene = self.scene_for(self.snapshot)
        if scene is not self.scene:
            self.scene = scene
            scene.enter(self.frame)
        scene.update(self.frame)
        busy = scene.busy(self.frame)
        if self.was_busy and not busy:
            self.rollup_start = now  # the result is revealed: the win rolls up
        if not busy:
            self.held_credit = self.meters_shown(self.frame)[0]
        self.was_busy = busy
        for cue in self.pending_cues:
            if not (busy and cue in HELD_CUES):
                self.audio.play(cue)
        self.pending_cues = [c for c in self.pending_cues if busy and c in HELD_CUES]

    def _display(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The cabinet snapshot plus what the display keeps showing: the round on the table (the
        finished round stays until the next game or the game menu, with its game number) and, in the
        operator menu, the recall and the event log."""
        if raw.get("game"):
            # the round in progress is game number games_played (counted when it started)
            self.table = {**raw["game"], "number": int(snap.meters(raw).get("games_played", 0))}
        elif raw.get("last_outcome") and raw["last_outcome"] != self.shown_outcome:
            self.shown_outcome = raw["last_outcome"]
            self.table = self._finished_table(raw["last_outcome"])
            finished = self.table["view"] if self.table else None
            if finished is not None:  # the bet in force for that game stays shown (after a restart too)
                self._keep_bet(finished)
        elif raw.get("last_outcome") is None:
            self.table = None  # a RAM clear forgot the last hand
        finished_in = (self.table or {}).get("denom_cents") if not raw.get("game") else None
        if finished_in is not None and finished_in != snap.denom_cents(raw):
            self.table = None  # the denomination changed since (a cash-out, DENOM): its credits were others
        display = {**raw, "game": self.table}
        if snap.state(raw) == "audit":
            display["recall"] = [self._recall_entry(r) for r in self.cabinet.recall()[:RECALL_SHOWN]]
            display["event_log"] = log = self.cabinet.event_log()
            if self.rom_files is None:
                self.rom_files = service_info.rom_details(self.config, self.cabinet.games)
            speaker = type(self.audio.speaker).__name__.replace("Speaker", "").lower() or "speaker"
            settings = service_info.setting_rows(raw, self.cabinet.games)
            display["service"] = {
                "devices": service_info.device_rows(raw, self.config, f"{speaker}, volume "
                                                    f"{round(self.audio.volume * 100)}%", log),
                "settings": settings,
                "refusals": service_info.refusals(settings, self.cabinet.refusal),
                "pools": service_info.pool_rows(raw),
                "rom": {**self.rom_files, "last_check": service_info.last_rom_check(log)},
                "paytable_names": service_info.paytable_names(self.cabinet.games),
            }
        return display

    def _recall_entry(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """A recall record with the round rebuilt from it, so its table can be drawn again (each
        record is rebuilt once: recall records never change)."""
        key = (record.get("seq"), record.get("number"), record.get("at"))
        if key not in self.recall_views:
            game = self.cabinet.games.get(record["game_id"])
            self.recall_views[key] = game.restore(record["round"]).view() if game else None
            while len(self.recall_views) > RECALL_SHOWN + 1:  # the recall pages and the table
                self.recall_views.popitem(last=False)
        return {**record, "view": self.recall_views[key]}

    def _finished_table(self, outcome: Mapping[str, Any]) -> Mapping[str, Any] | None:
        for record in self.cabinet.recall()[:1]:
            if record.get("number") == outcome.get("number"):
                entry = self._recall_entry(record)
                view: RoundView | None = entry["view"]
                if view is not None:
                    return {"game_id": entry["game_id"], "step": view.step, "view": view,
                            "number": record.get("number"),
                            "denom_cents": (record.get("wager") or {}).get("denom_cents")}
        return None

    def render(self) -> pygame.Surface:
        """Draw the current frame on the logical 1920x1080 surface and return it."""
        surface, frame, kit = self.logical, self.frame, self.res.kit
        kit.drawn.clear()
        surface.fill(CABINET)
        surface.set_clip(CONTENT_RECT)
        self.scene.draw(surface, frame)
        surface.set_clip(None)
        self._draw_celebration(surface, frame)
        self._draw_bar(surface, frame)
        if self.overlay == "help":
            pages = self.help_pages()
            draw_help(surface, kit, pages[min(self.help_page, len(pages) - 1)], self.help_page, len(pages))
        elif self.overlay == "drawer":
            shade(surface)
            panel(surface, DRAWER_RECT)  # the drawer is its own panel: the scene below never shows through
            kit.text(surface, self.drawer_title(), (960, DRAWER_RECT.y + 18), 44, GOLD, bold=True,
                     anchor="midtop")
            draw_all(surface, kit, self.drawer_buttons(), frame.now)
        elif self.overlay == "ticket" and self._printed():
            draw_ticket_overlay(surface, kit, self._printed()[-1])
        draw_toasts(surface, kit, [(t.text, t.error) for t in self.toasts])
        if banner := (frame.snapshot.get("game_server") or {}).get("banner"):
            draw_server_banner(surface, kit, banner)
        return surface

    def _draw_celebration(self, surface: pygame.Surface, frame: Frame) -> None:
        """A pool won (the Dragon jackpot...): gold coins rain and the amount flashes over the table
        for CELEBRATE_S seconds after the reveal, or until a press."""
        view = snap.view(frame.snapshot)
        if view is None or not view.pools_won_cents or self.rollup_start is None or self.scene.busy(frame):
            return
        age = frame.now - self.rollup_start
        if not 0 <= age < CELEBRATE_S:
            return
        for n in range(40):  # coins: each column falls at its own speed, from its own height
            x = (n * 197) % 1900 + 10
            y = round((n * 131 + age * (420 + n * 9)) % 930)
            pygame.draw.circle(surface, GOLD, (x, y), 18)
            pygame.draw.circle(surface, (150, 110, 20), (x, y), 18, width=3)
        won = sum(view.pools_won_cents.values())
        box = pygame.Rect(0, 0, 1100, 200)
        box.center = (960, 380)
        pygame.draw.rect(surface, (40, 10, 10) if int(age * 4) % 2 else (90, 20, 20), box, border_radius=24)
        pygame.draw.rect(surface, GOLD, box, width=6, border_radius=24)
        self.res.kit.text(surface, "JACKPOT!", (960, box.y + 18), 72, GOLD, bold=True, anchor="midtop")
        self.res.kit.text(surface, f"YOU WIN {money(won)}", (960, box.bottom - 18), 56, WHITE, bold=True,
                          anchor="midbottom")

    def present(self, target: pygame.Surface) -> None:
        self.viewport.present(self.render(), target)

    def resize(self, size: tuple[int, int]) -> None:
        """A new window size: only the mapping changes (no state, no money)."""
        self.viewport = Viewport(size)
        self.pointer = PointerFilter(self.viewport)

    # --- scenes ---------------------------------------------------------------------------------
    def scene_for(self, s: snap.Snapshot) -> Scene:
        state = snap.state(s)
        table = getattr(self, "scene", None)
        on_table = table is not None and bool(table.game_id) and table.game_id == snap.game_id(s)
        if state in ("handpay", "cashout") and on_table and table.busy(Frame(s, self.clock.monotonic())):
            return table  # a win that goes to a hand pay or a ticket is revealed first, then that shows
        if state.startswith("game.") or (state == "attract" and snap.view(s) is not None):
            gid = snap.game_id(s)
            return self._scene(f"game:{gid}", lambda: game_scene(self.res, gid))
        for prefix, cls in STATE_SCENES:
            if state.startswith(prefix):
                return self._scene(cls.name, lambda c=cls: c(self.res))
        if snap.credits(s) > 0:
            return self._scene(GameSelectScene.name, lambda: GameSelectScene(self.res))
        return self._scene(AttractScene.name, lambda: AttractScene(self.res))

    def _scene(self, key: str, make: Callable[[], Scene]) -> Scene:
        if key not in self.scenes:
            self.scenes[key] = make()
        return self.scenes[key]

    # --- input ----------------------------------------------------------------------------------
    def process(self, event: pygame.event.Event) -> None:
        """Handle one pygame event."""
        if event.type == pygame.QUIT:
            if not self.kiosk:
                self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.WINDOWSIZECHANGED:
            self.resize((event.x, event.y))
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type == pygame.MOUSEWHEEL and not self.overlay:  # pages turn (the service pages)
            self._to_scene(event)
            return
        logical = self.pointer.convert(event)
        if logical is not None and logical.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
        ):
            self._pointer(logical)

    def _key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE:
            if self.overlay:
                self.overlay = None
            elif not self.kiosk:
                self.running = False
            return
        if event.key in PANEL_KEYS:
            self.press(PANEL_KEYS[event.key])
        elif event.key in DEVICE_KEYS:
            self.device(DEVICE_KEYS[event.key])
        elif not self.overlay:
            self._to_scene(event)

    def _pointer(self, event: pygame.event.Event) -> None:
        if self.overlay:
            if event.type == pygame.MOUSEBUTTONUP:
                button = hit(self.drawer_buttons(), event.pos) if self.overlay == "drawer" else None
                if button is not None:
                    self.device(button.action)
                elif self.overlay == "help" and self.help_page + 1 < len(self.help_pages()):
                    self.help_page += 1  # a touch turns the help's page; after the last it closes
                else:
                    self.overlay = None  # a touch anywhere else closes the overlay
            return
        if BAR_RECT.collidepoint(event.pos) and event.type != pygame.MOUSEMOTION:
            button = hit_any(self.bar_buttons(), event.pos) if event.type == pygame.MOUSEBUTTONUP else None
            if button is not None:
                self.device("drawer") if button.action == "drawer" else self.press(button.action)
            return
        self._to_scene(event)

    def hurry(self) -> None:
        """A press brings the animations to their end state: the deal laid, the win rolled up and
        the celebration over (a reveal still showing its result is never hurried: it is `busy`)."""
        self.scene.hurry(self.frame)
        self.rollup_start = None

    def _to_scene(self, event: pygame.event.Event) -> None:
        if self.scene.busy(self.frame) and event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self.toast(self.scene.wait_notice)
            return
        if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self.rollup_start = None  # the win's roll-up and celebration end at once
        for out in self.scene.handle(event, self.frame):
            if isinstance(out, UiAction) and out.name == "notice":
                self.toast(out.text)
            elif isinstance(out, UiAction):
                self.ui_action(out.name)
            else:
                self.send(out)

    def send(self, event: object) -> Result:
        """Send one event to the cabinet; a refusal is shown with its reason."""
        result = self.cabinet.handle(event)
        if result.reason:
            self.toast(result.reason, error=not result.accepted)
        self._refresh()
        return result

    def press(self, button: str) -> None:
        """A button-panel press (keyboard or on-screen). HELP and BET are the display's own; the
        rest become cabinet events for the state the cabinet is in."""
        self.audio.play("button")
        self.hurry()
        state = snap.state(self.snapshot)
        acts, why = self.acts_now(button)
        if button == "help":
            self.overlay = None if self.overlay == "help" else "help"
            self.help_page = 0
        elif not acts and why:
            self.toast(why)  # a dark button says why not
        elif button in BET_BUTTONS:
            self._bet_button(button)
        elif button == DENOMINATION:
            self._denomination_button()
        elif button == MENU:
            self.ui_action("menu")
        elif button in GAME_KEYS:  # the game's own buttons, as its keys
            self._to_scene(pygame.event.Event(pygame.KEYDOWN, key=GAME_KEYS[button], mod=0, unicode=""))
        elif button == "cash_out":
            self.send(CashOut())
        elif button == AUTO_PLAY and self.cabinet.round is not None:
            self.send(PlayerDecision(self.cabinet.round.reference_decision()))
        elif button == "deal":
            if state.startswith("game."):  # DEAL confirms the step on the table
                self._to_scene(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
            elif state == "attract":
                gid = self.game_shown()
                if self.send(StartGame(gid, self.wager(gid))).accepted:
                    self.overlay = None
            else:
                self.send(StartGame(self.game_shown()))  # the cabinet says why not now

    def game_shown(self) -> str:
        """The game on the table, else the game the attract screen shows now (its lamps are that game's,
        and DEAL would start it), else the game selected on the menu."""
        if isinstance(self.scene, AttractScene):
            return self.scene.game_shown(self.frame) or snap.selected_game(self.snapshot)
        return snap.game_id(self.snapshot) or snap.selected_game(self.snapshot)

    def help_pages(self) -> list[InfoPage]:
        """The help: the keys, then the rules and pays of the game shown, from its pay table."""
        game = self.cabinet.games.get(self.game_shown())
        return help_pages(game)

    def ui_action(self, name: str) -> None:
        if name == "shutdown":
            self.running = False
        elif name == "menu":
            if self.scene.busy(self.frame):  # the reveal is never skipped, not even to the menu
                self.toast(self.scene.wait_notice)
                return
            self.table = None
            self._refresh()
        elif name == "deal":
            self.press("deal")

    def _report_device_results(self) -> None:
        """Let the cabinet take the device reports now and show what they caused."""
        self._poll_devices()
        self._refresh()

    def _poll_devices(self) -> None:
        """The cabinet takes every device report: what it refused (a ticket redeemed already, a ticket
        from another cabinet, a note refused) is shown as a notice, and the panel's presses are
        pressed here, through the configured mapping."""
        for result in self.cabinet.poll_devices() or []:
            if not result.accepted and result.reason:
                self.toast(result.reason)
        take = getattr(self.cabinet, "take_panel_presses", None)
        for function in take() if take is not None else []:
            self.press(function)

    def toast(self, text: str, error: bool = True) -> None:
        self.toasts = [t for t in self.toasts if t.text != text][-2:]
        self.toasts.append(Toast(text, self.clock.monotonic() + TOAST_S, error))

    # --- chrome ---------------------------------------------------------------------------------
    def _printed(self) -> list[Any]:
        return list(getattr(self.devices.printer, "printed", []))


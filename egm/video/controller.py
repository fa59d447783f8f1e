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
from egm.events import CashOut, ChooseDenomination, Door, Key, PlayerDecision, Result, StartGame
from egm.games import UnknownGame, descriptor_of
from egm.games.base import Game, Round, RoundView, Wager
from egm.games.descriptor import InfoPage
from egm.money import format_denomination
from egm.video import service_info, snap
from egm.video.bet_choice import BetChoice
from egm.video.inputs import DEVICE_KEYS, PANEL_KEYS, PointerFilter
from egm.video.layout import BAR_RECT, CONTENT_RECT, LOGICAL_SIZE, Viewport
from egm.video.overlays import draw_help, draw_ticket_overlay, draw_toasts, help_pages, shade
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
from egm.video.theme import CABINET, GOLD, RED, WHITE, money, panel
from egm.video.widgets import Button, draw_all, hit, hit_any, label_box
from hardware.factory import Devices

TOAST_S = 3.0
ROLLUP_S = 1.0  # the WIN meter counts up after a reveal
CELEBRATE_S = 4.0  # a pool won: the celebration over the table after the reveal
RECALL_SHOWN = 10
HELD_CUES = ("win", "jackpot")  # played once the reveal has shown the result
WAIT_REVEAL = "Please wait: the cards are being revealed."
AUTO_PLAY = "auto_play"  # the panel button that plays the round's reference decision
DENOMINATION = "denomination"  # the panel button that steps the denomination; its label shows the one used
PANEL_BUTTONS = (  # (panel button, label, x, width) along the bottom bar; AUTO_PLAY's label is the game's
    (DENOMINATION, "DENOM", 834, 110),
    ("help", "HELP", 956, 92),
    ("cash_out", "CASH\nOUT", 1060, 124),
    ("bet_one", "BET\nONE", 1196, 116),
    ("max_bet", "MAX\nBET", 1324, 116),
    ("side_bet", "SIDE\nBET", 1452, 116),
    (AUTO_PLAY, "AUTO\nPLAY", 1580, 146),
    ("deal", "DEAL", 1738, 162),
)
BET_BUTTONS = ("bet_one", "max_bet", "side_bet")
METER_X, METER_W = 160, 214
DRAWER_RECT = pygame.Rect(20, 360, 1880, 560)
REAL_DEVICE = {  # what a drawer control says when its device is a real one
    "bill_acceptor": "The bill acceptor is a real device in this configuration: insert notes and tickets "
                     "at its mouth.",
    "doors": "The doors and key switches are real devices in this configuration: use them directly.",
}
GAME_KEYS = {f"game_{n}": getattr(pygame, f"K_{n}") for n in range(1, 10)} | {"game_back": pygame.K_BACKSPACE}
"""The panel functions that are the game's own buttons: the keys its scene answers (1-9, BACKSPACE)."""
EMULATED_CONTROLS = {  # drawer control -> (device, the emulated device's method it needs)
    "bill": ("bill_acceptor", "insert_bill"),
    "ticket": ("bill_acceptor", "insert_ticket"),
    "counterfeit": ("bill_acceptor", "insert_counterfeit"),
    "bad_ticket": ("bill_acceptor", "insert_ticket"),
    "door": ("doors", "open_door"),
    "key": ("doors", "turn_key"),
}
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


@dataclass
class Toast:
    text: str
    until: float
    error: bool = True


class VideoController:
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
        display = {**raw, "game": self.table}
        if snap.state(raw) == "audit":
            display["recall"] = [self._recall_entry(r) for r in self.cabinet.recall()[:RECALL_SHOWN]]
            display["event_log"] = log = self.cabinet.event_log()
            if self.rom_files is None:
                self.rom_files = service_info.rom_details(self.config, self.cabinet.games)
            speaker = type(self.audio.speaker).__name__.replace("Speaker", "").lower() or "speaker"
            display["service"] = {
                "devices": service_info.device_rows(raw, self.config, f"{speaker}, volume "
                                                    f"{round(self.audio.volume * 100)}%", log),
                "settings": service_info.setting_rows(raw, self.cabinet.games),
                "pools": service_info.pool_rows(raw),
                "rom": {**self.rom_files, "last_check": service_info.last_rom_check(log)},
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
                            "number": record.get("number")}
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
            self.toast(WAIT_REVEAL)
            return
        if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self.rollup_start = None  # the win's roll-up and celebration end at once
        for out in self.scene.handle(event, self.frame):
            if isinstance(out, UiAction):
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
        """The game on the table, else the game selected on the menu."""
        return snap.game_id(self.snapshot) or snap.selected_game(self.snapshot)

    def bet_choice(self, game_id: str) -> BetChoice:
        return self.bets.setdefault(game_id, BetChoice())

    def _keep_bet(self, view: RoundView) -> None:
        """The wager of a finished game stays chosen for the next one (and is shown after a restart)."""
        game = self.cabinet.games.get(view.game_id)
        if game is None:
            return
        choice = self.bet_choice(view.game_id)
        choice.bet_credits = view.bet_credits
        side = choice.side_bet_name(game)
        if side is not None:
            choice.side_bets[side] = view.stake_credits - game.wager_offer().stake_bets * view.bet_credits

    def _bet_button(self, button: str) -> None:
        """BET ONE, MAX BET (which also deals, as on any cabinet) or SIDE BET, between games."""
        gid = self.game_shown()
        game = self.cabinet.games.get(gid)
        if game is None:
            self.toast("Choose a game first: touch its tile.")
            return
        choice, denom = self.bet_choice(gid), snap.denom_cents(self.snapshot)
        if button == "side_bet":
            name = choice.side_bet_name(game)
            if name is None:
                self.toast(f"{descriptor_of(gid).title} has no side bet.")
                return
            amount = choice.next_side_bet(game)
            title = name.replace("_", " ").upper()
            self.toast(f"{title} {amount:,} credits ({money(amount * denom)}): "
                       f"{self.stake_credits():,} credits a game", error=False)
            return
        levels = self.cabinet.bet_levels(gid)
        bet = choice.max_bet(levels) if button == "max_bet" else choice.bet_one(game, denom, levels)
        stake = self.stake_credits()
        self.toast(f"Bet {bet:,}: {stake:,} credits ({money(stake * denom)}) a game", error=False)
        if button == "max_bet" and snap.credits(self.snapshot) >= self.stake_credits():
            self.press("deal")

    def denominations(self) -> list[int]:
        """The denominations the player may choose for the game shown (the cabinet's player
        denominations its pay table offers; on the game menu, before a game is chosen, all of them)."""
        choices = snap.denominations(self.snapshot)
        game = self.cabinet.games.get(self.game_shown())
        if game is None:
            return choices
        return [d for d in choices if d in game.wager_offer().denominations_cents]

    def _denomination_button(self) -> None:
        """DENOM, between games: the next denomination the game shown offers (the cabinet keeps it). A
        finished table leaves for the game menu: its amounts were in the former denomination."""
        choices, denom = self.denominations(), snap.denom_cents(self.snapshot)
        later = [d for d in choices if d > denom]
        chosen = later[0] if later else choices[0]
        if self.send(ChooseDenomination(chosen)).accepted:
            self.ui_action("menu")
            credit, cents = snap.credits(self.snapshot), snap.credits_cents(self.snapshot)
            self.toast(f"{format_denomination(chosen)} a credit: {credit:,} credits ({money(cents)})",
                       error=False)

    def side_bet_credits(self) -> int:
        """The side bet on the game shown: the round's own during a game, else the one chosen."""
        gid = self.game_shown()
        game = self.cabinet.games.get(gid)
        wager = self.wager(gid)
        if game is None or wager is None:
            return 0
        view = snap.view(self.snapshot)
        if snap.state(self.snapshot).startswith("game.") and view is not None:
            return view.stake_credits - game.wager_offer().stake_bets * view.bet_credits
        return sum(wager.side_bets.values())

    def wager(self, game_id: str) -> Wager | None:
        """The wager chosen on the panel (the cabinet checks it against the pay table)."""
        game = self.cabinet.games.get(game_id)
        if game is None:
            return None
        levels = self.cabinet.bet_levels(game_id)
        return self.bet_choice(game_id).wager(game, snap.denom_cents(self.snapshot), levels)

    def stake_credits(self) -> int:
        view = snap.view(self.snapshot)
        if snap.state(self.snapshot).startswith("game.") and view is not None:
            return view.stake_credits
        wager = self.wager(self.game_shown())
        return wager.stake_credits if wager else 0

    def auto_play_label(self) -> str:
        """The auto-play button's label: the game's own (e.g. HOUSE WAY for Dragon Poker)."""
        try:
            return descriptor_of(self.game_shown()).auto_play_label
        except UnknownGame:
            return dict((b, label) for b, label, _, _ in PANEL_BUTTONS)[AUTO_PLAY]

    def help_pages(self) -> list[InfoPage]:
        """The help: the keys, then the rules and pays of the game shown, from its pay table."""
        game = self.cabinet.games.get(self.game_shown())
        return help_pages(game)

    def ui_action(self, name: str) -> None:
        if name == "shutdown":
            self.running = False
        elif name == "menu":
            if self.scene.busy(self.frame):  # the reveal is never skipped, not even to the menu
                self.toast(WAIT_REVEAL)
                return
            self.table = None
            self._refresh()
        elif name == "deal":
            self.press("deal")

    def device(self, action: str) -> None:
        """An emulated device control (keyboard F-keys or the device drawer)."""
        if action == "drawer":
            self.overlay = None if self.overlay == "drawer" else "drawer"
            return
        if action == "mute":
            self.toast("Sound off" if self.audio.toggle_mute() else "Sound on", error=False)
            return
        if action == "menu":
            self.ui_action("menu")
            return
        kind, _, arg = action.partition(":")
        if self.kiosk and kind != "key":  # a kiosk's key switches may be keyboard-emulated; nothing else
            self.toast("Device controls exist only in the emulator.")
            return
        acceptor: Any = self.devices.bill_acceptor
        doors: Any = self.devices.doors
        device, method = EMULATED_CONTROLS.get(kind, ("", ""))
        if method and not hasattr(acceptor if device == "bill_acceptor" else doors, method):
            self.toast(REAL_DEVICE[device])
            return
        if kind == "bill":
            denominations = self.config.bill_denominations_cents
            if int(arg) >= len(denominations):
                self.toast("No bill is configured for that key.")
                return
            acceptor.insert_bill(denominations[int(arg)])
        elif kind == "ticket":
            printed = self._printed()
            if not printed:
                self.toast("No printed ticket to insert: cash out first.")
                return
            acceptor.insert_ticket(printed[-1].validation_number, printed[-1].amount_cents)
            self.overlay = None
        elif kind == "counterfeit":
            acceptor.insert_counterfeit(self.config.bill_denominations_cents[-1])
        elif kind == "bad_ticket":
            found = bad_ticket(arg, snap.tickets(self.snapshot), str(self.snapshot.get("date_time", "")))
            if isinstance(found, str):
                self.toast(found)
                return
            acceptor.insert_ticket(*found)
            self.overlay = None
        elif kind == "door":
            door = Door(arg)
            (doors.close_door if doors.is_open(door) else doors.open_door)(door)
        elif kind == "key":
            key = Key(arg)
            on = key not in self.keys_on
            (self.keys_on.add if on else self.keys_on.discard)(key)
            doors.turn_key(key, on)
        elif action == "power_cut":
            self.power_cut()
        self._report_device_results()

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

    def acts_now(self, button: str) -> tuple[bool, str]:
        """Whether pressing a panel button acts now (its lamp is lit exactly then) and, when it does
        not, why not in a sentence ("" when the cabinet gives the reason: the press is sent to it)."""
        s, state = self.snapshot, snap.state(self.snapshot)
        panel_lamps = {
            k: str(getattr(v, "value", v)) for k, v in getattr(self.devices.button_panel, "lamps", {}).items()
        }
        if button == "help":
            return True, ""
        if self.scene.busy(self.frame):
            return False, WAIT_REVEAL
        live = state.startswith("game.")
        if button == "cash_out":
            if live:
                return False, "Cash out when the game is over: your credit is safe."
            if state == "attract" and snap.credits_cents(s) == 0:  # cents short of a credit cash out too
                return False, "There is no credit to cash out."
            return panel_lamps.get("cash_out", "on") != "off", ""
        if button == "deal":
            if live:
                refusal = self.scene.deal_refusal(self.frame)
                return refusal is None, refusal or ""
            if state == "attract" and snap.credits(s) < self.stake_credits():
                return False, ""  # the cabinet says what a game costs and what the meter holds
            if state == "attract" and snap.denom_cents(s) not in self.denominations():
                return False, ""  # the cabinet says which denominations the game shown is played in
            return panel_lamps.get("deal", "on") != "off", ""
        if button == DENOMINATION:
            if state != "attract":
                return False, "The denomination changes between games."
            choices = self.denominations()
            if not choices:
                return False, "This game is not played in any denomination this machine offers."
            if len(choices) < 2 and snap.denom_cents(s) in choices:
                return False, f"This game is played in {format_denomination(choices[0])} credits only."
            return True, ""
        if button in BET_BUTTONS:
            if state != "attract":
                return False, "The bet changes between games."
            game = self.cabinet.games.get(self.game_shown())
            if game is None:
                return False, "Choose a game first: touch its tile."
            if button == "side_bet" and not game.wager_offer().side_bet_limits:
                return False, f"{descriptor_of(game.game_id).title} has no side bet."
            return True, ""
        if button == AUTO_PLAY:
            view = snap.view(s)
            if live and view is not None and view.auto_decision:
                return True, ""
            label = self.auto_play_label().replace("\n", " ")
            return False, f"{label} plays the game's own choice when its lamp is lit."
        return True, ""

    def lamps(self) -> dict[str, str]:
        """Each panel lamp as the panel shows it: lit exactly when pressing it acts now (DEAL and the
        auto-play button flash when they are the next thing to press)."""
        lamps = {}
        for name, _, _, _ in PANEL_BUTTONS:
            acts, _ = self.acts_now(name)
            lamps[name] = ("flash" if name in ("deal", AUTO_PLAY) else "on") if acts else "off"
        return lamps

    def bar_buttons(self) -> list[Button]:
        lamps = self.lamps()
        auto = self.auto_play_label()
        denom = format_denomination(snap.denom_cents(self.snapshot))
        labels = {AUTO_PLAY: auto, DENOMINATION: f"DENOM\n{denom}"}
        buttons = [
            Button(name, labels.get(name, label), pygame.Rect(x, BAR_RECT.y + 22, w, 106), lamps[name])
            for name, label, x, w in PANEL_BUTTONS
        ]
        if not self.kiosk:
            buttons.append(
                Button("drawer", "DEVICES", pygame.Rect(20, BAR_RECT.y + 22, 120, 106), "on", (110, 200, 255))
            )
        return buttons

    def drawer_title(self) -> str:
        """The drawer's title says what its controls drive: emulated devices, simulators on the wire
        (backend "sim"), or, where a device is real, that those controls do nothing."""
        needs = dict(EMULATED_CONTROLS.values())  # device -> a method its controls need
        controlled = {device: getattr(self.devices, device) for device in needs}
        real = [device for device, obj in controlled.items() if not hasattr(obj, needs[device])]
        if real:
            return "DEVICES: " + " AND ".join(d.replace("_", " ").upper() for d in sorted(real)) + " ARE REAL"
        if any(hasattr(obj, "simulator") for obj in controlled.values()):
            return "SIMULATED DEVICES (ON THE WIRE)"
        return "EMULATED DEVICES"

    def drawer_buttons(self) -> list[Button]:
        doors: Any = self.devices.doors
        items = [
            (f"bill:{i}", f"INSERT\n{money(c)}") for i, c in enumerate(self.config.bill_denominations_cents)
        ]
        items += [
            ("ticket", "INSERT\nTICKET"),
            ("door:main", ("CLOSE" if doors.is_open(Door.MAIN) else "OPEN") + "\nMAIN DOOR"),
            ("door:logic", ("CLOSE" if doors.is_open(Door.LOGIC) else "OPEN") + "\nLOGIC DOOR"),
            ("key:operator", "OPERATOR\nKEY " + ("OFF" if Key.OPERATOR in self.keys_on else "ON")),
            ("key:attendant", "ATTENDANT\nKEY " + ("OFF" if Key.ATTENDANT in self.keys_on else "ON")),
            ("power_cut", "CUT\nPOWER"),
            ("counterfeit", "COUNTERFEIT\nBILL"),
            ("bad_ticket:forged", "FORGED\nTICKET"),
            ("bad_ticket:expired", "EXPIRED\nTICKET"),
            ("bad_ticket:redeemed", "REDEEMED\nTICKET"),
        ]
        return [
            Button(
                action,
                label,
                pygame.Rect(40 + (i % 6) * 310, DRAWER_RECT.y + 90 + (i // 6) * 140, 290, 120),
                "on",
                RED if action.startswith(("power_cut", "counterfeit", "bad_ticket")) else (110, 200, 255),
            )
            for i, (action, label) in enumerate(items)
        ]

    def meters_shown(self, frame: Frame) -> tuple[int, int]:
        """(CREDIT, WIN) as the meters show them: while a hand is revealed they hold what they showed
        before it (the win is in neither, wherever it goes: the meter, a hand pay or a ticket); then
        a win on the credit meter rolls up into both over ROLLUP_S seconds."""
        s = frame.snapshot
        credit = snap.credits(s)
        if self.scene.game_id and self.scene.busy(frame):
            return self.held_credit, 0
        if not (snap.state(s) == "attract" and snap.view(s) is not None):
            return credit, 0
        win = snap.last_win_credits(s)
        if win > credit:  # the win left the meter with the rest (a ticket past the credit limit)
            return credit, win
        rolled = (
            win
            if self.rollup_start is None
            else round(win * min(1.0, (frame.now - self.rollup_start) / ROLLUP_S))
        )
        return credit - win + rolled, rolled

    def _draw_bar(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, s = self.res.kit, frame.snapshot
        pygame.draw.rect(surface, (8, 8, 14), BAR_RECT)
        pygame.draw.line(surface, GOLD, BAR_RECT.topleft, BAR_RECT.topright, 3)
        denom = snap.denom_cents(s)
        credit, win = self.meters_shown(frame)
        meters = (("CREDIT", credit), ("BET", self.stake_credits()), ("WIN", win))
        x0 = 20 if self.kiosk else METER_X
        for i, (title, value) in enumerate(meters):
            rect = pygame.Rect(x0 + i * (METER_W + 10), BAR_RECT.y + 18, METER_W, 114)
            colour = GOLD if title == "WIN" and value else WHITE
            side = self.side_bet_credits() if title == "BET" else 0
            cents = value * denom
            if title == "CREDIT":  # all the meter's cents: those short of a credit cash out, never bet
                cents += snap.credits_cents(s) - snap.credits(s) * denom
            caption = f"{title}  {money(cents)}" + (f"  SIDE {side:,}" if side else "")
            label_box(surface, kit, rect, caption, f"{value:,}", colour, 48)
        draw_all(surface, kit, self.bar_buttons(), frame.now)


def bad_ticket(kind: str, issued: list[Any], now_iso: str) -> tuple[str, int] | str:
    """(validation number, amount) of a ticket the cabinet must refuse, for the device drawer: a forged
    validation number (the newest ticket's, its last digit changed), an expired ticket, or one
    already redeemed; or a sentence saying why there is none to insert.

    >>> bad_ticket("forged", [{"validation_number": "123456789012345678", "amount_cents": 500}], "")
    ('123456789012345679', 500)
    """
    if kind == "forged":
        if not issued:
            return "000000000000000001", 100  # no ticket issued yet: any number is forged
        number, amount = str(issued[0]["validation_number"]), int(issued[0]["amount_cents"])
        return number[:-1] + str((int(number[-1]) + 1) % 10), amount
    if kind == "expired":
        found = [t for t in issued if t.get("status") == "issued" and str(t.get("expires_at")) < now_iso]
        why = "No printed ticket has expired yet: a ticket expires after the configured number of days."
    else:
        found = [t for t in issued if t.get("status") == "redeemed"]
        why = "No ticket has been redeemed yet: insert a printed ticket first."
    if not found:
        return why
    return str(found[0]["validation_number"]), int(found[0]["amount_cents"])

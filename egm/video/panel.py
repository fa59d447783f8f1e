"""The bar along the bottom of the screen: the button panel's buttons with their lamps (each lit exactly
when its press acts now) and the CREDIT, BET and WIN meters. A mixin of the video controller
(egm.video.controller)."""

from __future__ import annotations

from typing import Any

import pygame

from egm.games import UnknownGame, descriptor_of
from egm.money import format_denomination
from egm.video import snap
from egm.video.layout import BAR_RECT
from egm.video.scene import Frame
from egm.video.theme import GOLD, WHITE, money
from egm.video.widgets import Button, draw_all, label_box

AUTO_PLAY = "auto_play"  # the panel button that plays the round's reference decision
DENOMINATION = "denomination"  # the panel button that steps the denomination; its label shows the one used
MENU = "menu"  # GAMES: back to the game menu from a finished table
PANEL_BUTTONS = (  # (panel button, label, x, width) along the bottom bar; AUTO_PLAY's label is the game's
    (MENU, "GAMES", 762, 100),
    (DENOMINATION, "DENOM", 874, 104),
    ("help", "HELP", 990, 86),
    ("cash_out", "CASH\nOUT", 1088, 118),
    ("bet_one", "BET\nONE", 1218, 110),
    ("max_bet", "MAX\nBET", 1340, 110),
    ("side_bet", "SIDE\nBET", 1462, 110),
    (AUTO_PLAY, "AUTO\nPLAY", 1584, 144),
    ("deal", "DEAL", 1740, 160),
)
BET_BUTTONS = ("bet_one", "max_bet", "side_bet")
METER_X, METER_W = 160, 190
ROLLUP_S = 1.0  # the WIN meter counts up after a reveal


class PanelBar:
    """The panel's lamps and the meters, read from the controller's snapshot and scene."""

    cabinet: Any
    devices: Any
    snapshot: dict[str, Any]
    scene: Any
    frame: Frame
    kiosk: bool
    held_credit: int
    rollup_start: float | None
    res: Any

    def auto_play_label(self) -> str:
        """The auto-play button's label: the game's own (e.g. HOUSE WAY for Dragon Poker)."""
        try:
            return descriptor_of(self.game_shown()).auto_play_label
        except UnknownGame:
            return dict((b, label) for b, label, _, _ in PANEL_BUTTONS)[AUTO_PLAY]

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
            return False, self.scene.wait_notice
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
        if button == MENU:
            if live:
                return False, "The game menu opens between games: finish this game first."
            if state == "attract" and snap.view(s) is not None:
                return True, ""
            if state == "attract":
                return False, ("This is the game menu: touch a game to play it." if snap.credits_cents(s)
                               else "Insert money, then choose a game.")
            return False, "The game menu opens between games."
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
                return False, f"{game.title} has no side bet."
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
        meters = (("CREDIT", credit), ("STAKE", self.stake_credits()), ("WIN", win))  # STAKE: all of it
        x0 = 20 if self.kiosk else METER_X
        for i, (title, value) in enumerate(meters):
            rect = pygame.Rect(x0 + i * (METER_W + 10), BAR_RECT.y + 18, METER_W, 114)
            colour = GOLD if title == "WIN" and value else WHITE
            side = self.side_bet_credits() if title == "STAKE" else 0
            cents = value * denom
            if title == "CREDIT":  # all the meter's cents: those short of a credit cash out, never bet
                cents += snap.credits_cents(s) - snap.credits(s) * denom
            caption = f"{title}  {money(cents)}" + (f"  SIDE {side:,}" if side else "")
            label_box(surface, kit, rect, caption, f"{value:,}", colour, 48)
        draw_all(surface, kit, self.bar_buttons(), frame.now)

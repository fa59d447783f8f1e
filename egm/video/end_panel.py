"""A board game's end screen, shared by Poker Grid, Poker Tiles, Prism Words and Property: the result
(YOU WIN BY 12), each seat's standing, what the pay table paid and why (the margin's tier, each
award, in x bet and credits: `RoundView.table["pays"]`, egm.games.board_game), the pay in credits and
money, and PLAY AGAIN and GAME MENU (on the live table only, not a recall picture)."""

from __future__ import annotations

import pygame

from egm.money import credits_text, pay_text
from egm.video import snap
from egm.video.scene import Frame
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, Kit, money, panel
from egm.video.widgets import Button, draw_all

LINE_SIZE, LINE_STEP = 26, 36


def end_buttons(frame: Frame, box: pygame.Rect) -> list[Button]:
    """PLAY AGAIN (flashing when the credit pays for it, dark otherwise: the shell says why) and GAME
    MENU along the bottom of `box`, once the game is over on the live table."""
    view = frame.view
    if view is None or view.win_credits is None or frame.state != "attract":
        return []
    affordable = snap.credits(frame.snapshot) >= view.stake_credits
    width = (box.width - 60) // 2
    return [
        Button("deal", "PLAY AGAIN", pygame.Rect(box.x + 20, box.bottom - 96, width, 80),
               "flash" if affordable else "off"),
        Button("menu", "GAME MENU", pygame.Rect(box.right - 20 - width, box.bottom - 96, width, 80), "on"),
    ]


def pay_lines(frame: Frame) -> list[str]:
    """Each reason the pay table paid, in x bet and credits, then the pay in credits and money."""
    view = frame.view
    assert view is not None and view.win_credits is not None
    bet = view.bet_credits
    counted: dict[str, list[int]] = {}  # the same award earned again: one line, counted
    for words, units in view.table.get("pays", []):
        counted.setdefault(words, []).append(int(units))
    lines = [f"{words}{f' x{len(each)}' if len(each) > 1 else ''}: {sum(each)} x bet = "
             f"{credits_text(sum(each) * bet)}" for words, each in counted.items()]
    denom = snap.denom_cents(frame.snapshot)
    lines.append(f"{pay_text(view.win_credits, view.stake_credits)} ({money(view.win_credits * denom)})")
    return lines


def draw_end_panel(surface: pygame.Surface, kit: Kit, frame: Frame, box: pygame.Rect, standings: str) -> None:
    """The end screen in `box`: the result, `standings` (e.g. "YOU 43   MACHINE 34"), the reasons
    wrapped to the box (never shrunk), the pay, and the buttons."""
    view = frame.view
    assert view is not None and view.win_credits is not None
    panel(surface, box, fill=(30, 20, 6), edge=GOLD)
    title, width = view.result_text, box.width - 40
    kit.text(surface, title, (box.centerx, box.y + 16), kit.fit(title, width, 52, True), GOLD, bold=True,
             anchor="midtop")
    kit.text(surface, standings, (box.centerx, box.y + 80), kit.fit(standings, width, 28, True), WHITE,
             bold=True, anchor="midtop")
    buttons = end_buttons(frame, box)
    bottom = box.bottom - (110 if buttons else 16)
    *reasons, pay = pay_lines(frame)
    y = box.y + 126
    for line in reasons:
        parts = kit.wrap(line, box.width - 84, LINE_SIZE)
        if y + len(parts) * LINE_STEP > bottom - 44:  # whole reasons only (HELP lists every pay)
            break
        for i, part in enumerate(parts):  # continuations indented
            kit.text(surface, part, (box.x + 30 + (24 if i else 0), y), LINE_SIZE, LIGHT_GREY)
            y += LINE_STEP
    size = kit.fit(pay, box.width - 60, 34, bold=True)
    kit.text(surface, pay, (box.x + 30, bottom - 40), size, GOLD, bold=True)
    draw_all(surface, kit, buttons, frame.now)

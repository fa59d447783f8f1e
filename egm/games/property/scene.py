"""The Property table: the 40 spaces round the board with their colour bands, the owners, houses,
hotels and mortgages, every seat's token, cash and deeds, the card drawn, and a log of what happened.

Everything shown comes from the round's `view()` (egm.games.property.game); the scene keeps only the
space the customer selected. The customer's choices are buttons: the step's own (ROLL, BUY, DECLINE,
PAY $50, USE CARD, bids) and, for a selected space, BUILD, SELL HOUSE, MORTGAGE, LIFT MORTGAGE, and a
trade at the title's price (ASK TO BUY a machine's title, OFFER TO SELL one's own). The panel's HOUSE
WAY button plays the reference decision (the controller's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.games.property import turn_view
from egm.games.property.spaces import (
    BOARD,
    LABEL_SIZE,
    LINE_H,
    TOKEN_R,
    band_rect,
    label_lines,
    space_rect,
    text_box,
    token_centre,
)
from egm.video.end_panel import draw_end_panel, end_buttons
from egm.video.machine_move import HIGHLIGHT, MachineMove
from egm.video.scene import Frame, Resources, Scene, UiAction
from egm.video.theme import AMBER, CYAN, FELT, FELT_DARK, GOLD, GREEN, LIGHT_GREY, RED, WHITE, panel
from egm.video.widgets import hit_any

PANEL_RECT = pygame.Rect(934, 16, 970, 898)
END = pygame.Rect(944, 504, 950, 400)  # the end screen, in the panel below the log
GROUP_COLOURS = {
    "purple": (120, 60, 150), "light_blue": (140, 200, 240), "pink": (220, 80, 160),
    "brown": (150, 90, 40), "red": (210, 40, 40), "yellow": (240, 210, 40), "green": (30, 150, 70),
    "dark_blue": (30, 60, 160),
}
SEAT_COLOURS = (CYAN, RED, AMBER, (180, 120, 255))
PAPER = (232, 236, 222)
INK = (20, 20, 24)
BUTTON_H = 64
EVENT_S = 0.4  # one event of the turns played out every 400 ms
LOG_LINES = 9


@dataclass(frozen=True)
class Button:
    label: str
    decision: Decision
    rect: pygame.Rect


def seat_names(seats: int) -> list[str]:
    """YOU, then MACHINE (numbered when there are several): one name per seat everywhere."""
    return ["YOU"] + [f"MACHINE {i}" if seats > 2 else "MACHINE" for i in range(1, seats)]


YOU_SAY = {"pays": "pay", "gets": "get", "buys": "buy", "wins": "win", "builds": "build", "sells": "sell",
           "mortgages": "mortgage", "lifts": "lift", "trades": "trade", "is": "are", "collects": "collect",
           "moves": "move", "draws": "draw", "goes": "go", "declines": "decline", "bids": "bid",
           "passes": "pass"}  # the verbs as YOU says them


def describe(event: dict[str, Any], spaces: list[dict[str, Any]], names: Sequence[str] = ("YOU", "MACHINE")
             ) -> str:
    """One line of the log for one event, each seat by its one name (`names`: YOU, MACHINE...)."""
    seat = event["seat"]
    who = names[seat] if seat < len(names) else f"MACHINE {seat}"

    def does(verb: str) -> str:
        return YOU_SAY.get(verb, verb) if seat == 0 else verb

    def name(other: Any) -> str:
        return names[other] if isinstance(other, int) and other < len(names) else "THE BANK"

    kind = event["kind"]
    space = spaces[event["space"]]["name"] if event.get("space", -1) is not None and \
        0 <= event.get("space", -1) < len(spaces) else ""
    amount = event.get("amount", 0)
    if kind == "roll":
        return f"{who} threw {event['dice'][0]} + {event['dice'][1]}"
    if kind == "move":
        return f"{who} {does('moves')} to {spaces[event['to']]['name']}"
    if kind == "card":
        if "text" in event:
            return f"{who} {does('draws')}: {event['text']}"
        if event.get("payer") == seat:  # the card was said the line before: no card id here
            return f"{who} {does('pays')} ${amount} to {name(event.get('payee'))}, as the card says"
        return f"{who} {does('gets')} ${amount} from {name(event.get('payer'))}, as the card says"
    if kind == "decline":
        return f"{who} {does('declines')} {space}: it goes to auction"
    if kind == "bid":
        lot = space if event.get("lot") == "property" else f"a {event.get('lot')} on {space}"
        return (f"{who} {does('bids')} ${amount} for {lot}" if amount
                else f"{who} {does('passes')} in the auction for {lot}")
    if kind == "jail":
        reason = str(event.get("reason", "card")).replace("_", " ")
        if amount:
            return f"{who} {does('pays')} the ${amount} fine"
        return f"{who} {does('goes')} to jail ({reason})"
    texts = {
        "buy": (f"{who} {does('is')} dealt {space}" if event.get("quick_start")
                else f"{who} {does('buys')} {space} for ${event.get('price', amount)}"),
        "auction": (f"{who} {does('wins')} {space} at auction for ${event.get('price')}"
                    if event.get("winner") is not None else f"No bid for {space}"),
        "rent": f"{who} {does('pays')} ${amount} rent to {name(event.get('payee'))}",
        "tax": f"{who} {does('pays')} ${amount} tax",
        "build": f"{who} {does('builds')} a {event.get('building')} on {space}",
        "sell_building": f"{who} {does('sells')} a {event.get('building')} on {space} for ${amount}",
        "mortgage": f"{who} {does('pays')} ${amount} interest on {space}" if event.get("interest")
        else f"{who} {does('mortgages')} {space} for ${amount}",
        "unmortgage": f"{who} {does('lifts')} the mortgage on {space} for ${amount}",
        "trade": f"{who} {does('trades')} with {name(event.get('with'))} (${amount})",
        "bankrupt": f"{who} {does('is')} BANKRUPT",
        "salary": f"{who} {does('collects')} ${amount} salary",
    }
    return texts.get(kind, f"{who}: {kind.replace('_', ' ')}")


class PropertyScene(Scene):
    name = "property"
    game_id = "property"

    wait_notice = "Please wait: the machine is playing its turn."

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.selected: int | None = None
        self.machine = MachineMove(piece_s=EVENT_S)  # the turns' events one a tick (turn_view.py)

    def enter(self, frame: Frame) -> None:
        self.selected = None
        self.machine.settle()  # a table seen on entering (after a power cut too) is shown settled
        self.update(frame)

    def update(self, frame: Frame) -> None:
        """The events since the customer's last decision are played out when a new table arrives."""
        view = frame.table
        recent = view.get("recent") or []
        key = (frame.round_number, len(view.get("log") or []), repr(recent))
        self.machine.take(frame.now, key, turn_view.pieces(view))

    def busy(self, frame: Frame) -> bool:
        """While the turns play out, input is held (they show how the round came out)."""
        self.update(frame)
        return self.machine.playing(frame.now)

    def shown_table(self, frame: Frame) -> dict[str, Any]:
        """The round's table as the turns have played out so far."""
        self.update(frame)
        now = frame.now
        if not self.machine.playing(now):
            return dict(frame.table)
        return turn_view.staged(frame.table, self.machine.shown(now), self.machine.progress(now))

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        view = dict(frame.table)
        if event.type == pygame.MOUSEBUTTONUP:
            button = hit_any(end_buttons(frame, END), event.pos)
            if button is not None:  # a dark PLAY AGAIN still asks: the shell says why not
                return [UiAction(button.action)]
        if (event.type != pygame.MOUSEBUTTONUP or event.button != 1 or not view.get("waiting")
                or self.busy(frame)):
            return []
        for button in self.buttons(view):
            if button.rect.collidepoint(event.pos):
                return [PlayerDecision(button.decision)]
        for index in range(40):
            if space_rect(index).collidepoint(event.pos):
                self.selected = None if self.selected == index else index
                return []
        return []

    def buttons(self, view: dict[str, Any]) -> list[Button]:
        return choice_buttons(view, self.selected)

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        view = self.shown_table(frame)
        surface.fill(FELT_DARK)
        if not view.get("spaces"):
            return
        self._draw_board(surface, view)
        self._draw_move(surface, frame, view)
        self._draw_panel(surface, view)
        if frame.view is not None and frame.view.win_credits is not None and not self.busy(frame):
            names = seat_names(len(view["seats"]))
            seats = zip(names, view["seats"], strict=True)
            worth = "   ".join(f"{name} ${seat['net_worth']:,}" for name, seat in seats)
            draw_end_panel(surface, self.res.kit, frame, END, f"NET WORTH IN BOARD MONEY: {worth}")

    def _draw_board(self, surface: pygame.Surface, view: dict[str, Any]) -> None:
        kit = self.res.kit
        pygame.draw.rect(surface, FELT, BOARD)
        kit.text(surface, "PROPERTY", BOARD.center, 64, GOLD, bold=True, anchor="center")
        kit.text(surface, f"ROUND {view['round']} OF {view['rounds']}", (BOARD.centerx, BOARD.centery + 50),
                 28, WHITE, anchor="center")
        card = view.get("last_card")
        if card:
            box = pygame.Rect(0, 0, 580, 130)
            box.center = (BOARD.centerx, BOARD.centery + 180)
            pygame.draw.rect(surface, PAPER, box, border_radius=10)
            deck = "CHANCE" if card[0] == "chance" else "COMMUNITY CHEST"
            ink = RED if card[0] == "chance" else (30, 60, 160)
            kit.text(surface, deck, (box.x + 14, box.y + 8), 22, ink, bold=True)
            for k, line in enumerate(kit.wrap(card[1], box.width - 28, 20)[:4]):
                kit.text(surface, line, (box.x + 14, box.y + 36 + 23 * k), 20, INK)
        for index, space in enumerate(view["spaces"]):
            self._draw_space(surface, view, index, space)
        seats = len(view["seats"])
        for seat, info in enumerate(view["seats"]):
            if info["bankrupt"]:
                continue
            centre = token_centre(info["position"], seat, seats)  # on the band strip: no label under it
            pygame.draw.circle(surface, SEAT_COLOURS[seat], centre, TOKEN_R)
            pygame.draw.circle(surface, INK, centre, TOKEN_R, width=2)
            if info["in_jail"]:
                x, y = centre
                pygame.draw.line(surface, INK, (x - TOKEN_R, y), (x + TOKEN_R, y), 3)

    def _draw_space(self, surface: pygame.Surface, view: dict[str, Any], index: int,
                    space: dict[str, Any]) -> None:
        kit = self.res.kit
        rect, band = space_rect(index), band_rect(index)
        owner = view["owner"][index]
        paper = PAPER if owner < 0 else tuple((p * 3 + c) // 4 for p, c in zip(PAPER, SEAT_COLOURS[owner],
                                                                              strict=True))
        pygame.draw.rect(surface, paper, rect)  # an owned title is tinted its owner's colour
        edge = (INK, 1) if owner < 0 else (SEAT_COLOURS[owner], 2)
        pygame.draw.rect(surface, edge[0], rect, width=edge[1])
        if space["group"]:
            pygame.draw.rect(surface, GROUP_COLOURS.get(space["group"], WHITE), band)
            houses = view["houses"][index]
            if houses == 5:
                pygame.draw.rect(surface, RED, band.inflate(-band.width // 3, -band.height // 3))
            for k in range(houses if houses < 5 else 0):
                horizontal = band.width > band.height
                size = 10
                x = band.x + 4 + k * 16 if horizontal else band.centerx - size // 2
                y = band.centery - size // 2 if horizontal else band.y + 4 + k * 16
                pygame.draw.rect(surface, GREEN, (x, y, size, size))
                pygame.draw.rect(surface, INK, (x, y, size, size), width=1)
        box = text_box(index)
        lines = self.space_lines(index, space)
        top = box.y + (box.height - LINE_H * len(lines)) // 2
        for k, line in enumerate(lines):
            kit.text(surface, line, (box.centerx, top + LINE_H * k + LINE_H // 2), LABEL_SIZE, INK,
                     anchor="center")
        if view["mortgaged"][index]:
            kit.text(surface, "M", (box.right, box.y), LABEL_SIZE, RED, bold=True, anchor="topright")
        if index == self.selected:
            pygame.draw.rect(surface, GOLD, rect.inflate(4, 4), width=4)

    def space_lines(self, index: int, space: dict[str, Any]) -> list[str]:
        """The label of a space as drawn: wrapped to its text box at the board's text size."""
        font, width = self.res.kit.font(LABEL_SIZE), text_box(index).width
        return label_lines(space, lambda text: font.size(text)[0] <= width)

    def _draw_move(self, surface: pygame.Surface, frame: Frame, view: dict[str, Any]) -> None:
        """While the turns play out: the newest event's space ringed and what happened said on the board."""
        if not self.machine.playing(frame.now) or not self.machine.shown(frame.now):
            return
        event = (view.get("recent") or [])[self.machine.shown(frame.now) - 1]
        space = self.machine.newest(frame.now)
        if space is not None and self.machine.progress(frame.now) >= turn_view.WALK:
            pygame.draw.rect(surface, HIGHLIGHT, space_rect(space).inflate(6, 6), width=6)
        names = seat_names(len(view["seats"]))
        kit, width = self.res.kit, BOARD.width - 2 * 150
        lines = kit.wrap(describe(event, view["spaces"], names), width - 30, 24, bold=True)
        box = pygame.Rect(0, 0, width, 24 + 32 * len(lines))
        box.midbottom = (BOARD.centerx, BOARD.centery - 50)
        pygame.draw.rect(surface, INK, box, border_radius=12)
        pygame.draw.rect(surface, SEAT_COLOURS[event["seat"]], box, width=4, border_radius=12)
        for k, line in enumerate(lines):
            kit.text(surface, line, (box.centerx, box.y + 12 + 32 * k), 24, WHITE, bold=True, anchor="midtop")

    def _draw_panel(self, surface: pygame.Surface, view: dict[str, Any]) -> None:
        kit = self.res.kit
        panel(surface, PANEL_RECT)
        x, y = PANEL_RECT.x + 20, PANEL_RECT.y + 14
        names = seat_names(len(view["seats"]))
        for seat, info in enumerate(view["seats"]):
            name = names[seat]
            colour = SEAT_COLOURS[seat]
            pygame.draw.circle(surface, colour, (x + 10, y + 16), 9)
            status = " BANKRUPT" if info["bankrupt"] else " IN JAIL" if info["in_jail"] else ""
            kit.text(surface, f"{name}{status}", (x + 28, y), 26, colour, bold=True)
            money = f"CASH ${info['cash']:,}   WORTH ${info['net_worth']:,}"
            kit.text(surface, money, (x + 330, y + 2), 24, WHITE)
            deeds = [i for i, owner in enumerate(view["owner"]) if owner == seat]
            for k, index in enumerate(deeds[:28]):
                chip = pygame.Rect(x + 28 + k * 32, y + 36, 28, 18)
                group = view["spaces"][index]["group"]
                pygame.draw.rect(surface, GROUP_COLOURS.get(group, LIGHT_GREY), chip, border_radius=3)
                if view["mortgaged"][index]:
                    pygame.draw.line(surface, INK, chip.topleft, chip.bottomright, 2)
            y += 70
        y += 6
        parts = [(part, WHITE if event["seat"] == 0 else LIGHT_GREY)  # wrapped, never cut off
                 for event in (view.get("log") or [])[-LOG_LINES:]
                 for part in kit.wrap(describe(event, view["spaces"], names), PANEL_RECT.width - 40, 22)]
        for part, colour in parts[-LOG_LINES:]:
            kit.text(surface, part, (x, y), 22, colour)
            y += 30
        if view.get("final"):
            return  # the end screen takes the rest of the panel
        trade = view.get("last_trade")
        if trade:
            verdict = "ACCEPTED" if trade["accepted"] else "REFUSED"
            kit.text(surface, f"TRADE WITH {names[trade['with']]}: {verdict}",
                     (x, PANEL_RECT.bottom - 2 * BUTTON_H - 110), 24, GREEN if trade["accepted"] else RED,
                     bold=True)
        result = view.get("result")
        prompt = {"win": "YOU WIN", "tie": "TIE", "loss": "MACHINE WINS"}.get(result or "", "")
        final = view.get("final")
        if final:
            if final["margin"]:
                prompt += f" BY ${abs(final['margin']):,}"
            awards = " + ".join(name.upper() for name in final["awards"])
            kit.text(surface, f"PLACE {final['place']}" + (f"   AWARDS: {awards}" if awards else ""),
                     (x, PANEL_RECT.bottom - 2 * BUTTON_H - 20), 28, WHITE, bold=True)
        if not prompt:
            waiting = view.get("waiting") or {}
            space = waiting.get("space", -1)
            where = view["spaces"][space]["name"] if 0 <= space < 40 else ""
            prompt = {"turn": "YOUR TURN: ROLL, OR TAP A SPACE TO DEAL",
                      "jail": "IN JAIL: ROLL FOR DOUBLES, PAY $50 OR USE A CARD",
                      "buy": f"BUY {where.upper()} FOR ${view['spaces'][space]['price'] if where else ''}?",
                      "auction": f"AUCTION: {where.upper()} ({waiting.get('lot', '')})",
                      }.get(view.get("decision", ""), "")
        kit.text(surface, prompt, (x, PANEL_RECT.bottom - 2 * BUTTON_H - 70), 28, GOLD, bold=True)
        for button in self.buttons(view) if view.get("waiting") else []:
            pygame.draw.rect(surface, (50, 46, 80), button.rect, border_radius=10)
            pygame.draw.rect(surface, GOLD, button.rect, width=3, border_radius=10)
            size = 22 if len(button.label) < 15 else 18
            kit.text(surface, button.label, button.rect.center, size, WHITE, bold=True, anchor="center")


def choice_buttons(view: dict[str, Any], selected: int | None) -> list[Button]:
    """The customer's choices now (`selected`: the space tapped, if any), laid out in two rows at the
    foot of the panel."""
    step = view.get("decision")
    choices: list[tuple[str, Decision]] = []
    cash = view["seats"][0]["cash"]
    waiting = view.get("waiting") or {}
    if step in ("turn", "jail"):
        choices.append(("ROLL", Decision("roll")))
    if step == "jail":
        choices += [("PAY $50", Decision("pay_fine")), ("USE CARD", Decision("use_card"))]
    if step == "buy":
        if cash >= view["spaces"][waiting["space"]]["price"]:
            choices.append(("BUY", Decision("buy")))
        choices.append(("DECLINE", Decision("decline")))
    if step == "auction":
        lot = view["spaces"][waiting["space"]]
        price = lot["price"] if waiting.get("lot") == "property" else 2 * lot["house_cost"]
        for label, amount in (("PASS", 0), ("BID 1/2", price // 2), ("BID", price)):
            if amount <= cash:
                text = label if not amount else f"{label} ${amount}"
                choices.append((text, Decision("bid", {"amount": amount})))
    space = selected
    if space is not None and step in ("turn", "jail", "buy"):
        legal = view.get("legal", {})
        for kind, label in (("build", "BUILD"), ("sell_building", "SELL HOUSE"),
                            ("mortgage", "MORTGAGE"), ("unmortgage", "LIFT MORTGAGE")):
            if space in legal.get(kind, []):
                choices.append((label, Decision(kind, {"space": space})))
        price = view["spaces"][space]["price"]
        owner = view["owner"][space]
        if step != "buy" and price and owner > 0:
            choices.append((f"ASK TO BUY ${price}", Decision(
                "trade", {"with": owner, "give": [], "get": [space], "cash": price})))
        if step != "buy" and price and owner == 0 and view["houses"][space] == 0:
            choices.append((f"OFFER TO SELL ${price}", Decision(
                "trade", {"with": 1, "give": [space], "get": [], "cash": -price})))
    width = (PANEL_RECT.width - 40 - 30) // 4
    out = []
    for k, (label, decision) in enumerate(choices[:8]):
        row, col = divmod(k, 4)
        rect = pygame.Rect(PANEL_RECT.x + 20 + col * (width + 10),
                           PANEL_RECT.bottom - 2 * BUTTON_H - 30 + row * (BUTTON_H + 10), width, BUTTON_H)
        out.append(Button(label, decision, rect))
    return out

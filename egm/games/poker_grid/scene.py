"""The Poker Grid table: the 7 x 8 board with the legal squares lit, the customer's hand, the scores and
the points of each play.

Play a card by tapping it and then a lit square, or by dragging it onto a lit square. Everything shown
comes from the round's table data (`RoundView.table`, egm.games.poker_grid.game); the scene keeps only
the selected card, a drag in progress and the deal's animation. The panel's AUTO PLAY button plays the
reference decision.

The deal (egm/video/deal.py, shared with Dragon Poker): a fresh round's cards are laid one at a time in
the order the game deals them (`table.py`: around the seats, the customer first; the machine's cards
face down beside its score), then the two starter cards on the board; the lit squares show once the
cards are down. A press lays every card at once and then acts on the dealt table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from egm.cards import card_words
from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.games.poker_grid.table import seat_name
from egm.video.deal import Deal
from egm.video.drag import Drag
from egm.video.end_panel import draw_end_panel, end_buttons
from egm.video.machine_move import HIGHLIGHT
from egm.video.scene import Frame, MachineTableScene, Resources, UiAction
from egm.video.theme import (
    AMBER,
    CYAN,
    FELT,
    FELT_DARK,
    FELT_EDGE,
    GOLD,
    GREEN,
    LIGHT_GREY,
    RED,
    WHITE,
    panel,
)
from egm.video.widgets import Button, hit_any

CELL = 118  # board square size (logical pixels)
BOARD_X, BOARD_Y = 40, 70
CARD_W = 80
HAND_X, HAND_Y, HAND_STEP, HAND_CARD_W = 1040, 650, 150, 120
SIDE = pygame.Rect(1040, 70, 840, 550)
DEAL_CARD_S = 0.12  # the deal: one card every 120 ms (a 2-seat game's 12 cards in 1.4 s)
OPPONENT_CARD_W = 50


def square_rect(row: int, col: int) -> pygame.Rect:
    return pygame.Rect(BOARD_X + col * CELL, BOARD_Y + row * CELL, CELL - 6, CELL - 6)


def hand_rect(index: int) -> pygame.Rect:
    width, height = HAND_CARD_W, round(HAND_CARD_W * 1.4)
    return pygame.Rect(HAND_X + index * HAND_STEP, HAND_Y, width, height)


def square_at(view: dict[str, Any], pos: tuple[int, int]) -> tuple[int, int] | None:
    """The board square under `pos`, if any."""
    for row in range(view.get("rows", 0)):
        for col in range(view.get("cols", 0)):
            if square_rect(row, col).collidepoint(pos):
                return row, col
    return None


def hand_index_at(view: dict[str, Any], pos: tuple[int, int]) -> int | None:
    for index in range(len(view.get("hand", []))):
        if hand_rect(index).collidepoint(pos):
            return index
    return None


class PokerGridScene(MachineTableScene):
    name = "poker-grid"
    game_id = "poker-grid"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.selected: int | None = None
        self.drag: Drag | None = None
        self.round_key: Any = None
        self.deal = Deal(DEAL_CARD_S)
        self.deal_order: dict[tuple[Any, ...], int] = {}  # the cards being dealt, in deal order

    wait_notice = "Please wait: the machine is playing its cards."

    # --- state ---------------------------------------------------------------------------------------
    def _sync(self, frame: Frame) -> None:
        """Drop the selection when the hand or the step changes (a play was made, a new round); a
        fresh round (no card played yet) is dealt; the machine's new cards are put down one by one."""
        view = frame.table
        self.machine.follow(frame.now, frame.round_number, view.get("last_plays", []),
                            lambda move: [(move["row"], move["col"])])
        key = (frame.round_number, tuple(view.get("hand", [])), view.get("step"),
               tuple(view.get("scores", [])))
        if key != self.round_key:
            self.round_key = key
            self.selected, self.drag = None, None
            fresh = view.get("step") == "play" and not view.get("last_plays")
            self.deal_order = deal_order(view) if fresh else {}
            self.deal.begin(frame.now, len(self.deal_order))
            if not fresh:
                self.deal.hurry()

    def hurry(self, frame: Frame) -> None:
        """A press during the deal lays every card at once (the deal shows no result to skip)."""
        self.deal.hurry()

    def busy(self, frame: Frame) -> bool:
        """While the machine's cards go down, input is held (it shows how the round came out)."""
        self._sync(frame)
        return self.machine.playing(frame.now)

    def shown_table(self, frame: Frame) -> dict[str, Any]:
        """The round's table as the machine's cards have gone down so far."""
        return self.machine.table(frame.table, frame.now, "last_plays", empty="")

    def dealt(self, frame: Frame, card: tuple[Any, ...]) -> bool:
        """Whether a card (a key of `deal_order`) is on the table now."""
        return card not in self.deal_order or self.deal.shows(frame.now, self.deal_order[card])

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        self._sync(frame)
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.hurry(frame)  # then the press acts on the dealt table
        view = dict(frame.table)
        if event.type == pygame.MOUSEBUTTONUP:
            button = hit_any(self.end_buttons(frame), event.pos)
            if button is not None:  # a dark PLAY AGAIN still asks: the shell says why not
                return [UiAction(button.action)]
        if view.get("step") != "play":
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = hand_index_at(view, event.pos)
            if index is not None:
                self.drag = Drag(index, event.pos, event.pos)
            return []
        if event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag.pos = event.pos
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._release(view, event.pos)
        return []

    def _release(self, view: dict[str, Any], pos: tuple[int, int]) -> list[object]:
        drag, self.drag = self.drag, None
        if drag is not None:
            drag.pos = pos
            if not drag.moved:  # a tap on a card selects it (a second tap drops the selection)
                self.selected = None if self.selected == drag.index else drag.index
                return []
            return self._place(view, drag.index, pos)
        if self.selected is not None:
            return self._place(view, self.selected, pos)
        return []

    def _place(self, view: dict[str, Any], index: int, pos: tuple[int, int]) -> list[object]:
        square = square_at(view, pos)
        if square is None or index >= len(view["hand"]):
            return []
        row, col = square
        return [PlayerDecision(Decision("place", {"card": view["hand"][index], "row": row, "col": col}))]

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        self._sync(frame)
        view = dict(frame.table)
        kit = self.res.kit
        surface.fill(FELT_DARK)
        kit.text(surface, "POKER GRID", (BOARD_X, 12), 44, GOLD, bold=True)
        if not view.get("rows"):
            return
        view = self.shown_table(frame)
        self._draw_board(surface, frame, view)
        if frame.view is not None and frame.view.win_credits is not None and not self.busy(frame):
            self._draw_result(surface, frame)
        else:
            self._draw_side(surface, frame, view)
        self._draw_hand(surface, frame)

    def _draw_board(self, surface: pygame.Surface, frame: Frame, view: Mapping[str, Any]) -> None:
        kit = self.res.kit
        rows, cols = view["rows"], view["cols"]
        frame_rect = pygame.Rect(BOARD_X - 12, BOARD_Y - 12, cols * CELL + 18, rows * CELL + 18)
        pygame.draw.rect(surface, FELT_EDGE, frame_rect, border_radius=16)
        dealt = not self.deal.dealing(frame.now)
        legal = {tuple(square) for square in view.get("legal", [])} if dealt else set()
        scored: dict[tuple[int, ...], list[int]] = {}  # each cell's scoring seats, in order of play
        for move in view.get("last_plays", []):
            for cell in move["cells"]:
                scored.setdefault(tuple(cell), []).append(move["seat"])
        placed = {(move["row"], move["col"]): move for move in view.get("last_plays", [])}
        cards = self.res.cards
        for row in range(rows):
            for col in range(cols):
                rect = square_rect(row, col)
                held = view["board"][row][col]
                pygame.draw.rect(surface, FELT, rect, border_radius=10)
                if held == "W":
                    pygame.draw.rect(surface, GOLD, rect, border_radius=10)
                    kit.text(surface, "WILD", rect.center, 30, (40, 20, 0), bold=True, anchor="center")
                elif held and self.dealt(frame, ("starter", row, col)):
                    card_rect = pygame.Rect(0, 0, *cards.size(CARD_W))
                    card_rect.center = rect.center
                    cards.blit(surface, held, card_rect)
                if (row, col) in legal:
                    pygame.draw.rect(surface, GREEN, rect, width=5, border_radius=10)
                for k, seat in enumerate(scored.get((row, col), [])):  # a later line nests inside: none hides
                    ring = rect.inflate(-10 * k, -10 * k)
                    pygame.draw.rect(surface, CYAN if seat == 0 else RED, ring, width=4, border_radius=10)
                if (row, col) in placed and placed[(row, col)]["points"]:
                    badge = pygame.Rect(rect.right - 46, rect.y + 2, 44, 34)
                    pygame.draw.rect(surface, AMBER, badge, border_radius=8)
                    points = f"+{placed[(row, col)]['points']}"
                    kit.text(surface, points, badge.center, 26, (20, 10, 0), bold=True, anchor="center")
        newest = self.machine.newest(frame.now)
        if newest is not None:  # the machine's card just put down
            ring = square_rect(*newest).inflate(10, 10)
            pygame.draw.rect(surface, HIGHLIGHT, ring, width=6, border_radius=12)

    def end_buttons(self, frame: Frame) -> list[Button]:
        """PLAY AGAIN and GAME MENU on the finished game (the live table only, not a recall picture)."""
        return end_buttons(frame, SIDE)

    def _draw_result(self, surface: pygame.Surface, frame: Frame) -> None:
        """The end screen: who won by how much, what it pays in credits and money, and why."""
        scores = frame.table.get("scores", [])
        names = [seat_name(seat, len(scores)) for seat in range(len(scores))]
        draw_end_panel(surface, self.res.kit, frame, SIDE,
                       "   ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False)))

    def _draw_side(self, surface: pygame.Surface, frame: Frame, view: Mapping[str, Any]) -> None:
        kit = self.res.kit
        panel(surface, SIDE)
        scores = view.get("scores", [])
        names = [seat_name(seat, len(scores)) for seat in range(len(scores))]
        column = (SIDE.width - 60) // max(1, len(scores))
        for i, (name, score) in enumerate(zip(names, scores, strict=False)):
            x = SIDE.x + 30 + i * column
            kit.text(surface, name, (x, SIDE.y + 20), 28, LIGHT_GREY, bold=True)
            kit.text(surface, str(score), (x, SIDE.y + 56), 64, CYAN if i == 0 else WHITE, bold=True)
            if i:  # a machine's cards, face down beside its score
                room = pygame.Rect(x + 140, SIDE.y + 24, column - 150, 80)
                self._draw_opponent_hand(surface, frame, i, room)
        y = SIDE.y + 150
        kit.text(surface, f"DRAW PILE {view.get('draw_pile', 0)}", (SIDE.x + 30, y), 26, LIGHT_GREY)
        y += 44
        for move in view.get("last_plays", [])[-6:]:
            who = seat_name(move["seat"], len(scores))
            hand = move["category"].replace("_", " ").upper() if move["points"] else "NO SCORE"
            text = f"{who}: {card_words(move['card'])}  {hand}  +{move['points']}"  # the board shows where
            kit.text(surface, text, (SIDE.x + 30, y), 28, WHITE if move["seat"] == 0 else LIGHT_GREY)
            y += 40
        result = view.get("result")
        if result:
            title = {"win": "YOU WIN", "tie": "TIE", "loss": "MACHINE WINS"}[result]
            kit.text(
                surface, title, (SIDE.centerx, SIDE.bottom - 40), 56, GOLD, bold=True, anchor="midbottom"
            )
        elif view.get("step") == "play":
            kit.text(
                surface,
                "TAP A CARD, THEN A LIT SQUARE (OR DRAG IT)",
                (SIDE.centerx, SIDE.bottom - 30),
                26,
                AMBER,
                bold=True,
                anchor="midbottom",
            )

    def _draw_opponent_hand(self, surface: pygame.Surface, frame: Frame, seat: int,
                            room: pygame.Rect) -> None:
        held = (frame.table.get("opponent_cards") or [])[seat - 1]
        step = min(28, (room.width - OPPONENT_CARD_W) // max(1, held - 1))
        for index in range(held):
            if self.dealt(frame, ("hand", seat, index)):
                rect = pygame.Rect(room.x + index * step, room.y, *self.res.cards.size(OPPONENT_CARD_W))
                self.res.cards.blit(surface, None, rect)

    def _draw_hand(self, surface: pygame.Surface, frame: Frame) -> None:
        cards, view = self.res.cards, frame.table
        for index, card in enumerate(view.get("hand", [])):
            if not self.dealt(frame, ("hand", 0, index)):
                continue
            rect = hand_rect(index)
            if self.drag is not None and self.drag.index == index and self.drag.moved:
                continue
            if self.selected == index:
                rect = rect.move(0, -30)
                pygame.draw.rect(surface, GOLD, rect.inflate(12, 12), width=5, border_radius=12)
            cards.blit(surface, card, rect)
        if self.drag is not None and self.drag.moved and self.drag.index < len(view.get("hand", [])):
            rect = hand_rect(self.drag.index)
            rect.center = self.drag.pos
            cards.blit(surface, view["hand"][self.drag.index], rect)


def deal_order(view: Mapping[str, Any]) -> dict[tuple[Any, ...], int]:
    """The cards of a fresh round in the order the game deals them (`table.py`): one at a time around
    the seats, the customer first, then the starter cards onto the board (in board order). Keys are
    ("hand", seat, index) and ("starter", row, col).

    >>> order = deal_order({"hand": ["2c", "3c"], "opponent_cards": [2],
    ...                     "board": [["", "As"], ["W", "Kd"]]})
    >>> sorted(order, key=order.get)[:3], order[("starter", 1, 1)]
    ([('hand', 0, 0), ('hand', 1, 0), ('hand', 0, 1)], 5)
    """
    hands = [len(view.get("hand", [])), *(view.get("opponent_cards") or [])]
    order: dict[tuple[Any, ...], int] = {}
    for index in range(max(hands, default=0)):
        for seat, held in enumerate(hands):
            if index < held:
                order[("hand", seat, index)] = len(order)
    for row, cells in enumerate(view.get("board", [])):
        for col, held in enumerate(cells):
            if held not in ("", "W"):
                order[("starter", row, col)] = len(order)
    return order

"""The Poker Tiles table: the 13 x 13 board with its starting area, STARTING ZONE centre and card
squares, the customer's rack, the scores, and each play's lines with their points and multipliers.

Build a play by tapping a rack tile and then a square (or dragging the tile onto the square); tap a
placed tile again to take it back. A joker placed on the board asks for its declared card: tap a rank
and then a suit. PLAY sends the tiles placed; CLEAR takes them all back. PASS passes the turn.
EXCHANGE first asks which tiles to give back (tap them), then sends them. A SWAP button appears for
each joker on the board whose declared card the rack holds. The panel's AUTO PLAY button plays the
reference decision. Everything shown comes from the round's table data (`RoundView.table`,
egm.games.poker_tiles.game); the scene keeps only the tiles being placed, the selection, the
exchange choice and a drag in progress (presentation state: a power cut clears it, never a move).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pygame

from egm.cards import card_words
from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.video.cards import draw_suit
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
    LIGHT_GREY,
    RED,
    WHITE,
    panel,
)
from egm.video.widgets import Button, draw_all, hit, hit_any

CELL = 64  # board square size (logical pixels): 13 rows fit above the shell's panel
BOARD_X, BOARD_Y = 20, 62
TILE_W = 44
SIDE = pygame.Rect(880, 62, 1012, 400)
END = pygame.Rect(880, 478, 1012, 440)  # the end screen, where the rack was
RACK_X, RACK_Y, RACK_STEP, RACK_W = 910, 486, 170, 110
BUTTON_X, BUTTON_Y = 900, 680
RANKS = "23456789TJQKA"
SUITS = "cdhs"
START_TINT = (120, 96, 24)
CENTRE_TINT = (170, 120, 20)
INK_RED, INK_BLACK = (200, 30, 40), (235, 235, 235)
HAND_NAMES = {
    "pair": "PAIR",
    "two_pair": "TWO PAIR",
    "three_of_a_kind": "THREE OF A KIND",
    "straight": "STRAIGHT",
    "flush": "FLUSH",
    "full_house": "FULL HOUSE",
    "four_of_a_kind": "FOUR OF A KIND",
    "straight_flush": "STRAIGHT FLUSH",
    "royal_flush": "ROYAL FLUSH",
    "five_of_a_kind": "FIVE OF A KIND",
}


def seat_names(seats: int) -> list[str]:
    """YOU, then MACHINE (numbered when there are several)."""
    return ["YOU"] + [f"MACHINE {i}" if seats > 2 else "MACHINE" for i in range(1, seats)]


def square_rect(row: int, col: int) -> pygame.Rect:
    return pygame.Rect(BOARD_X + col * CELL, BOARD_Y + row * CELL, CELL - 4, CELL - 4)


def rack_rect(index: int) -> pygame.Rect:
    return pygame.Rect(RACK_X + index * RACK_STEP, RACK_Y, RACK_W, round(RACK_W * 1.4))


def square_at(table: Mapping[str, Any], pos: tuple[int, int]) -> tuple[int, int] | None:
    """The board square under `pos`, if any."""
    col, row = (pos[0] - BOARD_X) // CELL, (pos[1] - BOARD_Y) // CELL
    if (
        0 <= row < table.get("rows", 0)
        and 0 <= col < table.get("cols", 0)
        and square_rect(row, col).collidepoint(pos)
    ):
        return row, col
    return None


def rack_index_at(table: Mapping[str, Any], pos: tuple[int, int]) -> int | None:
    for index in range(len(table.get("rack", []))):
        if rack_rect(index).collidepoint(pos):
            return index
    return None


def button_rect(slot: int, row: int = 0) -> pygame.Rect:
    return pygame.Rect(BUTTON_X + slot * 250, BUTTON_Y + row * 115, 226, 96)


def picker_rect(index: int) -> pygame.Rect:
    """The declaration picker: 13 rank keys in two rows, then 4 suit keys."""
    if index < 13:
        return pygame.Rect(SIDE.x + 30 + (index % 7) * 136, SIDE.y + 80 + (index // 7) * 96, 120, 82)
    return pygame.Rect(SIDE.x + 30 + (index - 13) * 240, SIDE.y + 280, 220, 90)


@dataclass
class Pending:
    """A tile placed on the board but not yet played."""

    index: int  # its position in the rack
    row: int
    col: int
    declared: str | None = None  # a joker's card once declared


def played_squares(move: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The squares a move put tiles on (none for an exchange, a pass or a joker swap)."""
    return [(t["row"], t["col"]) for t in move.get("tiles", [])] if move["kind"] == "play" else []


class PokerTilesScene(MachineTableScene):
    name = "poker-tiles"
    game_id = "poker-tiles"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.pending: list[Pending] = []
        self.selected: int | None = None
        self.drag: Drag | None = None
        self.exchanging: set[int] | None = None  # rack indices chosen to give back, in exchange mode
        self.rank: str | None = None  # the rank picked for the joker being declared
        self.round_key: Any = None

    wait_notice = "Please wait: the machine is playing its tiles."

    # --- state ---------------------------------------------------------------------------------------
    def _sync(self, frame: Frame) -> None:
        """Drop everything in hand when the rack, the step or the scores change (a turn was made); the
        machine's new tiles are put down one by one."""
        table = frame.table
        self.machine.follow(frame.now, frame.round_number, table.get("last_moves", []), played_squares)
        key = (
            tuple(table.get("rack", [])),
            frame.step,
            tuple(table.get("scores", [])),
            table.get("turns_left"),
            frame.round_number,
        )
        if key != self.round_key:
            self.round_key = key
            self._reset()

    def busy(self, frame: Frame) -> bool:
        """While the machine's tiles go down, input is held (it shows how the round came out)."""
        self._sync(frame)
        return self.machine.playing(frame.now)

    def _reset(self) -> None:
        self.pending, self.selected, self.drag, self.exchanging, self.rank = [], None, None, None, None

    def _declaring(self) -> Pending | None:
        """The placed joker still waiting for its declared card."""
        return next((p for p in self.pending if p.declared is None), None)

    def buttons(self, table: Mapping[str, Any]) -> list[Button]:
        if table.get("step") != "play":
            return []
        if self._declaring() is not None:
            keys = [
                Button(f"rank:{r}", r, picker_rect(i), lamp="flash" if self.rank == r else "on")
                for i, r in enumerate(RANKS)
            ]
            keys += [
                Button(
                    f"suit:{s}",
                    s.upper(),
                    picker_rect(13 + i),
                    lamp="on" if self.rank else "off",
                    colour=CYAN,
                )
                for i, s in enumerate(SUITS)
            ]
            return keys
        exchange_lamp = (
            "flash" if self.exchanging else ("off" if self.pending or table.get("first_play") else "on")
        )
        out = [
            Button("play", "PLAY", button_rect(0), lamp="on" if self.pending else "off"),
            Button(
                "clear",
                "CLEAR",
                button_rect(1),
                lamp="on" if self.pending or self.exchanging is not None else "off",
            ),
            Button("pass", "PASS", button_rect(2), lamp="off" if table.get("first_play") else "on"),
            Button("exchange", "EXCHANGE", button_rect(3), lamp=exchange_lamp),
        ]
        for slot, (_, _, card) in enumerate(table.get("joker_swaps", [])[:4]):
            out.append(
                Button(
                    f"swap:{slot}",
                    f"SWAP {card}\nFOR JOKER",
                    button_rect(slot, 1),
                    colour=CYAN,
                    lamp="off" if self.pending else "on",
                )
            )
        return out

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        self._sync(frame)
        table = frame.table
        if event.type == pygame.MOUSEBUTTONUP:
            button = hit_any(end_buttons(frame, END), event.pos)
            if button is not None:  # a dark PLAY AGAIN still asks: the shell says why not
                return [UiAction(button.action)]
        if table.get("step") != "play":
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = rack_index_at(table, event.pos)
            if index is not None and self._declaring() is None:
                self.drag = Drag(index, event.pos, event.pos)
            return []
        if event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag.pos = event.pos
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            button = hit(self.buttons(table), event.pos)
            if button is not None:
                return self._press(button.action, table)
            return self._release(table, event.pos)
        return []

    def _release(self, table: Mapping[str, Any], pos: tuple[int, int]) -> list[object]:
        drag, self.drag = self.drag, None
        if drag is not None:
            drag.pos = pos
            if not drag.moved:  # a tap on a rack tile
                if self.exchanging is not None:
                    self.exchanging ^= {drag.index}
                elif not any(p.index == drag.index for p in self.pending):
                    self.selected = None if self.selected == drag.index else drag.index
                return []
            self._place(table, drag.index, pos)
            return []
        square = square_at(table, pos)
        taken = next((p for p in self.pending if square == (p.row, p.col)), None)
        if taken is not None:  # tap a placed tile: back to the rack
            self.pending.remove(taken)
            self.rank = None
        elif self.selected is not None:
            self._place(table, self.selected, pos)
        return []

    def _place(self, table: Mapping[str, Any], index: int, pos: tuple[int, int]) -> None:
        square = square_at(table, pos)
        if square is None or index >= len(table["rack"]) or self.exchanging is not None:
            return
        row, col = square
        if table["board"][row][col] is not None or any((p.row, p.col) == square for p in self.pending):
            return
        if any(p.index == index for p in self.pending):
            return
        card = table["rack"][index]
        self.pending.append(Pending(index, row, col, None if card == "JK" else card))
        self.selected = None

    def _press(self, action: str, table: Mapping[str, Any]) -> list[object]:
        kind, _, arg = action.partition(":")
        if kind == "rank":
            self.rank = arg
            return []
        if kind == "suit":
            declaring = self._declaring()
            if declaring is not None and self.rank is not None:
                declaring.declared = self.rank + arg
                self.rank = None
            return []
        if kind == "clear":
            self._reset()
            return []
        if kind == "play":
            tiles = [
                {"row": p.row, "col": p.col, "card": table["rack"][p.index], "as": p.declared}
                for p in self.pending
            ]
            return [PlayerDecision(Decision("play", {"tiles": tiles}))]
        if kind == "pass":
            return [PlayerDecision(Decision("pass"))]
        if kind == "exchange":
            if not self.exchanging:
                self.exchanging = set()
                return []
            tiles = [table["rack"][i] for i in sorted(self.exchanging)]
            return [PlayerDecision(Decision("exchange", {"tiles": tiles}))]
        if kind == "swap":
            row, col, card = table["joker_swaps"][int(arg)]
            return [PlayerDecision(Decision("swap_joker", {"row": row, "col": col, "card": card}))]
        return []

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        self._sync(frame)
        table = self.machine.table(frame.table, frame.now, "last_moves")  # as the machine's tiles went down
        kit = self.res.kit
        surface.fill(FELT_DARK)
        kit.text(surface, "POKER TILES", (BOARD_X, 10), 44, GOLD, bold=True)
        if not table.get("rows"):
            return
        self._draw_board(surface, table)
        newest = self.machine.newest(frame.now)
        if newest is not None:  # the machine's tile just put down
            ring = square_rect(*newest).inflate(8, 8)
            pygame.draw.rect(surface, HIGHLIGHT, ring, width=5, border_radius=10)
        self._draw_side(surface, table)
        if frame.view is not None and frame.view.win_credits is not None and not self.busy(frame):
            names = seat_names(len(table.get("scores", [])))
            standings = "   ".join(f"{n} {s}" for n, s in zip(names, table.get("scores", []), strict=False))
            draw_end_panel(surface, kit, frame, END, standings)
            return
        self._draw_rack(surface, table)
        buttons = self.buttons(table)
        if self.busy(frame):  # dark while the machine plays: a press now is held
            buttons = [replace(b, lamp="off") for b in buttons]
        draw_all(surface, kit, buttons, frame.now)

    def _draw_board(self, surface: pygame.Surface, table: Mapping[str, Any]) -> None:
        kit = self.res.kit
        rows, cols = table["rows"], table["cols"]
        pygame.draw.rect(
            surface,
            FELT_EDGE,
            (BOARD_X - 10, BOARD_Y - 10, cols * CELL + 16, rows * CELL + 16),
            border_radius=14,
        )
        start = {tuple(s) for s in table["start"]}
        centre = tuple(table["centre"])
        (start_row, first), (_, last) = min(start), max(start)
        ends = {(start_row, first - 1), (start_row, last + 1)}
        marked = {(r, c): card for r, c, card in table["card_squares"]}
        for row in range(rows):
            for col in range(cols):
                rect = square_rect(row, col)
                tint = CENTRE_TINT if (row, col) == centre else START_TINT if (row, col) in start else FELT
                pygame.draw.rect(surface, tint, rect, border_radius=8)
                if (row, col) in ends:  # the starting area's end markers: the four suits, in the corners
                    for i, suit in enumerate(SUITS):
                        colour = INK_RED if suit in "dh" else INK_BLACK
                        corner = (
                            rect.x + 9 + (i % 2) * (rect.width - 18),
                            rect.y + 9 + (i // 2) * (rect.height - 18),
                        )
                        draw_suit(surface, suit, corner, 12, colour)
                elif (row, col) == centre and table["board"][row][col] is None and not any(
                        (p.row, p.col) == centre for p in self.pending):  # a tile there hides the label whole
                    kit.text(
                        surface,
                        "STARTING",
                        (rect.centerx, rect.centery - 10),
                        12,
                        WHITE,
                        bold=True,
                        anchor="center",
                    )
                    kit.text(
                        surface,
                        "ZONE",
                        (rect.centerx, rect.centery + 8),
                        12,
                        WHITE,
                        bold=True,
                        anchor="center",
                    )
                if (row, col) in marked:
                    card = marked[(row, col)]
                    colour = INK_RED if card[1] in "dh" else INK_BLACK
                    kit.text(
                        surface,
                        "10" if card[0] == "T" else card[0],
                        (rect.x + 19, rect.centery),
                        24,
                        colour,
                        bold=True,
                        anchor="center",
                    )
                    draw_suit(surface, card[1], (rect.x + 43, rect.centery), 18, colour)
                held = table["board"][row][col]
                if held is not None:
                    self._draw_tile(
                        surface,
                        rect,
                        "JK" if held["joker"] else held["card"],
                        held["card"] if held["joker"] else None,
                    )
        for p in self.pending:
            rect = square_rect(p.row, p.col)
            card = table["rack"][p.index] if p.index < len(table["rack"]) else "JK"
            self._draw_tile(surface, rect, card, p.declared if card == "JK" else None)
            pygame.draw.rect(surface, CYAN, rect, width=4, border_radius=8)
        for move in table.get("last_moves", []):
            colour = CYAN if move["seat"] == 0 else RED
            for hand in move.get("hands", []):
                for row, col in hand["cells"]:
                    pygame.draw.rect(surface, colour, square_rect(row, col), width=3, border_radius=8)
            if move.get("points"):
                first = move["tiles"][0]
                rect = square_rect(first["row"], first["col"])
                badge = pygame.Rect(rect.right - 36, rect.bottom - 20, 42, 24)  # below the rank, never on it
                pygame.draw.rect(surface, AMBER, badge, border_radius=8)
                kit.text(
                    surface, f"+{move['points']}", badge.center, 20, (20, 10, 0), bold=True, anchor="center"
                )

    def _draw_tile(
        self, surface: pygame.Surface, square: pygame.Rect, card: str, declared: str | None
    ) -> None:
        rect = pygame.Rect(0, 0, *self.res.cards.size(TILE_W))
        rect.center = square.center
        self.res.cards.blit(surface, card, rect)
        if card == "JK":
            label = f"= {card_words(declared)}" if declared else "= ?"
            tag = pygame.Rect(square.x + 2, square.bottom - 22, square.width - 4, 20)
            pygame.draw.rect(surface, GOLD, tag, border_radius=6)
            self.res.kit.text(surface, label, tag.center, 17, (20, 10, 0), bold=True, anchor="center")

    def _draw_side(self, surface: pygame.Surface, table: Mapping[str, Any]) -> None:
        kit = self.res.kit
        panel(surface, SIDE)
        declaring = self._declaring()
        if declaring is not None and table.get("step") == "play":
            kit.text(
                surface,
                "DECLARE THE JOKER: TAP A RANK, THEN A SUIT",
                (SIDE.x + 30, SIDE.y + 24),
                30,
                AMBER,
                bold=True,
            )
            return
        scores = table.get("scores", [])
        names = seat_names(len(scores))
        for i, (name, score) in enumerate(zip(names, scores, strict=False)):
            x = SIDE.x + 30 + i * (SIDE.width - 60) // max(1, len(scores))
            kit.text(surface, name, (x, SIDE.y + 16), 26, LIGHT_GREY, bold=True)
            kit.text(surface, str(score), (x, SIDE.y + 46), 56, CYAN if i == 0 else WHITE, bold=True)
        kit.text(
            surface,
            f"POOL {table.get('pool', 0)}   TURNS LEFT {table.get('turns_left', 0)}",
            (SIDE.x + 30, SIDE.y + 120),
            24,
            LIGHT_GREY,
        )
        y = SIDE.y + 156
        for move in table.get("last_moves", [])[-4:]:
            who = names[move["seat"]]
            if move["kind"] == "play":
                for hand in move["hands"][:2]:
                    text = (
                        f"{who}: {HAND_NAMES[hand['category']]} {hand['base']} x{hand['multiplier']} "
                        f"= {hand['points']}"
                    )
                    kit.text(surface, text, (SIDE.x + 30, y), 26, WHITE if move["seat"] == 0 else LIGHT_GREY)
                    y += 34
            else:
                text = {"pass": "PASSES", "exchange": "EXCHANGES TILES", "swap_joker": "SWAPS A JOKER"}[
                    move["kind"]
                ]
                kit.text(surface, f"{who}: {text}", (SIDE.x + 30, y), 26, LIGHT_GREY)
                y += 34
        if table.get("result"):  # each seat's points for tiles left at the end (the end screen is below)
            adjusted = zip(names, table.get("end_adjustments") or [], strict=False)
            left = ", ".join(f"{name} {points:+d}" for name, points in adjusted)
            kit.text(surface, f"TILES LEFT AT THE END: {left}", (SIDE.x + 30, SIDE.bottom - 50), 26,
                     LIGHT_GREY)
        elif table.get("step") == "play":
            hint = (
                "TAP THE TILES TO GIVE BACK, THEN EXCHANGE"
                if self.exchanging is not None
                else "FIRST PLAY: A HAND IN THE STARTING AREA"
                if table.get("first_play")
                else "TAP A TILE, THEN A SQUARE (OR DRAG IT); THEN PLAY"
            )
            kit.text(
                surface, hint, (SIDE.centerx, SIDE.bottom - 18), 24, AMBER, bold=True, anchor="midbottom"
            )

    def _draw_rack(self, surface: pygame.Surface, table: Mapping[str, Any]) -> None:
        cards = self.res.cards
        placed = {p.index for p in self.pending}
        for index, card in enumerate(table.get("rack", [])):
            rect = rack_rect(index)
            if index in placed:
                pygame.draw.rect(surface, FELT, rect, border_radius=12)
                continue
            if self.drag is not None and self.drag.index == index and self.drag.moved:
                continue
            if self.selected == index or (self.exchanging and index in self.exchanging):
                rect = rect.move(0, -24)
                pygame.draw.rect(
                    surface,
                    GOLD if self.selected == index else RED,
                    rect.inflate(12, 12),
                    width=5,
                    border_radius=12,
                )
            cards.blit(surface, card, rect)
        if self.drag is not None and self.drag.moved and self.drag.index < len(table.get("rack", [])):
            rect = rack_rect(self.drag.index)
            rect.center = self.drag.pos
            cards.blit(surface, table["rack"][self.drag.index], rect)

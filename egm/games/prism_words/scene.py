"""The Prism Words table: the 15 x 15 grid with its centre pocket, the customer's rack showing both
faces of every block, the scores, and the words of the last plays with their scoring phases.

Make a play by choosing a block's face and a square, once per block, then PLAY: tap a block on the
rack (the face tapped is the one chosen; tap the other half to turn the block to its other face),
then tap an empty square; or drag a face onto a square. A star face asks for its letter on screen
(A to Z). Tapping a block staged on the grid takes it back; CLEAR takes them all back. EXCHANGE and
PASS are the other moves. Everything shown comes from the round's table data (`RoundView.table`,
egm.games.prism_words.game); the scene keeps only the staged blocks and the selection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pygame

from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.video.drag import Drag
from egm.video.end_panel import draw_end_panel, end_buttons
from egm.video.machine_move import HIGHLIGHT
from egm.video.scene import Frame, MachineTableScene, Resources, UiAction
from egm.video.theme import AMBER, CYAN, FELT, FELT_DARK, FELT_EDGE, GOLD, LIGHT_GREY, RED, WHITE, panel
from egm.video.widgets import Button, draw_all, hit, hit_any

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CELL = 56
BOARD_X, BOARD_Y = 40, 66
SIDE_X = 930
SCORES = pygame.Rect(SIDE_X, 66, 950, 120)
WORDS = pygame.Rect(SIDE_X, 200, 950, 380)
END = pygame.Rect(SIDE_X, 436, 950, 482)  # the end screen, over the rack; the moves above it
ENDED_WORDS = pygame.Rect(SIDE_X, 200, 950, 222)
RACK_X, RACK_Y, FACE_W, FACE_H, BLOCK_GAP = SIDE_X + 10, 610, 70, 100, 20
BUTTONS_Y = 800
IVORY = (246, 238, 214)
INK = (30, 24, 16)
STAR_FACE = (255, 226, 140)


def seat_names(seats: int) -> list[str]:
    """Each seat's one name on the table (scores, moves, end): the customer YOU, an opponent MACHINE
    (numbered when there are several)."""
    return ["YOU"] + [f"MACHINE {i}" if seats > 2 else "MACHINE" for i in range(1, seats)]


def square_rect(row: int, col: int) -> pygame.Rect:
    return pygame.Rect(BOARD_X + col * CELL, BOARD_Y + row * CELL, CELL - 4, CELL - 4)


def face_rect(slot: int, side: int) -> pygame.Rect:
    """One face of the block in rack slot `slot`: side 0 the left (boxed) face, 1 the right."""
    x = RACK_X + slot * (2 * FACE_W + BLOCK_GAP) + side * FACE_W
    return pygame.Rect(x, RACK_Y, FACE_W, FACE_H)


def letter_rect(index: int) -> pygame.Rect:
    """The star's letter picker: 13 letters a row, over the words panel."""
    row, col = divmod(index, 13)
    return pygame.Rect(WORDS.x + 20 + col * 70, WORDS.y + 150 + row * 80, 62, 70)


BUTTONS = [
    Button("play", "PLAY", pygame.Rect(SIDE_X + 10, BUTTONS_Y, 210, 90)),
    Button("clear", "CLEAR", pygame.Rect(SIDE_X + 250, BUTTONS_Y, 210, 90)),
    Button("exchange", "EXCHANGE", pygame.Rect(SIDE_X + 490, BUTTONS_Y, 210, 90)),
    Button("pass", "PASS", pygame.Rect(SIDE_X + 730, BUTTONS_Y, 210, 90)),
]


@dataclass
class Staged:
    """A block put on the grid for the play being made (not yet sent)."""

    block: int
    face: str
    row: int
    col: int
    letter: str | None  # the shown letter; for a star face the one chosen (None until chosen)
    star: bool

    def decision_item(self) -> dict[str, Any]:
        item: dict[str, Any] = {"row": self.row, "col": self.col, "block": self.block, "face": self.face}
        if self.star:
            item["letter"] = self.letter
        return item


def face_at(view: Mapping[str, Any], pos: tuple[int, int]) -> tuple[int, int] | None:
    """(rack slot, side) of the face under `pos`, if any."""
    for slot in range(len(view.get("rack", []))):
        for side in (0, 1):
            if face_rect(slot, side).collidepoint(pos):
                return slot, side
    return None


def square_at(view: Mapping[str, Any], pos: tuple[int, int]) -> tuple[int, int] | None:
    rows, cols = view.get("rows", 0), view.get("cols", 0)
    col, row = (pos[0] - BOARD_X) // CELL, (pos[1] - BOARD_Y) // CELL
    if 0 <= row < rows and 0 <= col < cols and square_rect(row, col).collidepoint(pos):
        return row, col
    return None


def phases(word: Mapping[str, Any]) -> str:
    """A word's scoring phases as they add up, e.g. 'WHITER 12 x2 +25 = 49'."""
    text = f"{word['word']} {word['basic']}"
    if word["doubled"]:
        text += " x2"
    if word["pattern_bonus"]:
        text += f" +{word['pattern_bonus']}"
    return f"{text} = {word['points']}"


class PrismWordsScene(MachineTableScene):
    name = "prism-words"
    game_id = "prism-words"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.staged: list[Staged] = []
        self.selected: tuple[int, int] | None = None  # (rack slot, side)
        self.drag: Drag | None = None
        self.round_key: Any = None

    wait_notice = "Please wait: the machine is playing its word."

    # --- state ---------------------------------------------------------------------------------------
    def _sync(self, frame: Frame) -> None:
        """Drop the staged blocks and the selection when the round moves on (a move was taken); the
        machine's new blocks are put down one by one."""
        view = frame.table
        self.machine.follow(frame.now, frame.round_number, view.get("last_moves", []),
                            lambda move: [(p["row"], p["col"]) for p in move.get("placements", [])])
        key = (frame.round_number, tuple(item["block"] for item in view.get("rack", [])),
               len(view.get("grid", [])), view.get("step"))
        if key != self.round_key:
            self.round_key = key
            self.staged, self.selected, self.drag = [], None, None

    def busy(self, frame: Frame) -> bool:
        """While the machine's blocks go down, input is held (it shows how the round came out)."""
        self._sync(frame)
        return self.machine.playing(frame.now)

    def shown_table(self, frame: Frame) -> dict[str, Any]:
        """The round's table as the machine's blocks have gone down so far."""
        table = self.machine.table(frame.table, frame.now, "last_moves")
        hidden = self.machine.hidden_squares(frame.now)
        table["grid"] = [item for item in table.get("grid", []) if (item["row"], item["col"]) not in hidden]
        return table

    def _pending_star(self) -> Staged | None:
        return next((s for s in self.staged if s.star and s.letter is None), None)

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        self._sync(frame)
        view = frame.table
        if event.type == pygame.MOUSEBUTTONUP:
            button = hit_any(end_buttons(frame, END), event.pos)
            if button is not None:  # a dark PLAY AGAIN still asks: the shell says why not
                return [UiAction(button.action)]
        if view.get("step") != "play":
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            face = face_at(view, event.pos)
            if face is not None and not self._is_staged(view, face[0]):
                self.drag = Drag(face[0] * 2 + face[1], event.pos, event.pos)
            return []
        if event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag.pos = event.pos
            return []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._release(view, event.pos)
        return []

    def _release(self, view: Mapping[str, Any], pos: tuple[int, int]) -> list[object]:
        drag, self.drag = self.drag, None
        if drag is not None:
            drag.pos = pos
            slot, side = divmod(drag.index, 2)
            if drag.moved:
                self._stage(view, slot, side, square_at(view, pos))
            else:  # a tap selects the block with the face tapped; the same face again drops it
                self.selected = None if self.selected == (slot, side) else (slot, side)
            return []
        pending = self._pending_star()
        if pending is not None:
            for index, letter in enumerate(LETTERS):
                if letter_rect(index).collidepoint(pos):
                    pending.letter = letter
            return []
        button = hit(self._buttons(), pos)
        if button is not None:
            return self._press(button.action)
        square = square_at(view, pos)
        if square is None:
            return []
        taken = next((s for s in self.staged if (s.row, s.col) == square), None)
        if taken is not None:
            self.staged.remove(taken)
        elif self.selected is not None:
            self._stage(view, *self.selected, square)
            self.selected = None
        return []

    def _is_staged(self, view: Mapping[str, Any], slot: int) -> bool:
        return any(s.block == view["rack"][slot]["block"] for s in self.staged)

    def _stage(self, view: Mapping[str, Any], slot: int, side: int, square: tuple[int, int] | None) -> None:
        if square is None or self._is_staged(view, slot):
            return
        filled = {(item["row"], item["col"]) for item in view.get("grid", [])}
        if square in filled or any((s.row, s.col) == square for s in self.staged):
            return
        block = view["rack"][slot]
        face = ("left", "right")[side]
        shown = block[face]
        star = shown == "*"
        self.staged.append(Staged(block["block"], face, *square, None if star else shown[0], star))

    def _buttons(self) -> list[Button]:
        ready = bool(self.staged) and self._pending_star() is None
        lamps = {"play": "flash" if ready else "off", "clear": "on" if self.staged else "off"}
        return [Button(b.action, b.label, b.rect, lamps.get(b.action, "on")) for b in BUTTONS]

    def _press(self, action: str) -> list[object]:
        if action == "clear":
            self.staged = []
            return []
        if action == "play":
            items = [s.decision_item() for s in self.staged]
            return [PlayerDecision(Decision("play", {"placements": items}))]
        return [PlayerDecision(Decision(action))]

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        self._sync(frame)
        view = self.shown_table(frame)
        kit = self.res.kit
        surface.fill(FELT_DARK)
        kit.text(surface, "PRISM WORDS", (BOARD_X, 8), 44, GOLD, bold=True)
        if not view.get("rows"):
            return
        self._draw_grid(surface, view)
        newest = self.machine.newest(frame.now)
        if newest is not None:  # the machine's block just put down
            pygame.draw.rect(surface, HIGHLIGHT, square_rect(*newest).inflate(8, 8), width=5, border_radius=8)
        self._draw_scores(surface, view)
        if frame.view is not None and frame.view.win_credits is not None and not self.busy(frame):
            self._draw_words(surface, view, ENDED_WORDS)
            names = seat_names(len(view.get("scores", [])))
            standings = "   ".join(f"{n} {s}" for n, s in zip(names, view.get("scores", []), strict=False))
            draw_end_panel(surface, kit, frame, END, standings)
            return
        self._draw_words(surface, view, WORDS)
        self._draw_rack(surface, view)
        if view.get("step") == "play":
            buttons = self._buttons()
            if self.busy(frame):  # dark while the machine plays: a press now is held
                buttons = [replace(b, lamp="off") for b in buttons]
            draw_all(surface, kit, buttons, frame.now)

    def _face(self, surface: pygame.Surface, rect: pygame.Rect, letter: str, value: int | None, boxed: bool,
              star: bool = False) -> None:
        """A block face: its letter, its numeral in the corner, boxed on a left face; a star face gold."""
        kit = self.res.kit
        pygame.draw.rect(surface, STAR_FACE if star else IVORY, rect, border_radius=6)
        size = rect.height * 3 // 5
        kit.text(surface, letter, (rect.centerx - rect.width // 10, rect.centery + 2), size, INK, bold=True,
                 anchor="center")
        if value is not None:
            corner = (rect.right - 4, rect.y + 3)
            numeral = kit.text(surface, str(value), corner, max(14, rect.height // 4), INK, bold=True,
                               anchor="topright")
            if boxed:
                pygame.draw.rect(surface, INK, numeral.inflate(6, 2), width=2)

    def _draw_grid(self, surface: pygame.Surface, view: Mapping[str, Any]) -> None:
        rows, cols = view["rows"], view["cols"]
        frame_rect = pygame.Rect(BOARD_X - 10, BOARD_Y - 10, cols * CELL + 16, rows * CELL + 16)
        pygame.draw.rect(surface, FELT_EDGE, frame_rect, border_radius=12)
        centre = tuple(view["centre"])
        last = {tuple(cell): move["seat"] for move in view.get("last_moves", []) if move["kind"] == "play"
                for cell in ((p["row"], p["col"]) for p in move["placements"])}
        for row in range(rows):
            for col in range(cols):
                rect = square_rect(row, col)
                pygame.draw.rect(surface, FELT, rect, border_radius=5)
                if (row, col) == centre:  # the wedge-shaped centre pocket
                    pygame.draw.polygon(surface, GOLD, [rect.topleft, rect.topright, rect.midbottom], width=3)
        for item in view.get("grid", []):
            rect = square_rect(item["row"], item["col"])
            value = None if item["star"] else item["value"]
            self._face(surface, rect, item["letter"], value, item["face"] == "left", item["star"])
            seat = last.get((item["row"], item["col"]))
            if seat is not None:
                pygame.draw.rect(surface, CYAN if seat == 0 else RED, rect, width=3, border_radius=6)
        for staged in self.staged:
            rect = square_rect(staged.row, staged.col)
            block = next((b for b in view.get("rack", []) if b["block"] == staged.block), None)
            shown = block[staged.face] if block else "?"
            value = None if staged.star else int(shown[1:])
            self._face(surface, rect, staged.letter or "?", value, staged.face == "left", staged.star)
            pygame.draw.rect(surface, AMBER, rect, width=4, border_radius=6)

    def _draw_scores(self, surface: pygame.Surface, view: Mapping[str, Any]) -> None:
        kit = self.res.kit
        panel(surface, SCORES)
        scores = view.get("scores", [])
        names = seat_names(len(scores))
        for i, (name, score) in enumerate(zip(names, scores, strict=False)):
            x = SCORES.x + 24 + i * 260
            turn = view.get("turn") == i and view.get("step") == "play"
            kit.text(surface, name + (" *" if turn else ""), (x, SCORES.y + 10), 26, LIGHT_GREY, bold=True)
            kit.text(surface, str(score), (x, SCORES.y + 44), 56, CYAN if i == 0 else WHITE, bold=True)
        kit.text(surface, f"BAG {view.get('bag', 0)}", (SCORES.right - 24, SCORES.y + 10), 28, LIGHT_GREY,
                 bold=True, anchor="topright")

    def _draw_words(self, surface: pygame.Surface, view: Mapping[str, Any], box: pygame.Rect) -> None:
        """The last moves, newest last, each wrapped to the panel (never shrunk); the racks left at the
        end, or the hint while the customer plays."""
        kit = self.res.kit
        panel(surface, box)
        if self._pending_star() is not None:
            kit.text(surface, "THE STAR STANDS FOR WHICH LETTER?", (WORDS.centerx, WORDS.y + 60), 36, GOLD,
                     bold=True, anchor="center")
            for index, letter in enumerate(LETTERS):
                rect = letter_rect(index)
                pygame.draw.rect(surface, STAR_FACE, rect, border_radius=8)
                kit.text(surface, letter, rect.center, 40, INK, bold=True, anchor="center")
            return
        names = seat_names(len(view.get("scores", [])))
        lines: list[tuple[str, Any]] = []
        for move in view.get("last_moves", [])[-5:]:
            who, colour = names[move["seat"]], WHITE if move["seat"] == 0 else LIGHT_GREY
            if move["kind"] != "play":
                lines.append((f"{who}: {move['kind'].upper()}", LIGHT_GREY))
                continue
            words = "   ".join(phases(word) for word in move["words"])
            if move["rack_bonus"]:
                words += f"   ALL SIX +{move['rack_bonus']}"
            lines.append((f"{who}: {words}   ({move['points']})", colour))
        parts = [(part, colour) for text, colour in lines for part in kit.wrap(text, box.width - 40, 28)]
        room = (box.height - 70) // 38  # the newest moves that fit above the last line
        for i, (part, colour) in enumerate(parts[-room:]):
            kit.text(surface, part, (box.x + 20, box.y + 14 + i * 38), 28, colour)
        if view.get("result"):
            adjust = view.get("end_adjustments") or []
            racks = ", ".join(f"{name} {a:+d}" for name, a in zip(names, adjust, strict=False))
            left = f"RACKS LEFT: {racks}"
            kit.text(surface, left, (box.x + 20, box.bottom - 44), 26, LIGHT_GREY)
        elif view.get("step") == "play":
            kit.text(surface, "TAP A BLOCK'S FACE, THEN A SQUARE (OR DRAG IT); THEN PLAY",
                     (box.centerx, box.bottom - 20), 26, AMBER, bold=True, anchor="midbottom")

    def _draw_rack(self, surface: pygame.Surface, view: Mapping[str, Any]) -> None:
        for slot, block in enumerate(view.get("rack", [])):
            if self._is_staged(view, slot):
                continue
            for side, face in enumerate(("left", "right")):
                rect = face_rect(slot, side)
                if self.drag is not None and self.drag.index == slot * 2 + side and self.drag.moved:
                    continue
                shown = block[face]
                star = shown == "*"
                self._face(surface, rect, shown[0], None if star else int(shown[1:]), side == 0, star)
                if self.selected == (slot, side):
                    pygame.draw.rect(surface, GOLD, rect.inflate(8, 8), width=5, border_radius=8)
        if self.drag is not None and self.drag.moved:
            slot, side = divmod(self.drag.index, 2)
            if slot < len(view.get("rack", [])):
                shown = view["rack"][slot][("left", "right")[side]]
                rect = pygame.Rect(0, 0, CELL, CELL)
                rect.center = self.drag.pos
                star = shown == "*"
                self._face(surface, rect, shown[0], None if star else int(shown[1:]), side == 0, star)

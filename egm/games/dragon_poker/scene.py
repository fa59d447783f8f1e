"""The Dragon Poker table: designate four face-down hands, set the player's hand, and watch the
dealer's and the Dragon's hands revealed in the patent's order (claim 1, [0025]) with row-by-row
results, the points ledger, the running jackpot and the scoreboard.

Steps of the round's view: "designate" -> "set" -> "complete". On "complete" the scene plays the
reveal in phases: the player's set hand; the dealer's hand revealed and set; player vs dealer row by
row; the Dragon's hand revealed and set; each row's winner vs the Dragon; the points. Input that would
play during the reveal is refused (`busy`).
"""

from __future__ import annotations

from typing import Any

import pygame

from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.games.dragon_poker import view as dv
from egm.games.dragon_poker.hand import REVEAL_ORDER
from egm.money import credits_text, pay_text
from egm.video import snap
from egm.video.deal import Deal
from egm.video.drag import Drag
from egm.video.layout import CONTENT_RECT
from egm.video.scene import Frame, Resources, Scene, UiAction
from egm.video.theme import (
    BLUE,
    CABINET,
    CYAN,
    DRAGON_RED,
    FELT,
    FELT_DARK,
    FELT_EDGE,
    GOLD,
    GREY,
    LIGHT_GREY,
    WHITE,
    Kit,
    money,
    panel,
)
from egm.video.widgets import Button, draw_all, hit, hit_any, label_box

FELT_RECT = pygame.Rect(20, 120, 1580, 800)
SIDE_RECT = pygame.Rect(1620, 120, 280, 800)
ROLE_COLOURS = {"player": BLUE, "dealer": GREY, "dragon": DRAGON_RED}
ROLE_TITLES = {"player": "PLAYER", "dealer": "DEALER", "dragon": "DRAGON"}
SIDE_NAMES = {"P": "Player", "H": "Dealer", "D": "Dragon"}

# Reveal phases on "complete", seconds after the settled view first appears.
PHASE_S = 0.9
PHASES = REVEAL_ORDER  # the game's reveal order: player_set, dealer_revealed, player_vs_dealer, ...
DEALER_REVEALED, PLAYER_VS_DEALER, DRAGON_REVEALED, VS_DRAGON, POINTS = (
    PHASES.index(name)
    for name in ("dealer_revealed", "player_vs_dealer", "dragon_revealed", "winners_vs_dragon", "points")
)
REVEAL_S = PHASE_S * POINTS
DEAL_CARD_S = 0.025  # the deal: one card every 25 ms, around the four hands, then the two bonus cards
DECK_CARDS = 54
FLIP_S = 0.3  # a revealed hand's cards turn over

# Designate layout: four rows of 13 face-down cards.
DESIGNATE_CARD_W = 92
DESIGNATE_STEP = 58
DESIGNATE_X = 190
DESIGNATE_Y = (150, 340, 530, 720)

# Set layout: three row zones above the 13-card hand.
SET_CARD_W = 118
SET_STEP = 128
ZONE_X = 230
ZONE_Y = {"front": 140, "middle": 330, "back": 520}
POOL_Y = 730
POOL_CARD_W = 100
POOL_STEP = 106
POOL_X = 60

# Reveal layout: three seats side by side, rows top to bottom.
REVEAL_CARD_W = 80
REVEAL_STEP = 86
SEAT_X = {"player": 190, "dealer": 650, "dragon": 1110}
REVEAL_ROW_Y = {"front": 200, "middle": 370, "back": 540}


JACKPOT_RECT = pygame.Rect(700, 10, 560, 100)
SCOREBOARD_RECT = pygame.Rect(SIDE_RECT.x, SIDE_RECT.y, SIDE_RECT.width, 390)
LEDGER_RECT = pygame.Rect(
    SIDE_RECT.x, SCOREBOARD_RECT.bottom + 16, SIDE_RECT.width, SIDE_RECT.height - SCOREBOARD_RECT.height - 16
)


def scoreboard_row(i: int) -> pygame.Rect:
    """Row i (0 = the last hand) of the scoreboard."""
    return pygame.Rect(
        SCOREBOARD_RECT.x + 20, SCOREBOARD_RECT.y + 52 + i * 33, SCOREBOARD_RECT.width - 40, 30
    )


def zone_rect(row: str) -> pygame.Rect:
    return pygame.Rect(ZONE_X - 10, ZONE_Y[row] - 10, SET_STEP * 5 + 10, round(SET_CARD_W * 1.4) + 20)


POOL_RECT = pygame.Rect(
    POOL_X - 10, POOL_Y - 10, POOL_STEP * 12 + POOL_CARD_W + 20, round(POOL_CARD_W * 1.4) + 20
)


class DragonPokerScene(Scene):
    name = "dragon-poker"
    game_id = "dragon-poker"

    def __init__(self, res: Resources) -> None:
        super().__init__(res)
        self.chosen: list[str] = []  # hand labels picked, in role order player, dealer, dragon
        self.placed: dict[int, str] = {}  # card position -> row
        self.drag: Drag | None = None
        self.round_key: Any = None
        self.reveal_start: float | None = None
        self.deal = Deal(DEAL_CARD_S, cards=DECK_CARDS)  # the deal laid card by card (egm/video/deal.py)
        self._table: pygame.Surface | None = None

    # --- state ------------------------------------------------------------------------------------
    def enter(self, frame: Frame) -> None:
        self._sync(frame, entering=True)

    def update(self, frame: Frame) -> None:
        self._sync(frame)

    def _sync(self, frame: Frame, entering: bool = False) -> None:
        """Reset presentation state when a new round or step arrives."""
        view = frame.table
        key = (frame.round_number, dv.step(view), tuple(dv.designation(view).items()))
        if key == self.round_key:
            return
        self.round_key = key
        self.chosen, self.placed, self.drag = [], {}, None
        if dv.step(view) == "complete":
            # A finished round seen on entry (power-up, recall) is shown settled, without the reveal.
            self.reveal_start = frame.now - REVEAL_S if entering else frame.now
        else:
            self.reveal_start = None
        # the deal is laid card by card, face down (after a power cut too: the same cards again)
        if dv.step(view) == "designate" and not dv.designation(view):
            self.deal.begin(frame.now, DECK_CARDS)
        else:
            self.deal.hurry()

    def cards_dealt(self, frame: Frame) -> int:
        """How many of the 54 cards the deal animation has put on the table."""
        return self.deal.laid(frame.now)

    def hurry(self, frame: Frame) -> None:
        """A press during the deal lays every card at once (the reveal is never hurried past its
        result: input during it is refused, see `busy`)."""
        self.deal.hurry()

    def phase(self, frame: Frame) -> int:
        """Index into PHASES of the reveal reached now (the last when settled or not revealing)."""
        if self.reveal_start is None:
            return POINTS
        return min(POINTS, int((frame.now - self.reveal_start) / PHASE_S))

    def flip(self, frame: Frame, role: str) -> float:
        """How far a seat's cards have turned over at their reveal (0 to 1; 1 when face up)."""
        at = {"dealer": DEALER_REVEALED, "dragon": DRAGON_REVEALED}.get(role)
        if at is None or self.reveal_start is None:
            return 1.0
        return min(1.0, max(0.0, (frame.now - self.reveal_start - at * PHASE_S) / FLIP_S))

    def busy(self, frame: Frame) -> bool:
        self._sync(frame)
        return dv.step(frame.table) == "complete" and self.phase(frame) < POINTS

    def deal_refusal(self, frame: Frame) -> str | None:
        self._sync(frame)
        step = dv.step(frame.table)
        if step == "designate" and len(self.chosen) < 3:
            role = ROLE_TITLES[dv.ROLES[len(self.chosen)]].title()
            return f"Choose the {role}'s hand first: touch it or press 1-4."
        if step == "set" and len(self.placed) < 13:
            return "Place all 13 cards first (front 3, middle 5, back 5), or press HOUSE WAY."
        return None

    # --- input ------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        self._sync(frame)
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.hurry(frame)  # then the press acts on the dealt table
        step = dv.step(frame.table)
        if step == "designate":
            return self._handle_designate(event)
        if step == "set":
            return self._handle_set(event, frame)
        if step == "complete" and event.type == pygame.MOUSEBUTTONUP:
            button = hit_any(self.settled_buttons(frame), event.pos)
            if button is not None:  # a dark PLAY AGAIN still asks: the shell says why not
                return [UiAction(button.action)]
        return []

    def _decision(self, kind: str, **args: Any) -> list[object]:
        return [PlayerDecision(Decision(kind, args))]

    def designate_buttons(self) -> list[Button]:
        ready = len(self.chosen) == 3
        return [
            Button(
                "confirm", "CONFIRM\nHANDS", pygame.Rect(1300, 560, 260, 110), "flash" if ready else "off"
            ),
            Button("clear", "CLEAR", pygame.Rect(1300, 700, 260, 90), "on" if self.chosen else "off"),
        ]

    def hand_rect(self, label: str) -> pygame.Rect:
        y = DESIGNATE_Y[dv.HAND_LABELS.index(label)]
        return pygame.Rect(
            DESIGNATE_X, y, DESIGNATE_STEP * 12 + DESIGNATE_CARD_W, round(DESIGNATE_CARD_W * 1.4)
        )

    def _handle_designate(self, event: pygame.event.Event) -> list[object]:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4):
                self._choose(dv.HAND_LABELS[event.key - pygame.K_1])
            elif event.key == pygame.K_BACKSPACE and self.chosen:
                self.chosen.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER) and len(self.chosen) == 3:
                return self._designate()
            return []
        if event.type != pygame.MOUSEBUTTONUP:
            return []
        button = hit(self.designate_buttons(), event.pos)
        if button is not None:
            if button.action == "confirm":
                return self._designate()
            self.chosen.clear()
            return []
        for label in dv.HAND_LABELS:
            if self.hand_rect(label).collidepoint(event.pos):
                self._choose(label)
        return []

    def _choose(self, label: str) -> None:
        if label in self.chosen:
            self.chosen.remove(label)  # touching a designated hand takes its role back
        elif len(self.chosen) < 3:
            self.chosen.append(label)

    def _designate(self) -> list[object]:
        roles = dict(zip(dv.ROLES, self.chosen, strict=True))
        return self._decision("designate", **roles)

    def set_buttons(self) -> list[Button]:
        complete = len(self.placed) == 13
        return [
            Button("set", "SET HAND", pygame.Rect(1310, 150, 260, 110), "flash" if complete else "off"),
            Button("house_way", "HOUSE\nWAY", pygame.Rect(1310, 290, 260, 110), "on"),
            Button("clear", "CLEAR", pygame.Rect(1310, 430, 260, 90), "on" if self.placed else "off"),
        ]

    def settled_buttons(self, frame: Frame) -> list[Button]:
        view = frame.view
        affordable = view is not None and snap.credits(frame.snapshot) >= view.stake_credits
        return [
            Button("deal", "PLAY AGAIN", pygame.Rect(1060, 822, 245, 80), "flash" if affordable else "off"),
            Button("menu", "GAME MENU", pygame.Rect(1315, 822, 245, 80), "on"),
        ]

    def _handle_set(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        cards = dv.role_cards(frame.table, "player")
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.placed.clear()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and len(self.placed) == 13:
                return self._set(cards)
            return []
        if event.type == pygame.MOUSEBUTTONDOWN:
            index = self.card_at(event.pos, len(cards))
            self.drag = Drag(index, event.pos, event.pos) if index is not None else None
            return []
        if event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag.pos = event.pos
            return []
        if event.type != pygame.MOUSEBUTTONUP:
            return []
        drag, self.drag = self.drag, None
        if drag is not None:
            drag.pos = event.pos
            if drag.moved:
                self._drop(drag.index, event.pos)
            else:
                self._tap(drag.index)
            return []
        button = hit(self.set_buttons(), event.pos)
        if button is None:
            return []
        if button.action == "set":
            return self._set(cards)
        if button.action == "house_way":
            return self._decision("house_way")
        self.placed.clear()
        return []

    def _set(self, cards: dv.Cards) -> list[object]:
        rows = {row: [cards[i] for i in sorted(self.placed) if self.placed[i] == row] for row in dv.ROWS}
        return self._decision("set", front=rows["front"], middle=rows["middle"])

    def row_members(self, row: str) -> list[int]:
        return sorted(i for i, r in self.placed.items() if r == row)

    def _tap(self, index: int) -> None:
        if index in self.placed:
            del self.placed[index]
            return
        for row in dv.ROWS:
            if len(self.row_members(row)) < dv.ROW_SIZES[row]:
                self.placed[index] = row
                break
        self._fill_back()

    def _drop(self, index: int, pos: tuple[int, int]) -> None:
        for row in dv.ROWS:
            if zone_rect(row).collidepoint(pos):
                if self.placed.get(index) != row and len(self.row_members(row)) < dv.ROW_SIZES[row]:
                    self.placed[index] = row
                    self._fill_back()
                return
        if POOL_RECT.collidepoint(pos):
            self.placed.pop(index, None)

    def _fill_back(self) -> None:
        """Once front and middle are full, the remaining five cards are the back."""
        if len(self.row_members("front")) == 3 and len(self.row_members("middle")) == 5:
            for i in range(13):
                self.placed.setdefault(i, "back")

    def card_rects(self, count: int) -> dict[int, pygame.Rect]:
        """Where each of the player's cards is drawn now (row slot or hand position)."""
        w_set, h_set = SET_CARD_W, round(SET_CARD_W * 1.4)
        rects: dict[int, pygame.Rect] = {}
        for row in dv.ROWS:
            for slot, i in enumerate(self.row_members(row)):
                rects[i] = pygame.Rect(ZONE_X + slot * SET_STEP, ZONE_Y[row], w_set, h_set)
        for i in range(count):
            if i not in self.placed:
                rects[i] = pygame.Rect(POOL_X + i * POOL_STEP, POOL_Y, POOL_CARD_W, round(POOL_CARD_W * 1.4))
        return rects

    def card_at(self, pos: tuple[int, int], count: int) -> int | None:
        found = None
        for i, rect in sorted(self.card_rects(count).items()):
            if rect.collidepoint(pos):
                found = i  # later cards overlap earlier ones
        return found

    # --- drawing ------------------------------------------------------------------------------------
    def table(self) -> pygame.Surface:
        """The table's static art (felt, rails, frames, titles), drawn once and blitted each frame."""
        if self._table is None:
            kit = self.res.kit
            art = pygame.Surface(CONTENT_RECT.size)
            art.fill(CABINET)
            kit.text(art, "DRAGON POKER", (40, 58), 64, GOLD, bold=True, anchor="midleft")
            pygame.draw.rect(art, (30, 6, 8), JACKPOT_RECT, border_radius=18)
            pygame.draw.rect(art, GOLD, JACKPOT_RECT, width=4, border_radius=18)
            kit.text(
                art,
                "DRAGON JACKPOT",
                (JACKPOT_RECT.centerx, JACKPOT_RECT.y + 6),
                24,
                GOLD,
                bold=True,
                anchor="midtop",
            )
            pygame.draw.rect(art, FELT_EDGE, FELT_RECT.inflate(16, 16), border_radius=60)
            pygame.draw.rect(art, FELT, FELT_RECT, border_radius=54)
            pygame.draw.rect(art, FELT_DARK, FELT_RECT.inflate(-40, -40), width=3, border_radius=44)
            for rect, title in ((SCOREBOARD_RECT, "SCOREBOARD"), (LEDGER_RECT, "LEDGER (CREDITS)")):
                panel(art, rect)
                kit.text(art, title, (rect.centerx, rect.y + 12), 26, GOLD, bold=True, anchor="midtop")
            for i in range(10):
                pygame.draw.rect(art, (16, 14, 26), scoreboard_row(i), border_radius=8)
            self._table = art
        return self._table

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        self._sync(frame)
        view, kit = frame.table, self.res.kit
        surface.blit(self.table(), CONTENT_RECT)
        self._draw_header(surface, kit, frame)
        step = dv.step(view)
        if step == "designate":
            self._draw_designate(surface, frame)
        elif step == "set":
            self._draw_set(surface, frame)
        elif step == "complete":
            self._draw_reveal(surface, frame)
        self._draw_side(surface, frame)

    def jackpot_shown(self, frame: Frame) -> int:
        """The jackpot meter (cents): during the reveal it keeps the value before the hand, so it never
        tells the result before the cards do."""
        view = frame.table
        if dv.step(view) == "complete" and self.phase(frame) < POINTS:
            return int(dv.money(view).get("pool_before_cents", dv.jackpot_cents(view)))
        return dv.jackpot_cents(view)

    def _draw_header(self, surface: pygame.Surface, kit: Kit, frame: Frame) -> None:
        box = JACKPOT_RECT
        kit.text(
            surface,
            money(self.jackpot_shown(frame)),
            (box.centerx, box.bottom - 6),
            56,
            WHITE,
            bold=True,
            anchor="midbottom",
        )
        if frame.view is not None and frame.view.stake_credits:
            kit.text(
                surface, f"STAKE {frame.view.stake_credits:,} CREDITS", (1880, 58), 30, LIGHT_GREY, bold=True,
                anchor="midright",
            )

    def _draw_designate(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, cards = self.res.kit, self.res.cards
        if len(self.chosen) < 3:
            lines = ["Touch the hand", f"for the {ROLE_TITLES[dv.ROLES[len(self.chosen)]]}", "(keys 1-4)"]
        else:
            lines = ["The fourth hand", "is discarded:", "CONFIRM HANDS"]
        for i, line in enumerate(lines):
            kit.text(
                surface, line, (1430, 330 + i * 44), 32, WHITE if i < 2 else GOLD, bold=True, anchor="midtop"
            )
        for label, hand in dv.hands(frame.table).items():
            rect = self.hand_rect(label)
            role = dv.ROLES[self.chosen.index(label)] if label in self.chosen else None
            discard = role is None and len(self.chosen) == 3
            if role:
                pygame.draw.rect(surface, ROLE_COLOURS[role], rect.inflate(24, 24), border_radius=14)
            kit.text(surface, label, (120, rect.centery), 72, GOLD, bold=True, anchor="center")
            dealt = self.cards_dealt(frame)
            seat = dv.HAND_LABELS.index(label)
            for i, card in enumerate(hand):
                if i * 4 + seat >= dealt:  # dealt around the table, one card at a time
                    break
                r = pygame.Rect(rect.x + i * DESIGNATE_STEP, rect.y, DESIGNATE_CARD_W, rect.height)
                cards.blit(surface, card, r)
            if discard:
                shade = pygame.Surface(rect.size, pygame.SRCALPHA)
                shade.fill((0, 0, 0, 140))
                surface.blit(shade, rect)
            tag = ROLE_TITLES[role] if role else ("DISCARD" if discard else "")
            if tag:
                kit.text(
                    surface, tag, (rect.right + 30, rect.centery), 40, WHITE, bold=True, anchor="midleft"
                )
        if self.cards_dealt(frame) > 52:  # the two bonus cards come last
            self._draw_bonus_cards(surface, frame.table, (1300, 140), face_up=False)
        draw_all(surface, kit, self.designate_buttons(), frame.now)

    def _draw_set(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, cards = self.res.kit, self.res.cards
        hand = dv.role_cards(frame.table, "player")
        for row in dv.ROWS:
            zone = zone_rect(row)
            pygame.draw.rect(surface, FELT_DARK, zone, border_radius=12)
            pygame.draw.rect(surface, GOLD, zone, width=2, border_radius=12)
            kit.text(
                surface, row.upper(), (ZONE_X - 30, zone.centery), 32, GOLD, bold=True, anchor="midright"
            )
            for slot in range(len(self.row_members(row)), dv.ROW_SIZES[row]):
                r = pygame.Rect(ZONE_X + slot * SET_STEP, ZONE_Y[row], SET_CARD_W, round(SET_CARD_W * 1.4))
                pygame.draw.rect(surface, (20, 110, 72), r, width=2, border_radius=10)
        kit.text(
            surface,
            "YOUR HAND: touch or drag cards into FRONT 3, MIDDLE 5, BACK 5",
            (POOL_X, POOL_Y - 44),
            26,
            WHITE,
            bold=True,
        )
        dragging = self.drag.index if self.drag and self.drag.moved else None
        for i, rect in self.card_rects(len(hand)).items():
            if i != dragging:
                cards.blit(surface, hand[i], rect)
        if dragging is not None and self.drag is not None:
            w = SET_CARD_W
            r = pygame.Rect(0, 0, w, round(w * 1.4))
            r.center = self.drag.pos
            cards.blit(surface, hand[dragging], r)
        # the house seats wait face down
        for n, role in enumerate(("dealer", "dragon")):
            y = 150 + n * 200
            kit.text(surface, ROLE_TITLES[role], (930, y), 28, WHITE, bold=True)
            for i in range(13):
                cards.blit(surface, None, pygame.Rect(930 + i * 16, y + 40, 80, 112))
        self._draw_bonus_cards(surface, frame.table, (930, 560), face_up=False)
        draw_all(surface, kit, self.set_buttons(), frame.now)

    def _draw_reveal(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, cards = self.res.kit, self.res.cards
        view = frame.table
        phase = self.phase(frame)
        shown = {"player": True, "dealer": phase >= DEALER_REVEALED, "dragon": phase >= DRAGON_REVEALED}
        results = dv.row_results(view)
        bonus = dv.bonus_points(view)
        for row in dv.ROWS:
            kit.text(
                surface, row.upper(), (175, REVEAL_ROW_Y[row] + 56), 28, GOLD, bold=True, anchor="midright"
            )
        for role in dv.ROLES:
            x = SEAT_X[role]
            head = pygame.Rect(x, 135, REVEAL_STEP * 4 + REVEAL_CARD_W, 46)
            pygame.draw.rect(surface, ROLE_COLOURS[role], head, border_radius=10)
            title = ROLE_TITLES[role]
            points = bonus.get(dv.SIDE_OF_ROLE[role], 0)
            if shown[role] and phase >= POINTS and points:
                title += f"  BONUS +{points * bet_of(frame):,} CREDITS"
            kit.text(surface, title, head.center, kit.fit(title, head.width - 12, 28, True), WHITE, bold=True,
                     anchor="center")
            seat = dv.setting(view, role) if shown[role] else None
            for row in dv.ROWS:
                row_cards = seat[row] if seat else [None] * dv.ROW_SIZES[row]
                y = REVEAL_ROW_Y[row]
                turn = self.flip(frame, role)
                for i, card in enumerate(row_cards):
                    rect = pygame.Rect(x + i * REVEAL_STEP, y, REVEAL_CARD_W, 112)
                    if turn < 1.0:  # the card turns over: its width closes on the back, opens on the face
                        width = max(2, round(REVEAL_CARD_W * abs(1 - 2 * turn)))
                        face = pygame.Surface((REVEAL_CARD_W, 112), pygame.SRCALPHA)
                        cards.blit(face, card if turn >= 0.5 else None, face.get_rect())
                        squeezed = pygame.transform.smoothscale(face, (width, 112))
                        surface.blit(squeezed, squeezed.get_rect(center=rect.center))
                    else:
                        cards.blit(surface, card, rect)
                if seat:
                    kit.text(surface, dv.description(view, role, row), (x, y + 118), 22, WHITE, bold=True)
        for result in results:
            row = result.get("row")
            if row not in REVEAL_ROW_Y:
                continue
            winner = result.get("player_vs_dealer") if phase < VS_DRAGON else result.get("winner")
            if phase < PLAYER_VS_DEALER or winner not in dv.ROLE_OF_SIDE:
                continue
            role = dv.ROLE_OF_SIDE[winner]
            frame_rect = pygame.Rect(
                SEAT_X[role] - 8, REVEAL_ROW_Y[row] - 8, REVEAL_STEP * 4 + REVEAL_CARD_W + 16, 128
            )
            pygame.draw.rect(surface, GOLD, frame_rect, width=5, border_radius=10)
            kit.text(
                surface,
                "WIN",
                (frame_rect.right - 6, frame_rect.y - 2),
                22,
                GOLD,
                bold=True,
                anchor="bottomright",
            )
        self._draw_row_lines(surface, results, phase)
        self._draw_bonus_cards(surface, view, (790, 690), face_up=phase >= POINTS)
        if phase >= POINTS and dv.ledger(view):
            banner = pygame.Rect(1060, 700, 500, 110)
            pays = dv.money(view)
            jackpot = int(pays.get("jackpot_credits", 0))
            if jackpot and int(frame.now * 4) % 2 == 0:  # the jackpot flashes its frame
                pygame.draw.rect(surface, GOLD, banner.inflate(16, 16), border_radius=16)
            title = f"JACKPOT {jackpot:,} CREDITS!" if jackpot else "RESULT"
            label_box(
                surface,
                kit,
                banner,
                f"{title}  -  {pay_text(int(pays.get('win_credits', 0)), frame.view.stake_credits)}"
                if frame.view is not None else title,
                frame.view.result_text if frame.view is not None else result_title(dv.ledger(view)),
                GOLD,
                60,
            )
            if frame.state == "attract":  # the live table, not a recall picture
                draw_all(surface, kit, self.settled_buttons(frame), frame.now)

    def _draw_bonus_cards(
        self, surface: pygame.Surface, view: dv.View, at: tuple[int, int], face_up: bool
    ) -> None:
        """The two cards left over after the deal: the pair bonus (patent Fig. 3a, 411-412)."""
        kit, (x, y) = self.res.kit, at
        kit.text(surface, "BONUS CARDS", (x, y), 24, GOLD, bold=True)
        for i, card in enumerate(dv.bonus_cards(view)):
            self.res.cards.blit(surface, card if face_up else None, pygame.Rect(x + i * 92, y + 34, 84, 118))
        pair = dv.pair_bonus(view)
        bet = int(pair.get("bet_credits", 0))
        if bet and not face_up:  # above the cards: the player's hand may lie below them
            placed = f"PAIR BONUS BET {credits_text(bet)}".upper()
            kit.text(surface, placed, (x, y - 30), kit.fit(placed, 300, 22, True), GOLD, bold=True)
        if face_up and bet:
            won = int(pair.get("win_credits", 0))
            text = (f"PAIR BONUS PAYS {credits_text(won)}" if won
                    else f"PAIR BONUS: NO PAIR, {credits_text(bet)} LOST").upper()
            kit.text(surface, text, (x, y + 158), kit.fit(text, 250, 22, True), GOLD if won else LIGHT_GREY,
                     bold=True)

    def _draw_row_lines(self, surface: pygame.Surface, results: list[dict[str, Any]], phase: int) -> None:
        kit = self.res.kit
        y = 700
        for result in results:
            if phase < PLAYER_VS_DEALER:
                break
            pvd = SIDE_NAMES.get(result["player_vs_dealer"], "?")
            text = f"{result['row'].upper()}: {pvd} over {'Dealer' if pvd == 'Player' else 'Player'}"
            if phase >= VS_DRAGON:
                text += f" - row to {SIDE_NAMES.get(result['winner'], '?')}"
            kit.text(surface, text, (60, y), 30, WHITE, bold=True)
            y += 42

    def _draw_side(self, surface: pygame.Surface, frame: Frame) -> None:
        kit = self.res.kit
        view = frame.table
        settled = dv.step(view) == "complete" and self.phase(frame) >= POINTS
        codes = dv.scoreboard(view, frame.snapshot, frame.view.game_id if frame.view else "")
        if dv.step(view) == "complete" and not settled:
            codes = codes[1:]  # this hand's result joins the board once it is revealed
        for i, code in enumerate(codes):
            r = scoreboard_row(i)
            colour = {"P": BLUE, "H": GREY, "D": DRAGON_RED}.get(code[:1], CYAN)
            pygame.draw.circle(surface, colour, (r.x + 24, r.centery), 14)
            kit.text(surface, board_name(code), (r.x + 50, r.centery), 24, WHITE, bold=True, anchor="midleft")
            kit.text(surface, str(i + 1), (r.right - 10, r.centery), 20, LIGHT_GREY, anchor="midright")
        box = LEDGER_RECT
        lines = (
            ledger_lines(dv.ledger(view), bet_of(frame), dv.money(view)) if settled
            else [("Waiting for the reveal", "")]
        )
        for i, (label, value) in enumerate(lines):
            y = box.y + 52 + i * 30
            kit.text(surface, label, (box.x + 14, y), 21, LIGHT_GREY)
            kit.text(surface, value, (box.right - 14, y), 21, WHITE, bold=True, anchor="topright")


def bet_of(frame: Frame) -> int:
    """Credits per point of the round on the table (the ledger's points become credits)."""
    return frame.view.bet_credits if frame.view is not None else 1


def board_name(code: str) -> str:
    """A scoreboard code in the banner's words: P2 -> PLAYER 2, H3 -> DEALER 3, S -> SPLIT.

    >>> [board_name(c) for c in ("P2", "H3", "D2", "S")]
    ['PLAYER 2', 'DEALER 3', 'DRAGON 2', 'SPLIT']
    """
    side = SIDE_NAMES.get(code[:1])
    return f"{side.upper()} {code[1:]}" if side else "SPLIT"


def ledger_lines(led: dict[str, Any], bet: int, pays: dict[str, Any]) -> list[tuple[str, str]]:
    """The ledger as (label, credits) lines, as the patent's Fig. 3f-3h tabulate it in points: each
    point is worth the bet in credits; the jackpot is money.

    >>> ledger_lines({"winner": "P", "rows_won": 2, "win_points": 2, "player_net": 2, "house_net": -2},
    ...              5, {"pool_after_cents": 250})[-3:]
    [('Player net', '+10'), ('Dealer net', '-10'), ('Jackpot now', '$2.50')]
    """
    if not led:
        return []

    def pts(v: Any) -> str:
        return f"{int(v) * bet:+,d}"

    lines = [("Winner", result_title(led))]
    if led.get("win_points"):
        lines.append(("Rows won", pts(led["win_points"])))
    if led.get("bonus_exchange"):
        lines.append(("Dealer pays player", pts(led["bonus_exchange"])))
    if led.get("split_payment"):
        lines.append(("Split: player pays", pts(-led["split_payment"])))
    if led.get("dragon_points"):
        lines.append(("Dragon points", pts(led["dragon_points"])))
        lines.append(("Player to jackpot", pts(-led.get("player_to_jackpot", 0))))
        lines.append(("Dealer to jackpot", pts(-led.get("house_to_jackpot", 0))))
    if led.get("jackpot_won_by") and led.get("jackpot_won"):
        lines.append((f"Jackpot to {SIDE_NAMES[led['jackpot_won_by']]}", pts(led.get("jackpot_won", 0))))
    lines.append(("Player net", pts(led.get("player_net", 0))))
    lines.append(("Dealer net", pts(led.get("house_net", 0))))
    lines.append(("Jackpot now", money(int(pays.get("pool_after_cents", 0)))))
    return lines


def result_title(led: dict[str, Any]) -> str:
    winner = led.get("winner", "")
    if winner == "split":
        return "SPLIT"
    return f"{SIDE_NAMES.get(winner, '?').upper()} {led.get('rows_won', '')}".strip()

"""The attract screen: shown while the cabinet is idle with no credits, inviting a bill or ticket."""

from __future__ import annotations

import math

import pygame

from egm.video import snap
from egm.video.scene import Frame, Scene
from egm.video.theme import GOLD, LIGHT_GREY, WHITE, money

FAN = ("As", "Kh", "JK", "Qd", "Js")


class AttractScene(Scene):
    name = "attract"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[object]:
        return []  # nothing to play for until credit is on the meter

    def draw(self, surface: pygame.Surface, frame: Frame) -> None:
        kit, cards = self.res.kit, self.res.cards
        t = frame.now
        for i in range(14):  # slow rays behind the title
            ang = t * 0.15 + i * math.pi / 7
            end = (960 + 1400 * math.cos(ang), 420 + 1400 * math.sin(ang))
            pygame.draw.line(surface, (30, 20, 46), (960, 420), end, 60)
        for i, card in enumerate(FAN):
            lift = 20 * math.sin(t * 2 + i)
            img = pygame.transform.rotate(cards.image(card, 170), 24 - i * 12)
            surface.blit(img, img.get_rect(center=(960 + (i - 2) * 150, 420 + abs(i - 2) * 30 - lift)))
        kit.text(surface, "DRAGON POKER", (960, 90), 120, GOLD, bold=True, anchor="midtop")
        kit.text(surface, "with the running DRAGON JACKPOT", (960, 230), 40, WHITE, anchor="midtop")
        jackpot = int(snap.pools_cents(frame.snapshot).get("dragon_jackpot", 0))
        kit.text(surface, f"JACKPOT {money(jackpot)}", (960, 650), 72, GOLD, bold=True, anchor="midtop")
        if int(t * 2) % 2 == 0:
            kit.text(
                surface,
                "INSERT A BILL OR A TICKET TO PLAY",
                (960, 780),
                56,
                WHITE,
                bold=True,
                anchor="midtop",
            )
        kit.text(
            surface, "Press HELP for the rules and the keys", (960, 860), 30, LIGHT_GREY, anchor="midtop"
        )

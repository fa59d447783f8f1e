"""Dragon Poker on the cabinet's generic screens: its attract art, its tile on the game menu, and its
rules and pay screens, generated from the pay table the cabinet runs (docs/games.md)."""

from __future__ import annotations

import math
from typing import Any

import pygame

from egm.games.descriptor import InfoPage
from egm.games.dragon_poker.payout import POOL
from egm.video import snap
from egm.video.scene import Frame, Resources
from egm.video.theme import GOLD, WHITE, money

FAN = ("As", "Kh", "JK", "Qd", "Js")


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """A fan of cards and the running Dragon jackpot."""
    t, (cx, cy) = frame.now, rect.center
    for i, card in enumerate(FAN):
        lift = 20 * math.sin(t * 2 + i)
        img = pygame.transform.rotate(res.cards.image(card, 170), 24 - i * 12)
        surface.blit(img, img.get_rect(center=(cx + (i - 2) * 150, cy - 40 + abs(i - 2) * 30 - lift)))
    res.kit.text(surface, "with the running DRAGON JACKPOT", (cx, rect.y), 40, WHITE, anchor="midtop")
    jackpot = int(snap.pools_cents(frame.snapshot).get(POOL, 0))
    res.kit.text(surface, f"JACKPOT {money(jackpot)}", (cx, rect.bottom - 80), 72, GOLD, bold=True,
                 anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    for i, card in enumerate(("As", None, "JK")):
        res.cards.blit(surface, card, pygame.Rect(rect.centerx - 190 + i * 130, rect.y + 150, 120, 168))


def _name(key: str) -> str:
    return key.replace("_", " ")


def info_pages(paytable: Any) -> list[InfoPage]:
    """The rules, then the points and the pair bonus pays of this pay table."""
    rules = paytable.rules
    header = paytable.header
    play = InfoPage("DRAGON POKER: HOW TO PLAY", (
        "Four face-down hands of 13 cards and 2 bonus cards are dealt.",
        "Designate the PLAYER, DEALER and DRAGON hands (keys 1-4); the fourth is discarded.",
        "Set your hand: FRONT 3, MIDDLE 5, BACK 5, back >= middle >= front; or press HOUSE WAY.",
        "Each row: player against dealer (ties to the house), the winner against the Dragon.",
        "Whoever wins two or three rows wins; one row each: the player pays "
        f"{rules.split_points} point.",
        "A Dragon win: player and dealer pay its points into the running jackpot.",
        "A player or dealer win of two or more rows takes the whole jackpot.",
        f"Bets: {', '.join(str(b) for b in header.bets_credits)} credits per point; "
        f"the stake is {rules.stake_points} points.",
    ))
    points = [f"Win two rows: {rules.win_points.two_rows} points; three rows: "
              f"{rules.win_points.three_rows} points"]
    for row in ("front", "middle", "back"):
        paid = {k: v for k, v in getattr(rules.bonus_points, row).items() if v}
        points.append(f"{row.upper()} bonus: " + ", ".join(f"{_name(k)} {v}" for k, v in paid.items()))
    pair = rules.pair_bonus
    points.append(f"PAIR BONUS (up to {pair.max_bet_credits} credits, on the 2 bonus cards): "
                  + ", ".join(f"{_name(k)} {v} to 1" for k, v in pair.pays_to_one.items()))
    points.append(f"The game returns (stake + net points) x bet, at least 0. Pay table {paytable.id}.")
    return [play, InfoPage("DRAGON POKER: POINTS AND PAYS", tuple(points))]

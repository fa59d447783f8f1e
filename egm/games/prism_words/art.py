"""Prism Words on the cabinet's generic screens: its attract art, its tile on the game menu, and its
rules and pay screens, generated from the pay table the cabinet runs (docs/games.md)."""

from __future__ import annotations

from typing import Any

import pygame

from egm.games.descriptor import InfoPage
from egm.video.layout import row_in
from egm.video.scene import Frame, Resources
from egm.video.theme import WHITE

IVORY = (246, 238, 214)
INK = (30, 24, 16)
WORD = (("W", 4), ("H", 4), ("I", 1), ("T", 1), ("E", 1), ("R", 1))  # the seed's all-boxed WHITER


def _block(surface: pygame.Surface, res: Resources, rect: pygame.Rect, letter: str, value: int) -> None:
    pygame.draw.rect(surface, IVORY, rect, border_radius=8)
    res.kit.text(surface, letter, rect.center, rect.height * 3 // 5, INK, bold=True, anchor="center")
    numeral = res.kit.text(surface, str(value), (rect.right - 6, rect.y + 4), rect.height // 4, INK,
                           bold=True, anchor="topright")
    pygame.draw.rect(surface, INK, numeral.inflate(6, 2), width=2)


def attract(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """WHITER laid block by block, every numeral boxed: the pattern bonus."""
    shown = int(frame.now * 1.5) % (len(WORD) + 2)
    for i, (letter, value) in enumerate(WORD[:shown]):
        _block(surface, res, pygame.Rect(rect.centerx - 390 + i * 130, rect.centery - 60, 120, 120), letter,
               value)
    res.kit.text(surface, "two-faced blocks: choose the face, build the words", (rect.centerx, rect.y), 40,
                 WHITE, anchor="midtop")


def tile(surface: pygame.Surface, res: Resources, rect: pygame.Rect, frame: Frame) -> None:
    """Four blocks of WHITER across the menu tile's art area, sized to it (tiles narrow as games are
    added)."""
    for (letter, value), spot in zip(WORD[:4], row_in(rect, 4, 100, 1.0), strict=True):
        _block(surface, res, spot, letter, value)


def info_pages(paytable: Any) -> list[InfoPage]:
    """The rules, then the pays by margin and the awards of this pay table."""
    rules = paytable.rules
    doubled = "6+ letter words are doubled; " if rules.scoring == "rules" else ""
    play = InfoPage("PRISM WORDS: HOW TO PLAY", (
        f"A {rules.rows} x {rules.cols} grid; your rack holds 6 blocks, each with two lettered faces: the "
        "left numeral boxed, the right unboxed.",
        f"Against {rules.opponents_default} machine opponent(s). The first word covers the centre pocket "
        f"and has at least {rules.first_word_min} letters.",
        "Tap a block's face, then a square (or drag it); a star stands for the letter you choose. PLAY.",
        "Every word you form or change must be in the lexicon (ENABLE2K).",
        f"Each word scores its shown numerals; {doubled}+25 for 6+ letters all boxed or all unboxed; "
        "+25 for playing all 6 blocks.",
        "EXCHANGE returns your whole rack for as many new blocks and costs your turn.",
        "At the end each rack loses its blocks' numerals; a player who went out gains them.",
    ))
    tiers = sorted(rules.result_pays, key=lambda tier: tier.min_margin, reverse=True)
    pays = [f"Margin {tier.min_margin:+d} or more: {tier.pays} x bet" for tier in tiers[:-1]]
    # a lowest tier at -1000 or below is a floor no game reaches (a game scores a few hundred points)
    pays.append(f"Any lower margin: {tiers[-1].pays} x bet" if tiers[-1].min_margin <= -1000 else
                f"Margin {tiers[-1].min_margin:+d} or more: {tiers[-1].pays} x bet")
    pays.append(f"Each play with a pattern bonus: {rules.awards.pattern_bonus} x bet; each play of all "
                f"6 blocks: {rules.awards.depleted_rack} x bet.")
    pays.append(f"The stake is {rules.stake_units} x bet. Pay table {paytable.id}.")
    return [play, InfoPage("PRISM WORDS: PAYS", tuple(pays))]

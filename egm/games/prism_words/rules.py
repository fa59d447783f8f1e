"""Prism Words's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage, Where
from egm.money import counted


def info_pages(paytable: Any, where: Where = "cabinet") -> list[InfoPage]:
    """The rules, then the pays by margin and the awards of this pay table.
    They name no control that only the cabinet has, so they read the same wherever they are read."""
    rules = paytable.rules
    doubled = "6+ letter words are doubled; " if rules.scoring == "rules" else ""
    play = InfoPage("PRISM WORDS: HOW TO PLAY", (
        f"A {rules.rows} x {rules.cols} grid; your rack holds 6 blocks, each with two lettered faces: the "
        "left numeral boxed, the right unboxed.",
        f"Against {counted(rules.opponents_default, 'machine opponent')}. The first word covers the centre "
        f"pocket and has at least {rules.first_word_min} letters.",
        "Tap a block's face, then a square (or drag it); a star stands for the letter you choose. PLAY.",
        "Every word you form or change must be in the game's word list.",
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
    pays.append(f"The stake is {rules.stake_units} x bet. Pay table version {paytable.version}.")
    return [play, InfoPage("PRISM WORDS: PAYS", tuple(pays))]

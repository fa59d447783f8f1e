"""Poker Tiles's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage, Where
from egm.money import counted


def info_pages(paytable: Any, where: Where = "cabinet") -> list[InfoPage]:
    """The rules, then the hand values, the pays by margin and the hand awards of this pay table.
    They name no control that only the cabinet has, so they read the same wherever they are read."""
    rules = paytable.rules
    play = InfoPage(
        "POKER TILES: HOW TO PLAY",
        (
            f"A {rules.rows} x {rules.cols} board, 108 tiles (two decks, four jokers); you hold 5, "
            f"against {counted(rules.opponents_default, 'machine opponent')}, for {rules.rounds} rounds.",
            "The best hand in a rack starts, with a hand in the starting area, always doubled.",
            "Lay 1 to 5 tiles in one row or column next to the board; each line they make must be a hand",
            "(at most 5 in a row, in order: a straight in rank order, pairs and trips side by side).",
            "Each doubling adds 1 to a line's multiplier: the starting zone, each tile on its card square.",
            "A joker is declared as a card; who holds that card may swap it back. Or pass, or exchange.",
            "At the end each tile left costs 1 point, a joker 5. AUTO PLAY plays your turn for you.",
        ),
    )
    values = rules.hand_values.model_dump()
    hands = [f"{name.replace('_', ' ').title()}: {value}" for name, value in values.items()]
    tiers = sorted(rules.result_pays, key=lambda tier: tier.min_margin, reverse=True)
    pays = [f"Margin {tier.min_margin:+d} or more: {tier.pays} x bet" for tier in tiers]
    awards = {name: units for name, units in rules.hand_awards.items() if units}
    pays.append(
        "Each line you score with: "
        + ", ".join(f"{k.replace('_', ' ')} {v} x bet" for k, v in awards.items())
    )
    pays.append(f"The stake is {rules.stake_units} x bet. Pay table version {paytable.version}.")
    return [
        play,
        InfoPage("POKER TILES: HAND VALUES", tuple(hands)),
        InfoPage("POKER TILES: PAYS", tuple(pays)),
    ]

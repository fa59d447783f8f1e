"""Poker Grid's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage, Where
from egm.money import counted


def info_pages(paytable: Any, where: Where = "cabinet") -> list[InfoPage]:
    """The rules, then the pays by margin and the hand awards of this pay table.
    They name no control that only the cabinet has, so they read the same wherever they are read."""
    rules = paytable.rules
    play = InfoPage("POKER GRID: HOW TO PLAY", (
        f"A {rules.rows} x {rules.cols} board; you hold {rules.hand_size} cards, against "
        f"{counted(rules.opponents_default, 'machine opponent')}.",
        "Place a card next to the cards on the board: tap it, then a lit square (or drag it).",
        "Every line of cards your card completes scores as a poker hand; wild spaces are wild.",
        "AUTO PLAY places the machine strategy's card for you.",
        "When every card is played, you are paid on your margin over the best opponent.",
    ))
    tiers = sorted(rules.result_pays, key=lambda tier: tier.min_margin, reverse=True)
    pays, upper = [], None
    for tier in tiers:
        pays.append(f"{margin_words(tier.min_margin, upper)}\t{tier.pays} x bet")
        upper = tier.min_margin - 1
    pays.append(f"{margin_words(None, upper)}\tnothing")
    pays.append("Your margin is your score minus the best machine opponent's score.")
    pays.append(f"A game stakes {rules.stake_units} x bet.")
    awards = [f"{k.replace('_', ' ').title()}\t{v} x bet, each time you make it"
              for k, v in rules.hand_awards.model_dump().items() if v]
    awards.append(f"Paid on top of the margin pay. Pay table version {paytable.version}.")
    return [play, InfoPage("POKER GRID: MARGIN PAYS", tuple(pays)),
            InfoPage("POKER GRID: PREMIUM HANDS", tuple(awards))]


def margin_words(low: int | None, high: int | None) -> str:
    """A margin range in words: `low` to `high` points (None: open-ended).

    >>> margin_words(25, None), margin_words(1, 5), margin_words(0, 0), margin_words(-8, -1)
    ('Win by 25 or more', 'Win by 1 to 5', 'Tie', 'Lose by 1 to 8')
    >>> margin_words(-10, 0)
    'Tie, or lose by 1 to 10'
    >>> margin_words(None, -9)
    'Lose by 9 or more'
    """
    if low is None:
        assert high is not None
        return f"Lose by {-high} or more" if high < 0 else f"Score {high} or less"
    if low == 0 and high == 0:
        return "Tie"
    if low > 0:
        return f"Win by {low} or more" if high is None else f"Win by {low} to {high}"
    if high is None:
        return f"Lose by at most {-low}, or win"
    if high == 0:
        return f"Tie, or lose by 1 to {-low}"
    if high > 0:
        return f"Lose by at most {-low}, or win by up to {high}"
    return f"Lose by {-high} to {-low}"

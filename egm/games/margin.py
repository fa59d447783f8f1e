"""The board games' result by margin, shared by Poker Grid, Poker Tiles, Prism Words and Property.

A board game ends with a standing per seat (a score, or Property's net worth); the customer sits at
seat 0. Its **margin** is the customer's standing minus the best opponent's: above 0 a win, 0 a tie,
below 0 a loss. The pay table pays the margin by **tiers**: the tier with the highest `min_margin`
the margin reaches (a negative `min_margin` pays on a loss by at most that much), nothing below every
tier.

>>> tiers = [MarginTier(min_margin=-8, pays=4), MarginTier(min_margin=0, pays=10),
...          MarginTier(min_margin=1, pays=16)]
>>> [tier_units(tiers, m) for m in (-9, -8, 0, 1, 30)]
[0, 4, 10, 16, 16]
>>> margin_of([31, 40, 25]), place_of([31, 40, 25]), result_code(-9), result_text(-9)
(-9, 2, 'L-9', 'YOU LOSE BY 9')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import Field

from egm.config import Strict
from egm.games.bounds import MAX_MARGIN, Units

RESULT_TITLES = {"win": "YOU WIN BY", "tie": "A TIE", "loss": "YOU LOSE BY"}
RESULT_CODES = {"win": "W", "tie": "T", "loss": "L"}


class MarginTier(Strict):
    """A margin of at least `min_margin` (negative: a loss by at most -min_margin) pays `pays` units."""

    min_margin: int = Field(ge=-MAX_MARGIN, le=MAX_MARGIN)
    pays: Units


def tier_reached(tiers: Sequence[MarginTier], margin: int) -> MarginTier | None:
    """The tier `margin` pays by: the one with the highest `min_margin` it reaches (None: below all)."""
    reached = [tier for tier in tiers if tier.min_margin <= margin]
    return max(reached, key=lambda t: t.min_margin) if reached else None


def points(margin: int) -> str:
    """A margin in points, signed: "+5", "0", "-3"."""
    return f"{margin:+,d}" if margin else "0"


def margin_reason(tiers: Sequence[MarginTier], margin: int, signed: Callable[[int], str] = points
                  ) -> tuple[str, int]:
    """The margin's line on an end screen, in words, and the units its tier pays: the margin, the
    span of margins its tier covers (`signed` writes a margin: points by default).

    >>> tiers = [MarginTier(min_margin=-8, pays=4), MarginTier(min_margin=1, pays=16)]
    >>> margin_reason(tiers, 5), margin_reason(tiers, -3), margin_reason(tiers, -9)
    (('Margin +5: the tier for +1 or more', 16), ('Margin -3: the tier for -8 to 0', 4), \
('Margin -9: below every paying tier', 0))
    """
    tier = tier_reached(tiers, margin)
    if tier is None:
        return f"Margin {signed(margin)}: below every paying tier", 0
    above = [t.min_margin for t in tiers if t.min_margin > tier.min_margin]
    low = signed(tier.min_margin)
    span = f"{low} to {signed(min(above) - 1)}" if above else f"{low} or more"
    return f"Margin {signed(margin)}: the tier for {span}", tier.pays


def award_words(name: str) -> str:
    """A pay-table award's name as a player reads it: "four_of_a_kind" -> "Four of a kind"."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def check_tiers(tiers: Sequence[MarginTier], name: str) -> None:
    """Refuse (ValueError naming the pay-table key `name`) tiers that are not listed by rising
    `min_margin`, each paying at least the one before: a larger margin never pays less."""
    margins = [tier.min_margin for tier in tiers]
    pays = [tier.pays for tier in tiers]
    if margins != sorted(set(margins)) or pays != sorted(pays):
        raise ValueError(
            f"{name} tiers must list rising min_margin values, each paying at least the one before"
        )


def tier_units(tiers: Sequence[MarginTier], margin: int) -> int:
    """Units the tiers pay for `margin`: the highest tier it reaches, 0 below every tier."""
    return max((tier.pays for tier in tiers if tier.min_margin <= margin), default=0)


def margin_of(standings: Sequence[int]) -> int:
    """The customer's (seat 0) standing minus the best opponent's."""
    return standings[0] - max(standings[1:])


def place_of(standings: Sequence[int]) -> int:
    """The customer's place: 1 + the opponents standing strictly higher."""
    return 1 + sum(1 for standing in standings[1:] if standing > standings[0])


def result_of(margin: int) -> str:
    """"win", "tie" or "loss", by the margin."""
    return "win" if margin > 0 else "tie" if margin == 0 else "loss"


def result_code(margin: int) -> str:
    """The scoreboard's and recall's code: W, T or L and the signed margin, e.g. "W+12"."""
    return RESULT_CODES[result_of(margin)] + f"{margin:+d}"


def result_text(margin: int, amount: str | None = None) -> str:
    """The line the table shows once the game is over, e.g. "YOU WIN BY 12"; `amount` shows the
    margin's size in the game's own words (e.g. "$1,200"), by default the plain number."""
    shown = amount if amount is not None else str(abs(margin))
    return RESULT_TITLES[result_of(margin)] + (f" {shown}" if margin else "")

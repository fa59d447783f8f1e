"""Property's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage, Where
from egm.money import counted


def info_pages(paytable: Any, where: Where = "cabinet") -> list[InfoPage]:
    """The rules, then the pays of this pay table.
    They name no control that only the cabinet has, so they read the same wherever they are read."""
    rules = paytable.rules
    form = rules.short_form
    play = InfoPage("PROPERTY: HOW TO PLAY", (
        f"You and {counted(rules.opponents_default, 'machine opponent')} start with ${rules.starting_cash:,}"
        + (f" and {form.quick_start_deeds} title deeds each." if form.quick_start_deeds else "."),
        "Throw the dice and go round the board: buy what you land on, or it goes to auction.",
        "Own a whole colour group to double its rent and build houses and hotels evenly.",
        f"Mortgage at the printed value; lift at {rules.mortgage_interest_percent}% more. Trade titles "
        "with the machine.",
        f"The game ends after {form.rounds} rounds or the first bankruptcy: the highest net worth "
        "(cash, titles at price, buildings at cost) wins.",
    ))
    tiers = sorted(rules.margin_pays, key=lambda tier: tier.min_margin, reverse=True)
    pays = [f"Place {k + 1}: {pay} x bet" for k, pay in enumerate(rules.place_pays)]
    pays += [f"Plus, a net worth {board_margin(tier.min_margin)} against the best opponent's or more: "
             f"{tier.pays} x bet" for tier in tiers]
    pays.append(f"Awards: a hotel built {rules.awards.hotel} x bet; a whole colour group held at the end "
                f"{rules.awards.monopoly} x bet.")
    pays.append(f"The stake is {rules.stake_units} x bet. Pay table version {paytable.version}.")
    return [play, InfoPage("PROPERTY: PAYS", tuple(pays))]


def board_margin(amount: int) -> str:
    """A margin of board money as the pay page writes it: "+$1,500", "-$200", "$0"."""
    return f"{'+' if amount > 0 else '-' if amount < 0 else ''}${abs(amount):,}"

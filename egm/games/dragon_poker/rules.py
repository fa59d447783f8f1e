"""Dragon Poker's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage, Where
from egm.games.dragon_poker.pair_bonus import pair_bonus_counts, pair_bonus_rtp

# The controls the rules name, as the player has them: the cabinet's keys and button panel, or the
# browser's table and its wager form (the HOUSE WAY button both have).
CONTROLS = {
    "cabinet": {"designate": "keys 1-4", "bet": "BET ONE, MAX BET", "side_bet": "placed with SIDE BET"},
    "browser": {"designate": "tap each hand", "bet": "the wager form's Bet",
                "side_bet": "chosen as Pair Bonus in the wager form"},
}


def _name(key: str) -> str:
    return key.replace("_", " ")


def info_pages(paytable: Any, where: Where = "cabinet") -> list[InfoPage]:
    """The rules, the points table, the running jackpot and the pair bonus of this pay table: each
    figure read from the signed pay table the cabinet runs. A point is worth the bet in credits."""
    rules, header = paytable.rules, paytable.header
    controls = CONTROLS[where]
    bets = ", ".join(str(b) for b in header.bets_credits)
    play = InfoPage("DRAGON POKER: HOW TO PLAY", (
        "Four face-down hands of 13 cards and 2 bonus cards are dealt.",
        f"Designate the PLAYER, DEALER and DRAGON hands ({controls['designate']}); the fourth is discarded.",
        "Set your hand: FRONT 3, MIDDLE 5, BACK 5, back >= middle >= front; or press HOUSE WAY.",
        "Each row: player against dealer (ties to the house), the winner against the Dragon.",
        "Whoever wins two or three rows wins; one row each: the player pays "
        f"{rules.split_points} x bet.",
        f"Bet {bets} credits ({controls['bet']}); a game stakes {rules.stake_points} x bet.",
        "The game returns (stake + what you net) x bet, never less than 0.",
        f"Pay table version {paytable.version}.",
    ))
    points = [
        f"Win two rows\t{rules.win_points.two_rows} x bet",
        f"Win three rows\t{rules.win_points.three_rows} x bet",
    ]
    for row in ("front", "middle", "back"):
        points += [f"{row.upper()} {_name(k)}\t{v} x bet (bonus)"
                   for k, v in getattr(rules.bonus_points, row).items() if v]
    points.append("Player and dealer exchange their bonuses whoever wins; the Dragon's are always paid.")
    seed = rules.jackpot_seed_points
    jackpot = InfoPage("THE DRAGON JACKPOT", (
        "The running jackpot is shown in money above the table.",
        "How it is fed: when the Dragon wins, the player and the dealer each pay the Dragon's",
        "points (its win and its bonuses) x bet into the jackpot, less their own bonuses that hand.",
        "How it is won: a player or dealer win of two or more rows takes the whole jackpot;",
        "the player's jackpot is paid in credits with the game's win.",
        f"It starts at {seed} x bet and, after it is won, the house puts {seed} x bet back in.",
        "The house pays its part from its own money, never from the player's stake.",
    ))
    pair = rules.pair_bonus
    counts = pair_bonus_counts()
    total = sum(counts.values())
    pays = [f"{_name(k).title()}\t{v} to 1  (odds {counts[k]} in {total:,})"
            for k, v in pair.pays_to_one.items()]
    bonus = InfoPage("PAIR BONUS (SIDE BET)", (
        f"The side bet on the 2 bonus cards, {controls['side_bet']} before the deal.",
        f"Bet 0 to {pair.max_bet_credits} credits; a paying pair returns the bet and wins:",
        *pays,
        f"Any other two cards lose the side bet. Return to player {float(pair_bonus_rtp(rules)):.2%}.",
    ))
    return [play, InfoPage("DRAGON POKER: POINTS TABLE", tuple(points)), jackpot, bonus]

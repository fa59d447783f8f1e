"""Dragon Poker's rules and pay screens, generated from the pay table the cabinet runs (docs/games.md).

No pygame here: the cabinet's help screens and the game server's rules page both read them."""

from __future__ import annotations

from typing import Any

from egm.games.descriptor import InfoPage
from egm.games.dragon_poker.pair_bonus import pair_bonus_counts, pair_bonus_rtp


def _name(key: str) -> str:
    return key.replace("_", " ")


def info_pages(paytable: Any) -> list[InfoPage]:
    """The rules, the points table, the running jackpot and the pair bonus of this pay table: each
    figure read from the signed pay table the cabinet runs. A point is worth the bet in credits."""
    rules, header = paytable.rules, paytable.header
    bets = ", ".join(str(b) for b in header.bets_credits)
    play = InfoPage("DRAGON POKER: HOW TO PLAY", (
        "Four face-down hands of 13 cards and 2 bonus cards are dealt.",
        "Designate the PLAYER, DEALER and DRAGON hands (keys 1-4); the fourth is discarded.",
        "Set your hand: FRONT 3, MIDDLE 5, BACK 5, back >= middle >= front; or press HOUSE WAY.",
        "Each row: player against dealer (ties to the house), the winner against the Dragon.",
        "Whoever wins two or three rows wins; one row each: the player pays "
        f"{rules.split_points} x bet.",
        f"Bet {bets} credits (BET ONE, MAX BET); a game stakes {rules.stake_points} x bet.",
        f"The game returns (stake + what you net) x bet, never less than 0. Pay table {paytable.id}.",
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
        "The side bet on the 2 bonus cards, placed with SIDE BET before the deal.",
        f"Bet 0 to {pair.max_bet_credits} credits; a paying pair returns the bet and wins:",
        *pays,
        f"Any other two cards lose the side bet. Return to player {float(pair_bonus_rtp(rules)):.2%}.",
    ))
    return [play, InfoPage("DRAGON POKER: POINTS TABLE", tuple(points)), jackpot, bonus]

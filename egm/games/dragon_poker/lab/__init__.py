"""Dragon Poker in the lab: the adapter, its exact figures, and the reference-engine simulation.

Strategies:
* the house way (the reference, `HOUSE_WAY_VERSION`): the player is set like the dealer and the Dragon;
  simulated by the compiled kernel (`egm.games.dragon_poker.lab.kernel`), which the differential test proves
  bit-identical to the cabinet's engine (`egm.games.dragon_poker`) game by game.
* "best-available/1": a search over settings of the player's hand that does not peek (see
  STRATEGY_METHODS and docs/lab.md), also in the kernel.

Exact figures: the pair bonus by enumerating its 1,431 two-card hands (the game's own
`pair_bonus_rtp`), each pair-bonus award's probability, the jackpot's long-run player share by its
closed form, and the largest win of one game before any jackpot.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from egm.games.dragon_poker.house_way import HOUSE_WAY_VERSION
from egm.games.dragon_poker.pair_bonus import pair_bonus_counts, pair_bonus_rtp
from egm.games.dragon_poker.paytable import (
    PAIR_BONUS_HANDS,
    ROW_CATEGORIES,
    ROWS,
    DragonPokerRules,
    rank_name,
)
from egm.lab.adapters import ExactFigure, ExactOutcome, GameProgress, LabAdapter, LabError
from egm.lab.stats import Tally, segment_trace
from egm.lab.wording import counted
from egm.poker import Category

HOUSE_WAY = HOUSE_WAY_VERSION
BEST_AVAILABLE = "best-available/1"
WINNER_CODES = ("P", "H", "D", "split")  # the kernel's winner numbers 0..3
JACKPOT_AWARD = "jackpot"
JACKPOT_OUTCOME = "jackpot: the pool the player won"

STRATEGY_METHODS = {
    HOUSE_WAY: (f"Reference strategy: the player's 13 cards are set by the house way ({HOUSE_WAY}, "
                "docs/house-way.md), the same deterministic algorithm that sets the dealer and the Dragon. "
                "Designation A = player, B = dealer, C = Dragon. Simulated by the compiled kernel, "
                "bit-identical to the cabinet's engine."),
    BEST_AVAILABLE: ("Best available without peeking: for each of the 286 possible fronts, the back is "
                     "the best five of the other ten cards and the middle the five left (a family that "
                     "holds the house way); among the legal settings, the one with the highest mean "
                     "return (stake return plus any jackpot, at the current jackpot) against 32 dealer "
                     "and Dragon hands drawn from the 41 cards the player cannot see, set by the house "
                     "way, is played. The draws use a stream derived from the chunk seed, separate from "
                     "the deal, so the deals are the reference run's."),
}


def rules_of(paytable: Any) -> DragonPokerRules:
    rules = paytable.rules
    if not isinstance(rules, DragonPokerRules):
        raise LabError(f"pay table {paytable.id} is not a Dragon Poker pay table")
    return rules


def bet_credits(paytable: Any) -> int:
    return int(paytable.header.default_bet_credits)


def advertised_awards(rules: DragonPokerRules) -> tuple[str, ...]:
    """Every bonus a player's row can earn (points above 0), and the jackpot."""
    names = [f"{row} {rank_name(cat)}" for row in ROWS for cat in ROW_CATEGORIES[row]
             if rules.bonus_points.points(row, cat) > 0]
    return (*names, JACKPOT_AWARD)


def max_player_points(rules: DragonPokerRules) -> tuple[int, str]:
    """The most points a player can net in one hand, before any jackpot, and the hand that does it.

    The player sweeps the three rows, holds the best-paying categories a legal setting allows
    (front <= middle <= back by category), and the dealer and Dragon hold no bonus (so the player pays
    nothing into the jackpot and collects every bonus from the dealer)."""
    best_points, best_hand = -1, ""
    for front, middle, back in product(*(ROW_CATEGORIES[row] for row in ROWS)):
        if not front <= middle <= back:
            continue
        points = (rules.bonus_points.points("front", front) + rules.bonus_points.points("middle", middle)
                  + rules.bonus_points.points("back", back))
        if points > best_points:
            best_points = points
            best_hand = f"front {rank_name(front)}, middle {rank_name(middle)}, back {rank_name(back)}"
    return rules.win_points.three_rows + best_points, best_hand


class DragonPokerLab(LabAdapter):
    game_id = "dragon-poker"
    has_jackpot = True
    reference_strategy = HOUSE_WAY
    best_strategy = BEST_AVAILABLE
    strategy_methods = STRATEGY_METHODS
    best_games_default = 100_000  # at 20,000 the best-available interval still straddles 100%

    def chunk_games(self, strategy: str) -> int:
        return 100_000 if strategy == HOUSE_WAY else 1_000

    def warm_up(self, paytable: Any) -> None:
        from egm.games.dragon_poker.lab import kernel as dragon_kernel

        dragon_kernel.warm_up(rules_of(paytable))

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        from egm.games.dragon_poker.lab import kernel as dragon_kernel

        rules = rules_of(paytable)
        if strategy not in STRATEGY_METHODS:
            raise LabError(f"Dragon Poker has no strategy '{strategy}'; use {sorted(STRATEGY_METHODS)}")
        records = dragon_kernel.simulate(rules, seed, games, best_available=strategy == BEST_AVAILABLE)
        return tally_records(records, rules, bet_credits(paytable))

    def awards(self, paytable: Any) -> tuple[str, ...]:
        return advertised_awards(rules_of(paytable))

    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        rules = rules_of(paytable)
        counts = pair_bonus_counts()
        total = sum(counts.values())
        player, dealer = reference.results.get("P", 0), reference.results.get("H", 0)
        figures = [
            ExactFigure("pair_bonus_rtp", pair_bonus_rtp(rules),
                        f"exact: every one of the {total:,} two-card hands of the 54-card deck enumerated, "
                        "return (pays + 1) x bet on each paying hand", is_rtp=True),
            *(ExactFigure(f"pair_bonus_{name}_probability", Fraction(counts[name], total),
                          f"exact: {counts[name]} of the {total:,} two-card hands")
              for name in PAIR_BONUS_HANDS),
        ]
        figures.append(ExactFigure(
            "jackpot_player_share", Fraction(player, player + dealer) if player + dealer else None,
            "closed form P(player wins) / (P(player wins) + P(dealer wins)): games are independent, "
            "so each unit paid into the jackpot is taken by the player with this probability; "
            f"P from the reference simulation's counts ({player:,} player and {dealer:,} dealer wins)"))
        return figures

    def side_bets(self, paytable: Any) -> dict[str, list[ExactOutcome]]:
        """The pair bonus, hand by hand over the 1,431 two-card hands: a paying hand returns pays + 1."""
        pays = rules_of(paytable).pair_bonus.pays_to_one
        counts = pair_bonus_counts()
        total = sum(counts.values())
        def outcome(name: str, hand: str | None, paid: str, returned: int) -> ExactOutcome:
            return ExactOutcome(name, paid, Fraction(counts[hand], total),
                                f"{counts[hand]:,} of the {total:,} two-card hands",
                                Fraction(counts[hand] * returned, total))

        outcomes = [outcome(name, name, f"{pays[name]} to 1", pays[name] + 1) for name in PAIR_BONUS_HANDS]
        outcomes.append(outcome("anything else", None, "loses", 0))
        return {"pair bonus": outcomes}

    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        rules = rules_of(paytable)
        points, hand = max_player_points(rules)
        credits = (rules.stake_points + points) * bet_credits(paytable)
        return ExactFigure("theoretical_max_win", credits,
                           f"exact: (stake {rules.stake_points} + {points} points) x bet "
                           f"{bet_credits(paytable)}: a sweep of the rows with {hand}, the dealer and Dragon "
                           "holding no bonus; plus the jackpot pool, which has no fixed bound")


def tally_records(records: Any, rules: DragonPokerRules, bet: int) -> Tally:
    """Fold the kernel's per-game records into a Tally (credits at `bet` credits per point)."""
    stake_return = np.maximum(0, rules.stake_points + records.player_points)
    returns = (stake_return + records.jackpot_to_player) * bet
    values, counts = np.unique(returns, return_counts=True)
    tally = Tally(games=int(returns.size), stake=int(returns.size) * rules.stake_points * bet)
    tally.returns.update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
    tally.trace = segment_trace(returns)
    # The return itemised: the base game by the points it returned, and the jackpot the player won.
    points, games = np.unique(stake_return, return_counts=True)
    for value, count in zip(points.tolist(), games.tolist(), strict=True):
        name = f"base game: {counted(value, 'point')} returned ({value - rules.stake_points:+d} net)"
        tally.paid[name] += value * bet * count
        tally.paid_times[name] += count
        tally.paid_games[name] += count
    jackpots = records.jackpot_to_player > 0
    if jackpots.any():
        tally.paid[JACKPOT_OUTCOME] += int(records.jackpot_to_player.sum()) * bet
        tally.paid_times[JACKPOT_OUTCOME] += int(np.count_nonzero(jackpots))
        tally.paid_games[JACKPOT_OUTCOME] += int(np.count_nonzero(jackpots))
    winners = np.bincount(records.winner, minlength=len(WINNER_CODES))
    tally.results.update({code: int(n) for code, n in zip(WINNER_CODES, winners, strict=True) if n})
    for index, row in enumerate(ROWS):
        categories = np.bincount(records.values[:, index] >> 20, minlength=len(Category))
        for cat in ROW_CATEGORIES[row]:
            if rules.bonus_points.points(row, cat) > 0 and categories[cat]:
                tally.awards[f"{row} {rank_name(cat)}"] += int(categories[cat])
    won = records.jackpot_won > 0
    tally.awards[JACKPOT_AWARD] += int(np.count_nonzero(won & (records.winner == 0)))
    for code, side in (("P", 0), ("H", 1)):
        taken = won & (records.winner == side)
        if taken.any():
            tally.jackpot_hits[code] += int(np.count_nonzero(taken))
            prizes = records.jackpot_won[taken] * bet
            tally.jackpot_won[code] += int(prizes.sum())
            tally.jackpot_won_squares[code] += int((prizes * prizes).sum())
    tally.jackpot_paid_in = int(records.paid_in.sum()) * bet
    return tally

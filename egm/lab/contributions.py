"""The contribution table of a PAR sheet: each outcome's pay, probability and share of the RTP.

Every credit a simulated game returns is itemised by the game's adapter under one outcome (a margin
tier, an award, a base-game result, the jackpot), so the contributions (credits the outcome returned
/ credits staked) sum to the simulated RTP exactly (an adapter that leaves credits out is refused).
An outcome's probability is the share of games it occurred in, with its exact binomial
(Clopper-Pearson) 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from egm.lab.adapters import LabError
from egm.lab.stats import Tally, binomial_bounds


@dataclass(frozen=True)
class Contribution:
    outcome: str
    credits: int  # credits the outcome returned over the run
    times: int  # times it occurred (an award may occur more than once in a game)
    games: int  # games it occurred in
    probability: Fraction  # games it occurred in / games
    ci95: tuple[float, float]
    contribution: Fraction  # credits / credits staked: its share of the RTP

    @property
    def mean_pay(self) -> Fraction:
        """Credits per occurrence (the pay itself when the pay is fixed)."""
        return Fraction(self.credits, self.times) if self.times else Fraction(0)

    def to_dict(self) -> dict[str, object]:
        return {"outcome": self.outcome, "mean_pay_credits": float(self.mean_pay), "times": self.times,
                "games": self.games, "probability": float(self.probability), "ci95": list(self.ci95),
                "contribution": float(self.contribution)}


def kind_of(name: str) -> str:
    """The kind of an outcome: its name up to a colon, else its first word ("base game", "award",
    "margin", "place")."""
    return name.split(":", 1)[0] if ":" in name else name.split(" ", 1)[0]


def contributions(tally: Tally) -> list[Contribution]:
    """The itemised outcomes of a tally, grouped by kind in order of first appearance, each kind by
    rising pay. LabError when the outcomes do not account for every credit returned."""
    if sum(tally.paid.values()) != tally.total_return:
        raise LabError(f"the game's outcomes account for {sum(tally.paid.values()):,} of the "
                       f"{tally.total_return:,} credits returned; its lab adapter must itemise every pay")
    kinds = list(dict.fromkeys(kind_of(name) for name in tally.paid_times))
    rows = [
        Contribution(name, tally.paid[name], tally.paid_times[name], tally.paid_games[name],
                     Fraction(tally.paid_games[name], tally.games),
                     binomial_bounds(tally.paid_games[name], tally.games),
                     Fraction(tally.paid[name], tally.stake))
        for name in tally.paid_times
    ]
    rows.sort(key=lambda row: (kinds.index(kind_of(row.outcome)), row.mean_pay, row.outcome))
    return rows

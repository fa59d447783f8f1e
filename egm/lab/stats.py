"""Statistics for the lab: an exact, mergeable tally of simulated games and the figures drawn from it.

A `Tally` holds integer counts only (credits, games, a histogram of per-game returns), so tallies of
chunks merge exactly and in any order; every figure derived from it (`Summary`) is computed from those
integers, with a float only at the end for display.

Figures, per unit stake (x = return of one game / stake of one game):
* RTP = total return / total stake (a Fraction).
* sigma = the sample standard deviation of x.
* 95% interval = RTP +- 1.959964 * sigma / sqrt(games) (normal approximation; the games of a chunk share
  a carried jackpot, which the interval treats as independent).
* volatility index (90%) = 1.644854 * sigma, the usual VI: the half-width of the band holding 90% of
  a player's per-game results around the RTP, per unit stake and per sqrt(game).
* hit frequency = games returning anything (return > 0) / games; win frequency = games returning more
  than their stake / games; below half the stake = games returning less than half their stake / games.

Distributions come from SciPy (`scipy.stats`): the normal quantiles behind the interval, the
volatility index and the jackpot-share check (`norm.ppf`), two-sided normal p-values (`norm.sf`), and
the exact binomial (Clopper-Pearson) interval of an outcome's probability (`binomtest`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.stats import binomtest, norm

Z95 = float(norm.ppf(0.975))  # two-sided 95%: 1.959964
Z90 = float(norm.ppf(0.95))  # two-sided 90%, the volatility index's constant: 1.644854
Z99 = float(norm.ppf(0.995))  # two-sided 99%: 2.575829
TRACE_SEGMENTS = 8  # each chunk reports its return in this many equal segments, for convergence plots


@dataclass
class Tally:
    """Integer totals of a run of games; `merge` adds another tally (chunk) into this one."""

    games: int = 0
    stake: int = 0  # credits staked (coin in)
    returns: Counter[int] = field(default_factory=Counter)  # per-game return in credits -> games
    awards: Counter[str] = field(default_factory=Counter)  # award name -> games it was hit in
    results: Counter[str] = field(default_factory=Counter)  # who won the game -> games
    jackpot_hits: Counter[str] = field(default_factory=Counter)  # side winning the jackpot -> times
    jackpot_won: Counter[str] = field(default_factory=Counter)  # side -> jackpot credits taken
    jackpot_won_squares: Counter[str] = field(default_factory=Counter)  # side -> sum of prize^2
    jackpot_paid_in: int = 0  # credits paid into the jackpot pool, by player and house
    trace: list[tuple[int, int]] = field(default_factory=list)  # (games, return credits) in order
    # The return itemised by outcome (a margin tier, an award, a base-game result, a jackpot): every
    # credit returned belongs to one outcome, so the contributions sum to the RTP.
    paid: Counter[str] = field(default_factory=Counter)  # outcome -> credits it returned
    paid_times: Counter[str] = field(default_factory=Counter)  # outcome -> times it occurred
    paid_games: Counter[str] = field(default_factory=Counter)  # outcome -> games it occurred in

    def add_parts(self, parts: Iterable[tuple[str, int]]) -> None:
        """Count one game's itemised return: (outcome, credits) pairs, an outcome possibly repeated."""
        seen = set()
        for name, credits in parts:
            self.paid[name] += credits
            self.paid_times[name] += 1
            seen.add(name)
        self.paid_games.update(seen)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.stake += other.stake
        self.returns.update(other.returns)
        self.awards.update(other.awards)
        self.results.update(other.results)
        self.jackpot_hits.update(other.jackpot_hits)
        self.jackpot_won.update(other.jackpot_won)
        self.jackpot_won_squares.update(other.jackpot_won_squares)
        self.jackpot_paid_in += other.jackpot_paid_in
        self.trace.extend(other.trace)
        self.paid.update(other.paid)
        self.paid_times.update(other.paid_times)
        self.paid_games.update(other.paid_games)

    @property
    def total_return(self) -> int:
        return sum(value * count for value, count in self.returns.items())

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "stake": self.stake,
            "returns": {str(k): v for k, v in sorted(self.returns.items())},
            "awards": dict(self.awards),
            "results": dict(self.results),
            "jackpot_hits": dict(self.jackpot_hits),
            "jackpot_won": dict(self.jackpot_won),
            "jackpot_won_squares": dict(self.jackpot_won_squares),
            "jackpot_paid_in": self.jackpot_paid_in,
            "paid": dict(self.paid),
            "paid_times": dict(self.paid_times),
            "paid_games": dict(self.paid_games),
        }


def merge_in_order(tallies: list[Tally]) -> Tally:
    """Merge chunk tallies given in chunk order (the trace keeps that order)."""
    total = Tally()
    for tally in tallies:
        total.merge(tally)
    return total


def segment_trace(returns: Sequence[int] | np.ndarray, segments: int = TRACE_SEGMENTS
                  ) -> list[tuple[int, int]]:
    """A chunk's per-game returns (integers), in order, cut into up to `segments` near-equal
    (games, return) segments for the convergence plot."""
    values = np.asarray(returns, dtype=np.int64)
    if not values.size:
        return [(0, 0)]
    count = min(segments, values.size)
    bounds = [values.size * i // count for i in range(count + 1)]
    sums = np.add.reduceat(values, bounds[:-1])
    return [(b - a, int(total)) for a, b, total in zip(bounds, bounds[1:], sums, strict=False)]


@dataclass(frozen=True)
class Summary:
    games: int
    rtp: Fraction
    ci95: tuple[float, float]
    sigma: float
    volatility_index: float
    hit_frequency: Fraction
    win_frequency: Fraction
    max_win_seen: int
    below_half_stake: Fraction  # games returning less than half their stake / games

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "rtp": float(self.rtp),
            "ci95": list(self.ci95),
            "sigma": self.sigma,
            "volatility_index": self.volatility_index,
            "hit_frequency": float(self.hit_frequency),
            "win_frequency": float(self.win_frequency),
            "max_win_seen": self.max_win_seen,
            "below_half_stake_share": float(self.below_half_stake),
        }


def summarize(tally: Tally) -> Summary:
    """The figures of a tally. Needs at least one game."""
    n = tally.games
    if n <= 0 or tally.stake <= 0:
        raise ValueError("no games were simulated, so there is nothing to summarise")
    total = tally.total_return
    squares = sum(value * value * count for value, count in tally.returns.items())
    rtp = Fraction(total, tally.stake)
    unit = Fraction(tally.stake, n)  # the stake of one game (constant per game in the lab)
    # sample variance of x = r / unit, exactly, then one square root
    variance = (Fraction(squares) - Fraction(total * total, n)) / (max(n - 1, 1) * unit * unit)
    sigma = math.sqrt(variance)
    half = Z95 * sigma / math.sqrt(n)
    hits = sum(count for value, count in tally.returns.items() if value > 0)
    wins = sum(count for value, count in tally.returns.items() if value > unit)
    poor = sum(count for value, count in tally.returns.items() if 2 * value < unit)
    return Summary(
        games=n,
        rtp=rtp,
        ci95=(float(rtp) - half, float(rtp) + half),
        sigma=sigma,
        volatility_index=Z90 * sigma,
        hit_frequency=Fraction(hits, n),
        win_frequency=Fraction(wins, n),
        max_win_seen=max(tally.returns),
        below_half_stake=Fraction(poor, n),
    )


QUANTILES = (0.5, 0.9, 0.99, 0.999, 0.9999)


def return_quantiles(tally: Tally, levels: tuple[float, ...] = QUANTILES) -> dict[str, int]:
    """The per-game return (credits) at each quantile level, from the exact histogram:
    the smallest return r with P(return <= r) >= level."""
    out: dict[str, int] = {}
    ordered = sorted(tally.returns.items())
    for level in levels:
        needed = level * tally.games
        seen = 0
        for value, count in ordered:
            seen += count
            if seen >= needed:
                out[f"{level:g}"] = value
                break
    return out


@dataclass(frozen=True)
class ShareCheck:
    """The simulated share of the jackpot credits the player took, against the closed form's value."""

    closed_form: float
    observed: float
    z: float  # (observed - closed form) / the standard error of their difference

    def to_dict(self) -> dict[str, float]:
        return {"closed_form": self.closed_form, "observed": self.observed, "z": self.z,
                "agrees_at_99": abs(self.z) <= Z99}


def jackpot_share_check(tally: Tally, player: str = "P", dealer: str = "H") -> ShareCheck | None:
    """Compare the jackpot credits the player took / all taken (a ratio estimate over the jackpot
    wins, with its delta-method standard error from the per-side sums of prize^2) with the closed form
    P(player wins) / (P(player wins) + P(dealer wins)) from the win counts (binomial standard error)."""
    wins_p, wins_h = tally.results.get(player, 0), tally.results.get(dealer, 0)
    won_p, won_h = tally.jackpot_won.get(player, 0), tally.jackpot_won.get(dealer, 0)
    if not (wins_p + wins_h) or not (won_p + won_h):
        return None
    closed = wins_p / (wins_p + wins_h)
    observed = won_p / (won_p + won_h)
    ratio_var = ((1 - observed) ** 2 * tally.jackpot_won_squares.get(player, 0)
                 + observed**2 * tally.jackpot_won_squares.get(dealer, 0)) / (won_p + won_h) ** 2
    count_var = closed * (1 - closed) / (wins_p + wins_h)
    spread = math.sqrt(ratio_var + count_var)
    return ShareCheck(closed, observed, (observed - closed) / spread if spread else 0.0)


def convergence(tally: Tally) -> list[tuple[int, float]]:
    """(games so far, RTP so far) after each trace segment, from the merged chunk-ordered trace."""
    unit = Fraction(tally.stake, tally.games) if tally.games else Fraction(1)
    points = []
    games = 0
    returned = 0
    for seg_games, seg_return in tally.trace:
        games += seg_games
        returned += seg_return
        if games:
            points.append((games, float(Fraction(returned) / (unit * games))))
    return points


# --- distributions -------------------------------------------------------------------------------


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return float(2.0 * norm.sf(abs(z)))


def binomial_bounds(count: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """A two-sided confidence interval for a per-game probability seen in `count` of `trials` games:
    the exact (Clopper-Pearson) binomial interval, `scipy.stats.binomtest(...).proportion_ci(method=
    "exact")`. It always lies within [0, 1] and holds count / trials, even near 0 or 1 where a normal
    or Poisson approximation runs outside; never seen, its high bound is 1 - (alpha / 2)^(1 / trials),
    about 3.7 / trials at 95%."""
    interval = binomtest(count, trials).proportion_ci(confidence_level=confidence, method="exact")
    return float(interval.low), float(interval.high)

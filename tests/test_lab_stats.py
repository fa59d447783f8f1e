"""Lab statistics: exact tallies, derived figures, distributions, chunk plans, verdicts."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from egm.config import load_jurisdiction
from egm.lab.adapters import LabError
from egm.lab.runner import plan_chunks
from egm.lab.stats import (
    Tally,
    chi2_ppf,
    chi2_sf,
    convergence,
    jackpot_share_check,
    merge_in_order,
    poisson_rate_bounds,
    return_quantiles,
    segment_trace,
    summarize,
)
from egm.lab.verdict import AwardEstimate, estimate_awards, judge, strategy_check
from egm.rng import derive_seed


def tally_of(returns: list[int], stake: int = 10) -> Tally:
    tally = Tally(games=len(returns), stake=stake * len(returns), returns=Counter(returns))
    tally.trace = segment_trace(returns)
    return tally


def test_summary_figures_are_exact() -> None:
    s = summarize(tally_of([0, 10, 20, 10]))
    assert s.rtp == Fraction(1)
    # x = 0, 1, 2, 1: sample variance 2/3
    assert s.sigma == pytest.approx(math.sqrt(2 / 3))
    assert s.volatility_index == pytest.approx(1.6448536269514722 * math.sqrt(2 / 3))
    half = 1.959963984540054 * math.sqrt(2 / 3) / 2
    assert s.ci95 == pytest.approx((1 - half, 1 + half))
    assert s.hit_frequency == Fraction(3, 4) and s.win_frequency == Fraction(1, 4)
    assert s.max_win_seen == 20


def test_no_games_is_an_error_not_a_division_by_zero() -> None:
    with pytest.raises(ValueError, match="no games"):
        summarize(Tally())


def test_merge_is_exact_and_keeps_chunk_order() -> None:
    a, b = tally_of([0, 30, 5]), tally_of([10, 10])
    a.awards["x"] += 1
    b.awards["x"] += 2
    merged = merge_in_order([a, b])
    assert merged.games == 5 and merged.total_return == 55 and merged.awards["x"] == 3
    assert merged.trace == [(1, 0), (1, 30), (1, 5), (1, 10), (1, 10)]
    assert [round(r, 6) for _, r in convergence(merged)] == [0.0, 1.5, round(35 / 30, 6), 1.125, 1.1]


def test_segment_trace_covers_every_game() -> None:
    trace = segment_trace(list(range(100)))
    assert len(trace) == 8 and sum(g for g, _ in trace) == 100 and sum(r for _, r in trace) == 4950


@pytest.mark.parametrize("x, df, p", [(3.841458820694124, 1, 0.05), (6.634896601021214, 1, 0.01),
                                      (310.4573882199, 255, 0.01), (18.307038053275146, 10, 0.05),
                                      (2.0, 2, math.exp(-1.0))])
def test_chi_square_tail_matches_tables(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6)
    assert chi2_ppf(1 - p, df) == pytest.approx(x, rel=1e-6)


def test_poisson_bounds() -> None:
    low, high = poisson_rate_bounds(0, 1_000_000)
    assert low == 0 and high == pytest.approx(2.995732e-6, rel=1e-5)  # the "rule of three"
    low, high = poisson_rate_bounds(10, 1000)
    assert low == pytest.approx(0.0047954, rel=1e-4) and high == pytest.approx(0.0183904, rel=1e-4)


def test_chunk_plan_depends_only_on_games_seed_and_size() -> None:
    chunks = plan_chunks(42, 250, 100)
    assert [c.games for c in chunks] == [100, 100, 50]
    assert [c.seed for c in chunks] == [derive_seed(42, "chunk", k) for k in range(3)]
    with pytest.raises(LabError, match="positive"):
        plan_chunks(42, 0, 100)


def test_verdict_rtp_awards_and_hand_pay() -> None:
    rules = load_jurisdiction("nevada")
    reference = tally_of([0] * 50 + [18] * 49 + [200_000])
    reference.awards["big"] = 1
    awards = estimate_awards(("big", "never"), reference)
    verdict = judge(rules, [("house-way", summarize(reference))], [("side", Fraction(9, 10))], awards,
                    reference, denom_cents=1, max_win_credits=150_000,
                    strategy=strategy_check("house-way/1", "house-way/1"))
    status = {c.name: c.status for c in verdict.checks}
    assert status["RTP in range (side)"] == "pass"
    assert status["award 'never' hittable once in 100,000,000 games"] == "inconclusive"
    assert status["wins above the hand-pay limit"] == "flag"
    assert status["theoretical maximum win vs hand-pay limit"] == "flag"
    assert verdict.status in ("fail", "inconclusive")


def test_award_never_seen_in_a_billion_games_fails_the_odds_limit() -> None:
    rules = load_jurisdiction("generic")
    tally = tally_of([10])
    tally.games = 1_000_000_000
    award = AwardEstimate("rare", 0, tally.games, *poisson_rate_bounds(0, tally.games))
    verdict = judge(rules, [], [], [award], tally, 1, 10, strategy_check(None, "x"))
    assert verdict.status == "fail"


def test_a_paytable_naming_another_strategy_fails() -> None:
    check = strategy_check("house-way/1", "house-way/2")
    assert check.status == "fail" and "house-way/2" in check.detail


def test_return_quantiles_from_the_histogram() -> None:
    tally = tally_of([0] * 50 + [10] * 40 + [20] * 9 + [500])
    assert return_quantiles(tally) == {"0.5": 0, "0.9": 10, "0.99": 20, "0.999": 500, "0.9999": 500}


def test_jackpot_share_check() -> None:
    tally = Tally(games=100, stake=1000)
    tally.results.update({"P": 3000, "H": 3000, "D": 4000})
    tally.jackpot_won.update({"P": 30_000, "H": 30_000})
    tally.jackpot_won_squares.update({"P": 300_000, "H": 300_000})  # 3,000 prizes of 10 each side
    check = jackpot_share_check(tally)
    assert check is not None and check.closed_form == 0.5 and check.observed == 0.5 and check.z == 0.0
    tally.jackpot_won["P"] = 60_000  # the player's prizes twice as large: not what the counts say
    tally.jackpot_won_squares["P"] = 1_200_000
    lopsided = jackpot_share_check(tally)
    assert lopsided is not None and lopsided.z > 2.58 and not lopsided.to_dict()["agrees_at_99"]
    assert jackpot_share_check(Tally()) is None

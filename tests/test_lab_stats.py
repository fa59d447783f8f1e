"""Lab statistics: exact tallies, derived figures, distributions, chunk plans, verdicts."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.stats import beta, chi2

from egm.config import load_jurisdiction
from egm.lab.adapters import LabError
from egm.lab.contributions import contributions
from egm.lab.rng_battery import run_battery
from egm.lab.runner import plan_chunks
from egm.lab.stats import (
    Z90,
    Z95,
    Z99,
    Tally,
    binomial_bounds,
    convergence,
    jackpot_share_check,
    merge_in_order,
    normal_two_sided_p,
    return_quantiles,
    segment_trace,
    summarize,
)
from egm.lab.verdict import AwardEstimate, estimate_awards, judge, strategy_check
from egm.rng import Rng, derive_seed


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


# Figures of the hand-written distributions that scipy.stats replaced (incomplete gamma by its series
# and Lentz's continued fraction, quantiles by bisection, normal tails by erfc), recorded from that code
# (commit 32504fb, the last before the change) on fixed inputs. SciPy must give the same figures far
# below the last printed digit.
OLD_CHI2_SF = [  # (x, df, P(X >= x))
    (0.5, 1, 0.4795001221869536),
    (3.841458820694124, 1, 0.05000000000000004),
    (6.634896601021214, 1, 0.009999999999999983),
    (2.0, 2, 0.3678794411714422),
    (18.307038053275146, 10, 0.05000000000000007),
    (37.566, 20, 0.01000065523701083),
    (7.81, 3, 0.050106056350006),
    (255.0, 255, 0.4882225217704045),
    (310.4573882199, 255, 0.010000000000006698),
    (200.0, 255, 0.9954254445419516),
    (2809.0, 2809, 0.4964516238254221),
    (2990.0, 2809, 0.008805828123577638),
    (1.0, 20, 0.999999999829033),
    (400.0, 255, 1.660002524412434e-08),
]
OLD_CHI2_PPF = [  # (p, df, x with P(X <= x) = p)
    (0.025, 2, 0.0506356159685797),
    (0.975, 4, 11.14328678187779),
    (0.025, 20, 9.590777392264862),
    (0.975, 22, 36.78071208403554),
    (0.025, 2000, 1877.9460368153864),
    (0.975, 2002, 2127.904272032619),
    (0.5, 255, 254.33364407351098),
    (0.99, 2809, 2986.3030898697343),
]
OLD_NORMAL_P = [  # (z, P(|Z| >= |z|))
    (0.0, 1.0),
    (0.5, 0.6170750774519738),
    (1.0, 0.31731050786291415),
    (1.959963984540054, 0.05000000000000004),
    (2.5758293035489004, 0.01000000000000002),
    (3.0, 0.0026997960632601913),
    (-1.3, 0.1936009691712207),
    (5.0, 5.733031437583892e-07),
]
OLD_BATTERY = [  # seed 5, 200,000 bytes, 3,000 shuffles: (test, statistic, p-value)
    ("chi-square (bytes)", 299.18976, 0.029846477801759527),
    ("runs (bits)", 0.5632936460112923, 0.5732349441103942),
    ("serial correlation (bytes, lag 1)", 0.004832797476351001, 0.03067273371527628),
    ("gap (bytes < 64)", 16.27949119347026, 0.6991406960413766),
    ("poker (5 hex digits)", 0.7152205701492215, 0.8696182121114522),
    ("card positions (3000 shuffles)", 2936.34, 0.04620967831683865),
]
AGREE = 1e-9  # relative; the reports print at most 6 significant digits


def test_scipy_distributions_give_the_old_figures() -> None:
    for x, df, p in OLD_CHI2_SF:
        assert chi2.sf(x, df) == pytest.approx(p, rel=AGREE), (x, df)
    for p, df, x in OLD_CHI2_PPF:
        assert chi2.ppf(p, df) == pytest.approx(x, rel=AGREE), (p, df)
    for z, p in OLD_NORMAL_P:
        assert normal_two_sided_p(z) == pytest.approx(p, rel=AGREE), z
    # the constants the old code wrote out
    assert (Z95, Z90, Z99) == pytest.approx((1.959963984540054, 1.6448536269514722, 2.5758293035489004),
                                            rel=1e-15)


def test_rng_battery_gives_the_old_figures() -> None:
    results = run_battery(Rng.from_seed(5), Rng.from_seed(derive_seed(5, "shuffles")), 200_000, 3000, 0.99)
    assert [r.name for r in results] == [name for name, _, _ in OLD_BATTERY]
    for result, (name, statistic, p) in zip(results, OLD_BATTERY, strict=True):
        assert result.statistic == pytest.approx(statistic, rel=AGREE), name
        assert result.p_value == pytest.approx(p, rel=AGREE), name


def test_binomial_bounds_are_clopper_pearson() -> None:
    low, high = binomial_bounds(0, 1_000_000)
    assert low == 0 and high == pytest.approx(1 - 0.025 ** (1 / 1_000_000), rel=1e-9)  # about 3.7 / n
    low, high = binomial_bounds(10, 1000)  # the beta quantiles of the exact interval
    assert (low, high) == pytest.approx((beta.ppf(0.025, 10, 991), beta.ppf(0.975, 11, 990)), rel=1e-9)
    # Prism Words' awards near certainty went above 1 with the Poisson interval ("0.89 to 1.12")
    low, high = binomial_bounds(300, 300)
    assert high == 1.0 and low == pytest.approx(0.025 ** (1 / 300), rel=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10**9).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
@example((0, 1)).via("never seen in one game")
@example((1, 1)).via("every game")
@example((255, 300)).via("Prism Words: 0.855 to 1.08 with the Poisson interval")
@example((267, 300)).via("Prism Words: 0.89 to 1.12 with the Poisson interval")
def test_every_binomial_interval_lies_in_0_1_and_holds_its_estimate(seen: tuple[int, int]) -> None:
    hits, games = seen
    low, high = binomial_bounds(hits, games)
    assert 0.0 <= low <= hits / games <= high <= 1.0


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
                    reference, wagers=[(1, 1)], default_bet=1, max_win_credits=150_000,
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
    award = AwardEstimate("rare", 0, tally.games, *binomial_bounds(0, tally.games))
    verdict = judge(rules, [], [], [award], tally, [(1, 1)], 1, 10, strategy_check(None, "x"))
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


def test_hand_pay_covers_every_denomination_and_bet() -> None:
    """Poker Grid's report said "pass, maximum win $13.08" from the first denomination at bet 1; at
    100 cents and bet 10 the same pay table wins $13,080. Every case is judged, the worst named."""
    rules = load_jurisdiction("generic")  # hand-pay limit $1,200
    reference = tally_of([5] * 90 + [80] * 9 + [1308])  # credits at the default bet, 1
    wagers = [(d, b) for d in (1, 5, 25, 100) for b in (1, 2, 5, 10)]
    verdict = judge(rules, [], [], [], reference, wagers, 1, 1308, strategy_check(None, "x"))
    assert [(c.denom_cents, c.bet_credits) for c in verdict.hand_pay] == wagers
    worst = verdict.hand_pay[-1]
    assert (worst.max_win_cents, worst.games_over, worst.status) == (1308 * 100 * 10, 1, "flag")
    assert verdict.hand_pay[0].status == "pass"  # 1 cent, bet 1: $13.08
    # 25 cents, bet 5: $1.25 a default credit, so the 1,308-credit game ($1,635) is over $1,200, 80 is not
    assert next(c for c in verdict.hand_pay if c.denom_cents == 25 and c.bet_credits == 5).games_over == 1
    checks = {c.name: c for c in verdict.checks}
    top = checks["theoretical maximum win vs hand-pay limit"]
    assert top.status == "flag" and "100 cents a credit, bet 10: maximum win $13,080.00" in top.detail
    seen = checks["wins above the hand-pay limit"]
    assert seen.status == "flag" and "100 cents a credit, bet 10: 1 of 100 simulated games" in seen.detail
    assert verdict.to_dict()["hand_pay"][-1] == {"denom_cents": 100, "bet_credits": 10,
                                                 "max_win_cents": 1_308_000, "games_over_limit": 1,
                                                 "status": "flag"}


def test_hand_pay_scales_from_the_default_bet() -> None:
    """A pay table whose default bet is 2: its simulated credits are at bet 2, so bet 1 pays half."""
    rules = load_jurisdiction("generic")
    reference = tally_of([0, 2_000])
    cases = judge(rules, [], [], [], reference, [(100, 1), (100, 2)], 2, 2_000,
                  strategy_check(None, "x")).hand_pay
    assert [(c.max_win_cents, c.games_over) for c in cases] == [(100_000, 0), (200_000, 1)]


def test_contributions_sum_to_the_rtp_and_refuse_an_unitemised_pay() -> None:
    tally = tally_of([0, 5, 5, 12])
    for parts in ([("margin below -30", 0)], [("margin -30 to +0", 5)], [("margin -30 to +0", 5)],
                  [("margin +1 or more", 7), ("award: royal", 5)]):
        tally.add_parts(parts)
    rows = contributions(tally)
    assert [r.outcome for r in rows] == ["margin below -30", "margin -30 to +0", "margin +1 or more",
                                         "award: royal"]
    assert sum(r.contribution for r in rows) == summarize(tally).rtp == Fraction(22, 40)
    assert rows[1].probability == Fraction(2, 4) and rows[1].mean_pay == 5
    assert all(0 <= r.ci95[0] <= r.probability <= r.ci95[1] <= 1 for r in rows)
    tally.returns[3] += 1
    with pytest.raises(LabError, match="itemise every pay"):
        contributions(tally)

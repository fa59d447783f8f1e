"""Lab statistics: exact tallies, derived figures, distributions, chunk plans, verdicts."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chi2

from egm.config import load_jurisdiction
from egm.lab.adapters import LabError
from egm.lab.rng_battery import run_battery
from egm.lab.runner import plan_chunks
from egm.lab.stats import (
    Z90,
    Z95,
    Z99,
    Tally,
    convergence,
    jackpot_share_check,
    merge_in_order,
    normal_two_sided_p,
    poisson_rate_bounds,
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
OLD_POISSON = [  # (hits, games, 95% interval of the probability)
    (0, 1_000_000, (0.0, 2.99573227355399e-06)),
    (1, 1_000, (2.5317807984289848e-05, 0.005571643390938895)),
    (3, 100_000, (6.18672122895601e-06, 8.767273069742323e-05)),
    (10, 1_000, (0.004795388696132431, 0.01839035604201777)),
    (100, 1_000_000, (8.136399125092333e-05, 0.00012162679379242653)),
    (1000, 10_000_000, (9.389730184076932e-05, 0.00010639521360163094)),
    (12345, 1_000_000, (0.012128180907899183, 0.01256472220691393)),
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
    for hits, games, bounds in OLD_POISSON:
        assert poisson_rate_bounds(hits, games) == pytest.approx(bounds, rel=AGREE), (hits, games)
    # the constants the old code wrote out
    assert (Z95, Z90, Z99) == pytest.approx((1.959963984540054, 1.6448536269514722, 2.5758293035489004),
                                            rel=1e-15)


def test_rng_battery_gives_the_old_figures() -> None:
    results = run_battery(Rng.from_seed(5), Rng.from_seed(derive_seed(5, "shuffles")), 200_000, 3000, 0.99)
    assert [r.name for r in results] == [name for name, _, _ in OLD_BATTERY]
    for result, (name, statistic, p) in zip(results, OLD_BATTERY, strict=True):
        assert result.statistic == pytest.approx(statistic, rel=AGREE), name
        assert result.p_value == pytest.approx(p, rel=AGREE), name


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

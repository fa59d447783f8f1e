"""A jurisdiction's verdict on a certification: RTP range, award odds, hand-pay flags.

Each check is pass, fail, inconclusive (the interval straddles the limit: run more games) or flag
(information the regulator wants to see, not a failure). The verdict is the worst of its checks:
fail over inconclusive over pass; flags never fail a pay table.

* RTP: for each strategy, pass when the whole 95% interval is inside [min_rtp, max_rtp], fail when it
  is wholly outside, else inconclusive. Exact RTPs (e.g. a side bet) are compared directly.
* Award odds: each advertised award must be hittable at least once in `award_odds_limit` games,
  i.e. its probability >= 1 / limit. From k hits in n games, the 95% Poisson interval decides: pass
  when its low bound clears 1 / limit, fail when its high bound is below it, else inconclusive. An
  award never seen is reported with its upper bound (about 3 / n).
* Hand pay: every win above the hand-pay limit (win credits x denomination) is flagged, with how
  often the simulation saw one, and so is a theoretical maximum win above the limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from egm.config import JurisdictionConfig
from egm.lab.stats import Summary, Tally, poisson_rate_bounds

PASS, FAIL, INCONCLUSIVE, FLAG = "pass", "fail", "inconclusive", "flag"


@dataclass(frozen=True)
class AwardEstimate:
    name: str
    hits: int
    games: int
    low: float
    high: float

    @property
    def probability(self) -> float:
        return self.hits / self.games

    def to_dict(self) -> dict[str, object]:
        one_in = self.games / self.hits if self.hits else None
        return {"hits": self.hits, "probability": self.probability, "one_in": one_in,
                "ci95": [self.low, self.high]}


def estimate_awards(names: tuple[str, ...], tally: Tally) -> list[AwardEstimate]:
    return [AwardEstimate(name, tally.awards.get(name, 0), tally.games,
                          *poisson_rate_bounds(tally.awards.get(name, 0), tally.games)) for name in names]


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    detail: str


@dataclass(frozen=True)
class Verdict:
    jurisdiction: str
    checks: tuple[Check, ...]

    @property
    def status(self) -> str:
        statuses = {c.status for c in self.checks}
        return FAIL if FAIL in statuses else INCONCLUSIVE if INCONCLUSIVE in statuses else PASS

    def to_dict(self) -> dict[str, object]:
        return {"jurisdiction": self.jurisdiction, "status": self.status,
                "checks": [{"check": c.name, "status": c.status, "detail": c.detail} for c in self.checks]}


def _rtp_check(label: str, summary: Summary, rules: JurisdictionConfig) -> Check:
    low, high = summary.ci95
    where = (f"RTP {float(summary.rtp):.4%}, 95% interval [{low:.4%}, {high:.4%}], "
             f"range [{rules.min_rtp:.2%}, {rules.max_rtp:.2%}]")
    if rules.min_rtp <= low and high <= rules.max_rtp:
        status = PASS
    elif high < rules.min_rtp or low > rules.max_rtp:
        status = FAIL
    else:
        status = INCONCLUSIVE
    return Check(f"RTP in range ({label})", status, where)


def _exact_rtp_check(label: str, rtp: Fraction, rules: JurisdictionConfig) -> Check:
    inside = Fraction(rules.min_rtp) <= rtp <= Fraction(rules.max_rtp)
    return Check(f"RTP in range ({label})", PASS if inside else FAIL,
                 f"exact RTP {float(rtp):.4%}, range [{rules.min_rtp:.2%}, {rules.max_rtp:.2%}]")


def _award_check(award: AwardEstimate, limit: int) -> Check:
    floor = 1.0 / limit
    if award.hits == 0:
        detail = f"never seen in {award.games:,} games; probability below {award.high:.3g} (95%)"
    else:
        detail = (f"{award.hits:,} hits in {award.games:,} games, 1 in {award.games / award.hits:,.0f} "
                  f"(95% interval {award.low:.3g} to {award.high:.3g})")
    status = PASS if award.low >= floor else FAIL if award.high < floor else INCONCLUSIVE
    return Check(f"award '{award.name}' hittable once in {limit:,} games", status, detail)


def strategy_check(declared: str | None, simulated: str) -> Check:
    """The pay table names the strategy (e.g. the house way) its RTP rests on; the lab must have
    simulated that one."""
    if declared is None or declared == simulated:
        return Check("pay table's strategy is the one simulated", PASS, f"{simulated}")
    return Check("pay table's strategy is the one simulated", FAIL,
                 f"the pay table names '{declared}' but this firmware plays '{simulated}'; certify a pay "
                 "table that names the firmware's strategy")


def judge(rules: JurisdictionConfig, strategies: list[tuple[str, Summary]],
          exact_rtps: list[tuple[str, Fraction]], awards: list[AwardEstimate], reference: Tally,
          denom_cents: int, max_win_credits: int, strategy: Check) -> Verdict:
    checks = [strategy, *(_rtp_check(label, summary, rules) for label, summary in strategies)]
    checks += [_exact_rtp_check(label, rtp, rules) for label, rtp in exact_rtps]
    checks += [_award_check(award, rules.award_odds_limit) for award in awards]
    limit = rules.hand_pay_limit_cents
    over = sum(n for credits, n in reference.returns.items() if credits * denom_cents > limit)
    checks.append(Check("wins above the hand-pay limit", FLAG if over else PASS,
                        f"{over:,} of {reference.games:,} simulated games won more than "
                        f"${limit / 100:,.2f} at {denom_cents} cents a credit"))
    top = max_win_credits * denom_cents
    checks.append(Check("theoretical maximum win vs hand-pay limit", FLAG if top > limit else PASS,
                        f"maximum win ${top / 100:,.2f} (before any jackpot), limit ${limit / 100:,.2f}"))
    return Verdict(rules.name, tuple(checks))

"""A jurisdiction's verdict on a certification: RTP range, award odds, hand-pay flags.

Each check is pass, fail, inconclusive (the interval straddles the limit: run more games) or flag
(information the regulator wants to see, not a failure). The verdict is the worst of its checks:
fail over inconclusive over pass; flags never fail a pay table.

* RTP: for each strategy, pass when the whole 95% interval is inside [min_rtp, max_rtp], fail when it
  is wholly outside, else inconclusive. Exact RTPs (e.g. a side bet) are compared directly.
* Award odds: each advertised award must be hittable at least once in `award_odds_limit` games,
  i.e. its probability >= 1 / limit. From k hits in n games, the 95% Clopper-Pearson interval decides: pass
  when its low bound clears 1 / limit, fail when its high bound is below it, else inconclusive. An
  award never seen is reported with its upper bound (about 3.7 / n).
* Hand pay: at every denomination and bet the pay table offers, a win above the hand-pay limit (win
  credits x denomination) is flagged, with how often the simulation saw one, and so is a theoretical
  maximum win above the limit; each check names its worst case, and the verdict keeps every case.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from egm.config import JurisdictionConfig
from egm.lab.stats import Summary, Tally, binomial_bounds
from egm.lab.wording import cents, counted, odds

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
                          *binomial_bounds(tally.awards.get(name, 0), tally.games)) for name in names]


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    detail: str


@dataclass(frozen=True)
class Verdict:
    jurisdiction: str
    checks: tuple[Check, ...]
    hand_pay: tuple[HandPayCase, ...] = ()  # every denomination and bet the hand-pay checks covered

    @property
    def status(self) -> str:
        statuses = {c.status for c in self.checks}
        return FAIL if FAIL in statuses else INCONCLUSIVE if INCONCLUSIVE in statuses else PASS

    def to_dict(self) -> dict[str, object]:
        return {"jurisdiction": self.jurisdiction, "status": self.status,
                "checks": [{"check": c.name, "status": c.status, "detail": c.detail} for c in self.checks],
                "hand_pay": [case.to_dict() for case in self.hand_pay]}


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
        detail = (f"{counted(award.hits, 'hit')} in {award.games:,} games, {odds(award.hits, award.games)} "
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


@dataclass(frozen=True)
class HandPayCase:
    """One wager the pay table offers (denomination and bet) against a jurisdiction's hand-pay limit:
    its theoretical maximum win, and the simulated games that would have paid above the limit."""

    denom_cents: int
    bet_credits: int
    max_win_cents: int
    games_over: int
    limit_cents: int

    @property
    def status(self) -> str:
        return FLAG if self.max_win_cents > self.limit_cents or self.games_over else PASS

    def to_dict(self) -> dict[str, object]:
        return {"denom_cents": self.denom_cents, "bet_credits": self.bet_credits,
                "max_win_cents": self.max_win_cents, "games_over_limit": self.games_over,
                "status": self.status}


def hand_pay_cases(reference: Tally, wagers: list[tuple[int, int]], default_bet: int, max_win_credits: int,
                   limit_cents: int) -> list[HandPayCase]:
    """Every (denomination, bet) the pay table offers: a game's return scales with the bet, so the
    simulated returns at the default bet give each bet's returns exactly (x bet / default bet)."""
    cases = []
    for denom, bet in wagers:
        cents = Fraction(denom * bet, default_bet)  # cents a credit of the default wager is worth here
        over = sum(n for credits, n in reference.returns.items() if credits * cents > limit_cents)
        cases.append(HandPayCase(denom, bet, int(max_win_credits * cents), over, limit_cents))
    return cases


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _wager(case: HandPayCase) -> str:
    return f"{cents(case.denom_cents)} a credit, bet {case.bet_credits}"


def hand_pay_checks(cases: list[HandPayCase], games: int, jackpot: bool = False) -> list[Check]:
    """The two hand-pay checks over every case, each naming its worst case and how many cases flag;
    `jackpot`: the game has a running jackpot, which comes on top of the theoretical maximum."""
    limit = cases[0].limit_cents
    worst = max(cases, key=lambda c: (c.games_over, c.max_win_cents))
    flagged = sum(1 for c in cases if c.games_over)
    seen = Check("wins above the hand-pay limit", FLAG if flagged else PASS,
                 f"worst case {_wager(worst)}: {worst.games_over:,} of {games:,} simulated games won more "
                 f"than {_money(limit)}; {flagged} of {len(cases)} denomination and bet cases flagged")
    top = max(cases, key=lambda c: c.max_win_cents)
    over = sum(1 for c in cases if c.max_win_cents > limit)
    maximum = Check("theoretical maximum win vs hand-pay limit", FLAG if over else PASS,
                    f"worst case {_wager(top)}: maximum win {_money(top.max_win_cents)}, limit "
                    f"{_money(limit)}; {over} of {len(cases)} denomination and bet cases above it"
                    + ("; before the jackpot, which has no fixed bound (the simulated wins include it)"
                       if jackpot else ""))
    return [seen, maximum]


def judge(rules: JurisdictionConfig, strategies: list[tuple[str, Summary]],
          exact_rtps: list[tuple[str, Fraction]], awards: list[AwardEstimate], reference: Tally,
          wagers: list[tuple[int, int]], default_bet: int, max_win_credits: int, strategy: Check,
          jackpot: bool = False) -> Verdict:
    """The verdict; `wagers` are the (denomination cents, bet credits) pairs the hand-pay checks
    cover, `max_win_credits` the theoretical maximum win at `default_bet` (before any jackpot, when
    `jackpot`)."""
    checks = [strategy, *(_rtp_check(label, summary, rules) for label, summary in strategies)]
    checks += [_exact_rtp_check(label, rtp, rules) for label, rtp in exact_rtps]
    checks += [_award_check(award, rules.award_odds_limit) for award in awards]
    cases = hand_pay_cases(reference, wagers, default_bet, max_win_credits, rules.hand_pay_limit_cents)
    checks += hand_pay_checks(cases, reference.games, jackpot)
    return Verdict(rules.name, tuple(checks), tuple(cases))

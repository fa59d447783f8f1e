"""`egm certify`: exact figures, simulation at the reference and best-available strategies, verdicts.

The pay table is loaded only through the pay-table ROM (`load_paytable`), so an unsigned, tampered or
invalid table is refused before anything runs. The game's `LabAdapter` supplies the simulation and
the exact figures; `runner` runs the chunks; `verdict` judges each jurisdiction.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from egm.config import JurisdictionConfig, all_jurisdictions, load_jurisdiction
from egm.lab.adapters import ExactFigure, ExactOutcome, LabAdapter, LabError, adapter_for
from egm.lab.contributions import Contribution, contributions
from egm.lab.rng_record import BatteryRecord, load_record
from egm.lab.runner import RunResult, plan_chunks, run
from egm.lab.stats import Z95, Summary, jackpot_share_check, merge_in_order, return_quantiles, summarize
from egm.lab.verdict import AwardEstimate, Verdict, estimate_awards, judge, strategy_check
from egm.rom import PayTable, load_paytable

LAB_HALF_WIDTH = 0.001  # the lab's precision: a 95% half-width of 0.1 percentage points of RTP


def needed_games(sigma: float, half_width: float = LAB_HALF_WIDTH) -> int:
    """Games for a 95% interval of +-`half_width` at `sigma`: the lab's figure of merit with games/s.

    >>> needed_games(0.446)
    764128
    """
    return math.ceil((Z95 * sigma / half_width) ** 2)


def software_version() -> str:
    try:
        return version("egm")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Request:
    paytable_path: Path
    games: int | None  # None: the game's own default
    seed: int
    workers: int = 0
    scheduler: str | None = None
    best_games: int | None = None  # None: the game's own default, capped by `games`
    jurisdictions: tuple[str, ...] = ()
    denom_cents: int | None = None
    progress: bool = False
    rng_results: Path | None = None  # an `egm lab rng --json` record to put in the PAR sheet


@dataclass(frozen=True)
class StrategyRun:
    """A bounding strategy's run: role "best_available" (GLI-19's maximum-return strategy, judged like
    the reference) or "lower_bound" (e.g. random legal play, reported only)."""

    role: str
    strategy: str
    result: RunResult
    summary: Summary

    def to_dict(self) -> dict[str, Any]:
        return {"strategy": self.strategy, **self.summary.to_dict(),
                "games_per_second": self.result.games_per_second, "partial": self.result.partial,
                **figure_of_merit(self.summary, self.result)}


@dataclass
class Certification:
    request: Request
    paytable: PayTable
    adapter: LabAdapter
    denom_cents: int
    exact: list[ExactFigure]
    max_win: ExactFigure
    reference: RunResult
    reference_summary: Summary
    bounds: list[StrategyRun]  # the best-available run, then the lower-bound run, where the game has them
    awards: list[AwardEstimate]
    verdicts: list[Verdict]
    software_version: str
    contributions: list[Contribution]  # the reference run's return, outcome by outcome
    side_bets: dict[str, list[ExactOutcome]]  # each side bet's outcomes, exact
    rng: BatteryRecord | None = None  # the RNG battery's record, when one was attached

    @property
    def partial(self) -> bool:
        return self.reference.partial or any(b.result.partial for b in self.bounds)

    def to_json(self) -> dict[str, Any]:
        s = self.reference_summary
        tally = self.reference.tally
        share = jackpot_share_check(tally)
        out: dict[str, Any] = {
            "paytable_id": self.paytable.id,
            "paytable_version": self.paytable.version,
            "paytable_sha256": self.paytable.sha256,
            "game": self.paytable.game,
            "games": tally.games,
            "games_requested": self.request.games,
            "seed": self.request.seed,
            "partial": self.partial,
            "strategy": self.adapter.reference_strategy,
            "denom_cents": self.denom_cents,
            "stake_credits": tally.stake // tally.games,
            "rtp": float(s.rtp),
            "rtp_fraction": f"{s.rtp.numerator}/{s.rtp.denominator}",
            "ci95": list(s.ci95),
            "hit_frequency": float(s.hit_frequency),
            "win_frequency": float(s.win_frequency),
            "below_half_stake_share": float(s.below_half_stake),
            "pays_by_margin": self.adapter.pays_by_margin,
            "sigma": s.sigma,
            "volatility_index": s.volatility_index,
            "max_win_seen": s.max_win_seen,
            "theoretical_max_win": int(self.max_win.value),
            "exact": {f.name: f.as_float() for f in self.exact},
            "exact_methods": {f.name: f.method for f in [*self.exact, self.max_win]},
            "games_per_second": self.reference.games_per_second,
            **figure_of_merit(s, self.reference),
            "chunks": {"done": self.reference.chunks_done, "planned": self.reference.chunks_planned,
                       "games_each": self.adapter.chunk_games(self.adapter.reference_strategy)},
            "awards": {a.name: a.to_dict() for a in self.awards},
            "results": dict(tally.results),
            "jackpot": {"hits": dict(tally.jackpot_hits), "won_credits": dict(tally.jackpot_won),
                        "paid_in_credits": tally.jackpot_paid_in,
                        "player_share_check": share.to_dict() if share else None},
            "return_distribution": [[value, count] for value, count in sorted(tally.returns.items())],
            "return_quantiles": return_quantiles(tally),
            "jurisdictions": [v.to_dict() for v in self.verdicts],
            "software_version": self.software_version,
            "rng": self.rng.model_dump() if self.rng is not None else None,
            "contributions": [c.to_dict() for c in self.contributions],
            "side_bets": {name: [{"outcome": o.name, "pays": o.pays, "probability": float(o.probability),
                                  "basis": o.basis, "contribution": float(o.contribution)} for o in outcomes]
                          for name, outcomes in self.side_bets.items()},
        }
        for bound in self.bounds:
            out[bound.role] = bound.to_dict()
        return out


def figure_of_merit(summary: Summary, result: RunResult) -> dict[str, float | int | None]:
    """A run's games for +-0.1 RTP points at its measured sigma, and the time that takes at its games/s."""
    needed = needed_games(summary.sigma)
    rate = result.games_per_second
    return {"needed_games_for_0_1pt": needed, "seconds_for_0_1pt": needed / rate if rate > 0 else None}


def _default_note(games: int, default: int, half_width: float | None) -> str:
    """The progress bar's note on a run of the game's default size, e.g. ": 800,000 games (the default,
    for +-0.1 RTP points)"."""
    if games != default or half_width is None:
        return ""
    return f": {games:,} games (the default, for +-{half_width:g} RTP points)"


def _say(what: str) -> None:
    """What the run is doing, on stderr, before there is a progress bar to show it."""
    print(f"egm certify: {what}", file=sys.stderr, flush=True)


def _run_to_half_width(request: Request, paytable: PayTable, adapter: LabAdapter) -> tuple[RunResult, int]:
    """The reference run of a game whose default follows its sigma: first the game's default number of
    games, then, while the 95% half-width is wider than the game's target, as many more as the sigma
    measured so far needs (and 5% to spare). The added chunks are those a run of the total has, so the
    report's `--games` total reproduces the run exactly. Returns the run and its planned games."""
    strategy = adapter.reference_strategy
    chunk = adapter.chunk_games(strategy)
    target = (adapter.games_default_half_width or LAB_HALF_WIDTH * 100) / 100
    label = f"{strategy}: to +-{target * 100:g} RTP points at the measured sigma"
    games = math.ceil(adapter.games_default / chunk) * chunk  # whole chunks: later ones keep their index
    done: RunResult | None = None
    while True:
        planned = plan_chunks(request.seed, games, chunk)
        chunks = planned[done.chunks_planned:] if done else planned
        more = run(paytable.game, paytable, strategy, chunks, workers=request.workers,
                   scheduler=request.scheduler, progress=request.progress, label=label)
        done = more if done is None else RunResult(
            merge_in_order([done.tally, more.tally]), done.chunks_done + more.chunks_done, len(planned),
            done.elapsed_s + more.elapsed_s, more.partial)
        summary = summarize(done.tally)
        if done.partial or (summary.ci95[1] - summary.ci95[0]) / 2 <= target:
            return done, games
        needed = math.ceil(needed_games(summary.sigma, target) * 1.05 / chunk) * chunk
        games = max(games + chunk, needed)


def _jurisdictions(names: tuple[str, ...]) -> list[JurisdictionConfig]:
    return [load_jurisdiction(name) for name in (names or tuple(all_jurisdictions()))]


def certify(request: Request) -> Certification:
    """Run a whole certification. Raises PaytableError, ConfigError or LabError for bad input."""
    if request.games is not None and request.games <= 0:
        raise LabError("--games must be a positive whole number of games")
    if request.best_games is not None and request.best_games < 0:
        raise LabError("--best-games must be 0 (skip the search) or a positive number of games")
    say = _say if request.progress else lambda _: None
    rules = _jurisdictions(request.jurisdictions)
    rng = load_record(request.rng_results) if request.rng_results is not None else None
    paytable = load_paytable(request.paytable_path)
    adapter = adapter_for(paytable.game)
    follow_sigma = request.games is None and adapter.games_follow_sigma
    # Record the numbers used, so that the report's command reproduces the run.
    games = request.games if request.games is not None else adapter.games_default
    best_games = min(games, adapter.best_games_default) if request.best_games is None else request.best_games
    request = replace(request, games=games, best_games=best_games)
    denominations = paytable.header.denominations_cents
    denom = request.denom_cents or denominations[0]
    if denom not in denominations:
        raise LabError(f"--denom-cents {denom} is not one of the pay table's denominations {denominations}")
    say(f"preparing {paytable.game}: compiling or loading its compiled code (the first run after an edit "
        "compiles it, which can take minutes), then starting the workers")
    adapter.warm_up(paytable)

    strategy = adapter.reference_strategy
    if follow_sigma:
        reference, games = _run_to_half_width(request, paytable, adapter)
        request = replace(request, games=games)
    else:
        chunks = plan_chunks(request.seed, request.games, adapter.chunk_games(strategy))
        target = _default_note(request.games, adapter.games_default, adapter.games_default_half_width)
        reference = run(paytable.game, paytable, strategy, chunks, workers=request.workers,
                        scheduler=request.scheduler, progress=request.progress, label=f"{strategy}{target}")
    if reference.tally.games == 0:
        raise LabError("the run was stopped before its first chunk finished; there is nothing to report")
    reference_summary = summarize(reference.tally)

    bounds = []
    for role, bound in (("best_available", adapter.best_strategy), ("lower_bound", adapter.lower_strategy)):
        if not bound or not request.best_games or reference.partial or any(b.result.partial for b in bounds):
            continue
        chunks = plan_chunks(request.seed, request.best_games, adapter.chunk_games(bound))
        target = _default_note(request.best_games, adapter.best_games_default,
                               adapter.best_games_default_half_width)
        result = run(paytable.game, paytable, bound, chunks, workers=request.workers,
                     scheduler=request.scheduler, progress=request.progress, label=f"{bound}{target}")
        if result.tally.games:
            bounds.append(StrategyRun(role, bound, result, summarize(result.tally)))

    exact = adapter.exact(paytable, reference.tally)
    max_win = adapter.theoretical_max_win(paytable)
    awards = estimate_awards(adapter.awards(paytable), reference.tally)
    strategies = [(strategy, reference_summary)]
    strategies += [(b.strategy, b.summary) for b in bounds if b.role == "best_available"]
    exact_rtps = [(f.name, Fraction(f.value)) for f in exact if f.is_rtp and f.value is not None]
    declared = strategy_check(paytable.header.strategy, strategy)
    header = paytable.header
    # The hand-pay checks cover every bet at every denomination offered (only --denom-cents, if given).
    wagers = [(d, bet) for d in ([request.denom_cents] if request.denom_cents else denominations)
              for bet in header.bets_credits]
    verdicts = [judge(r, strategies, exact_rtps, awards, reference.tally, wagers, header.default_bet_credits,
                      int(max_win.value), declared, adapter.has_jackpot) for r in rules]
    return Certification(request, paytable, adapter, denom, exact, max_win, reference, reference_summary,
                         bounds, awards, verdicts, software_version(), contributions(reference.tally),
                         adapter.side_bets(paytable), rng)

"""The PAR-sheet report: one self-contained HTML file (plots embedded as base64 PNG, no external links).

It holds the pay table (as certified, with its SHA-256), every exact and simulated figure with its
method, the RTP convergence plot with its 95% band, a histogram of returns, the award table, the
jurisdiction verdicts, and the software version, seed and command needed to reproduce the run.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from egm.lab.adapters import LabError
from egm.lab.contributions import kind_of
from egm.lab.stats import Z95, convergence
from egm.lab.wording import cents, odds, per_second

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from egm.lab.certify import Certification
    from egm.lab.verdict import Verdict

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 70em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; } .pass { color: #060; } .fail { color: #a00; font-weight: bold; }
.inconclusive { color: #a60; } .flag { color: #06a; } pre { background: #f6f6f6; padding: 1em; }
.partial { background: #fdd; padding: 0.5em; font-weight: bold; } .weak { color: #a60; }
"""


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}">'


def _plots(result: Certification) -> tuple[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    tally = result.reference.tally
    sigma = result.reference_summary.sigma
    points = convergence(tally)
    games = [g for g, _ in points]
    rtps = [r for _, r in points]
    half = [Z95 * sigma / math.sqrt(g) for g in games]
    conv = Figure(figsize=(8, 4))
    ax = conv.add_subplot()
    ax.fill_between(games, [r - h for r, h in zip(rtps, half, strict=True)],
                    [r + h for r, h in zip(rtps, half, strict=True)], alpha=0.25, label="95% interval")
    ax.plot(games, rtps, marker=".", label="RTP so far")
    ax.axhline(float(result.reference_summary.rtp), color="grey", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    # Plain game counts at 1, 2 and 5 of each decade, no minor labels: a run spanning less than a
    # decade otherwise gets minor labels that overlap.
    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("games")
    ax.set_ylabel("RTP")
    ax.set_title("RTP convergence (reference strategy)")
    ax.legend()

    hist = Figure(figsize=(8, 4))
    ax = hist.add_subplot()
    values = sorted(tally.returns)
    ax.bar(values, [tally.returns[v] / tally.games for v in values], width=0.9)
    ax.set_yscale("log")
    ax.set_xlabel("return per game (credits)")
    ax.set_ylabel("share of games")
    ax.set_title("Distribution of returns")
    return _png(conv), _png(hist)


def _table(rows: list[list[object]], header: list[str]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _rng_section(result: Certification) -> str:
    """The attached RNG battery record: the lab's own tests and dieharder's pass, weak or fail per test."""
    e = html.escape
    record = result.rng
    if record is None:
        return ("<p>No RNG battery record is attached. Run <code>egm lab rng --dieharder --json &gt; "
                "rng.json</code> and certify with <code>--rng-results rng.json</code>.</p>")
    status = "pass" if record.passed else "fail"
    version = e(record.software_version)
    if record.software_version != result.software_version:
        version += f" <span class='fail'>(this certification ran egm {e(result.software_version)})</span>"
    own = [[e(t.test), f"{t.statistic:.4f}", e(t.detail), f"{t.p_value:.4f}",
            f"<span class='{'pass' if t.passed else 'fail'}'>{'pass' if t.passed else 'fail'}</span>"]
           for t in record.tests]
    parts = [
        _table([["generator", e(record.generator)], ["software", f"egm {version}"],
                ["seed", "from the OS" if record.seed is None else str(record.seed)],
                ["bytes (own tests)", f"{record.bytes:,}"], ["shuffles", f"{record.shuffles:,}"],
                ["confidence", f"{record.confidence:.0%} ({e(record.jurisdiction)})"],
                ["result", f"<span class='{status}'>{status.upper()}</span>"],
                ["reproduce", f"<code>{e(record.reproduce())}</code>"]], ["item", "value"]),
        "<h3>The lab's own tests (SciPy p-values)</h3>",
        _table(own, ["test", "statistic", "distribution", "p-value", "status"]),
        "<h3>dieharder (-g 200, the DRBG on stdin, one stream per test)</h3>",
    ]
    run = record.dieharder
    if run is None:
        parts.append("<p>Not run (add <code>--dieharder</code>).</p>")
    elif not run.installed:
        parts.append("<p class='fail'>dieharder was not installed where the battery ran.</p>")
    else:
        if run.error:
            parts.append(f"<p class='fail'>{e(run.error)}</p>")
        parts.append(_table([[str(t.number), e(t.test), str(t.ntuple), f"{t.tsamples:,}", str(t.psamples),
                              f"{t.p_value:.6f}", f"<span class='{t.assessment}'>{t.assessment}</span>"]
                             for t in run.tests],
                            ["-d", "test", "ntuple", "tsamples", "psamples", "p-value", "assessment"]))
        parts.append("<p>Weak: p &lt; 0.005 or p &gt; 0.995 (a good generator shows one now and then); "
                     "fail: p &lt; 0.000001 or p &gt; 0.999999. Left out: "
                     + "; ".join(f"-d {e(n)}: {e(why)}" for n, why in run.excluded.items()) + "</p>")
    return "".join(parts)


def _merit_rows(run: dict[str, Any]) -> list[list[str]]:
    """The lab's figure of merit: games for +-0.1 RTP points at the measured sigma, and the time."""
    seconds = run["seconds_for_0_1pt"]
    return [["games for +-0.1 points", f"{run['needed_games_for_0_1pt']:,}",
             "(1.96 sigma / 0.001)^2 at the measured sigma"],
            ["time for +-0.1 points", f"{seconds / 60:,.1f} min" if seconds is not None else "n/a",
             "games for +-0.1 points / games per second"]]


def _run_size(result: Certification) -> str:
    """The games simulated, and whether that is the game's own default size or a shorter run."""
    adapter, games = result.adapter, result.reference_summary.games
    default = adapter.games_default
    if games >= default:
        return f"{games:,} (the game's default run is {default:,})"
    aim = (f", sized for +-{adapter.games_default_half_width:g} RTP points"
           if adapter.games_default_half_width else "")
    share = f"{100 * games / default:.2g}%"
    return (f"{games:,}: a <b>short run</b>, {share} of the game's default of {default:,}{aim}; its "
            "intervals are wider accordingly (read them, not the point estimates)")


def _wagers(result: Certification) -> str:
    header = result.paytable.header
    bets = ", ".join(str(b) for b in header.bets_credits)
    return (f"denominations {', '.join(cents(d) for d in header.denominations_cents)}; bets "
            f"{bets} credits (default {header.default_bet_credits}); "
            "simulated at the default bet, every figure per unit staked; the hand-pay checks cover "
            + ("every denomination and bet" if result.request.denom_cents is None
               else f"every bet at {cents(result.request.denom_cents)} (--denom-cents)"))


def _contributions(result: Certification) -> str:
    """The contribution table: each outcome's pay, probability and share of the RTP, kind subtotals
    when there are several kinds, the total (= the RTP), then each side bet's exact table."""
    rows: list[list[object]] = []
    subtotals: dict[str, float] = {}
    for c in result.contributions:
        kind = kind_of(c.outcome)
        subtotals[kind] = subtotals.get(kind, 0.0) + float(c.contribution)
        pay = c.mean_pay
        rows.append([html.escape(c.outcome), f"{float(pay):,.2f}".rstrip("0").rstrip("."), f"{c.times:,}",
                     f"{float(c.probability):.5%}", f"{c.ci95[0]:.4%} to {c.ci95[1]:.4%}",
                     f"{float(c.contribution):.5%}"])
    if len(subtotals) > 1:
        rows += [[f"<b>subtotal: {html.escape(kind)}</b>", "", "", "", "", f"<b>{share:.5%}</b>"]
                 for kind, share in subtotals.items()]
    total = sum((c.contribution for c in result.contributions), Fraction(0))
    rows.append(["<b>total (the simulated RTP)</b>", "", "", "", "", f"<b>{float(total):.5%}</b>"])
    varies = "the mean where the pay varies, as the jackpot does" if result.adapter.has_jackpot else "fixed"
    parts = [
        "<p>Every credit the reference run returned, by the outcome that paid it. Pay: credits per "
        f"occurrence at the default bet ({varies}); probability: the share of games the outcome occurred in "
        "(simulated), with its exact binomial (Clopper-Pearson) 95% interval; contribution: credits it "
        "returned / credits staked. The contributions sum to the RTP exactly.</p>",
        _table(rows, ["outcome", "pay (credits)", "times", "probability (games)", "95% interval",
                      "contribution to RTP"]),
    ]
    for name, outcomes in result.side_bets.items():
        side = [[html.escape(o.name), html.escape(o.pays),
                 f"{float(o.probability):.6%} ({html.escape(o.basis)})",
                 f"{float(o.contribution):.5%}"] for o in outcomes]
        side_rtp = sum((o.contribution for o in outcomes), Fraction(0))
        side.append([f"<b>total: the {html.escape(name)}'s RTP</b>", "", "", f"<b>{float(side_rtp):.5%}</b>"])
        parts += [f"<h3>Side bet: {html.escape(name)} (exact, a separate wager)</h3>",
                  _table(side, ["outcome", "pays", "probability (exact)", "contribution to its RTP"])]
    return "".join(parts)


def _hand_pays(verdict: Verdict) -> str:
    """The hand-pay cases of a verdict: every denomination and bet, its maximum win, simulated games
    above the limit."""
    if not verdict.hand_pay:
        return ""
    limit = verdict.hand_pay[0].limit_cents
    rows = [[cents(c.denom_cents), f"{c.bet_credits}", f"${c.max_win_cents / 100:,.2f}", f"{c.games_over:,}",
             f"<span class='{c.status}'>{c.status}</span>"] for c in verdict.hand_pay]
    return (f"<p>Hand pays: every denomination and bet, against the limit of ${limit / 100:,.2f}</p>"
            + _table(rows, ["denomination", "bet (credits)", "theoretical maximum win",
                            "simulated games above the limit", "status"]))


def render_report(result: Certification) -> str:
    data = result.to_json()
    s = result.reference_summary
    e = html.escape
    convergence_png, histogram_png = _plots(result)
    raw = result.paytable.path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != result.paytable.sha256:
        raise LabError(f"{result.paytable.path} changed during the run; certify it again")
    paytable_text = raw.decode("utf-8")
    simulated = [
        ["RTP", f"{float(s.rtp):.5%}", "total return / total stake, integer totals"],
        ["95% interval", f"{s.ci95[0]:.5%} to {s.ci95[1]:.5%}", "RTP +- 1.96 sigma / sqrt(games)"],
        *([] if result.adapter.pays_by_margin else
          [["hit frequency", f"{float(s.hit_frequency):.5%}", "games with any return / games"]]),
        ["win frequency", f"{float(s.win_frequency):.5%}", "games returning more than the stake / games"],
        ["below half the stake", f"{float(s.below_half_stake):.5%}",
         "games returning less than half the stake / games"],
        ["sigma", f"{s.sigma:.5f}", "standard deviation of return per unit stake"],
        ["volatility index (90%)", f"{s.volatility_index:.5f}", "1.645 x sigma"],
        ["largest win seen", f"{s.max_win_seen:,} credits", "maximum return of one game"],
        *([f"return quantile {float(level):.2%}", f"{value:,} credits",
           "smallest return r with P(return <= r) >= level, from the exact histogram"]
          for level, value in data["return_quantiles"].items()),
        ["games per second", per_second(data["games_per_second"]), "simulated games / wall time"],
        *_merit_rows(data),
    ]
    bounds = "".join(
        f"<h2>{e(b.role.replace('_', ' ').capitalize())} strategy: {e(b.strategy)}</h2>"
        f"<p>{e(result.adapter.strategy_methods.get(b.strategy, ''))}</p>"
        + _table([["games", f"{b.summary.games:,}"], ["RTP", f"{float(b.summary.rtp):.5%}"],
                  ["95% interval", f"{b.summary.ci95[0]:.5%} to {b.summary.ci95[1]:.5%}"],
                  ["sigma", f"{b.summary.sigma:.5f}"],
                  ["games per second", per_second(data[b.role]["games_per_second"])],
                  *([name, value] for name, value, _ in _merit_rows(data[b.role]))], ["figure", "value"])
        for b in result.bounds)
    exact = [[e(f.name), f.formatted(), e(f.method)] for f in [*result.exact, result.max_win]]
    share = data["jackpot"]["player_share_check"]
    if share is not None:
        exact.append(["jackpot share: simulation check", f"{share['observed']:.6f}",
                      f"jackpot credits the player took / all taken; z = {share['z']:+.2f} against the "
                      f"closed form ({'agrees' if share['agrees_at_99'] else 'DISAGREES'} at 99%)"])
    awards = [[e(a.name), f"{a.hits:,}", odds(a.hits, a.games), f"{a.low:.3g} to {a.high:.3g}"]
              for a in result.awards]
    verdicts = "".join(
        f"<h3>{e(v.jurisdiction)}: <span class='{v.status}'>{v.status.upper()}</span></h3>"
        + _table([[e(c.name), f"<span class='{c.status}'>{c.status}</span>", e(c.detail)] for c in v.checks],
                 ["check", "status", "detail"])
        + _hand_pays(v)
        for v in result.verdicts)
    partial = ("<p class='partial'>PARTIAL: the run was stopped; figures cover the games done.</p>"
               if result.partial else "")
    command = (f"egm certify {result.request.paytable_path} --games {result.request.games} "
               f"--seed {result.request.seed} --best-games {result.request.best_games}")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>PAR sheet: {e(result.paytable.id)}</title>
<style>{STYLE}</style></head><body>
<h1>PAR sheet: {e(result.paytable.id)} v{e(result.paytable.version)}</h1>
{partial}
{_table([["game", e(result.paytable.game)], ["pay table SHA-256", f"<code>{result.paytable.sha256}</code>"],
         ["seed", str(result.request.seed)], ["games", _run_size(result)],
         ["reference strategy", e(result.adapter.reference_strategy)],
         ["chunks", f"{data['chunks']['done']} of {data['chunks']['planned']}, "
                    f"{data['chunks']['games_each']:,} games each"
                    + (", jackpot restarting at its seed per chunk" if result.adapter.has_jackpot else "")],
         ["wagers", _wagers(result)],
         ["software", f"egm {e(result.software_version)}"], ["reproduce", f"<code>{e(command)}</code>"]],
        ["item", "value"])}
<h2>Exact figures</h2>{_table(exact, ["figure", "value", "method"])}
<h2>Simulation (reference strategy)</h2>
<p>{e(result.adapter.strategy_methods.get(result.adapter.reference_strategy, ""))}</p>
{_table(simulated, ["figure", "value", "method"])}
{convergence_png}
{histogram_png}
{bounds}
<h2>Contributions to the RTP</h2>{_contributions(result)}
<h2>Awards</h2>{_table(awards, ["award", "hits", "odds", "95% interval of probability"])}
<h2>Jurisdiction verdicts</h2>{verdicts}
<h2>RNG battery</h2>{_rng_section(result)}
<h2>Pay table as certified</h2><pre>{e(paytable_text)}</pre>
</body></html>
"""


def write_report(result: Certification, path: Path) -> None:
    path.write_text(render_report(result), encoding="utf-8")

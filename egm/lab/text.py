"""The plain-text form of a certification, for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from egm.lab.certify import Certification


def render_text(result: Certification) -> str:
    data = result.to_json()
    s = result.reference_summary
    lines = [
        f"Certification of {data['paytable_id']} v{data['paytable_version']} ({data['game']})",
        f"  SHA-256 {data['paytable_sha256']}",
        f"  seed {data['seed']}, {data['games']:,} games"
        + (f" of {data['games_requested']:,} requested: PARTIAL (stopped)" if result.partial else ""),
        "",
        "Exact figures",
    ]
    for figure in [*result.exact, result.max_win]:
        lines.append(f"  {figure.name:<36} {figure.formatted():>14}   {figure.method}")
    lines += [
        "",
        f"Simulation, strategy {data['strategy']} ({data['games_per_second']:,.0f} games/s)",
        f"  RTP                 {float(s.rtp):.4%}  (95% interval {s.ci95[0]:.4%} to {s.ci95[1]:.4%})",
        f"  hit frequency       {float(s.hit_frequency):.4%}  (any return); win frequency "
        f"{float(s.win_frequency):.4%} (return above stake)",
        f"  sigma per stake     {s.sigma:.4f};  volatility index (90%) {s.volatility_index:.4f}",
        f"  largest win seen    {s.max_win_seen:,} credits",
        "  returns (credits)   " + ", ".join(f"{float(level):.2%} of games <= {value:,}"
                                          for level, value in data["return_quantiles"].items()),
    ]
    for bound in result.bounds:
        b = bound.summary
        lines.append(f"  {bound.role.replace('_', ' ')} ({bound.strategy}, {b.games:,} games): "
                     f"RTP {float(b.rtp):.4%} (95% interval {b.ci95[0]:.4%} to {b.ci95[1]:.4%})")
    share = data["jackpot"]["player_share_check"]
    if share is not None:
        verdict = "agrees" if share["agrees_at_99"] else "DISAGREES"
        lines.append(f"  jackpot credits taken by the player: {share['observed']:.4%} vs closed form "
                     f"{share['closed_form']:.4%} (z = {share['z']:+.2f}: {verdict} at 99%)")
    lines += ["", "Awards (simulated, player's hand)"]
    for award in result.awards:
        one_in = f"1 in {award.games / award.hits:,.0f}" if award.hits else f"never; p < {award.high:.3g}"
        lines.append(f"  {award.name:<34} {award.hits:>10,}   {one_in}")
    if result.rng is not None:
        lines += ["", _rng_line(result)]
    lines += ["", "Jurisdictions"]
    for verdict in result.verdicts:
        lines.append(f"  {verdict.jurisdiction}: {verdict.status.upper()}")
        for check in verdict.checks:
            lines.append(f"    [{check.status}] {check.name}: {check.detail}")
    return "\n".join(lines)


def _rng_line(result: Certification) -> str:
    record = result.rng
    assert record is not None
    own = sum(t.passed for t in record.tests)
    line = (f"RNG battery ({record.reproduce()}): {'PASS' if record.passed else 'FAIL'}; "
            f"own tests {own} of {len(record.tests)} passed")
    run = record.dieharder
    if run is not None and run.installed:
        counts = {a: sum(t.assessment == a for t in run.tests) for a in ("pass", "weak", "fail")}
        line += "; dieharder " + ", ".join(f"{n} {a}" for a, n in counts.items())
    elif run is not None:
        line += "; dieharder was not installed"
    return line

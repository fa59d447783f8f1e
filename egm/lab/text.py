"""The plain-text form of a certification, for the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from egm.lab.wording import odds, per_second

if TYPE_CHECKING:
    from egm.lab.certify import Certification


def _merit(run: dict[str, Any]) -> str:
    """The lab's figure of merit of a run: games/s, and games (and time) for +-0.1 points at its sigma."""
    seconds = run["seconds_for_0_1pt"]
    time = f", {seconds / 60:,.1f} min at this rate" if seconds is not None else ""
    return (f"{per_second(run['games_per_second'])}; +-0.1 points needs "
            f"{run['needed_games_for_0_1pt']:,} games at sigma {run['sigma']:.4f}{time}")


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
        f"Simulation, strategy {data['strategy']} ({per_second(data['games_per_second'])})",
        "  precision           " + _merit(data),
        f"  RTP                 {float(s.rtp):.4%}  (95% interval {s.ci95[0]:.4%} to {s.ci95[1]:.4%})",
        # a game paid by margin returns something nearly every game: its hit frequency says nothing
        *([] if result.adapter.pays_by_margin else
          [f"  hit frequency       {float(s.hit_frequency):.4%}  (any return)"]),
        f"  win frequency       {float(s.win_frequency):.4%}  (return above stake); below half the stake "
        f"{float(s.below_half_stake):.4%}",
        f"  sigma per stake     {s.sigma:.4f};  volatility index (90%) {s.volatility_index:.4f}",
        f"  largest win seen    {s.max_win_seen:,} credits",
        "  returns (credits)   " + ", ".join(f"{float(level):.2%} of games <= {value:,}"
                                          for level, value in data["return_quantiles"].items()),
    ]
    for bound in result.bounds:
        b = bound.summary
        lines.append(f"  {bound.role.replace('_', ' ')} ({bound.strategy}, {b.games:,} games): "
                     f"RTP {float(b.rtp):.4%} (95% interval {b.ci95[0]:.4%} to {b.ci95[1]:.4%}); "
                     + _merit(data[bound.role]))
    share = data["jackpot"]["player_share_check"]
    if share is not None:
        verdict = "agrees" if share["agrees_at_99"] else "DISAGREES"
        lines.append(f"  jackpot credits taken by the player: {share['observed']:.4%} vs closed form "
                     f"{share['closed_form']:.4%} (z = {share['z']:+.2f}: {verdict} at 99%)")
    lines += ["", "Contributions to the RTP (credits returned / staked, by outcome)"]
    for c in result.contributions:
        lines.append(f"  {c.outcome:<44} {float(c.probability):>10.4%} of games  "
                     f"{float(c.contribution):>9.4%}")
    for name, outcomes in result.side_bets.items():
        lines.append(f"  side bet {name} (exact): RTP {float(sum(o.contribution for o in outcomes)):.4%}")
    lines += ["", "Awards (simulated, player's hand)"]
    for award in result.awards:
        one_in = odds(award.hits, award.games) if award.hits else f"never; p < {award.high:.3g}"
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

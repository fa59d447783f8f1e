"""The board games' chunk of games in the lab (Poker Grid, Poker Tiles, Prism Words, Property).

A board game's adapter simulates a chunk alike for every strategy: games of the cabinet's own `Game`
at its default wager, dealt one after another from `Rng.from_seed(chunk seed)` with no running pool,
the customer's seat (0) decided by the strategy under test until the game is over (the machine
opponents move inside the round, as on the cabinet). Each game's return, result ("win", "tie" or
"loss") and the awards it hit (counted once per game) go into the chunk's `Tally`. A game that plays
a chunk by other means (Poker Grid's compiled whole games) tallies its games with `tally_games`.
Lab only: nothing the cabinet runs imports it (docs/rom.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from egm.games.base import Decision, Game, Wager
from egm.games.margin import MarginTier
from egm.lab.adapters import GameProgress, LabError
from egm.lab.stats import Tally, segment_trace
from egm.rng import Rng

# The customer's decision on a round as it stands (the round of the game under test).
Decide = Callable[[Any], Decision]
# A settled game's summary -> what it paid, item by item: (outcome, units of the bet), every unit once.
Itemise = Callable[[Mapping[str, Any]], list[tuple[str, int]]]


class GameResult(NamedTuple):
    """What the lab counts of one game."""

    win_credits: int
    result: str  # the customer's result: "win", "tie" or "loss"
    awards: Iterable[str]  # the awards the customer hit (repeats count once)
    parts: Sequence[tuple[str, int]] = ()  # the return itemised: (outcome, credits), summing to the win


def tier_outcome(tiers: Sequence[MarginTier], margin: int, what: str = "margin") -> tuple[str, int]:
    """The tier `margin` falls in, named by its range (tiers rise, as the pay table checks), and its
    units; below every tier, (e.g.) "margin below -30" paying 0.

    >>> tiers = [MarginTier(min_margin=-30, pays=5), MarginTier(min_margin=0, pays=6),
    ...          MarginTier(min_margin=1, pays=7)]
    >>> [tier_outcome(tiers, m) for m in (-31, -1, 0, 12)]
    [('margin below -30', 0), ('margin -30 to -1', 5), ('margin +0', 6), ('margin +1 or more', 7)]
    """
    reached = [i for i, tier in enumerate(tiers) if tier.min_margin <= margin]
    if not reached:
        return f"{what} below {tiers[0].min_margin:+d}", 0
    i = reached[-1]
    low = tiers[i].min_margin
    high = tiers[i + 1].min_margin - 1 if i + 1 < len(tiers) else None
    name = (f"{what} {low:+d} or more" if high is None else f"{what} {low:+d}" if high == low
            else f"{what} {low:+d} to {high:+d}")
    return name, tiers[i].pays


def award_outcomes(awards: Iterable[str], units: Callable[[str], int]) -> list[tuple[str, int]]:
    """Each award paid, once per time it was earned."""
    return [(f"award: {name}", units(name)) for name in awards]


def reference_decision(round_: Any) -> Decision:
    """The reference strategy: the round's own reference decision (the machine strategy's choice)."""
    return round_.reference_decision()


def deciding_by(choose: Callable[[Any], Any] | None) -> Decide:
    """The customer deciding by a strategy of the game's `choose(table) -> choice` form, through the
    round's `decision_for(choice)`; None: the reference decision."""
    if choose is None:
        return reference_decision
    return lambda round_: round_.decision_for(choose(round_.table))


def tally_games(wager: Wager, games: Iterable[GameResult], progress: GameProgress | None = None) -> Tally:
    """The tally of a chunk's games, each played at `wager`, in order (the trace follows it);
    `progress` is told the games tallied so far after each game."""
    tally = Tally()
    returns = []
    for win, result, awards, parts in games:
        tally.games += 1
        tally.stake += wager.stake_credits
        tally.returns[win] += 1
        tally.results[result] += 1
        tally.awards.update(set(awards))
        if parts:
            if sum(credits for _, credits in parts) != win:
                raise LabError(f"a game's itemised pays {list(parts)} do not add up to its win of {win}")
            tally.add_parts(parts)
        returns.append(win)
        if progress is not None:
            progress(tally.games)
    tally.trace = segment_trace(returns)
    return tally


def engine_chunk(game: Game, seed: int, games: int, decide: Decide, itemise: Itemise,
                 progress: GameProgress | None = None, **round_options: Any) -> Tally:
    """A chunk of `games` games of the cabinet's `game` from `Rng.from_seed(seed)`, the customer
    deciding by `decide`, each game's pays itemised by `itemise`; `round_options` go to
    `game.new_round` (e.g. Property's `log=False`)."""
    wager = game.default_wager(1)
    rng = Rng.from_seed(seed)

    def played() -> Iterator[GameResult]:
        for _ in range(games):
            round_ = game.new_round(wager, rng, {}, **round_options)
            while not round_.finished:
                round_.decide(decide(round_))
            outcome = round_.outcome()
            summary = outcome.summary
            parts = [(name, units * wager.bet_credits) for name, units in itemise(summary)]
            yield GameResult(outcome.win_credits, summary["result"], summary["awards"], parts)

    return tally_games(wager, played(), progress)

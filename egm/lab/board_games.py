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

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from egm.games.base import Decision, Game, Wager
from egm.lab.stats import Tally, segment_trace
from egm.rng import Rng

# The customer's decision on a round as it stands (the round of the game under test).
Decide = Callable[[Any], Decision]


class GameResult(NamedTuple):
    """What the lab counts of one game."""

    win_credits: int
    result: str  # the customer's result: "win", "tie" or "loss"
    awards: Iterable[str]  # the awards the customer hit (repeats count once)


def reference_decision(round_: Any) -> Decision:
    """The reference strategy: the round's own reference decision (the machine strategy's choice)."""
    return round_.reference_decision()


def deciding_by(choose: Callable[[Any], Any] | None) -> Decide:
    """The customer deciding by a strategy of the game's `choose(table) -> choice` form, through the
    round's `decision_for(choice)`; None: the reference decision."""
    if choose is None:
        return reference_decision
    return lambda round_: round_.decision_for(choose(round_.table))


def tally_games(wager: Wager, games: Iterable[GameResult]) -> Tally:
    """The tally of a chunk's games, each played at `wager`, in order (the trace follows it)."""
    tally = Tally()
    returns = []
    for win, result, awards in games:
        tally.games += 1
        tally.stake += wager.stake_credits
        tally.returns[win] += 1
        tally.results[result] += 1
        tally.awards.update(set(awards))
        returns.append(win)
    tally.trace = segment_trace(returns)
    return tally


def engine_chunk(game: Game, seed: int, games: int, decide: Decide, **round_options: Any) -> Tally:
    """A chunk of `games` games of the cabinet's `game` from `Rng.from_seed(seed)`, the customer
    deciding by `decide`; `round_options` go to `game.new_round` (e.g. Property's `log=False`)."""
    wager = game.default_wager(1)
    rng = Rng.from_seed(seed)

    def played() -> Iterator[GameResult]:
        for _ in range(games):
            round_ = game.new_round(wager, rng, {}, **round_options)
            while not round_.finished:
                round_.decide(decide(round_))
            outcome = round_.outcome()
            yield GameResult(outcome.win_credits, outcome.summary["result"], outcome.summary["awards"])

    return tally_games(wager, played())

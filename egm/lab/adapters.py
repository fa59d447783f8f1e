"""How a game plugs into the lab: a `LabAdapter` per game, named by the game's descriptor
(`GameDescriptor.lab_adapter`, in the game's own folder) and looked up by game id.

An adapter knows how to simulate one chunk of games (a fixed number of games from one seed) under a
named strategy and fold the results into a `Tally`, which figures of its game are exact, which awards
it advertises, and its largest possible win. The lab does the rest (chunking, seeding, workers, Dask,
statistics, verdicts, the report), identically for every game.

`ReferenceAdapter` implements chunk simulation on the plain `Game` interface that the cabinet runs:
`Game.new_round(wager, Rng.from_seed(chunk_seed), pools)`, then `round.reference_decision()` until the
round is complete, carrying the game's pools from round to round within the chunk. A game with no
compiled kernel subclasses it and supplies `awards`, `record` (which awards an outcome hit) and
`exact`. See docs/lab.md.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from egm.games import UnknownGame, descriptor_of, descriptors, game_class
from egm.games.base import Game, Outcome, play_reference
from egm.lab.stats import Tally, segment_trace
from egm.rng import Rng

# Told the games a chunk has played so far, now and then (the runner's progress bar, in games).
GameProgress = Callable[[int], None]


class LabError(Exception):
    """Something the operator must fix before the lab can run; the message says what."""


@dataclass(frozen=True)
class ExactFigure:
    """A figure computed without simulation, with the method that gives it."""

    name: str
    value: Fraction | int | None  # None: not determinable from this run (the method says why)
    method: str
    is_rtp: bool = False  # an RTP the jurisdiction's range applies to (e.g. a side bet's)

    def as_float(self) -> float | None:
        return None if self.value is None else float(self.value)

    def formatted(self) -> str:
        return "undetermined" if self.value is None else f"{float(self.value):.8g}"


@dataclass(frozen=True)
class ExactOutcome:
    """One outcome of a wager whose probabilities are known exactly (e.g. a side bet's hands)."""

    name: str
    pays: str  # as the pay table states it, e.g. "7 to 1"
    probability: Fraction
    basis: str  # what the probability counts, e.g. "6 of the 1,431 two-card hands"
    contribution: Fraction  # to the wager's RTP: probability x return per unit staked


class LabAdapter(ABC):
    """The lab's view of one game. Instances hold no state; every method is a pure function of its
    arguments, so chunks can run in any process."""

    game_id: ClassVar[str]
    reference_strategy: ClassVar[str]
    best_strategy: ClassVar[str | None] = None  # a searching strategy, if the game has decisions
    lower_strategy: ClassVar[str | None] = None  # a strategy bounding the RTP from below (e.g. random)
    strategy_methods: ClassVar[Mapping[str, str]] = {}  # strategy -> one-paragraph description
    # Games when --games or --best-games is not given (the bounding runs capped by --games): enough
    # for a conclusive interval at what the game's simulation costs.
    games_default: ClassVar[int] = 1_000_000
    best_games_default: ClassVar[int] = 20_000
    # The 95% half-width (RTP points) each default is sized for, if the game states one: the progress
    # bar says so when a run uses the default.
    games_default_half_width: ClassVar[float | None] = None
    best_games_default_half_width: ClassVar[float | None] = None
    # A game paid by its margin over the opponents (the board games) returns something on nearly every
    # game, so its hit frequency says nothing: the report gives the margin figures instead.
    pays_by_margin: ClassVar[bool] = False
    has_jackpot: ClassVar[bool] = False  # a running pool carried within a chunk (restarting per chunk)
    # True: the default reference run follows the measured sigma (egm.lab.certify): `games_default`
    # games first, then as many more as reach `games_default_half_width` (whatever the pay table's
    # sigma), rather than a fixed count sized for one sigma.
    games_follow_sigma: ClassVar[bool] = False

    @abstractmethod
    def chunk_games(self, strategy: str) -> int:
        """Games per chunk for this strategy: a constant, so results never depend on worker count."""

    @abstractmethod
    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        """Simulate `games` games from `Rng.from_seed(seed)`, pools starting at their seed values;
        tell `progress` the games played so far as they are played, where the game can."""

    @abstractmethod
    def awards(self, paytable: Any) -> tuple[str, ...]:
        """The advertised awards, by the names `run_chunk` counts them under."""

    @abstractmethod
    def exact(self, paytable: Any, reference: Tally) -> list[ExactFigure]:
        """Exact figures; `reference` (the simulated tally) supplies probabilities a closed form
        needs, when the game has such."""

    @abstractmethod
    def theoretical_max_win(self, paytable: Any) -> ExactFigure:
        """The largest win of one game, in credits of the lab's default wager."""

    def side_bets(self, paytable: Any) -> dict[str, list[ExactOutcome]]:
        """Each side bet's outcomes with their exact probabilities and contributions (none by default)."""
        return {}

    def warm_up(self, paytable: Any) -> None:  # noqa: B027 - optional hook
        """Compile or load anything slow once, before timing starts."""


class ReferenceAdapter(LabAdapter):
    """Chunk simulation through the cabinet's own `Game` (the reference engine)."""

    denom_cents: ClassVar[int] = 1

    def game(self, paytable: Any) -> Game:
        return game_class(self.game_id)(paytable)

    @abstractmethod
    def initial_pools(self, paytable: Any) -> dict[str, int]:
        """The pools' seed values, in cents."""

    @abstractmethod
    def record(self, tally: Tally, outcome: Outcome, pools_before: Mapping[str, int]) -> None:
        """Count the awards, result and jackpot of one outcome (returns and games are counted by the
        lab)."""

    def chunk_games(self, strategy: str) -> int:
        return 2_000

    def run_chunk(self, paytable: Any, strategy: str, seed: int, games: int,
                  progress: GameProgress | None = None) -> Tally:
        if strategy != self.reference_strategy:
            raise LabError(f"{self.game_id} has no strategy '{strategy}' in the reference adapter")
        game = self.game(paytable)
        wager = game.default_wager(self.denom_cents)
        rng = Rng.from_seed(seed)
        pools = self.initial_pools(paytable)
        tally = Tally()
        returns: list[int] = []
        for _ in range(games):
            outcome = play_reference(game.new_round(wager, rng, pools))
            self.record(tally, outcome, pools)
            pools = dict(outcome.pools_cents) or pools
            tally.games += 1
            tally.stake += wager.stake_credits
            tally.returns[outcome.win_credits] += 1
            tally.add_parts([(f"return of {outcome.win_credits} credits", outcome.win_credits)])
            returns.append(outcome.win_credits)
            if progress is not None:
                progress(tally.games)
        tally.trace = segment_trace(returns)
        return tally


def certifiable() -> list[str]:
    """The installed games whose descriptor names a lab adapter."""
    return [game_id for game_id, found in descriptors().items() if found.lab_adapter is not None]


def adapter_for(game_id: str) -> LabAdapter:
    """The lab adapter of a game, or a LabError naming the games the lab knows."""
    try:
        target = descriptor_of(game_id).lab_adapter
    except UnknownGame as exc:
        raise LabError(str(exc)) from None
    if target is None:
        raise LabError(f"game '{game_id}' has no lab adapter; the lab certifies {certifiable()}")
    try:
        adapter_class = target.load()
    except ModuleNotFoundError as exc:
        raise LabError(f"the lab adapter for '{game_id}' ({target.target}) is not installed") from exc
    return adapter_class()

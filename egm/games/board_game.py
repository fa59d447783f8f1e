"""What the board games' `Game` and `Round` classes share (Poker Grid, Poker Tiles, Prism Words,
Property).

The customer (seat 0) plays against machine opponents. The opponents play the machine strategy the
pay table names (`[paytable] strategy`), one of the game's own `machine_strategies`; a pay table that
names another is refused when the game is built, so a cabinet never plays a strategy its RTP was not
certified for. The stake is `stake_units` bets of B credits, with no side bet (the pay-table model's
`StakeInUnits`). The round ends with a standing per seat; the customer's result is its margin over
the best opponent (egm.games.margin), and the view the shell reads is built from it and the game's
own table data.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from egm.games.base import Game, Outcome, Round, RoundView, Wager
from egm.games.margin import margin_of, place_of, result_code, result_of, result_text
from egm.rng import Rng

PRACTICE_SEED = 1  # the practice round's deal (any deal reaches every compiled function)
PRACTICE_DECISIONS = 2  # the customer's turns played, with the machine turns between them


class StakeInUnits:
    """A board game's pay-table model (mixed into it, before `Strict`): the stake is its `stake_units`
    bets of B credits, and no side bet is offered (the wager offer, `egm.games.base.WagerOffer`)."""

    @property
    def stake_bets(self) -> int:
        return self.stake_units  # type: ignore[attr-defined, no-any-return]  # the model's field

    @property
    def side_bet_limits(self) -> dict[str, int]:
        return {}


class BoardGame(Game):
    """A `Game` against machine opponents on the pay table's machine strategy (`self.strategy`)."""

    # One step until the game is over: the machine opponents move inside the round, and the cabinet's
    # game states only move forward, so what the customer is asked is the game's own table data.
    steps: ClassVar[tuple[str, ...]] = ("play", "complete")
    machine_strategies: ClassVar[Mapping[str, Any]]  # strategy name -> the strategy the opponents play

    def __init__(self, paytable: Any) -> None:
        super().__init__(paytable)
        self.rules = paytable.rules
        name = paytable.header.strategy
        if name not in self.machine_strategies:
            raise ValueError(
                f"pay table strategy '{name}' is not a {self.title} machine strategy; "
                f"use one of {sorted(self.machine_strategies)}"
            )
        self.strategy = self.machine_strategies[name]

    def default_wager(self, denom_cents: int) -> Wager:
        bet = self.paytable.header.default_bet_credits
        return Wager(bet_credits=bet, stake_credits=bet * self.rules.stake_bets, denom_cents=denom_cents)

    def practice(self, decisions: int = PRACTICE_DECISIONS) -> None:
        """A game's `prepare` for compiled code: play a practice round's first `decisions` reference
        decisions (and the machine turns between them) on a fixed seed, so every compiled function a
        round calls, with the argument types it calls it with, is loaded (or compiled). No money, no
        wager memory: the round is thrown away."""
        denom = self.paytable.header.denominations_cents[0]
        round_ = self.new_round(self.default_wager(denom), Rng.from_seed(PRACTICE_SEED), {})
        for _ in range(decisions):
            if round_.finished:
                break
            round_.decide(round_.reference_decision())

    def opponent_count(self, asked: int | None) -> int:
        """The opponents of a new round: `asked`, or the pay table's `opponents_default` when None;
        ValueError unless 1 to `opponents_max`."""
        opponents = self.rules.opponents_default if asked is None else asked
        if not 1 <= opponents <= self.rules.opponents_max:
            raise ValueError(
                f"this pay table allows 1 to {self.rules.opponents_max} opponents, not {opponents}"
            )
        return opponents


class BoardRound(Round):
    """A round of a board game: `game` and `wager` are set by the game's round; the result is the
    customer's margin of the final standings."""

    game: BoardGame
    wager: Wager

    @abstractmethod
    def standings(self) -> list[int]:
        """Each seat's standing, the customer's first (the scores; Property's net worths)."""

    @abstractmethod
    def table_view(self) -> dict[str, Any]:
        """The game's own data for its table scene (`RoundView.table`)."""

    @property
    def margin(self) -> int:
        """The customer's standing minus the best opponent's."""
        return margin_of(self.standings())

    @property
    def place(self) -> int:
        """1 + the number of opponents standing higher."""
        return place_of(self.standings())

    @property
    def result(self) -> str:
        return result_of(self.margin)

    def result_line(self) -> str:
        """The line the table shows once the game is over, e.g. "YOU WIN BY 12"."""
        return result_text(self.margin)

    @abstractmethod
    def awards(self) -> list[str]:
        """The awards the customer earned that the pay table pays, in order of play."""

    @abstractmethod
    def won_units(self, awards: list[str]) -> int:
        """What the pay table pays for the final standings and `awards`, in units of the bet."""

    @abstractmethod
    def pays(self, awards: list[str]) -> list[tuple[str, int]]:
        """What the pay table pays for the final standings and `awards`, reason by reason: each in a
        player's words with its units of the bet. They add up to `won_units` (the end screen says them)."""

    @abstractmethod
    def summary(self, awards: list[str]) -> dict[str, Any]:
        """The settled game as recall and replay show it."""

    def outcome_code(self) -> str:
        return result_code(self.margin)

    def outcome(self) -> Outcome:
        if not self.finished:
            raise RuntimeError("the game is not over yet; the outcome exists once it has ended")
        awards = self.awards()
        return Outcome(
            win_credits=self.won_units(awards) * self.wager.bet_credits,
            result_code=self.outcome_code(),
            summary=self.summary(awards),
        )

    def view(self) -> RoundView:
        outcome = self.outcome() if self.finished else None
        text = self.result_line() if self.finished else ""
        table = self.table_view()
        if self.finished:  # the end screen's reasons: [[words, units], ...]
            table = {**table, "pays": [[words, units] for words, units in self.pays(self.awards())]}
        return RoundView.of_played_game(self.game.game_id, self.step, self.wager, outcome, text, table)

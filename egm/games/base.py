"""The game interface: how the cabinet drives any game.

A `Game` is built from its pay table (obtained through the pay-table ROM). For each play the cabinet
calls `Game.new_round(wager, rng, pools)`; *all* randomness of the round is drawn there (the deal, the
shuffled draw pile, any seed a machine opponent needs), so a round is a pure function of its record
afterwards. The round then moves through the game's `steps` (the sub-states of the cabinet's `game`
state) as the cabinet passes it player `Decision`s, and finishes with an `Outcome`.

Every step is serialisable: `round.to_record()` is a JSON-compatible dict that the cabinet commits to
wager memory after each accepted decision, and `Game.restore(record)` rebuilds the same round at the
same step with the same cards after a power loss. The final record is also the recall record, from
which the game can be shown again.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from egm.rng import Rng


class DecisionRefused(Exception):
    """A player decision that the rules or the current step do not allow; nothing changed.

    The message is a sentence a player or technician can act on (it names the rule broken).
    """


@dataclass(frozen=True)
class Wager:
    """What the player staked on one round, in credits of `denom_cents` each.

    bet_credits: the bet unit B (credits per point for Dragon Poker).
    stake_credits: everything taken at game start (coin in), side bets included.
    side_bets: credits on optional side bets, e.g. {"pair_bonus": 5}; included in stake_credits.
    """

    bet_credits: int
    stake_credits: int
    denom_cents: int
    side_bets: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.bet_credits <= 0 or self.denom_cents <= 0:
            raise ValueError("bet and denomination must be positive whole numbers")
        if self.stake_credits < self.bet_credits + sum(self.side_bets.values()):
            raise ValueError("stake must cover the bet and every side bet")

    def to_record(self) -> dict[str, Any]:
        """The wager as a round record keeps it (JSON-compatible)."""
        return {"bet_credits": self.bet_credits, "stake_credits": self.stake_credits,
                "denom_cents": self.denom_cents, "side_bets": dict(self.side_bets)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Wager:
        """The wager of a round record (ValueError naming the problem when the record is damaged).

        >>> Wager.from_record(Wager(2, 10, 25, {"pair_bonus": 1}).to_record())
        Wager(bet_credits=2, stake_credits=10, denom_cents=25, side_bets={'pair_bonus': 1})
        """
        try:
            return cls(bet_credits=int(record["bet_credits"]), stake_credits=int(record["stake_credits"]),
                       denom_cents=int(record["denom_cents"]), side_bets=dict(record.get("side_bets") or {}))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"the record's wager is damaged ({exc!r} missing or wrong)") from exc

    def scaled(self, factor: int) -> Wager:
        """This wager times a whole number (the bet, the stake and every side bet)."""
        return Wager(bet_credits=self.bet_credits * factor, stake_credits=self.stake_credits * factor,
                     denom_cents=self.denom_cents,
                     side_bets={name: credits * factor for name, credits in self.side_bets.items()})


@dataclass(frozen=True)
class WagerOffer:
    """The wagers a pay table offers; `Game.refuse_wager` checks a wager against it.

    denominations_cents, bets_credits: the pay table header's lists.
    stake_bets: the stake is this many bets (Dragon Poker's stake points, Poker Grid's stake units),
      declared by the game's pay-table model as `stake_bets`.
    side_bet_limits: the most credits each optional side bet takes, declared by the pay-table model as
      `side_bet_limits` (empty when the game has none).
    """

    denominations_cents: tuple[int, ...]
    bets_credits: tuple[int, ...]
    stake_bets: int
    side_bet_limits: Mapping[str, int] = field(default_factory=dict)

    def stake_credits(self, bet_credits: int, side_bets: Mapping[str, int]) -> int:
        return self.stake_bets * bet_credits + sum(side_bets.values())

    def refusal(self, wager: Wager) -> str | None:
        """Why this offer does not include `wager`, as a sentence for the player; None when it does."""
        if wager.denom_cents not in self.denominations_cents:
            return (
                f"{wager.denom_cents}-cent credits are not offered by this pay table; "
                f"play one of {list(self.denominations_cents)} cents"
            )
        if wager.bet_credits not in self.bets_credits:
            return (
                f"a bet of {wager.bet_credits} credits is not offered by this pay table; "
                f"bet one of {list(self.bets_credits)}"
            )
        for name, credits in wager.side_bets.items():
            if name not in self.side_bet_limits:
                offered = sorted(self.side_bet_limits) or "none"
                return f"the side bet '{name}' is not offered by this pay table (side bets: {offered})"
            if not 0 <= credits <= self.side_bet_limits[name]:
                return f"the side bet '{name}' takes 0 to {self.side_bet_limits[name]} credits, not {credits}"
        stake = self.stake_credits(wager.bet_credits, wager.side_bets)
        if wager.stake_credits != stake:
            return (
                f"the stake must be {self.stake_bets} x the bet of {wager.bet_credits} plus the side bets, "
                f"{stake} credits, not {wager.stake_credits}"
            )
        return None


@dataclass(frozen=True)
class Decision:
    """One player input to a round: a kind (e.g. "designate", "set", "house_way", "place") and its
    JSON-compatible arguments."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": dict(self.args)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Decision:
        return cls(kind=record["kind"], args=dict(record.get("args", {})))


@dataclass(frozen=True)
class Outcome:
    """How a finished round pays.

    win_credits: everything credited back to the player (returned stake, wins, side-bet wins and any
      jackpot won), in credits. The cabinet meters it as coin out (or hand pay above the limit).
    pools_cents: the new value of each of the game's running pools (e.g. {"dragon_jackpot": 8000}),
      which the cabinet commits in the same transaction as the win.
    result_code: a short code for the scoreboard and recall, e.g. "P2", "H3", "D2", "W+12".
    summary: JSON-compatible detail for recall and the lab (rows, points, awards hit...).
    side_bet_wins_credits: what each side bet of the wager returned (its stake back included), in
      credits; part of win_credits. The cabinet meters it on its own (side_bet_out).
    """

    win_credits: int
    pools_cents: Mapping[str, int] = field(default_factory=dict)
    result_code: str = ""
    summary: Mapping[str, Any] = field(default_factory=dict)
    side_bet_wins_credits: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.win_credits < 0:
            raise ValueError("a win cannot be negative")
        if any(w < 0 for w in self.side_bet_wins_credits.values()) or \
                sum(self.side_bet_wins_credits.values()) > self.win_credits:
            raise ValueError("side-bet wins must be whole credits within the round's win")

    def to_record(self) -> dict[str, Any]:
        """The outcome as a record keeps it (JSON-compatible)."""
        return {"win_credits": self.win_credits, "pools_cents": dict(self.pools_cents),
                "result_code": self.result_code, "summary": dict(self.summary),
                "side_bet_wins_credits": dict(self.side_bet_wins_credits)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Outcome:
        """The outcome of `to_record` (ValueError naming the problem when the record is damaged).

        >>> Outcome.from_record(Outcome(12, {"dragon_jackpot": 800}, "P2").to_record()).win_credits
        12
        """
        try:
            return cls(win_credits=int(record["win_credits"]), pools_cents=dict(record["pools_cents"]),
                       result_code=str(record["result_code"]), summary=dict(record["summary"]),
                       side_bet_wins_credits=dict(record["side_bet_wins_credits"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"the outcome record is damaged ({exc!r} missing or wrong)") from exc


@dataclass(frozen=True)
class RoundView:
    """What the shell (the video controller, the sounds, the meters) reads of a round, typed.

    game_id: the game's id. step: the current step (one of the game's `steps`).
    bet_credits, stake_credits: the wager (the STAKE meter shows it).
    decision_awaited: the round waits for a player decision (the game's table takes it).
    auto_decision: the auto-play button (the descriptor's `auto_play_label`, e.g. HOUSE WAY) may play
      the round's reference decision now: its lamp flashes.
    win_credits: everything the round pays back, once complete (None before).
    pools_cents: the game's running pools as the round shows them (e.g. the Dragon jackpot).
    pools_won_cents: what the player won from each pool in this round (the jackpot sound and banner).
    result_text: one line for the player once complete, e.g. "PLAYER WINS 2 ROWS" (empty before).
    table: the game's own data for its table scene, JSON-compatible; the shell passes it untouched.
    """

    game_id: str
    step: str
    bet_credits: int
    stake_credits: int
    decision_awaited: bool
    auto_decision: bool
    win_credits: int | None = None
    pools_cents: Mapping[str, int] = field(default_factory=dict)
    pools_won_cents: Mapping[str, int] = field(default_factory=dict)
    result_text: str = ""
    table: Mapping[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.step == "complete"

    def to_json(self) -> dict[str, Any]:
        """The view as the game server sends it to a browser (JSON-compatible; no hidden information:
        a view never holds any)."""
        return {"game_id": self.game_id, "step": self.step, "bet_credits": self.bet_credits,
                "stake_credits": self.stake_credits, "decision_awaited": self.decision_awaited,
                "auto_decision": self.auto_decision, "win_credits": self.win_credits,
                "pools_cents": dict(self.pools_cents), "pools_won_cents": dict(self.pools_won_cents),
                "result_text": self.result_text, "table": dict(self.table)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundView:
        """The view of `to_json` (a thin client draws a server's round with it); ValueError naming
        the problem when a field is missing or of the wrong type."""
        try:
            view = cls(game_id=data["game_id"], step=data["step"], bet_credits=data["bet_credits"],
                       stake_credits=data["stake_credits"], decision_awaited=data["decision_awaited"],
                       auto_decision=data["auto_decision"], win_credits=data["win_credits"],
                       pools_cents=dict(data["pools_cents"]), pools_won_cents=dict(data["pools_won_cents"]),
                       result_text=data["result_text"], table=dict(data["table"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the round view is damaged ({exc!r} missing or wrong)") from exc
        kinds = {"game_id": str, "step": str, "bet_credits": int, "stake_credits": int,
                 "decision_awaited": bool, "auto_decision": bool, "result_text": str}
        wrong = [name for name, kind in kinds.items() if not isinstance(getattr(view, name), kind)]
        if view.win_credits is not None and not isinstance(view.win_credits, int):
            wrong.append("win_credits")
        if wrong:
            raise ValueError(f"the round view is damaged (wrong type: {', '.join(wrong)})")
        return view

    @classmethod
    def of_played_game(
        cls, game_id: str, step: str, wager: Wager, outcome: Outcome | None, result_text: str,
        table: Mapping[str, Any],
    ) -> RoundView:
        """The view of a game the customer plays move by move (the board games): a decision is awaited,
        and the auto-play button may take it, until the game is over and `outcome` pays."""
        over = outcome is not None
        return cls(
            game_id=game_id,
            step=step,
            bet_credits=wager.bet_credits,
            stake_credits=wager.stake_credits,
            decision_awaited=not over,
            auto_decision=not over,
            win_credits=outcome.win_credits if outcome else None,
            result_text=result_text,
            table=table,
        )

    @property
    def pool_won(self) -> bool:
        """True when the player won a pool (a jackpot) in this round."""
        return any(self.pools_won_cents.values())


class Round(ABC):
    """One game in progress."""

    @property
    @abstractmethod
    def step(self) -> str:
        """The current sub-state, one of the game's `steps` (the last one is "complete")."""

    @abstractmethod
    def decide(self, decision: Decision) -> None:
        """Apply a player decision, or raise DecisionRefused and change nothing."""

    @abstractmethod
    def reference_decision(self) -> Decision:
        """The decision the reference strategy takes now (autoplay and the lab use it)."""

    @property
    def finished(self) -> bool:
        return self.step == "complete"

    @abstractmethod
    def outcome(self) -> Outcome:
        """The payout; only valid once finished."""

    @abstractmethod
    def to_record(self) -> dict[str, Any]:
        """Everything needed to rebuild this round at this step (JSON-compatible)."""

    @abstractmethod
    def view(self) -> RoundView:
        """What the display may show now (face-down cards hidden)."""


def play_reference(round_: Round) -> Outcome:
    """Play the round's reference decisions until it is complete (autoplay, replay, the lab)."""
    while not round_.finished:
        round_.decide(round_.reference_decision())
    return round_.outcome()


class Game(ABC):
    """A game type bound to one pay table."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    steps: ClassVar[tuple[str, ...]]  # sub-states of the cabinet's `game` state, ending in "complete"
    pool_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, paytable: Any) -> None:
        self.paytable = paytable

    def wager_offer(self) -> WagerOffer:
        """What this game's pay table offers: its header's denominations and bets, and its pay-table
        model's `stake_bets` and `side_bet_limits`."""
        header, rules = self.paytable.header, self.paytable.rules
        return WagerOffer(
            tuple(header.denominations_cents),
            tuple(header.bets_credits),
            rules.stake_bets,
            rules.side_bet_limits,
        )

    def refuse_wager(self, wager: Wager) -> str | None:
        """Why the pay table does not offer `wager` (a sentence for the player), or None when it does.
        The cabinet asks before a round starts and before any money moves."""
        return self.wager_offer().refusal(wager)

    def check_wager(self, wager: Wager) -> None:
        """Raise ValueError with `refuse_wager`'s sentence: a round is never dealt for a wager the pay
        table does not offer, whoever asks (the cabinet refuses first; the lab and replay reach here)."""
        refusal = self.refuse_wager(wager)
        if refusal is not None:
            raise ValueError(refusal)

    @abstractmethod
    def default_wager(self, denom_cents: int) -> Wager:
        """The default bet for autoplay and the lab."""

    def bets_offered(self) -> tuple[int, ...]:
        """The bets (credits) the pay table offers, smallest first: the only ones the shell offers."""
        return tuple(sorted(self.paytable.header.bets_credits))

    def opening_bet(self, levels: Sequence[int], denom_cents: int) -> int:
        """The bet a player starts at among the bet levels the operator enabled (`levels`, some of
        `bets_offered`): the default wager's while enabled, else the smallest enabled."""
        default = self.default_wager(denom_cents).bet_credits
        return default if default in levels else min(levels)

    def wager_for(self, bet_credits: int, denom_cents: int) -> Wager:
        """The wager for a bet of `bet_credits`: the default wager scaled to that bet (side bets too).
        A bet that is not a whole multiple of the default bet is refused (ValueError)."""
        base = self.default_wager(denom_cents)
        if bet_credits <= 0 or bet_credits % base.bet_credits:
            raise ValueError(f"a bet of {bet_credits} credits is not a whole multiple of the default bet "
                             f"of {base.bet_credits}; use one of {self.bets_offered()}")
        return base.scaled(bet_credits // base.bet_credits)

    @abstractmethod
    def new_round(self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int]) -> Round:
        """Start a round: draw all its randomness from `rng` now."""

    @abstractmethod
    def restore(self, record: Mapping[str, Any]) -> Round:
        """Rebuild a round from `Round.to_record()`."""

    def prepare(self) -> None:
        """Make the game ready to play at once, before the cabinet offers it: load (or compile) the
        compiled code a round calls, so that no customer waits for it (egm.rom.compiled). A game without
        compiled code has nothing to prepare."""
        return None

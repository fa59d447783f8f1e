"""The exact check of the movement rules: the Markov chain of one token's throws, its stationary
distribution (numpy), and a simulated walk through the rules engine itself to compare with.

The chain's state before a throw is (space, doubles thrown so far this turn, Get out of Jail Free
cards held) for a free token, or (turns spent in Jail, cards held) for a jailed one. The cards held
are none, Chance, Community Chest, or both (in the order they were drawn, since the first drawn is
used first). One throw of two fair dice (1/36 each pair) then moves the token by the engine's rules:
three doubles in a turn go to Jail; Go to Jail; a Chance or Community Chest card drawn uniformly from
the cards in its deck (a held Get out of Jail Free card is out of its deck), with the cards' moves
(Go, Illinois, St. Charles, Reading, Boardwalk, the nearest railroad or utility, back three spaces
onto whatever is there, Jail); in Jail, a held card is used at once (then the turn is an ordinary
one from the Jail space), otherwise the token rolls for doubles and must leave on its third turn.

The chain treats each draw as uniform over the deck, while the engine draws from the top of a
shuffled deck and returns the card to the bottom: over many walks with independent shuffles every
card comes up equally often, and the check shows whether that is close enough, space by space.

The landing frequency of a space is the share of throws that leave the token resting on it (after
any card or Go to Jail has moved it on). The walk plays a one-seat table with the engine's own
turn (`Table._turn`), its seat never buying, using a card in Jail when it holds one and otherwise
rolling for doubles, and counts where the token rests before each throw.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from egm.games.property.board import Board
from egm.games.property.paytable import BOARD_SIZE, CardSpec, PropertyRules
from egm.games.property.table import Request, Table, Trade
from egm.rng import derive_seed

HELD = ((), ("chance",), ("community_chest",), ("chance", "community_chest"), ("community_chest", "chance"))
Z_FAMILY = 3.23  # two-sided 99.875% per space: a 95% family-wise interval over 40 spaces (Bonferroni)
MIN_WALKS = 30  # enough walks for the normal quantile to hold for their mean
BURN_IN = 100  # throws from Go before a walk counts (the chain's stationary state is reached by then)


def _held_index(held: tuple[str, ...]) -> int:
    return HELD.index(held)


class MovementChain:
    """The transition matrix over the chain's states (see the module doc)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        # ("free", space, doubles, held) or ("jail", turns, 0, held)
        self.states: list[tuple[str, int, int, int]] = []
        for held in range(len(HELD)):
            for space in range(BOARD_SIZE):
                for doubles in range(3):
                    self.states.append(("free", space, doubles, held))
            for turns in range(3):
                self.states.append(("jail", turns, 0, held))
        self.index = {state: i for i, state in enumerate(self.states)}
        size = len(self.states)
        self.matrix = np.zeros((size, size))
        for i, state in enumerate(self.states):
            for target, probability in self._from(state).items():
                self.matrix[i, self.index[target]] += probability

    def _jail(self, held: int) -> dict[tuple[str, int, int, int], float]:
        return {("jail", 0, 0, held): 1.0}

    def _rest(self, space: int, doubles_next: int, held: int, weight: float,
              out: dict[tuple[str, int, int, int], float]) -> None:
        """Where a token arriving on `space` ends up (cards and Go to Jail resolved), accumulated
        into `out` with the next throw's doubles count (-1: the turn is over)."""
        kind = self.board.kinds[space]
        if kind == "go_to_jail":
            _add(out, ("jail", 0, 0, held), weight)
            return
        if kind in ("chance", "community_chest"):
            self._draw(kind, space, doubles_next, held, weight, out)
            return
        _add(out, ("free", space, max(doubles_next, 0), held), weight)

    def _draw(self, deck: str, space: int, doubles_next: int, held: int, weight: float,
              out: dict[tuple[str, int, int, int], float]) -> None:
        cards: tuple[CardSpec, ...] = self.board.decks[deck]
        holding = HELD[held]
        in_deck = [card for card in cards if not (card.action == "get_out_of_jail" and deck in holding)]
        share = weight / len(in_deck)
        for card in in_deck:
            if card.action == "get_out_of_jail":
                _add(out, ("free", space, max(doubles_next, 0), _held_index((*holding, deck))), share)
            elif card.action == "jail":
                _add(out, ("jail", 0, 0, held), share)
            elif card.action == "advance":
                self._rest(card.space, doubles_next, held, share, out)
            elif card.action == "advance_nearest":
                self._rest(self.board.nearest[card.kind][space], doubles_next, held, share, out)
            elif card.action == "back":
                self._rest((space - card.spaces) % BOARD_SIZE, doubles_next, held, share, out)
            else:
                _add(out, ("free", space, max(doubles_next, 0), held), share)

    def _from(self, state: tuple[str, int, int, int]) -> dict[tuple[str, int, int, int], float]:
        where, a_value, doubles, held = state
        out: dict[tuple[str, int, int, int], float] = {}
        if where == "jail" and HELD[held]:  # use the first card held, then an ordinary turn from Jail
            return self._from(("free", self.board.jail, 0, _held_index(HELD[held][1:])))
        for a in range(1, 7):
            for b in range(1, 7):
                weight = 1 / 36
                if where == "jail":
                    turns = a_value + 1
                    if a != b and turns < 3:
                        _add(out, ("jail", turns, 0, held), weight)
                    else:  # out on doubles, or paying on the third turn; the turn ends after the move
                        self._rest((self.board.jail + a + b) % BOARD_SIZE, -1, held, weight, out)
                    continue
                space = a_value
                if a == b and doubles == 2:
                    _add(out, ("jail", 0, 0, held), weight)
                    continue
                self._rest((space + a + b) % BOARD_SIZE, doubles + 1 if a == b else -1, held, weight, out)
        return out

    def stationary(self) -> np.ndarray:
        """The stationary distribution over states: pi P = pi, sum(pi) = 1 (least squares)."""
        size = len(self.states)
        system = np.vstack([self.matrix.T - np.eye(size), np.ones(size)])
        target = np.zeros(size + 1)
        target[-1] = 1.0
        pi, *_ = np.linalg.lstsq(system, target, rcond=None)
        return pi

    def landing(self) -> np.ndarray:
        """The share of throws after which the token rests on each space."""
        pi = self.stationary()
        out = np.zeros(BOARD_SIZE)
        for probability, (where, value, _, _) in zip(pi, self.states, strict=True):
            out[self.board.jail if where == "jail" else value] += probability
        return out


State = tuple[str, int, int, int]


def _add(out: dict[State, float], state: State, weight: float) -> None:
    out[state] = out.get(state, 0.0) + weight


class Walker:
    """The walk's seat: never buys or bids, uses a Get out of Jail Free card in Jail, else rolls."""

    name = "walker"

    def jail(self, table: Table, seat: int) -> str:
        return "card" if table.seats[seat].jail_cards else "roll"

    def buy(self, table: Table, seat: int, space: int) -> bool:
        return False

    def bid(self, table: Table, seat: int, request: Request) -> int:
        return 0

    def next_action(self, table: Table, seat: int) -> tuple[str, int] | None:
        return None

    def place_building(self, table: Table, seat: int, lot: str) -> int:
        raise AssertionError("the walker never builds")

    def accept_trade(self, table: Table, seat: int, trade: Trade) -> bool:
        return False


def walk_counts(board: Board, rules: PropertyRules, seed: int, throws: int) -> np.ndarray:
    """Where the token rests before each throw, over at least `throws` throws (whole turns) of one
    token through the engine's own turns, after the first BURN_IN throws; the counts sum to the
    throws counted."""
    table = Table(board, rules, 1, seed, [Walker()], log=True)
    table.bank -= 10**12 - table.seats[0].cash
    table.seats[0].cash = 10**12  # money never runs out on a walk
    counts = np.zeros(BOARD_SIZE, dtype=np.int64)
    events = table.events
    assert events is not None
    burn_in = BURN_IN
    while counts.sum() < throws:
        resting = table.seats[0].position
        for _ in table._turn(0):
            raise AssertionError("the walker never waits on a decision")
        for event in events:
            if event["kind"] == "roll" and "purpose" not in event:
                if burn_in:
                    burn_in -= 1
                else:
                    counts[resting] += 1
            elif "to" in event:
                resting = event["to"]
        events.clear()
    return counts


@dataclass(frozen=True)
class SpaceCheck:
    space: int
    exact: float
    simulated: float
    half_width: float

    @property
    def agrees(self) -> bool:
        return abs(self.simulated - self.exact) <= self.half_width + 1e-12  # float rounding of the solve


def landing_check(board: Board, rules: PropertyRules, seed: int, walks: int, throws: int) -> list[SpaceCheck]:
    """Each space's exact landing frequency against the walks' mean, with its family-wise interval
    (the spread of the walks' own frequencies: batch means over independent shuffles and dice)."""
    if walks < MIN_WALKS:
        raise ValueError(f"the landing check needs at least {MIN_WALKS} walks for its interval")
    exact = MovementChain(board).landing()
    frequencies = []
    for k in range(walks):
        counts = walk_counts(board, rules, derive_seed(seed, "walk", k), throws)
        frequencies.append(counts / counts.sum())
    frequencies = np.array(frequencies)
    mean = frequencies.mean(axis=0)
    error = frequencies.std(axis=0, ddof=1) / np.sqrt(walks)
    return [SpaceCheck(s, max(0.0, float(exact[s])), float(mean[s]), float(Z_FAMILY * error[s]))
            for s in range(BOARD_SIZE)]


"""The lab's best-available strategy, `prism-endgame/1`: the reference for most of the game, then a
search of the end of the game for what the pay table pays.

Near the end little is hidden. The blocks a seat cannot see (neither on the grid nor on its own
rack) are the opponent's rack and the bag, and once the bag is empty they are exactly the opponent's
rack. The machine opponent's strategy is published (the pay table names it; docs/prism-words.md
describes it) and deterministic. A strong player uses both; this strategy does, heads-up:

* **Bag empty (the endgame): exact.** The opponent's rack is the unseen blocks. Candidates: the
  `CANDIDATES` legal plays of the highest reference value (10 x points + the kept blocks' end cost;
  ties in generation order, so the reference's own play comes first), and passing. Each is played
  out to the end on a copy of the game: the opponent by the machine strategy, the seat by the
  reference. The going-out swing (the seat that plays out gains the other rack's numerals, both per
  block, and the other loses them) is in the line's final scores.
* **1 to `PRE_ENDGAME_BAG` blocks in the bag (the pre-endgame): sampled.** `SAMPLES` times, the
  unseen blocks are dealt at random (from the strategy's own seeded stream) between the opponent's
  rack and the bag; each of the `CANDIDATES` plays is played out to the end on every such deal (the
  same deals for every candidate), as above.
* Otherwise, or with more than one opponent (whose racks the unseen blocks do not determine), it plays
  the reference.

It makes the candidate whose lines pay the customer most (the margin's tier plus the awards, in
units, summed over the deals), then the larger margin; ties go to the earlier candidate. In the
endgame the reference's own play is a candidate and wins ties, so each decision's line pays at least
what the reference's would: a rollout is never worse than the player it rolls out when its model of
the opponent is exact. (The one inexactness: the inferred rack is in block-index order, the real
rack's order being private, and the machine breaks ties between equal plays by rack order.)

Integer values only; its only randomness is its own stream, so a game is repeatable given the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from egm.games.prism_words import movegen
from egm.games.prism_words.paytable import PrismWordsRules
from egm.games.prism_words.strategy import (
    Choice,
    Strategy,
    apply_choice,
    leave_values,
    legal_plays,
    machine_move,
)
from egm.games.prism_words.table import PASS, PLAY, Table
from egm.rng import Rng

ENDGAME_STRATEGY = "prism-endgame/1"
CANDIDATES = 8  # plays rolled out per decision (the endgame adds passing)
PRE_ENDGAME_BAG = 6  # the pre-endgame: at most this many blocks in the bag
SAMPLES = 8  # deals of the unseen blocks per pre-endgame decision

Value = tuple[int, int]  # what a line pays the seat: units, then margin points


def ranked_plays(table: Table, limit: int) -> list[Choice]:
    """The `limit` legal plays of the seat to move with the highest reference value (10 x points +
    leave), best first; ties in generation order, so the first is the reference's own play."""
    rack = table.racks[table.turn]
    plays = legal_plays(table)
    if not plays.count:
        return []
    meta = plays.meta[: plays.count]
    value = 10 * meta[:, movegen.M_POINTS] + leave_values(table, rack)[meta[:, movegen.M_USED]]
    order = np.argsort(-value, kind="stable")[:limit]
    return [Choice(PLAY, plays.placements(int(index))) for index in order]


def unseen_blocks(table: Table, seat: int) -> list[int]:
    """The blocks `seat` cannot see (neither on the grid nor on its rack), in block-index order."""
    seen = {block for block in table.grid.block if block >= 0} | set(table.racks[seat])
    return [block for block in range(len(table.book.blocks)) if block not in seen]


@dataclass(frozen=True)
class Rollouts:
    """Plays candidates out to the end of the game: the seat by the reference, the other seat by the
    machine strategy `opponent`; a line is valued by what the pay table's `rules` pay the seat."""

    rules: PrismWordsRules
    opponent: Strategy = machine_move
    candidates: int = CANDIDATES

    def line_value(self, world: Table, seat: int, choice: Choice) -> Value:
        """The units, then the margin, `seat` ends with when it makes `choice` on `world` (a game whose
        racks and bag are all known) and the game is played out."""
        line = world.copy()
        apply_choice(line, seat, choice)
        while not line.finished:
            mover = line.turn
            apply_choice(line, mover, (machine_move if mover == seat else self.opponent)(line))
        margin = line.margin(seat)
        return self.rules.units(margin, line.awards(seat)), margin

    def best(self, worlds: list[Table], seat: int, options: list[Choice]) -> Choice:
        """The option whose lines over `worlds` pay the most in total (units, then margin); ties go
        to the earlier option."""
        totals = []
        for choice in options:
            values = [self.line_value(world, seat, choice) for world in worlds]
            totals.append((sum(units for units, _ in values), sum(margin for _, margin in values)))
        return options[totals.index(max(totals))]

    def endgame(self, world: Table) -> Choice:
        """The best move of the seat to move on `world`, a game whose bag is empty and whose racks
        are known: the ranked plays and passing, each played out."""
        options = ranked_plays(world, self.candidates) + [Choice(PASS)]
        return self.best([world], world.turn, options)


def endgame_player(rules: PrismWordsRules, opponent: Strategy, rng: Rng) -> Strategy:
    """prism-endgame/1 for the pay table's `rules`, against the machine strategy `opponent`, drawing
    its pre-endgame deals from `rng` (the strategy's own stream)."""
    rollouts = Rollouts(rules, opponent)

    def deal(table: Table, seat: int, unseen: list[int]) -> Table:
        """The game with the unseen blocks dealt as listed: the opponent's rack first, then the bag."""
        world = table.copy()
        held = len(table.racks[1 - seat])
        world.racks[1 - seat] = sorted(unseen[:held])
        world.bag = list(unseen[held:])
        return world

    def choose(table: Table) -> Choice:
        if table.seats != 2 or len(table.bag) > PRE_ENDGAME_BAG:
            return machine_move(table)
        seat = table.turn
        unseen = unseen_blocks(table, seat)
        if not table.bag:
            return rollouts.endgame(deal(table, seat, unseen))
        options = ranked_plays(table, CANDIDATES)
        if not options:
            return machine_move(table)
        worlds = []
        for _ in range(SAMPLES):
            rng.shuffle(unseen)
            world = deal(table, seat, unseen)
            world.bag_seed = int.from_bytes(rng.read(8), "little")  # the real one is hidden
            worlds.append(world)
        return rollouts.best(worlds, seat, options)

    return choose

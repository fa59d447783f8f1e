"""The lab's best-available strategy, `prism-endgame/1`: the reference until the bag is empty, then
an endgame search for what the pay table pays.

Once the bag is empty, heads-up, nothing is hidden any more: every block is on the grid, on the
seat's own rack or on the opponent's, so the opponent's rack is the blocks the seat cannot see (it
infers them; it never reads the other rack). The machine opponent's strategy is published (the pay
table names it; docs/prism-words.md describes it) and deterministic, so from there the rest of the
game depends only on the seat's own choices. A strong player works it out; this strategy does:

1. Candidates: the `CANDIDATES` legal plays of the highest reference value (10 x points + the end
   cost of the kept blocks, ties in generation order, so the reference's own play comes first), and
   passing.
2. Each candidate is played out to the end on a copy of the game: the opponent by the machine
   strategy, the seat by the reference. The going-out swing (the seat that plays out gains the other
   rack's numerals, both per block, and the other loses them) is in the line's final scores.
3. It makes the candidate whose line pays the customer most (the margin's tier plus the awards, in
   units), then the one with the larger margin; ties go to the earlier candidate.

The reference's own play is a candidate and wins ties, so each decision's line pays at least what
the reference's line would: a rollout is never worse than the player it rolls out, when its model of
the opponent is exact. The one inexactness: the inferred rack is in block-index order (the order of
the real rack is private), and the machine breaks ties between plays of equal value by rack order.

With the bag not yet empty, or more than one opponent (whose racks are not determined), it plays the
reference. Integer values only and no randomness, so a game is exactly repeatable.
"""

from __future__ import annotations

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

ENDGAME_STRATEGY = "prism-endgame/1"
CANDIDATES = 12  # plays rolled out per decision, besides passing


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


def endgame_player(rules: PrismWordsRules, opponent: Strategy = machine_move,
                   candidates: int = CANDIDATES) -> Strategy:
    """prism-endgame/1 for the pay table's `rules`, against the machine strategy `opponent`."""

    def line_value(world: Table, seat: int, choice: Choice) -> tuple[int, int]:
        """What the game pays `seat` (units, then margin) when it makes `choice`, then plays the
        reference against the opponent's machine strategy to the end."""
        line = world.copy()
        apply_choice(line, seat, choice)
        while not line.finished:
            mover = line.turn
            apply_choice(line, mover, (machine_move if mover == seat else opponent)(line))
        margin = line.margin(seat)
        return rules.units(margin, line.awards(seat)), margin

    def choose(table: Table) -> Choice:
        if table.bag or table.seats != 2:
            return machine_move(table)
        seat = table.turn
        world = table.copy()
        world.racks[1 - seat] = unseen_blocks(table, seat)
        options = ranked_plays(world, candidates)
        if not options:
            return Choice(PASS)
        options.append(Choice(PASS))
        values = [line_value(world, seat, choice) for choice in options]
        return options[values.index(max(values))]

    return choose

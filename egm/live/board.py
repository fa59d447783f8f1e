"""The live table's board as the display shows it, from the table's append-only hand log.

The dealer's keypad never edits a hand: an entry, a correction (new winners, a reason and a
supervisor's approval) and a void (a misdeal) are each appended to the log. The board is a pure
function of the log of the table's current session: every hand's latest version, voided hands left
out, in the order the hands were first entered.

>>> log = [Entry(1, 1, "entry", "P", "D", "D"), Entry(2, 2, "entry", "H", "P", "D"),
...        Entry(3, 2, "correction", "H", "H", "D"), Entry(4, 4, "entry", "P", "P", "P"),
...        Entry(5, 4, "void")]
>>> [(h.hand_id, h.code, h.corrected) for h in current_hands(log)]
[(1, 'D2', False), (2, 'H2', True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from egm.games.dragon_poker import settlement
from egm.games.dragon_poker.settlement import Side
from egm.live.roads import DEPTH, ROWS_SHOWN, bead_plate, big_road, last_columns, totals

KINDS = ("entry", "correction", "void")
ROAD_COLUMNS = 24  # big-road columns the display shows (it scrolls to the newest)
BEAD_COLUMNS = 12


def result_code(front: str, middle: str, back: str) -> str:
    """The row's code from who won each set hand ("P", "H" or "D"), by the cabinet's own rule
    (Dragon Poker's settlement): the side that won two or three rows ("P2", "H3"), or "S" when each
    side won one.

    >>> result_code("P", "D", "D"), result_code("H", "P", "D"), result_code("H", "H", "H")
    ('D2', 'S', 'H3')
    """
    try:
        rows = tuple(Side(winner) for winner in (front, middle, back))
    except ValueError:
        raise ValueError("each set hand is won by P (player), H (house) or D (Dragon); got "
                         f"{front!r}, {middle!r}, {back!r}") from None
    return settlement.result_code(*settlement.hand_winner(rows))


@dataclass(frozen=True)
class Entry:
    """One line of the hand log. seq: its place in the log; hand_id: the hand it is about (an entry
    starts a hand: its hand_id is its own seq); kind: entry, correction or void; the winners of the
    front, middle and back (empty for a void)."""

    seq: int
    hand_id: int
    kind: str
    front: str = ""
    middle: str = ""
    back: str = ""


@dataclass(frozen=True)
class Hand:
    """A hand as the board shows it: its latest winners, its code, and whether it was corrected."""

    hand_id: int
    front: str
    middle: str
    back: str
    code: str
    corrected: bool

    def to_json(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "front": self.front, "middle": self.middle, "back": self.back,
                "code": self.code, "corrected": self.corrected}


def current_hands(log: Iterable[Entry]) -> list[Hand]:
    """Every hand's latest version, voided hands left out, in the order they were first entered."""
    hands: dict[int, Hand | None] = {}
    for entry in sorted(log, key=lambda e: e.seq):
        if entry.kind == "void":
            hands[entry.hand_id] = None
        elif entry.kind in ("entry", "correction"):
            hands[entry.hand_id] = Hand(entry.hand_id, entry.front, entry.middle, entry.back,
                                        result_code(entry.front, entry.middle, entry.back),
                                        corrected=entry.kind == "correction")
        else:
            raise ValueError(f"unknown hand-log kind {entry.kind!r}; one of {KINDS}")
    return [hand for hand in hands.values() if hand is not None]


def board(hands: Sequence[Hand]) -> dict[str, Any]:
    """The display's whole board (JSON): the last ten rows (newest last), the bead plate and the big
    road scrolled to their newest columns, and the totals."""
    codes = [hand.code for hand in hands]
    ids = [hand.hand_id for hand in hands]
    return {
        "rows": [hand.to_json() for hand in hands[-ROWS_SHOWN:]],
        "bead_plate": [{"hand_id": ids[c.index], "column": c.column, "row": c.row, "code": c.code}
                       for c in last_columns(bead_plate(codes), BEAD_COLUMNS)],
        "big_road": [{"hand_id": ids[c.index], "column": c.column, "row": c.row, "side": c.side,
                      "code": c.code, "splits": c.splits}
                     for c in last_columns(big_road(codes), ROAD_COLUMNS)],
        "totals": totals(codes),
        "depth": DEPTH,
    }

"""Shared set-up for the Poker Tiles tests: the example pay table, stacked pools and board positions."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from egm.cards import Card
from egm.games.poker_tiles.board import Layout
from egm.games.poker_tiles.engine import JOKER
from egm.games.poker_tiles.paytable import EXAMPLE, PokerTilesRules
from egm.games.poker_tiles.table import Table, Tile, full_pool

RULES = PokerTilesRules.model_validate(EXAMPLE)
LAYOUT = Layout.from_rules(RULES)


def code(text: str) -> int:
    return JOKER if text == "JK" else Card.parse(text).index


def paytable(**changes: Any) -> SimpleNamespace:
    """A stand-in for a loaded pay table (tests of the game that do not need the signed ROM)."""
    header = SimpleNamespace(strategy="tiles-greedy/1", default_bet_credits=1, denominations_cents=[1, 5],
                             bets_credits=[1, 2, 5, 10])
    rules = PokerTilesRules.model_validate({**EXAMPLE, **changes})
    return SimpleNamespace(id="poker-tiles-test", version="1.0.0", header=header, rules=rules)


def stacked_pool(*racks: str) -> list[int]:
    """A pool that deals these racks (space-separated tiles, one string per seat), the rest after."""
    pool = full_pool()
    hands = [[code(t) for t in rack.split()] for rack in racks]
    dealt = []
    for k in range(5):
        for hand in hands:
            dealt.append(hand[k])
    for tile in dealt:
        pool.remove(tile)
    return dealt + pool


def table_with(*racks: str, rounds: int = 10) -> Table:
    return Table(LAYOUT, len(racks), stacked_pool(*racks), rounds)


def tiles(*specs: str) -> list[Tile]:
    """Tiles of a play from "row col card" or "row col JK as"."""
    out = []
    for spec in specs:
        row, col, card, *declared = spec.split()
        tile = code(card)
        out.append(Tile(LAYOUT.square(int(row), int(col)), tile, code(declared[0]) if declared else tile))
    return out


def put(table: Table, *specs: str) -> None:
    """Set tiles on the board directly (a position for a rule test)."""
    for tile in tiles(*specs):
        table.face[tile.square] = tile.face
        table.joker[tile.square] = tile.code == JOKER

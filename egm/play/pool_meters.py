"""Pool meters: what each running pool (e.g. the Dragon jackpot) has taken in and paid out, by side,
since the last RAM clear. A game reports a round's pool money in its outcome summary under
"pool_movements" (docs/games.md); the round engine (egm.play.rounds) adds it up when the round settles,
and the cabinet keeps the figures in wager memory ("pool_meters").

>>> move = {"paid_in_cents": {"player": 20, "dealer": 20}, "won_cents": {}, "seed_cents": 0}
>>> after = pool_meters_after({}, {"dragon_jackpot": move})
>>> won = {"paid_in_cents": {"player": 0, "dealer": 10}, "won_cents": {"player": 50}, "seed_cents": 0}
>>> pool_meters_after(after, {"dragon_jackpot": won})["dragon_jackpot"]
{'paid_in_cents': {'player': 20, 'dealer': 30}, 'won_cents': {'player': 50}, 'seed_cents': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def pool_meters_after(meters: Mapping[str, Any], movements: Mapping[str, Any]) -> dict[str, Any]:
    """The pool meters with one round's movements added (every figure in cents, counting up)."""
    out: dict[str, Any] = {name: dict(row) for name, row in meters.items()}
    for pool, move in movements.items():
        row = out.setdefault(pool, {"paid_in_cents": {}, "won_cents": {}, "seed_cents": 0})
        for key in ("paid_in_cents", "won_cents"):
            totals = dict(row.get(key, {}))
            for side, cents in move.get(key, {}).items():
                totals[side] = totals.get(side, 0) + int(cents)
            row[key] = totals
        row["seed_cents"] = int(row.get("seed_cents", 0)) + int(move.get("seed_cents", 0))
    return out

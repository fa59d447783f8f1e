"""The scoreboard: the last results of a game (e.g. P2, H3, D2), newest first, as the cabinet keeps
them in wager memory and the table shows them.

>>> scoreboard_after(["P2"] * 10, "D3")[:2], len(scoreboard_after(["P2"] * 10, "D3"))
(['D3', 'P2'], 10)
"""

from __future__ import annotations

from collections.abc import Sequence

SCOREBOARD_SIZE = 10


def scoreboard_after(previous: Sequence[str], result_code: str) -> list[str]:
    """The last SCOREBOARD_SIZE results, newest first, after adding this round's."""
    return [result_code, *previous][:SCOREBOARD_SIZE]

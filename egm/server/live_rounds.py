"""The live rounds a process keeps, keyed by (round id, step number): an LRU cache.

Restoring a round from its record costs tens of milliseconds (Dragon Poker: 23-31 ms), so the Round
object a decision produced is kept for the next decision. The step number in the key means a cached
object is used only for exactly the step the database holds; a request takes the object out while it
works on it (`take`), so two requests never share one, and puts it back only after its commit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from egm.games.base import Round


class LiveRounds:
    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._rounds: OrderedDict[tuple[str, int], Round] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, round_id: str, step_no: int) -> Round | None:
        with self._lock:
            return self._rounds.pop((round_id, step_no), None)

    def keep(self, round_id: str, step_no: int, round_: Round) -> None:
        with self._lock:
            self._rounds[(round_id, step_no)] = round_
            self._rounds.move_to_end((round_id, step_no))
            while len(self._rounds) > self._capacity:
                self._rounds.popitem(last=False)

    def __len__(self) -> int:
        return len(self._rounds)

"""Drag-and-drop on a table scene: a press on a piece (a card, a tile), the pointer moving, and the
release that either drops the piece (it moved) or taps it (it did not).

>>> drag = Drag(3, (100, 100), (100, 100))
>>> drag.pos = (105, 104); drag.moved
False
>>> drag.pos = (140, 100); drag.moved
True
"""

from __future__ import annotations

from dataclasses import dataclass

DRAG_THRESHOLD = 12  # logical pixels a press may wander and still be a tap


@dataclass
class Drag:
    index: int  # which piece: its position in the hand the scene shows
    start: tuple[int, int]
    pos: tuple[int, int]

    @property
    def moved(self) -> bool:
        return abs(self.pos[0] - self.start[0]) + abs(self.pos[1] - self.start[1]) > DRAG_THRESHOLD

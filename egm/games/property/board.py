"""The board as the engine reads it: the 40 spaces with their title cards, the colour groups, and the
next railroad or utility from each space. Built once per pay table from its `[game]` table.

Spaces are numbered 0 (Go) to 39 (Boardwalk); the seed numbers the same spaces 5 to 44, so seed
space n is index n - 5.

>>> from egm.games.property.paytable import PropertyRules, example_rules
>>> board = Board(PropertyRules.model_validate(example_rules()))
>>> board.names[24], board.price[24], board.groups[board.group_of[24]]
('Illinois Avenue', 240, (21, 23, 24))
>>> board.nearest["railroad"][36], board.nearest["utility"][22]
(5, 28)
"""

from __future__ import annotations

from typing import Any

from egm.games.property.paytable import BOARD_SIZE, TITLE_KINDS, CardSpec, PropertyRules

HOTEL = 5  # houses[space] == HOTEL: a hotel stands there (in place of four houses)
SEED_FIRST_SPACE = 5  # the seed's number for Go


class Board:
    """Plain tuples indexed by space, for speed in the engine's inner loop."""

    def __init__(self, rules: PropertyRules) -> None:
        spaces = rules.board
        self.names = tuple(space.name for space in spaces)
        self.kinds = tuple(space.kind for space in spaces)
        self.price = tuple(space.price for space in spaces)
        self.mortgage = tuple(space.mortgage or 0 for space in spaces)
        self.rents = tuple(tuple(space.rents or ()) for space in spaces)
        self.house_cost = tuple(space.house_cost or 0 for space in spaces)
        self.titles = tuple(i for i, space in enumerate(spaces) if space.kind in TITLE_KINDS)
        self.is_title = tuple(space.kind in TITLE_KINDS for space in spaces)
        group_names: list[str] = []
        for space in spaces:
            if space.group is not None and space.group not in group_names:
                group_names.append(space.group)
        self.group_names = tuple(group_names)
        self.groups = tuple(
            tuple(i for i, space in enumerate(spaces) if space.group == name) for name in group_names
        )
        self.group_of = tuple(group_names.index(space.group) if space.group else -1 for space in spaces)
        self.railroads = tuple(i for i, kind in enumerate(self.kinds) if kind == "railroad")
        self.utilities = tuple(i for i, kind in enumerate(self.kinds) if kind == "utility")
        self.nearest = {kind: self._nearest(kind) for kind in ("railroad", "utility")}
        self.jail = self.kinds.index("jail")
        self.decks: dict[str, tuple[CardSpec, ...]] = {
            "chance": tuple(rules.chance), "community_chest": tuple(rules.community_chest),
        }

    def _nearest(self, kind: str) -> tuple[int, ...]:
        """For each space, the first space of `kind` strictly ahead of it (going round past Go)."""
        return tuple(
            next((i + step) % BOARD_SIZE for step in range(1, BOARD_SIZE + 1)
                 if self.kinds[(i + step) % BOARD_SIZE] == kind)
            for i in range(BOARD_SIZE)
        )

    def space_json(self, index: int) -> dict[str, Any]:
        """One space as the replay contract shows it."""
        kind = self.kinds[index]
        group = self.group_of[index]
        return {
            "index": index,
            "name": self.names[index],
            "kind": kind,
            "group": self.group_names[group] if group >= 0 else None,
            "price": self.price[index] or None,
            "rents": list(self.rents[index]) or None,
            "mortgage": self.mortgage[index] or None,
            "house_cost": self.house_cost[index] or None,
        }

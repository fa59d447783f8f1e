"""The games a cabinet can run, by game id.

The registry maps a game id to the import path of its `Game` class; the cabinet, the ROM (for a pay
table's game-specific schema) and the lab look games up here. Imports happen on demand so a cabinet
only loads the games it runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from egm.games.base import Game

GAME_CLASSES = {
    "dragon-poker": "egm.games.dragon_poker.game:DragonPoker",
    "poker-grid": "egm.games.poker_grid.game:PokerGrid",
}

# The pydantic model of each game's `[game]` table in its pay table (checked by the pay-table ROM).
PAYTABLE_MODELS = {
    "dragon-poker": "egm.games.dragon_poker.paytable:DragonPokerRules",
    "poker-grid": "egm.games.poker_grid.paytable:PokerGridRules",
}


class UnknownGame(KeyError):
    pass


def _load(table: dict[str, str], game_id: str) -> type:
    try:
        module_name, attr = table[game_id].split(":")
    except KeyError:
        raise UnknownGame(f"unknown game id '{game_id}'; known games: {sorted(table)}") from None
    return getattr(importlib.import_module(module_name), attr)


def game_class(game_id: str) -> type[Game]:
    return _load(GAME_CLASSES, game_id)


def paytable_model(game_id: str) -> type:
    return _load(PAYTABLE_MODELS, game_id)

"""The cabinet's scenes, one module each. Game tables are found by game id in GAME_SCENES
("module:Class"), imported when first needed so that a game still being built does not stop the rest."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from egm.video.scene import Resources, Scene

GAME_SCENES = {
    "dragon-poker": "egm.video.scenes.dragon_poker:DragonPokerScene",
    "poker-grid": "egm.video.scenes.poker_grid:PokerGridScene",
}


def game_scene(res: Resources, game_id: str) -> Scene:
    """The table scene of `game_id`; the generic table when the game has no scene (yet)."""
    from egm.video.scenes.generic_game import GenericGameScene

    target = GAME_SCENES.get(game_id)
    if target:
        module, _, cls = target.partition(":")
        try:
            return getattr(importlib.import_module(module), cls)(res)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    return GenericGameScene(res)

"""The cabinet's scenes, one module each. A game's table scene is the one its descriptor names
(`GameDescriptor.scene`), imported when first needed; a game without one gets the generic table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from egm.games import UnknownGame, descriptor_of

if TYPE_CHECKING:
    from egm.video.scene import Resources, Scene


def game_scene(res: Resources, game_id: str) -> Scene:
    """The table scene of `game_id`; the generic table when the game has no scene."""
    from egm.video.scenes.generic_game import GenericGameScene

    try:
        target = descriptor_of(game_id).scene
    except UnknownGame:
        target = None
    return target.load()(res) if target is not None else GenericGameScene(res)

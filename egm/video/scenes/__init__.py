"""The cabinet's scenes, one module each. Game tables are found by game id in GAME_SCENES
("module:Class"), imported when first needed so that a game still being built does not stop the rest."""

from __future__ import annotations

GAME_SCENES = {
    "dragon-poker": "egm.video.scenes.dragon_poker:DragonPokerScene",
    "poker-grid": "egm.video.scenes.poker_grid:PokerGridScene",
}

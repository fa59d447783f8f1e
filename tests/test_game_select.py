"""The game menu's tiles (issue 18): with five games installed the tile art spilled across the
neighbouring tiles. Each tile, and each game's art within it, must stay inside its own rectangle at any
count of installed games: drawn onto a surface, nothing outside it may change."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from egm.games import descriptors
from egm.video.scene import Frame, Resources
from egm.video.scenes.game_select import GameSelectScene

INSTALLED = list(descriptors())
BACKGROUND = (1, 2, 3)
COUNTS = range(1, 11)  # one game up to ten tiles (ids not installed hold their tile empty)


@pytest.fixture(scope="module")
def scene() -> Iterator[GameSelectScene]:
    pygame.init()
    yield GameSelectScene(Resources.create())


def menu(count: int) -> Frame:
    """The game menu's frame with `count` tiles: the installed games first, then ids not installed."""
    games = (INSTALLED + [f"not-installed-{n}" for n in range(count)])[:count]
    return Frame({"state": "attract", "games": games, "selected_game": games[0], "credits_cents": 10000,
                  "pools_cents": {"dragon_jackpot": 1234}}, 0.0)


def changed(draw: object, rect: pygame.Rect) -> tuple[int, int]:
    """Pixels a drawing changed (outside `rect`, inside it) on a 1920x1080 surface of one colour."""
    surface = pygame.Surface((1920, 1080))
    surface.fill(BACKGROUND)
    before = pygame.surfarray.array3d(surface)
    draw(surface)  # type: ignore[operator]
    diff = (pygame.surfarray.array3d(surface) != before).any(axis=2)  # indexed [x, y]
    inside = np.zeros_like(diff)
    inside[rect.left:rect.right, rect.top:rect.bottom] = True
    return int((diff & ~inside).sum()), int((diff & inside).sum())


@pytest.mark.parametrize("count", COUNTS)
def test_each_tile_draws_within_its_own_rectangle(scene: GameSelectScene, count: int) -> None:
    frame = menu(count)
    for gid, rect in scene.tiles(frame).items():
        if gid not in INSTALLED:
            continue
        outside, inside = changed(lambda s, g=gid, r=rect: scene.draw_tile(s, g, r, frame), rect)
        assert outside == 0, f"{gid}'s tile changed {outside} pixels outside it with {count} games"
        assert inside > rect.width * rect.height // 2  # the tile itself is drawn


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("gid", INSTALLED)
def test_each_game_art_fits_the_art_area_it_is_given(scene: GameSelectScene, gid: str, count: int) -> None:
    """Scaled, not only clipped: each game's tile art drawn unclipped stays in the area the menu gives."""
    art = descriptors()[gid].tile
    assert art is not None
    tile = next(iter(scene.tiles(menu(count)).values()))
    area = scene.art_rect(tile)
    outside, inside = changed(lambda s: art.load()(s, scene.res, area, menu(count)), area)
    assert outside == 0, f"{gid}'s art spilled {outside} pixels out of a {area.size} area ({count} games)"
    assert inside > min(area.size) ** 2 // 10  # the art is drawn, at a size that shows

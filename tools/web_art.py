"""Draw each installed game's lobby art for the browser client: the cabinet's own menu tile art (the
descriptor's `tile`, as the game menu draws it) on the game's colour, saved as a PNG in
egm/server/web/static/art/<game id>.png, which the lobby (`/`) shows. Run it again after a game's tile
art changes, then `python tools/rom_refresh.py` (the PNGs are firmware like every static file):

    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy python tools/web_art.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402 (headless first)

from egm.games import descriptors  # noqa: E402
from egm.server.web.pages import ART  # noqa: E402
from egm.video.scene import Frame, Resources  # noqa: E402

SIZE = (480, 300)  # the lobby's tiles are 16:10
MARGIN = 16


def draw(game_id: str, res: Resources) -> pygame.Surface | None:
    """The game's tile art at SIZE, or None when it has none (the lobby then shows the title alone)."""
    found = descriptors()[game_id]
    if found.tile is None:
        return None
    surface = pygame.Surface(SIZE)
    surface.fill(found.colour)
    found.tile.load()(surface, res, pygame.Rect(MARGIN, MARGIN, SIZE[0] - 2 * MARGIN, SIZE[1] - 2 * MARGIN),
                      Frame(snapshot={}, now=0.0))
    return surface


def main() -> int:
    pygame.init()
    pygame.display.set_mode((1, 1))
    res = Resources.create()
    ART.mkdir(parents=True, exist_ok=True)
    for game_id in descriptors():
        art = draw(game_id, res)
        if art is not None:
            path: Path = ART / f"{game_id}.png"
            pygame.image.save(art, str(path))
            print(f"{path}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

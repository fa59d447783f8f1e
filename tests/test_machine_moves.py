"""The machine's moves in the board games are shown on the board as they are made: put down one piece
every tick, the newest highlighted, then settled on the round's own board. Input is held meanwhile, and
a power cut in the middle resumes at the settled board. Time moves only on the session's clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.games.poker_grid import scene as grid_scene
from egm.games.poker_tiles import scene as tiles_scene
from egm.games.prism_words import scene as prism_scene
from egm.video.machine_move import HIGHLIGHT, PIECE_S
from egm.video.scene import Scene
from egm.video.screenshot import credit
from egm.video.session import Session

SQUARES = {"poker-grid": grid_scene.square_rect, "poker-tiles": tiles_scene.square_rect,
           "prism-words": prism_scene.square_rect}
RINGS = {"poker-grid": 10, "poker-tiles": 8, "prism-words": 8}  # how far the highlight ring stands out
DEAL_DONE_S = 8.0


def start(config: Any, nvram: Path, game_id: str) -> Session:
    s = Session(config, nvram, seed=11, game_ids=[game_id])
    credit(s)
    s.key("space")  # DEAL: the only game
    s.wait(DEAL_DONE_S)
    return s


def moves(s: Session) -> int:
    return len(s.cabinet.round.to_record()["moves"]) if s.cabinet.round is not None else -1


def until_the_machine_puts_pieces_down(s: Session) -> list[tuple[int, int] | None]:
    """AUTO PLAY the customer's turns until the machine answers with a piece on the board; its pieces."""
    for _ in range(40):
        s.key("h")
        pieces = [p.square for p in s.video.scene.machine.pieces]
        if s.video.scene.busy(s.video.frame) and any(pieces) and s.state.endswith(".play"):
            return pieces
        s.settle()
    raise AssertionError("the machine never put a piece down")


def middle(rect: pygame.Rect) -> pygame.Rect:
    """The middle of a square: clear of outlines, badges and the highlight ring."""
    return rect.inflate(-rect.width * 4 // 5, -rect.height * 4 // 5)


def settled_picture(s: Session) -> pygame.Surface:
    """The table as a screen that has just come up shows it: the round's own board, nothing played out."""
    fresh: Scene = type(s.video.scene)(s.video.res)
    fresh.enter(s.video.frame)
    assert not fresh.busy(s.video.frame)
    surface = pygame.Surface((1920, 1080))
    fresh.draw(surface, s.video.frame)
    return surface


def scene_picture(s: Session) -> pygame.Surface:
    s.video.update()
    surface = pygame.Surface((1920, 1080))
    s.video.scene.draw(surface, s.video.frame)
    return surface


def same(a: pygame.Surface, b: pygame.Surface, rect: pygame.Rect) -> bool:
    return pygame.image.tobytes(a.subsurface(rect), "RGB") == pygame.image.tobytes(b.subsurface(rect), "RGB")


@pytest.mark.parametrize("game_id", sorted(SQUARES))
def test_the_machines_pieces_go_down_one_per_tick_the_newest_highlighted_then_settle(
        signed_tree, tmp_path: Path, game_id: str) -> None:
    s = start(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", game_id)
    try:
        pieces = until_the_machine_puts_pieces_down(s)
        square_rect = SQUARES[game_id]
        settled = settled_picture(s)
        made = moves(s)
        s.wait(PIECE_S / 2)  # mid-tick: no boundary is ever sampled
        for k in range(len(pieces) + 1):
            picture = scene_picture(s)
            for i, square in enumerate(pieces):
                if square is not None:  # the first k are down (as settled), the rest not yet
                    assert same(picture, settled, middle(square_rect(*square))) == (i < k), (k, i)
            newest = pieces[k - 1] if k else None
            if newest is not None:
                ring = square_rect(*newest).inflate(RINGS[game_id], RINGS[game_id])
                assert tuple(picture.get_at((ring.x + 1, ring.centery)))[:3] == HIGHLIGHT
            assert s.video.scene.busy(s.video.frame)
            s.key("h")  # input is held while the machine plays: nothing is decided for the player
            assert moves(s) == made
            assert any("the machine is playing" in t.text for t in s.video.toasts)
            s.wait(PIECE_S)
        assert not s.video.scene.busy(s.video.frame)
        content = pygame.Rect(0, 0, 1920, 930)
        assert same(scene_picture(s), settled, content)  # the board equals the round's own
    finally:
        s.close()


@pytest.mark.parametrize("game_id", sorted(SQUARES))
def test_a_power_cut_while_the_machine_plays_resumes_at_the_settled_board(
        signed_tree, tmp_path: Path, game_id: str) -> None:
    config = load_cabinet_config(signed_tree.config_path)
    first = start(config, tmp_path / "nvram", game_id)
    pieces = until_the_machine_puts_pieces_down(first)
    settled = settled_picture(first)
    first.wait(PIECE_S * 1.5)
    assert first.video.scene.busy(first.video.frame)
    first.close()  # the power is cut mid-animation
    again = Session(config, tmp_path / "nvram", seed=11, game_ids=[game_id])
    try:
        assert again.video.scene.game_id == game_id and not again.video.scene.busy(again.video.frame)
        picture = scene_picture(again)
        for square in filter(None, pieces):
            assert same(picture, settled, middle(SQUARES[game_id](*square)))
    finally:
        again.close()

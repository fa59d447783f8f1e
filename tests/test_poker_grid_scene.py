"""The Poker Grid table in the emulator, driven by real pygame events (SDL dummy driver)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.games.poker_grid.scene import GREEN, hand_rect, square_rect
from egm.games.poker_grid.screenshots import RECIPES as SCREENSHOT_RECIPES
from egm.video import snap
from egm.video.screenshot import credit
from egm.video.session import Session


@pytest.fixture
def session(signed_tree, tmp_path: Path):
    config = load_cabinet_config(signed_tree.config_path)
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-grid"])
    credit(s)
    s.key("space")  # DEAL: the only game is Poker Grid
    yield s
    s.close()


def moves(s: Session) -> int:
    return len(s.cabinet.round.to_record()["moves"])


def legal(s: Session) -> list[tuple[int, int]]:
    return [tuple(square) for square in s.cabinet.round.view().table["legal"]]


def test_tap_card_then_lit_square_places_it(session: Session) -> None:
    assert session.cabinet.round.view().table["step"] == "play" and moves(session) == 0
    card = session.cabinet.round.view().table["hand"][1]
    row, col = legal(session)[0]
    session.click(*hand_rect(1).center)
    session.click(*square_rect(row, col).center)
    record = session.cabinet.round.to_record()
    assert len(record["moves"]) == 2  # the customer's placement and the machine's reply
    assert str(session.cabinet.round.view().table["board"][row][col]) == card


def test_drag_card_onto_lit_square(session: Session) -> None:
    row, col = legal(session)[-1]
    session.click(*hand_rect(0).center, drag_to=square_rect(row, col).center)
    assert moves(session) == 2


def test_a_square_that_is_not_lit_is_refused_and_changes_nothing(session: Session) -> None:
    session.click(*hand_rect(0).center)
    session.click(*square_rect(0, 0).center)  # not next to any card
    assert moves(session) == 0 and session.cabinet.round.view().table["step"] == "play"
    assert any("not next to a card" in toast.text for toast in session.video.toasts)


def test_legal_squares_are_lit(session: Session) -> None:
    surface = session.render()
    row, col = legal(session)[0]
    rect = square_rect(row, col)
    assert tuple(surface.get_at((rect.x + 2, rect.centery)))[:3] == GREEN
    assert isinstance(surface, pygame.Surface)


@pytest.mark.parametrize("name", sorted(SCREENSHOT_RECIPES))
def test_screenshot_recipes_reach_the_table(signed_tree, tmp_path: Path, name: str) -> None:
    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=5)
    try:
        SCREENSHOT_RECIPES[name](s)
        if name == "poker-grid-play":
            view = snap.table(s.cabinet.snapshot())["view"].table
            placed = [c for row in view["board"] for c in row if c not in ("", "W")]
            assert view["step"] == "play" and len(placed) == 2 + 18  # starters and 9 turns of 2 seats
        else:
            assert s.state != "game.poker-grid.play"
            assert s.cabinet.snapshot()["last_outcome"]["game_id"] == "poker-grid"
        assert s.render().get_size() == (1920, 1080)
    finally:
        s.close()

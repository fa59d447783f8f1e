"""The Poker Grid table in the emulator, driven by real pygame events (SDL dummy driver)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.games.poker_grid.scene import CARD_W, DEAL_CARD_S, GREEN, hand_rect, square_rect
from egm.games.poker_grid.screenshots import RECIPES as SCREENSHOT_RECIPES
from egm.video import snap
from egm.video.screenshot import credit
from egm.video.session import Session

CARD_FACE = (252, 252, 248)  # a card's face (egm/video/cards.py), clear of its pips near the top right


@pytest.fixture
def session(signed_tree, tmp_path: Path):
    config = load_cabinet_config(signed_tree.config_path)
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-grid"])
    credit(s)
    s.key("space")  # DEAL: the only game is Poker Grid
    yield s
    s.close()


DEAL_DONE_S = 3.0  # longer than any Poker Grid deal


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
    session.wait(DEAL_DONE_S)  # lit once the deal has laid the cards
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


# --- the deal: card by card, around the seats, then the two starters; a press hurries it ---------------
def starters(s: Session) -> list[tuple[int, int]]:
    board = s.cabinet.round.view().table["board"]
    return [(r, c) for r, row in enumerate(board) for c, held in enumerate(row) if held not in ("", "W")]


def on_square(square: tuple[int, int]) -> pygame.Rect:
    """Where a card on a board square is drawn: centred in it."""
    card = pygame.Rect(0, 0, CARD_W, round(CARD_W * 1.4))
    card.center = square_rect(*square).center
    return card


def shows_a_card(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether a card's face shows in the card rect `rect`."""
    corner = (rect.x + rect.width * 85 // 100, rect.y + rect.width * 15 // 100)
    return tuple(surface.get_at(corner))[:3] == CARD_FACE


def test_the_deal_lays_the_cards_one_by_one_then_the_starters(session: Session) -> None:
    scene = session.video.scene
    assert scene.name == "poker-grid" and moves(session) == 0
    seats = 1 + len(session.cabinet.round.view().table["opponent_cards"])
    surface = session.render()
    assert scene.deal.dealing(session.video.frame.now)
    assert not any(shows_a_card(surface, hand_rect(i)) for i in range(5))  # nothing dealt yet
    assert not any(shows_a_card(surface, on_square(sq)) for sq in starters(session))
    assert not any(tuple(surface.get_at((square_rect(r, c).x + 2, square_rect(r, c).centery)))[:3] == GREEN
                   for r, c in legal(session))  # the squares light once the cards are down
    session.wait(DEAL_CARD_S * (seats + 0.5))  # one card to each seat, then the customer's second
    surface = session.render()
    assert shows_a_card(surface, hand_rect(0)) and not shows_a_card(surface, hand_rect(1))
    session.wait(DEAL_CARD_S * seats * 4)  # every hand dealt, the starters not yet
    surface = session.render()
    assert all(shows_a_card(surface, hand_rect(i)) for i in range(5))
    assert not any(shows_a_card(surface, on_square(sq)) for sq in starters(session))
    session.wait(DEAL_DONE_S)
    surface = session.render()
    assert not scene.deal.dealing(session.video.frame.now)
    assert all(shows_a_card(surface, on_square(sq)) for sq in starters(session))


def test_a_press_during_the_deal_lays_every_card_and_then_acts(session: Session) -> None:
    scene = session.video.scene
    session.wait(DEAL_CARD_S)
    assert scene.deal.dealing(session.video.frame.now)
    session.click(*hand_rect(1).center)  # a tap on a card not dealt yet: the deal ends, the card is chosen
    assert not scene.deal.dealing(session.video.frame.now) and scene.selected == 1
    surface = session.render()
    assert all(shows_a_card(surface, hand_rect(i)) for i in range(5) if i != 1)
    assert all(shows_a_card(surface, on_square(sq)) for sq in starters(session))
    assert moves(session) == 0  # the press only chose a card; nothing was played for the player


def test_a_table_already_played_is_never_dealt_again(session: Session) -> None:
    row, col = legal(session)[0]
    session.click(*hand_rect(0).center)
    session.click(*square_rect(row, col).center)
    assert moves(session) == 2
    session.key("f10")  # the operator menu, then back to the same table at the same step
    session.key("f10")
    assert session.video.scene.name == "poker-grid"
    assert not session.video.scene.deal.dealing(session.video.frame.now)

"""The Poker Tiles table in the emulator, driven by real pygame events (SDL dummy driver): tiles placed
by tap and by drag, a joker's declaration chosen on screen, PLAY, CLEAR, PASS, EXCHANGE and SWAP, and
the screenshot recipes of the play and end scenes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.games.poker_tiles.game import PokerTiles, PokerTilesRound
from egm.games.poker_tiles.scene import (
    CYAN,
    PokerTilesScene,
    button_rect,
    picker_rect,
    rack_rect,
    square_rect,
)
from egm.games.poker_tiles.screenshots import RECIPES as SCREENSHOT_RECIPES
from egm.games.poker_tiles.table import Table
from egm.video import snap
from egm.video.scene import Frame, Resources
from egm.video.screenshot import credit
from egm.video.session import Session
from tests.tiles_support import LAYOUT, code, paytable, put, stacked_pool


def frame_of(round_: PokerTilesRound) -> Frame:
    view = round_.view()
    return Frame({"game": {"game_id": "poker-tiles", "step": view.step, "view": view, "number": 1}}, 0.0)


def tap(scene: PokerTilesScene, round_: PokerTilesRound, pos: tuple[int, int]) -> list[Any]:
    frame = frame_of(round_)
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), frame)
    return scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1), frame)


def decisions(events: list[Any]) -> list[Decision]:
    return [event.decision for event in events if isinstance(event, PlayerDecision)]


@pytest.fixture
def joker_round() -> PokerTilesRound:
    """The customer starts holding JK 9d 9s 2c 4c (three nines with the joker)."""
    game = PokerTiles(paytable())
    table = Table(LAYOUT, 2, stacked_pool("JK 9d 9s 2c 4c", "3c 8d Ks 6h Jc"), 10)
    return PokerTilesRound(game, game.default_wager(1), table)


def test_a_joker_is_declared_on_screen_and_played(joker_round: PokerTilesRound) -> None:
    pygame.init()
    scene = PokerTilesScene(Resources.create())
    tap(scene, joker_round, rack_rect(0).center)  # the joker
    tap(scene, joker_round, square_rect(6, 6).center)
    assert tap(scene, joker_round, button_rect(0).center) == []  # no PLAY: the joker is undeclared
    tap(scene, joker_round, picker_rect(7).center)  # rank 9
    tap(scene, joker_round, picker_rect(13 + 2).center)  # hearts
    tap(scene, joker_round, rack_rect(1).center)  # 9d
    tap(scene, joker_round, square_rect(6, 7).center)
    (decision,) = decisions(tap(scene, joker_round, button_rect(0).center))  # PLAY
    assert decision == Decision("play", {"tiles": [{"row": 6, "col": 6, "card": "JK", "as": "9h"},
                                                   {"row": 6, "col": 7, "card": "9d", "as": "9d"}]})
    joker_round.decide(decision)
    first = joker_round.table.moves[0]
    assert first.points == 2 and joker_round.table.joker[LAYOUT.square(6, 6)]


def test_clear_takes_the_tiles_back_and_so_does_a_tap_on_a_placed_tile(joker_round: PokerTilesRound) -> None:
    pygame.init()
    scene = PokerTilesScene(Resources.create())
    tap(scene, joker_round, rack_rect(1).center)
    tap(scene, joker_round, square_rect(6, 6).center)
    assert len(scene.pending) == 1
    tap(scene, joker_round, square_rect(6, 6).center)  # tapped again: back to the rack
    assert scene.pending == []
    tap(scene, joker_round, rack_rect(1).center)
    tap(scene, joker_round, square_rect(6, 6).center)
    tap(scene, joker_round, button_rect(1).center)  # CLEAR
    assert scene.pending == [] and joker_round.table.moves == []


def test_exchange_pass_and_swap_buttons(joker_round: PokerTilesRound) -> None:
    pygame.init()
    scene = PokerTilesScene(Resources.create())
    table = joker_round.table
    put(table, "6 6 9c", "6 7 JK 9h")
    table.racks[0] = [code(t) for t in "9h 2c 5d 7s Qh".split()]
    assert decisions(tap(scene, joker_round, button_rect(2).center)) == [Decision("pass")]
    (swap,) = decisions(tap(scene, joker_round, button_rect(0, 1).center))
    assert swap == Decision("swap_joker", {"row": 6, "col": 7, "card": "9h"})
    assert decisions(tap(scene, joker_round, button_rect(3).center)) == []  # EXCHANGE: choose tiles first
    tap(scene, joker_round, rack_rect(1).center)
    tap(scene, joker_round, rack_rect(3).center)
    (exchange,) = decisions(tap(scene, joker_round, button_rect(3).center))
    assert exchange == Decision("exchange", {"tiles": ["2c", "7s"]})


@pytest.fixture
def session(signed_tree, tmp_path: Path):
    config = load_cabinet_config(signed_tree.config_path)
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["poker-tiles"])
    credit(s)
    s.key("space")  # DEAL: the only game is Poker Tiles
    yield s
    s.close()


def play_reference_by_hand(s: Session, drag: bool) -> None:
    """The reference play placed tile by tile on the real table, then PLAY."""
    decision = s.cabinet.round.reference_decision()
    assert decision.kind == "play"
    rack = list(s.cabinet.round.view().table["rack"])
    for tile in decision.args["tiles"]:
        index = rack.index(tile["card"])
        rack[index] = ""
        target = square_rect(tile["row"], tile["col"]).center
        if drag:
            s.click(*rack_rect(index).center, drag_to=target)
        else:
            s.click(*rack_rect(index).center)
            s.click(*target)
        if tile["card"] == "JK":
            s.click(*picker_rect("23456789TJQKA".index(tile["as"][0])).center)
            s.click(*picker_rect(13 + "cdhs".index(tile["as"][1])).center)
    surface = s.render()
    row, col = decision.args["tiles"][0]["row"], decision.args["tiles"][0]["col"]
    rect = square_rect(row, col)
    assert tuple(surface.get_at((rect.x + 1, rect.centery)))[:3] == CYAN  # placed, not yet played
    s.click(*button_rect(0).center)


@pytest.mark.parametrize("drag", [False, True])
def test_placing_the_reference_play_by_hand_plays_it(session: Session, drag: bool) -> None:
    while session.cabinet.round.reference_decision().kind != "play":
        session.key("h")  # AUTO PLAY until the reference turn is a play
    before = len(session.cabinet.round.to_record()["moves"])
    play_reference_by_hand(session, drag)
    after = session.cabinet.round.to_record()["moves"]
    assert len(after) >= before + 2 and after[before][:2] == [0, "play"]  # the customer's play, the reply


def test_a_bad_play_is_refused_on_screen_and_changes_nothing(session: Session) -> None:
    before = session.cabinet.round.to_record()
    session.click(*rack_rect(0).center)
    session.click(*square_rect(0, 0).center)  # far from the starting area
    session.click(*button_rect(0).center)
    assert session.cabinet.round.to_record() == before
    texts = [toast.text for toast in session.video.toasts]
    assert any("starting area" in text or "not a proper" in text for text in texts)


@pytest.mark.parametrize("name", sorted(SCREENSHOT_RECIPES))
def test_screenshot_recipes_reach_the_table(signed_tree, tmp_path: Path, name: str) -> None:
    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=5)
    try:
        SCREENSHOT_RECIPES[name](s)
        if name == "poker-tiles-play":
            view = snap.table(s.cabinet.snapshot())["view"].table
            assert view["step"] == "play" and any(cell for row in view["board"] for cell in row)
        else:
            assert s.state != "game.poker-tiles.play"
            assert s.cabinet.snapshot()["last_outcome"]["game_id"] == "poker-tiles"
        assert s.render().get_size() == (1920, 1080)
    finally:
        s.close()

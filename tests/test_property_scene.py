"""The Property table scene: it draws every step of a game, and each button it offers is a decision
the round accepts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.events import PlayerDecision
from egm.games.base import DecisionRefused
from egm.games.property.game import PropertyGame
from egm.games.property.scene import BOARD, PropertyScene, describe, space_rect
from egm.games.property.screenshots import RECIPES
from egm.rng import Rng
from egm.video import snap
from egm.video.scene import Frame, Resources
from egm.video.session import Session
from tests.property_support import shipped_paytable


@pytest.fixture(scope="module")
def scene() -> PropertyScene:
    pygame.init()
    return PropertyScene(Resources.create())


def game() -> PropertyGame:
    return PropertyGame(shipped_paytable())


def test_the_spaces_tile_the_board_edge_without_overlap() -> None:
    rects = [space_rect(i) for i in range(40)]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert rects[0].bottomright == BOARD.bottomright and rects[10].bottomleft == BOARD.bottomleft
    assert rects[20].topleft == BOARD.topleft and rects[30].topright == BOARD.topright
    inner = BOARD.inflate(-2 * rects[0].width, -2 * rects[0].height)
    assert sum(r.width * r.height for r in rects) == BOARD.width * BOARD.height - inner.width * inner.height


def test_every_button_is_a_decision_the_round_takes(scene: PropertyScene) -> None:
    g = game()
    round_ = g.new_round(g.default_wager(1), Rng.from_seed(8), {})
    surface = pygame.Surface((1920, 930))
    steps, pressed = set(), 0
    while not round_.finished:
        view = round_.table_view()
        frame = Frame({"game": {"view": round_.view()}}, 60.0 * pressed)
        owned = [i for i, owner in enumerate(view["owner"]) if owner == 0]
        scene.selected = owned[0] if owned else None
        scene.draw(surface, frame)
        frame = Frame(frame.snapshot, frame.now + 30.0)  # the turns since the last decision played out
        steps.add(view["decision"])
        buttons = scene.buttons(view)
        assert buttons, f"no button on decision {view['decision']}"
        flow = [b for b in buttons if b.decision.kind in ("roll", "buy", "decline", "bid", "pay_fine")]
        button = flow[-1] if view["decision"] == "auction" else flow[0]
        up = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=button.rect.center)
        sent = scene.handle(up, frame)
        assert sent == [PlayerDecision(button.decision)]
        try:
            round_.decide(sent[0].decision)
        except DecisionRefused as exc:
            raise AssertionError(f"the scene offered a refused decision: {exc}") from exc
        pressed += 1
    scene.draw(surface, Frame({"game": {"view": round_.view()}}, 60.0 * pressed))
    assert {"turn", "buy"} <= steps and pressed > 20


def test_the_log_describes_every_kind_of_event() -> None:
    g = game()
    round_ = g.new_round(g.default_wager(1), Rng.from_seed(2), {})
    while not round_.finished:
        round_.decide(round_.reference_decision())
    lines = [describe(event, g.spaces) for event in round_.table.events]
    assert all(lines) and any("threw" in line for line in lines) and any("buys" in line for line in lines)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_screenshot_recipes_reach_their_pictures(signed_tree: Any, tmp_path: Path, name: str) -> None:
    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=5)
    try:
        RECIPES[name](s)
        if name == "property-end":
            assert s.cabinet.snapshot()["last_outcome"]["game_id"] == "property"
        elif name == "property-machine-turn":  # caught while the machine's turn plays out
            scene = s.video.scene
            event = s.cabinet.round.view().table["recent"][scene.machine.shown(s.video.frame.now) - 1]
            assert scene.busy(s.video.frame) and event["seat"] and event["kind"] in ("buy", "rent")
        else:
            view = snap.table(s.cabinet.snapshot())["view"].table
            expected = {"property-board": "turn", "property-decision": "buy", "property-trade": "turn"}[name]
            assert s.state == "game.property.play" and view["decision"] == expected
            if name == "property-board":
                assert view["round"] >= 12
            if name == "property-trade":
                assert view["last_trade"] is not None and view["last_trade"]["get"]
        assert s.render().get_size() == (1920, 1080)
    finally:
        s.close()

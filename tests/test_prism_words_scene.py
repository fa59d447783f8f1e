"""The Prism Words table in the emulator, driven by real pygame events (SDL dummy driver): a block's
face tapped then a square (or dragged), a star's letter chosen on screen, PLAY, and refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.events import PlayerDecision
from egm.games.base import Decision
from egm.games.prism_words.game import PrismWords
from egm.games.prism_words.scene import BUTTONS, LETTERS, PrismWordsScene, face_rect, letter_rect, square_rect
from egm.games.prism_words.screenshots import RECIPES as SCREENSHOT_RECIPES
from egm.rng import Rng
from egm.video.scene import Frame, Resources
from egm.video.screenshot import credit
from egm.video.session import Session
from tests.prism_support import example_paytable

PLAY_BUTTON = next(b.rect for b in BUTTONS if b.action == "play")


@pytest.fixture
def session(signed_tree, tmp_path: Path):
    config = load_cabinet_config(signed_tree.config_path)
    s = Session(config, tmp_path / "nvram", seed=3, game_ids=["prism-words"])
    credit(s)
    s.key("space")  # DEAL: the only game is Prism Words
    yield s
    s.close()


def table(s: Session) -> dict[str, Any]:
    return dict(s.cabinet.round.view().table)


def customer_moves(s: Session) -> list[list[Any]]:
    return [move for move in s.cabinet.round.to_record()["moves"] if move[0] == 0]


def stage(s: Session, item: dict[str, Any], drag: bool = False) -> None:
    """Tap (or drag) the block's face, then its square; a star's letter on the picker."""
    slot = [block["block"] for block in table(s)["rack"]].index(item["block"])
    face = face_rect(slot, ("left", "right").index(item["face"]))
    square = square_rect(item["row"], item["col"])
    if drag:
        s.click(*face.center, drag_to=square.center)
    else:
        s.click(*face.center)
        s.click(*square.center)
    if "letter" in item:
        s.click(*letter_rect(LETTERS.index(item["letter"])).center)


def test_tap_faces_then_squares_then_play(session: Session) -> None:
    decision = session.cabinet.round.reference_decision()
    before = len(customer_moves(session))
    for item in decision.args["placements"]:
        stage(session, item)
    assert len(customer_moves(session)) == before  # staged only: nothing is sent before PLAY
    session.click(*PLAY_BUTTON.center)
    played = customer_moves(session)[before]
    assert played[1] == "play"
    assert sorted((p[0], p[1], p[2]) for p in played[2]) == sorted(
        (item["row"], item["col"], item["block"]) for item in decision.args["placements"])


def test_drag_a_face_onto_a_square(session: Session) -> None:
    decision = session.cabinet.round.reference_decision()
    before = len(customer_moves(session))
    for item in decision.args["placements"]:
        stage(session, item, drag=True)
    session.click(*PLAY_BUTTON.center)
    assert len(customer_moves(session)) == before + 1


def test_a_refused_play_changes_nothing_and_says_why(session: Session) -> None:
    record = session.cabinet.round.to_record()
    rack = table(session)["rack"]
    session.click(*face_rect(0, 0).center)
    session.click(*square_rect(0, 0).center)  # a corner: not connected, or off the centre pocket
    session.click(*PLAY_BUTTON.center)
    assert session.cabinet.round.to_record() == record and table(session)["rack"] == rack
    assert any("centre pocket" in toast.text or "not connected" in toast.text or "word" in toast.text
               for toast in session.video.toasts)


def test_a_star_asks_for_its_letter_on_screen() -> None:
    """The scene alone, on a round whose customer holds the star block: staging the star face shows
    the letter picker; PLAY is sent only with the letter chosen."""
    pygame.init()
    game = PrismWords(example_paytable())
    round_ = next(r for seed in range(400)
                  for r in [game.new_round(game.default_wager(1), Rng.from_seed(seed), {})]
                  if any(game.book.blocks[b].has_star for b in r.table.racks[0]))
    view = round_.view()
    frame = Frame({"state": "game.prism-words.play", "game": {"view": view, "number": 1}}, 0.0)
    scene = PrismWordsScene(Resources.create())
    scene.enter(frame)
    rack = view.table["rack"]
    slot = next(i for i, block in enumerate(rack) if block["star"])
    side = 0 if rack[slot]["left"] == "*" else 1
    filled = {(item["row"], item["col"]) for item in view.table["grid"]}
    square = (7, 7) if not filled else next((r, c) for r in range(15) for c in range(15)
                                            if (r, c) not in filled and (r, c + 1) in filled)

    def tap(pos: tuple[int, int]) -> list[object]:
        scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), frame)
        return scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1), frame)

    tap(face_rect(slot, side).center)
    tap(square_rect(*square).center)
    assert tap(PLAY_BUTTON.center) == []  # the star has no letter yet: PLAY is dark
    surface = pygame.Surface((1920, 1080))
    scene.draw(surface, frame)
    assert tap(letter_rect(LETTERS.index("Q")).center) == []
    sent = tap(PLAY_BUTTON.center)
    star_block = rack[slot]["block"]
    assert sent == [PlayerDecision(Decision("play", {"placements": [
        {"row": square[0], "col": square[1], "block": star_block, "face": ("left", "right")[side],
         "letter": "Q"}]}))]


@pytest.mark.parametrize("name", sorted(SCREENSHOT_RECIPES))
def test_screenshot_recipes_reach_the_table(signed_tree, tmp_path: Path, name: str) -> None:
    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=5)
    try:
        SCREENSHOT_RECIPES[name](s)
        if name == "prism-words-play":
            assert s.state == "game.prism-words.play" and len(customer_moves(s)) == 2
        elif name == "prism-words-machine":  # caught while the machine's blocks go down
            scene = s.video.scene
            assert s.state == "game.prism-words.play" and scene.busy(s.video.frame)
            assert 0 < scene.machine.shown(s.video.frame.now) < len(scene.machine.pieces)
        else:
            assert s.state != "game.prism-words.play"
            assert s.cabinet.snapshot()["last_outcome"]["game_id"] == "prism-words"
        assert s.render().get_size() == (1920, 1080)
    finally:
        s.close()


def test_one_name_per_seat_in_the_scores_the_moves_and_the_end() -> None:
    """Each seat has one name on the table: the scores' header names the customer YOU and the
    opponent MACHINE, and so do the list of the last moves and the end's rack adjustments."""
    pygame.init()
    game = PrismWords(example_paytable())
    round_ = game.new_round(game.default_wager(1), Rng.from_seed(2), {})
    scene = PrismWordsScene(Resources.create())
    surface = pygame.Surface((1920, 1080))
    seen_machine_move = False
    while True:
        view = round_.view()
        frame = Frame({"state": f"game.prism-words.{round_.step}", "game": {"view": view, "number": 1}}, 0.0)
        scene.enter(frame)
        scene.res.kit.drawn.clear()
        scene.draw(surface, frame)
        drawn = list(scene.res.kit.drawn)
        assert {"YOU", "YOU *"} & set(drawn) and {"MACHINE", "MACHINE *"} & set(drawn)  # the scores
        assert not [text for text in drawn if "SEAT" in text]
        moves = [text for text in drawn if ": " in text and not text.startswith("RACKS")
                 and " x bet = " not in text]  # the end screen's pay reasons are not moves
        assert all(text.split(": ")[0] in ("YOU", "MACHINE") for text in moves), moves
        seen_machine_move |= any(text.startswith("MACHINE: ") for text in moves)
        if round_.finished:
            adjust = view.table["end_adjustments"]
            assert f"RACKS LEFT: YOU {adjust[0]:+d}, MACHINE {adjust[1]:+d}" in drawn
            break
        round_.decide(round_.reference_decision())
    assert seen_machine_move

"""Property's table as a player reads it (issue 31, items 12 and 16): the customer's own declines and
bids in the log, the card and the trade's answer gone after the customer's next decision, every
space's label whole at a size read at 1080p with no token over it, and the turns since the customer's
last decision played out on the board one event a tick (held input, a power cut resumes settled)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.events import PlayerDecision, SelectGame
from egm.games.base import Decision
from egm.games.property.game import PropertyGame
from egm.games.property.scene import PropertyScene, describe, seat_names
from egm.games.property.spaces import (
    BOARD,
    LABEL_SIZE,
    LINE_H,
    TOKEN_R,
    label,
    space_rect,
    text_box,
    token_centre,
)
from egm.games.property.turn_view import WALK
from egm.rng import Rng
from egm.video.machine_move import HIGHLIGHT
from egm.video.scene import Frame, Resources
from egm.video.screenshot import credit
from egm.video.session import Session
from tests.property_support import shipped_paytable

READABLE_PX = 18


@pytest.fixture(scope="module")
def scene() -> PropertyScene:
    pygame.init()
    return PropertyScene(Resources.create())


def new_round(seed: int) -> Any:
    game = PropertyGame(shipped_paytable())
    return game, game.new_round(game.default_wager(1), Rng.from_seed(seed), {})


def log_lines(round_: Any) -> list[str]:
    view = round_.table_view()
    return [describe(e, view["spaces"], seat_names(len(view["seats"]))) for e in view["log"]]


def test_the_customers_declines_and_bids_are_logged_in_player_words() -> None:
    game, round_ = new_round(4)
    said: list[str] = []
    while not round_.finished and len(said) < 4:
        view = round_.table_view()
        step = view["decision"]
        space = view["spaces"][round_.request.space]["name"] if step in ("buy", "auction") else ""
        if step == "buy":
            round_.decide(Decision("decline"))
            said.append(f"YOU decline {space}: it goes to auction")
        elif step == "auction":
            bid = 0 if len(said) % 4 == 3 else min(view["seats"][0]["cash"], 10)
            round_.decide(Decision("bid", {"amount": bid}))
            said.append(f"YOU bid ${bid} for {space}" if bid else f"YOU pass in the auction for {space}")
        else:
            round_.decide(round_.reference_decision())
            continue
        names = seat_names(len(view["seats"]))
        assert said[-1] in [describe(e, view["spaces"], names) for e in round_.log()]
        if len(round_.table_view()["recent"]) < 11:  # on the screen's log until later events push it off
            assert said[-1] in log_lines(round_)
    assert len(said) == 4
    again = game.restore(round_.to_record())  # after a power cut: the same log
    assert log_lines(again) == log_lines(round_)


def test_the_log_names_no_card_by_its_id() -> None:
    game, round_ = new_round(2)
    while not round_.finished:
        round_.decide(round_.reference_decision())
    names = seat_names(len(round_.table_view()["seats"]))
    lines = [describe(event, game.spaces, names) for event in round_.log()]
    ids = [card.id for deck in game.board.decks.values() for card in deck]
    paid = [line for line in lines if "as the card says" in line]
    assert paid and not any("_" in line or f"({i.replace('_', ' ')})" in line for line in lines for i in ids)


def test_the_card_and_the_trades_answer_clear_after_the_customers_next_decision() -> None:
    _, round_ = new_round(2)
    while round_.table_view()["last_card"] is None:
        round_.decide(round_.reference_decision())
    round_.decide(round_.reference_decision())
    view = round_.table_view()
    drawn = [e for e in view["recent"] if e["kind"] == "card" and "text" in e]
    assert view["last_card"] == ([drawn[-1]["deck"], drawn[-1]["text"]] if drawn else None)
    def machine_title(view: dict[str, Any]) -> bool:
        return view["decision"] == "turn" and any(owner > 0 for owner in view["owner"])

    while not machine_title(round_.table_view()):
        round_.decide(round_.reference_decision())
    space = next(i for i, owner in enumerate(round_.table_view()["owner"]) if owner > 0)
    price = round_.table_view()["spaces"][space]["price"]
    round_.decide(Decision("trade", {"with": 1, "give": [], "get": [space], "cash": price}))
    assert round_.table_view()["last_trade"] is not None
    round_.decide(Decision("roll"))
    assert round_.table_view()["last_trade"] is None


def test_every_space_name_fits_its_box_at_a_size_read_at_1080p(scene: PropertyScene) -> None:
    game, _ = new_round(1)
    font = scene.res.kit.font(LABEL_SIZE)
    assert LABEL_SIZE >= READABLE_PX
    for index, space in enumerate(game.spaces):
        box, lines = text_box(index), scene.space_lines(index, space)
        assert all(font.size(line)[0] <= box.width for line in lines), (space["name"], lines, box)
        assert LINE_H * len(lines) <= box.height, (space["name"], lines, box)
        assert box.inflate(4, 4).clip(space_rect(index)) == box.inflate(4, 4)  # inside the space
        printed = "".join(line.removesuffix("-") for line in lines).replace(" ", "")  # the whole label
        assert printed == label(space).replace(" ", "") + (f"${space['price']}" if space["price"] else "")
    assert scene.space_lines(1, game.spaces[1])[:2] == ["Mediter-", "ranean"]


def test_the_board_is_drawn_at_the_readable_size_and_no_token_covers_a_label(scene: PropertyScene) -> None:
    _, round_ = new_round(3)
    for _ in range(30):
        round_.decide(round_.reference_decision())
    sizes: list[int] = []
    kit_text = scene.res.kit.text

    def recording(surface: Any, text: str, pos: Any, size: int, *args: Any, **kw: Any) -> Any:
        inner = BOARD.inflate(-2 * 116, -2 * 116)
        if BOARD.collidepoint(pos) and not inner.collidepoint(pos):
            sizes.append(size)
        return kit_text(surface, text, pos, size, *args, **kw)

    scene.res.kit.text = recording  # type: ignore[method-assign]
    try:
        scene.draw(pygame.Surface((1920, 930)), Frame({"game": {"view": round_.view()}}, 0.0))
    finally:
        del scene.res.kit.text
    assert sizes and min(sizes) >= READABLE_PX
    for seats in (2, 3, 4):
        for index in range(40):
            for seat in range(seats):
                x, y = token_centre(index, seat, seats)
                token = pygame.Rect(x - TOKEN_R, y - TOKEN_R, 2 * TOKEN_R, 2 * TOKEN_R)
                assert not token.colliderect(text_box(index)) and space_rect(index).contains(token)


# --- the turns played out on the board ------------------------------------------------------------
def start(config: Any, nvram: Path) -> Session:
    s = Session(config, nvram, seed=6, game_ids=["property"])
    credit(s)
    s.video.send(SelectGame("property"))
    s.key("space")
    s.settle()
    return s


def until_a_machine_turn_plays_out(s: Session) -> list[dict[str, Any]]:
    """AUTO PLAY until the events since the customer's decision include a machine's move; them."""
    for _ in range(60):
        s.key("h")
        recent = s.cabinet.round.view().table["recent"]
        if s.video.scene.busy(s.video.frame) and any(e["seat"] and e["kind"] == "move" for e in recent):
            return list(recent)
        s.settle()
    raise AssertionError("no machine turn was played out")


def picture(s: Session, scene: Any = None) -> pygame.Surface:
    s.video.update()
    surface = pygame.Surface((1920, 1080))
    (scene or s.video.scene).draw(surface, s.video.frame)
    return surface


def settled(s: Session) -> pygame.Surface:
    fresh = PropertyScene(s.video.res)
    fresh.enter(s.video.frame)
    return picture(s, fresh)


def test_the_turns_play_out_one_event_a_tick_then_the_board_is_the_rounds(signed_tree: Any,
                                                                           tmp_path: Path) -> None:
    s = start(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram")
    try:
        recent = until_a_machine_turn_plays_out(s)
        scene, tick = s.video.scene, s.video.scene.machine.piece_s
        table = s.cabinet.round.view().table
        final_log = len(table["log"])
        decisions = len(s.cabinet.round.to_record()["decisions"])
        s.wait(tick * (WALK + 1) / 2)  # inside each tick, after the walk
        for k in range(len(recent) + 1):
            shown = scene.shown_table(s.video.frame)
            assert len(shown["log"]) == max(0, final_log - len(recent) + k) or k == 0
            for seat in range(len(shown["seats"])):  # a token stands where its latest move shown ended
                moves = [e for e in recent[:k] if e["seat"] == seat and e["kind"] in ("move", "jail")]
                later = [e for e in recent[k:] if e["seat"] == seat and e["kind"] in ("move", "jail")]
                expected = moves[-1]["to"] if moves else later[0]["from"] if later else None
                assert expected is None or shown["seats"][seat]["position"] == expected, (k, seat)
            space = scene.machine.newest(s.video.frame.now)
            if k and space is not None:
                ring = space_rect(space).inflate(6, 6)
                assert tuple(picture(s).get_at((ring.x + 1, ring.centery)))[:3] == HIGHLIGHT
            s.key("h")  # held: nothing decided for the player
            assert len(s.cabinet.round.to_record()["decisions"]) == decisions
            assert any("the machine is playing" in t.text for t in s.video.toasts)
            s.wait(tick)
        assert not scene.busy(s.video.frame)
        content = pygame.Rect(0, 0, 1920, 930)
        now, then = picture(s), settled(s)
        assert pygame.image.tobytes(now.subsurface(content), "RGB") == \
            pygame.image.tobytes(then.subsurface(content), "RGB")
    finally:
        s.close()


def test_a_power_cut_while_the_turns_play_out_resumes_at_the_settled_board(signed_tree: Any,
                                                                            tmp_path: Path) -> None:
    config = load_cabinet_config(signed_tree.config_path)
    first = start(config, tmp_path / "nvram")
    until_a_machine_turn_plays_out(first)
    board = first.cabinet.round.view().table
    first.wait(first.video.scene.machine.piece_s * 1.5)
    assert first.video.scene.busy(first.video.frame)
    first.close()  # the power is cut mid-turn
    again = Session(config, tmp_path / "nvram", seed=6, game_ids=["property"])
    try:
        assert again.video.scene.name == "property" and not again.video.scene.busy(again.video.frame)
        shown = again.video.scene.shown_table(again.video.frame)
        assert [seat["position"] for seat in shown["seats"]] == [seat["position"] for seat in board["seats"]]
        assert shown["owner"] == board["owner"] and shown["log"] == board["log"]
        again.video.send(PlayerDecision(again.cabinet.round.reference_decision()))  # input is taken again
    finally:
        again.close()

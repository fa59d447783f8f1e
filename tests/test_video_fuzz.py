"""The video shell under random input: keys, clicks, touches, drags, waits and the emulated devices
(bills, tickets, doors, key switches, the power-cut control), in every state the cabinet reaches
(attract, the game menu, each game's steps, cash out, hand pay, tilts, the operator menu).

Nothing may raise, and the accounting identity (credits = money in + wins - wagers - money out) must
hold after every single input. No reveal is skipped (a finished round stays on its table until its
reveal has shown the result, unless a door, the operator key or a tilt takes the screen), and no meter
shows a result before its reveal (CREDIT and WIN leave the win out, the jackpot keeps its old value).
A deal (Dragon Poker's, Poker Grid's: egm/video/deal.py) runs only on a round in progress awaiting the
player's first decision, so hurrying it can never pass a result.
The explicit examples reach each state for sure; hypothesis adds random sequences on top. Headless:
SDL's dummy drivers (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from egm.config import CabinetConfig, load_cabinet_config
from egm.video.drawer import DRAWER_RECT
from egm.video.layout import BAR_RECT, grid
from egm.video.panel import PANEL_BUTTONS
from egm.video.scenes.game_select import TILES_RECT
from egm.video.screenshot import tab_centre
from egm.video.session import Session
from tests.accounting import identity_gap
from tests.rom_support import sign_tree

KEYS = ("space", "return", "b", "x", "s", "d", "c", "h", "1", "2", "3", "4", "backspace", "g", "m", "t",
        "tab", "escape", "f1", "f2", "f3", "f7", "f8", "f9", "f10", "f11", "f12")
# Points worth pressing: the bar's buttons, the device drawer's, the game menu's PLAY buttons, the
# Dragon table's hands and buttons, the Poker Grid hand and board.
GAMES = load_cabinet_config().games  # the game menu's tiles, as the cabinet offers them
DRAWER_ITEMS = 16  # the device drawer's controls: 6 notes, a ticket, 2 doors, 2 keys, power cut, 4 bad items
HOT = (
    *[(x + 60, BAR_RECT.y + 70) for x in (20, *(x for _, _, x, _ in PANEL_BUTTONS))],
    *[(40 + (i % 6) * 310 + 145, DRAWER_RECT.y + 90 + (i // 6) * 140 + 60) for i in range(DRAWER_ITEMS)],
    *[(tile.centerx, tile.bottom - 95) for tile in grid(TILES_RECT, len(GAMES), 1, gap=60)],
    *[(550, y + 64) for y in (150, 340, 530, 720)], (1430, 615), (1430, 745), (1440, 205), (1440, 345),
    *[(110 + i * 106, 800) for i in range(13)], (1100, 710), (1170, 710),
    *[(1100 + i * 150, 734) for i in range(5)],
    *[(99 + c * 118, 129 + r * 118) for r in range(7) for c in range(8)],
)

point = st.tuples(st.integers(0, 1919), st.integers(0, 1079)) | st.sampled_from(HOT)
ACTION = st.one_of(
    st.tuples(st.just("key"), st.sampled_from(KEYS)),
    st.tuples(st.just("click"), point),
    st.tuples(st.just("touch"), point),
    st.tuples(st.just("drag"), point, point),
    st.tuples(st.just("wait"), st.sampled_from((0.1, 1.0, 3.0, 8.0))),
)


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CabinetConfig]:
    from egm.config import PROJECT_ROOT

    signed = sign_tree(PROJECT_ROOT, tmp_path_factory.mktemp("rom"))
    yield load_cabinet_config(signed.config_path)


@pytest.fixture(scope="module")
def nvram_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Iterator[Path]]:
    root = tmp_path_factory.mktemp("nvram")
    yield (root / str(n) for n in range(10**6))


def act(s: Session, action: tuple) -> None:
    kind = action[0]
    if kind == "key":
        s.key(action[1])
    elif kind == "click":
        s.click(*action[1])
    elif kind == "touch":
        s.touch(*action[1])
    elif kind == "drag":
        s.click(*action[1], drag_to=action[2])
    else:
        s.wait(action[1])


TAKES_THE_SCREEN = ("tilt", "audit", "operator")  # a door, the operator key: the technician's screens


def check_reveal(s: Session, revealing: int | None, waited: bool, shown_before: int) -> int | None:
    """The invariants of the reveal after one input; returns the game number being revealed (or None).
    Only a wait moves the clock, so only a wait may bring a reveal to its end. `shown_before`: the
    CREDIT meter as shown after the last input that left no reveal running."""
    video = s.video
    frame, scene = video.frame, video.scene
    technician = scene.name.startswith(TAKES_THE_SCREEN)
    if revealing is not None and not waited and not technician:
        # the round being revealed is still on its table, still revealing: never skipped
        assert scene.game_id and frame.round_number == revealing, (scene.name, frame.round_number, revealing)
        assert scene.busy(frame)
    if not (scene.game_id and scene.busy(frame)):
        return revealing if technician else None
    if frame.view is not None and frame.view.win_credits is None:
        return frame.round_number  # a board game's machine move playing out mid-round: held, no result yet
    outcome = s.cabinet.last_outcome
    assert outcome is not None and outcome["number"] == frame.round_number
    credit, win = video.meters_shown(frame)
    assert win == 0 and credit == shown_before, (credit, shown_before)  # as before the reveal
    if s.state == "attract" and not outcome["hand_paid"]:  # the win is on the meter, not on screen
        assert credit * s.cabinet.config.denomination_cents <= s.cabinet.credits_cents - outcome["win_cents"]
    if hasattr(scene, "jackpot_shown"):
        view = frame.table
        assert scene.jackpot_shown(frame) == view["money"]["pool_before_cents"]
    return frame.round_number


def check_deal(s: Session) -> None:
    """A table still dealing shows a round in progress, awaiting a decision, with no result yet."""
    scene, frame = s.video.scene, s.video.frame
    deal = getattr(scene, "deal", None)
    if deal is None or not deal.dealing(frame.now):
        return
    view = frame.view
    assert view is not None and view.win_credits is None and view.decision_awaited, scene.name
    assert s.cabinet.round is not None and s.state.startswith(f"game.{scene.game_id}."), s.state


def states_of(s: Session, actions: list[tuple]) -> set[str]:
    """Run the actions; after each, the identity holds and the reveal's invariants hold. Returns the
    states seen."""
    seen = {s.state}
    revealing, shown_before = None, s.video.meters_shown(s.video.frame)[0]
    for action in actions:
        act(s, action)
        s.render()
        memory = s.cabinet.memory
        assert memory is not None
        meters = memory.meters.to_record()
        assert identity_gap(meters) == 0, (action, meters)
        assert meters["current_credits"] >= 0
        revealing = check_reveal(s, revealing, waited=action[0] == "wait", shown_before=shown_before)
        check_deal(s)
        if not (s.video.scene.game_id and s.video.scene.busy(s.video.frame)):
            shown_before = s.video.meters_shown(s.video.frame)[0]
        seen.add(s.state.split(".")[0] if not s.state.startswith("game.") else s.state)
    return seen


BILL = ("key", "f7")  # $100
PLAY_DRAGON = [BILL, ("key", "space"), ("key", "1"), ("key", "2"), ("key", "3"), ("key", "return"),
               ("key", "h"), ("wait", 8.0)]
FIRST_TILE = 1 + len(PANEL_BUTTONS) + DRAWER_ITEMS  # HOT's first game-menu tile
PLAY_GRID = [BILL, ("click", HOT[FIRST_TILE + GAMES.index("poker-grid")]),  # each turn, then the machine's
             *[action for _ in range(30) for action in (("key", "h"), ("wait", 2.0))], ("wait", 3.0)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(actions=st.lists(ACTION, max_size=30))
@example(actions=PLAY_DRAGON + [("key", "c"), ("key", "t")])  # a game, cash out, the ticket back in
@example(actions=PLAY_GRID + [("key", "g"), ("key", "b"), ("key", "b"), ("key", "b"), ("key", "space")])
@example(actions=[*PLAY_GRID[:2], ("wait", 0.1), ("click", HOT[-20]), ("touch", HOT[-21]), ("key", "g"),
                  ("wait", 0.1), ("key", "f10"), ("key", "f10"), ("key", "space")])  # Grid's deal, pressed
@example(actions=[BILL] * 13 + [("key", "c"), ("key", "space"), ("key", "f11")])  # hand pay, attendant
@example(actions=[BILL, ("key", "space"), ("key", "f8"), ("key", "1"), ("key", "f8"), ("key", "f12")])  # tilt
@example(actions=[*PLAY_DRAGON, ("key", "f10"), ("click", tab_centre("recall")), ("click", (960, 540)),
                  ("key", "f10")])
@example(actions=[*PLAY_DRAGON[:-1], ("wait", 0.1), ("key", "g"), ("key", "c"), ("key", "space"),  # mash
                  ("key", "x"), ("click", HOT[1]), ("wait", 1.0), ("key", "g"), ("wait", 8.0)])  # the reveal
@example(actions=[("key", "f1"), ("touch", (960, 540)), ("touch", (960, 540)), ("key", "tab"),
                  ("click", HOT[8]), ("click", HOT[20]), ("key", "escape")])
def test_no_input_raises_and_the_identity_holds_after_each(config: CabinetConfig, nvram_dirs: Iterator[Path],
                                                          actions: list[tuple]) -> None:
    s = Session(config, next(nvram_dirs), seed=len(actions))
    try:
        states_of(s, actions)
    finally:
        s.close()


def test_the_examples_reach_every_state(config: CabinetConfig, tmp_path: Path) -> None:
    """The fixed examples above do drive the shell through every state (so the fuzz covers them)."""
    seen: set[str] = set()
    runs = [PLAY_DRAGON + [("key", "c")], PLAY_GRID, [BILL] * 13 + [("key", "c")], [BILL, ("key", "f8")],
            [*PLAY_DRAGON, ("key", "f10")]]
    for n, actions in enumerate(runs):
        s = Session(config, tmp_path / str(n), seed=n)
        try:
            seen |= states_of(s, actions)
        finally:
            s.close()
    assert {"attract", "game.dragon-poker.designate", "game.dragon-poker.set", "game.poker-grid.play",
            "handpay", "tilt", "audit"} <= seen, seen
    assert pygame.get_init()

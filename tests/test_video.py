"""The emulated terminal driven through real pygame events (SDL dummy driver): the cabinet state that
results, pixels where they should be, and bad input that must change nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from egm.cards import parse_cards
from egm.config import load_cabinet_config
from egm.games.dragon_poker import scene as dp
from egm.games.dragon_poker.house_way import set_house_way
from egm.games.dragon_poker.scene import DragonPokerScene, zone_rect
from egm.games.dragon_poker.screenshots import hand_centre, pool_card_centre, set_step
from egm.video import snap
from egm.video.controller import VideoController
from egm.video.layout import BAR_RECT, CONTENT_RECT, Viewport
from egm.video.screenshot import credit, recipes
from egm.video.session import Session
from egm.video.theme import BLUE, CYAN, DRAGON_RED, FELT, GREY, LAMP_OFF, RED
from egm.video.ticket import BARCODE_RECT, TICKET_SIZE, draw_ticket
from tests.itf_scanner import decode, read_row

GAME = ["dragon-poker"]


@pytest.fixture
def config(signed_tree):
    """The cabinet config with a manifest of the tree signed just now (others edit the tree)."""
    return load_cabinet_config(signed_tree.config_path)


@pytest.fixture
def session(config, tmp_path: Path):
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    yield s
    s.close()


def meters(s: Session) -> dict:
    return dict(s.cabinet.memory.meters.to_record())


def toast_texts(s: Session) -> list[str]:
    return [t.text for t in s.video.toasts]


def player_cards(s: Session) -> list[str]:
    view = s.cabinet.round.view().table
    label = {h["role"]: k for k, h in view["hands"].items()}["player"]
    return view["hands"][label]["cards"]


def indices_of(cards: list[str], wanted: list[str]) -> list[int]:
    """Positions of `wanted` among `cards` (a second JK is the second joker)."""
    free = list(range(len(cards)))
    out = []
    for text in wanted:
        i = next(i for i in free if cards[i] == text)
        free.remove(i)
        out.append(i)
    return out


# --- Dragon Poker table -------------------------------------------------------------------------
def test_designate_by_clicking_hands_and_confirm(session: Session) -> None:
    credit(session)
    session.key("space")
    assert session.state == "game.dragon-poker.designate"
    for index in (1, 3, 0):  # B player, D dealer, A Dragon
        session.click(*hand_centre(index))
    frame = session.render()
    ring = dp.DragonPokerScene.hand_rect(session.video.scene, "B").inflate(24, 24)
    assert frame.get_at((ring.x + 4, ring.centery))[:3] == BLUE  # the player's hand wears the player colour
    session.click(*session.video.scene.designate_buttons()[0].rect.center)  # CONFIRM HANDS
    assert session.state == "game.dragon-poker.set"
    assert session.cabinet.round.designation == {"player": "B", "dealer": "D", "dragon": "A"}


def test_set_hand_by_tap_and_drag_settles_the_round(session: Session) -> None:
    set_step(session)
    cards = player_cards(session)
    before = meters(session)
    house = set_house_way(parse_cards(" ".join(cards)))
    front = [str(c) for c in house.row("front")]
    middle = [str(c) for c in house.row("middle")]
    for i in indices_of(cards, front):
        session.click(*pool_card_centre(i))  # a tap puts a card in the first row with room: front
    first, *rest = indices_of(cards, middle)
    session.click(*pool_card_centre(first), drag_to=zone_rect("middle").center)  # drag onto MIDDLE
    for i in rest:
        session.click(*pool_card_centre(i))
    scene = session.video.scene
    assert len(scene.placed) == 13  # the back filled itself with the remaining five
    session.click(*scene.set_buttons()[0].rect.center)  # SET HAND
    assert session.state == "attract"
    decision = session.cabinet.recall()[0]["round"]["decisions"][-1]
    assert decision["kind"] == "set"
    assert sorted(decision["args"]["front"]) == sorted(front)
    assert sorted(decision["args"]["middle"]) == sorted(middle)
    outcome = session.cabinet.last_outcome
    after = meters(session)
    assert after["coin_in"] == before["coin_in"] == outcome["stake_cents"]  # staked at DEAL, not again
    assert after["current_credits"] == before["current_credits"] + outcome["win_cents"]


def test_a_foul_setting_is_refused_with_the_reason_on_screen(session: Session) -> None:
    set_step(session)
    cards = player_cards(session)
    naturals = sorted((c for c in cards if c != "JK"), key=lambda c: "23456789TJQKA".index(c[0]))
    front, middle = naturals[-3:], naturals[:5]  # the three best cards in front: a foul
    for i in indices_of(cards, front) + indices_of(cards, middle):
        session.click(*pool_card_centre(i))
    before = meters(session)
    session.click(*session.video.scene.set_buttons()[0].rect.center)
    assert session.state == "game.dragon-poker.set"
    assert meters(session) == before
    assert any("foul" in t.lower() or "must" in t.lower() for t in toast_texts(session)), toast_texts(session)
    frame = session.render()
    assert frame.get_at((960, BAR_RECT.y - 40))[:3] == (204, 30, 40)  # the red refusal banner


def test_house_way_key_and_button(session: Session) -> None:
    set_step(session)
    session.click(*session.video.scene.set_buttons()[1].rect.center)  # HOUSE WAY on the felt
    assert session.state == "attract" and session.cabinet.last_outcome["number"] == 1


def test_clicks_outside_the_allowed_areas_change_nothing(session: Session) -> None:
    credit(session)
    session.key("space")
    before = (meters(session), session.cabinet.round.to_record())
    for pos in ((1100, 200), (30, 900), (1800, 600), (960, 50)):
        session.click(*pos)
    scene = session.video.scene
    assert scene.chosen == [] and not toast_texts(session)
    session.video.resize((1280, 1024))  # a 5:4 panel: letterbox bars above and below the picture
    session.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(640, 20), button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(640, 20), button=1, touch=False),
    )
    assert (meters(session), session.cabinet.round.to_record()) == before


def test_button_mashing_during_the_reveal_is_refused(session: Session) -> None:
    set_step(session)
    session.key("h")
    assert session.video.scene.busy(session.video.frame)
    for _ in range(10):
        session.key("space")
        session.click(*session.video.scene.settled_buttons(session.video.frame)[0].rect.center)
        session.key("c")
    assert meters(session)["games_played"] == 1
    assert "Please wait: the cards are being revealed." in toast_texts(session)
    session.wait(dp.REVEAL_S + 0.5)
    assert not session.video.scene.busy(session.video.frame)
    session.key("space")  # now DEAL starts the next game
    assert meters(session)["games_played"] == 2


def test_touch_with_its_mouse_copy_counts_once(session: Session) -> None:
    credit(session)
    session.key("space")
    session.touch(*hand_centre(0))  # FINGERDOWN/UP plus SDL's MOUSEBUTTONDOWN/UP copies
    assert session.video.scene.chosen == ["A"]  # twice would have toggled it back off
    # a mouse click while a finger is held is one press, not two
    px, py = hand_centre(1)
    w, h = session.video.viewport.size
    finger = {"x": px / w, "y": py / h, "dx": 0.0, "dy": 0.0, "finger_id": 9, "touch_id": 0, "pressure": 1.0}
    session.post(
        pygame.event.Event(pygame.FINGERDOWN, finger),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=hand_centre(2), button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=hand_centre(2), button=1, touch=False),
        pygame.event.Event(pygame.FINGERUP, finger),
    )
    assert session.video.scene.chosen == ["A", "B"]


def test_keys_in_the_wrong_state_are_refused_with_a_reason(session: Session) -> None:
    before = meters(session)
    session.key("space")  # DEAL with no credit
    assert any("exceeds" in t for t in toast_texts(session))
    session.key("h")  # HOUSE WAY outside a game
    assert "HOUSE WAY plays the game's own choice when its lamp is lit." in toast_texts(session)
    credit(session)
    session.key("space")
    session.key("c")  # CASH OUT in the middle of a game
    assert any("Cash out when the game is over" in t for t in toast_texts(session))
    session.key("b")  # BET during a game
    assert session.state == "game.dragon-poker.designate"
    assert meters(session)["coin_in"] - before["coin_in"] == session.cabinet.round.wager.stake_credits


def test_window_resize_keeps_state_and_maps_the_pointer(session: Session) -> None:
    credit(session)
    session.key("space")
    before = meters(session)
    session.post(pygame.event.Event(pygame.VIDEORESIZE, w=1280, h=720, size=(1280, 720)))
    assert session.video.viewport == Viewport((1280, 720))
    session.click(*hand_centre(2))  # Session.click maps the logical point to the new window
    assert session.video.scene.chosen == ["C"]
    target = pygame.Surface((1280, 720))
    session.video.present(target)
    assert meters(session) == before


def test_bet_level_raises_the_stake(session: Session) -> None:
    credit(session)
    session.key("b")
    session.key("space")
    view = session.cabinet.round.view()
    assert view.bet_credits == 2 * session.cabinet.games["dragon-poker"].default_wager(1).bet_credits


# --- tickets, devices, lamps ----------------------------------------------------------------------
def test_cash_out_ticket_barcode_is_the_itf_of_the_validation_number(session: Session) -> None:
    credit(session)
    session.key("c")
    printed = session.cabinet.devices.printer.printed
    assert len(printed) == 1 and session.video.overlay == "ticket"
    ticket = printed[0]
    image = draw_ticket(session.video.res.kit, ticket)
    elems = read_row(image, BARCODE_RECT.centery, BARCODE_RECT.x, BARCODE_RECT.right)
    assert decode(elems) == ticket.validation_number
    frame = session.render()  # and the ticket is on screen, centred over the table
    bars_y = CONTENT_RECT.centery - TICKET_SIZE[1] // 2 + BARCODE_RECT.centery
    assert frame.get_at((CONTENT_RECT.centerx, bars_y))[:3] in ((0, 0, 0), (255, 255, 255))
    session.key("t")  # insert the printed ticket again: the credit comes back
    assert meters(session)["tickets_in"] == ticket.amount_cents
    assert meters(session)["current_credits"] == ticket.amount_cents


def test_device_controls_bills_doors_and_power_cut(session: Session) -> None:
    for key in ("f2", "f3", "f4", "f5", "f6", "f7"):
        session.key(key)
    assert meters(session)["bills_in"] == sum(load_cabinet_config().bill_denominations_cents)
    session.key("f8")
    assert session.state == "tilt.maindoor"
    assert type(session.video.scene).__name__ == "TiltScene"
    session.key("space")
    assert any("not allowed" in t for t in toast_texts(session))
    session.key("f8")
    assert session.state == "attract"
    session.key("f12")
    assert session.power_cuts == 1


def test_drawer_buttons_insert_bills(session: Session) -> None:
    session.key("tab")
    first = session.video.drawer_buttons()[0]
    session.click(*first.rect.center)
    assert meters(session)["bills_in"] == load_cabinet_config().bill_denominations_cents[0]


def test_lamps_mirror_the_panel(session: Session) -> None:
    credit(session)
    session.wait(0.1)
    panel = session.cabinet.devices.button_panel
    assert panel.lamps["cash_out"].value == "on"
    session.key("space")
    assert panel.lamps["cash_out"].value == "off"
    lamps = {b.action: b.lamp for b in session.video.bar_buttons()}
    assert lamps["cash_out"] == "off" and lamps["bet_one"] == lamps["max_bet"] == "off"
    frame = session.render()
    cash_out = next(b for b in session.video.bar_buttons() if b.action == "cash_out")
    assert frame.get_at((cash_out.rect.centerx, cash_out.rect.bottom - 12))[:3] == LAMP_OFF


# --- operator menu --------------------------------------------------------------------------------
def test_operator_menu_recall_and_ram_clear_behind_confirmation(session: Session) -> None:
    set_step(session)
    session.key("h")
    session.wait(dp.REVEAL_S + 0.5)
    session.key("c")  # a RAM clear is refused while credit remains: cash it out first
    session.wait(5.0)
    session.key("escape")
    session.key("f10")
    assert session.state == "audit"
    scene = session.video.scene
    session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == "recall").rect.center)
    frame = session.render()
    from egm.video.scenes.operator import RECALL_RECT

    scale = RECALL_RECT.width / 1920  # an empty patch of felt of the table, drawn at the recall scale
    felt = frame.get_at((RECALL_RECT.x + round(900 * scale), RECALL_RECT.y + round(860 * scale)))[:3]
    assert abs(felt[1] - FELT[1]) < 12 and felt[1] > felt[0]  # the recalled table is drawn again
    played = meters(session)["games_played"]
    session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == "ram_clear").rect.center)
    session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == "ram_ask").rect.center)
    session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == "ram_no").rect.center)
    assert meters(session)["games_played"] == played == 1
    session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == "ram_ask").rect.center)
    yes = next(b for b in scene.buttons(session.video.frame) if b.action == "ram_yes")
    frame = session.render()  # the confirmation is drawn over the page
    assert frame.get_at((yes.rect.centerx, yes.rect.bottom - 12))[:3] in (RED, LAMP_OFF)
    session.click(*yes.rect.center)
    assert meters(session)["games_played"] == 0


def test_kiosk_ignores_quit_and_stops_only_from_the_operator_menu(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", game_ids=GAME)
    kiosk = VideoController(
        s.cabinet, s.cabinet.devices, config, s.clock, s.video.audio, kiosk=True, power_cut=s.video.power_cut
    )  # never the real SIGKILL in a test
    for event in (
        pygame.event.Event(pygame.QUIT),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""),
    ):
        kiosk.process(event)
    assert kiosk.running
    assert not any(b.action == "drawer" for b in kiosk.bar_buttons())
    for key in (pygame.K_F7, pygame.K_F8, pygame.K_F12):  # no bills, doors or power cut from a kiosk keyboard
        kiosk.process(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    kiosk.update()
    assert s.state == "attract" and s.power_cuts == 0 and meters(s)["bills_in"] == 0
    kiosk.process(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0, unicode=""))  # the operator key
    kiosk.update()
    scene = kiosk.scene
    assert s.state == "audit"
    tab = next(b for b in scene.buttons(kiosk.frame) if b.action == "shutdown").rect.center
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        kiosk.process(pygame.event.Event(t, pos=tab, button=1))
    yes = next(b for b in scene.buttons(kiosk.frame) if b.action == "shutdown_yes").rect.center
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        kiosk.process(pygame.event.Event(t, pos=yes, button=1))
    assert not kiosk.running
    s.close()


def test_scene_switches_follow_the_cabinet_state(session: Session) -> None:
    assert type(session.video.scene).__name__ == "AttractScene"
    credit(session)
    assert type(session.video.scene).__name__ == "GameSelectScene"
    session.key("space")
    assert isinstance(session.video.scene, DragonPokerScene)


def test_screenshot_command_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "x" / "s.png"
    command = [sys.executable, "-m", "egm.cli", "screenshot", "--scene", "attract", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 1000
    assert pygame.image.load(str(out)).get_size() == (1920, 1080)


def test_every_screenshot_recipe_is_offered_on_the_command_line() -> None:
    command = [sys.executable, "-m", "egm.cli", "screenshot", "--scene", "list"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    listed = done.stdout.split()
    assert done.returncode == 0 and listed == list(recipes())
    # the cabinet's own, each game's generic one, and the games' own from their descriptors
    assert {"attract", "operator", "dragon-poker-played", "poker-grid-played", "dragon-set",
            "poker-grid-play"} <= set(listed)
    unknown = subprocess.run([*command[:-1], "nope", "--out", "x.png"], capture_output=True, text=True,
                             timeout=120)
    assert unknown.returncode == 2 and "unknown scene 'nope'; known scenes: attract" in unknown.stderr


def test_after_a_power_cut_the_table_shows_the_same_hand_at_the_same_step(config, tmp_path: Path) -> None:
    first = Session(config, tmp_path / "nvram", seed=5, game_ids=GAME)
    set_step(first)
    first.click(*pool_card_centre(0))
    cards = player_cards(first)
    first.key("f12")  # CUT POWER: the emulator kills its process; here the session just stops
    assert first.power_cuts == 1
    first.close()
    second = Session(config, tmp_path / "nvram", seed=5, game_ids=GAME)
    assert second.state == "game.dragon-poker.set"
    assert player_cards(second) == cards
    assert isinstance(second.video.scene, DragonPokerScene)
    frame = second.render()
    first_card = pygame.Rect(*pool_card_centre(0), 1, 1)
    assert frame.get_at(first_card.topleft)[:3] != FELT  # the player's revealed hand is on the table again
    second.close()


def test_game_menu_play_button_starts_the_touched_game_at_the_chosen_bet(session: Session) -> None:
    credit(session)
    session.key("b")  # bet level 2
    scene = session.video.scene
    play = scene.buttons(session.video.frame)[0]
    session.click(*play.rect.center)
    assert session.state == "game.dragon-poker.designate"
    assert (
        session.cabinet.round.wager.bet_credits
        == 2 * session.cabinet.games["dragon-poker"].default_wager(1).bet_credits
    )


def test_hand_pay_lock_up_until_the_attendant_key(session: Session) -> None:
    for _ in range(13):
        credit(session)  # $1,300: at or above the $1,200 hand-pay limit
    session.key("c")
    assert session.state == "handpay"
    assert type(session.video.scene).__name__ == "HandPayScene"
    session.key("space")
    assert session.state == "handpay" and meters(session)["games_played"] == 0
    session.key("f11")  # the attendant pays and turns the reset key
    assert session.state == "attract"
    assert meters(session)["handpaid_cancelled_credits"] == 130000
    assert meters(session)["current_credits"] == 0


def test_house_way_is_refused_while_its_lamp_is_dark(session: Session) -> None:
    credit(session)
    session.key("space")
    assert {b.action: b.lamp for b in session.video.bar_buttons()}["auto_play"] == "off"
    session.key("h")  # designation is the player's own choice
    assert session.state == "game.dragon-poker.designate"
    assert "HOUSE WAY plays the game's own choice when its lamp is lit." in toast_texts(session)


def test_device_controls_refuse_politely_when_a_device_is_real(session: Session) -> None:
    class SerialAcceptor:  # a driver without the emulator's insert_bill()
        def poll(self) -> list[object]:
            return []

    session.cabinet.devices.bill_acceptor = SerialAcceptor()  # type: ignore[assignment]
    session.video.devices = session.cabinet.devices
    session.key("f2")
    assert any(t.startswith("The bill acceptor is a real device in this configuration") for t in
               toast_texts(session))
    assert meters(session)["bills_in"] == 0


def test_a_lost_release_does_not_lock_the_screen(session: Session) -> None:
    credit(session)
    session.key("space")
    x, y = hand_centre(0)
    session.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False))
    session.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))  # the release happens in another window
    session.click(*hand_centre(1))
    assert session.video.scene.chosen == ["B"]


def test_dealer_then_dragon_are_revealed_in_the_patent_order(session: Session) -> None:
    set_step(session)
    session.key("h")

    def face_up(role: str) -> bool:
        x, y = dp.SEAT_X[role], dp.REVEAL_ROW_Y["middle"]
        r, g, b = session.render().get_at((x + 4, y + 56))[:3]
        return min(r, g, b) > 200  # card face, not the red back

    assert face_up("player") and not face_up("dealer") and not face_up("dragon")
    session.wait(dp.DEALER_REVEALED * dp.PHASE_S + 0.05)
    assert not face_up("dealer")  # its cards are turning over
    session.wait(dp.FLIP_S)
    assert face_up("dealer") and not face_up("dragon")
    session.wait((dp.DRAGON_REVEALED - dp.DEALER_REVEALED) * dp.PHASE_S)
    assert face_up("dragon")
    assert session.video.scene.busy(session.video.frame)  # the points come last


def test_recall_pages_from_the_last_game_back(session: Session) -> None:
    set_step(session)
    session.key("h")
    session.wait(dp.REVEAL_S + 0.5)
    for key in ("space", "1", "2", "3", "return", "h"):
        session.key(key)
    session.wait(dp.REVEAL_S + 0.5)
    session.key("f10")
    scene = session.video.scene

    def press(action: str) -> None:
        session.click(*next(b for b in scene.buttons(session.video.frame) if b.action == action).rect.center)

    def shown() -> int:
        return snap.recall(session.video.frame.snapshot)[scene.recall_index]["number"]

    press("recall")
    assert shown() == 2
    first = session.render().copy()
    press("older")
    assert shown() == 1
    assert session.render().get_view("2").raw != first.get_view("2").raw  # another table is drawn
    press("older")
    assert shown() == 1  # the oldest stays


def test_a_5_to_4_panel_shows_the_whole_picture_letterboxed(session: Session) -> None:
    session.post(pygame.event.Event(pygame.VIDEORESIZE, w=1280, h=1024, size=(1280, 1024)))
    panel = pygame.Surface((1280, 1024))
    session.video.present(panel)
    top = (1024 - 720) // 2  # 1920x1080 scaled by 2/3 is 1280x720, centred
    assert panel.get_at((640, top // 2))[:3] == (0, 0, 0)  # bar above
    assert panel.get_at((640, 1024 - top // 2))[:3] == (0, 0, 0)  # bar below
    assert panel.get_at((640, top + 700))[:3] != (0, 0, 0)  # the meter bar of the picture
    session.click(
        *(pygame.Rect(next(b.rect for b in session.video.bar_buttons() if b.action == "help")).center)
    )
    assert session.video.overlay == "help"  # touch targets follow the scaled picture


def test_scoreboard_lists_the_last_results_from_wager_memory(session: Session) -> None:
    for _ in range(2):
        if session.state != "attract" or not session.cabinet.credits_cents:
            credit(session)
        for key in ("space", "1", "2", "3", "return", "h"):
            session.key(key)
        session.wait(dp.REVEAL_S + 0.5)
    board = session.cabinet.snapshot()["scoreboard"]["dragon-poker"]
    assert len(board) == 2
    frame = session.render()
    for i in range(2):
        row = dp.scoreboard_row(i)
        assert frame.get_at((row.x + 24, row.centery))[:3] in (BLUE, GREY, DRAGON_RED, CYAN)
    row = dp.scoreboard_row(2)
    assert frame.get_at((row.x + 24, row.centery))[:3] == (16, 14, 26)  # an empty row


@pytest.mark.parametrize(
    "module",
    [
        "egm.video.layout",
        "egm.video.barcode",
        "egm.video.bet_choice",
        "egm.video.sound_cues",
        "egm.video.app",
        "egm.video.scenes.operator",
        "egm.video.controller",
        "egm.games.poker_grid.rules",
        "egm.games.dragon_poker.scene",
        "egm.play.pool_meters",
        "egm.cabinet.settings",
        "egm.cabinet.service",
        "egm.money",
        "egm.audio.synth",
    ],
)
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


def test_cash_out_shows_the_printing_screen_while_the_printer_works(session: Session) -> None:
    credit(session)
    printer = session.cabinet.devices.printer
    printed: list = []
    printer.print_ticket = printed.append  # a slow printer: no answer yet
    session.key("c")
    assert session.state == "cashout"
    assert type(session.video.scene).__name__ == "CashOutScene"
    session.key("space")  # nothing plays while the ticket prints
    assert session.state == "cashout" and meters(session)["games_played"] == 0
    assert printed and printed[0].amount_cents == 10000


def test_the_win_rolls_up_on_the_meters_only_after_the_reveal(session: Session) -> None:
    set_step(session)
    before = session.video.meters_shown(session.video.frame)[0]
    session.key("h")
    win = session.cabinet.last_outcome["win_cents"]  # 1-cent credits
    assert session.video.meters_shown(session.video.frame) == (before, 0)  # nothing given away yet
    session.wait(dp.REVEAL_S + 0.1)
    credit_shown, win_shown = session.video.meters_shown(session.video.frame)
    assert 0 <= win_shown <= win and credit_shown == before + win_shown
    session.wait(1.5)
    assert session.video.meters_shown(session.video.frame) == (before + win, win)
    assert session.video.meters_shown(session.video.frame)[0] == meters(session)["current_credits"]

"""What the display shows a technician and a player on serial hardware (issue 21): refusals at the
devices as notices, panel buttons through the configured mapping, long tilt and log text wrapped at
a readable size, and the device drawer's honest title."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from egm.config import load_cabinet_config
from egm.video.scene import Frame, Resources
from egm.video.scenes.operator import OperatorScene
from egm.video.scenes.tilt import TiltScene
from egm.video.session import Session, dev_signed_config
from egm.video.theme import AMBER, LIGHT_GREY

UNTRUSTED_KEY = (
    "unknown_key: /opt/egm/rom/manifest.json: signed with key id 5f1c0e8a9b2d4c7e, which is not a trusted "
    "key ['28ca15449cefa0d0']; add its .pub to [rom] trusted_keys or re-sign with a trusted key; "
    "not_loaded: games: the ROM failed its self-test, so no game was loaded; restore the ROM and power-cycle"
)
MIN_TEXT_PX = 28  # the height of a line of capitals at 1080p that an attendant reads from a step away


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    base = load_cabinet_config()
    buttons = {"b1": "bet_one", "b2": "max_bet", "b3": "side_bet", "b4": "help", "b7": "game_1"}
    panel = {"protocol": "egm-panel", "buttons": buttons}
    devices = {**base.model_dump()["devices"], "button_panel": panel}
    config = dev_signed_config(tmp_path, base.model_validate({**base.model_dump(), "devices": devices}))
    s = Session(config, tmp_path / "nvram", seed=3)
    yield s
    s.close()


def toasts(s: Session) -> list[str]:
    return [t.text for t in s.video.toasts]


Colour = tuple[int, int, int]


def text_bands(surface: pygame.Surface, area: pygame.Rect, colour: Colour) -> list[tuple[int, int]]:
    """(top, height) of each horizontal band of rows in `area` holding pixels of `colour`."""
    rows = [
        any(surface.get_at((x, y))[:3] == colour for x in range(area.left, area.right, 2))
        for y in range(area.top, area.bottom)
    ]
    bands, start = [], None
    for i, inked in enumerate([*rows, False]):
        if inked and start is None:
            start = i
        elif not inked and start is not None:
            bands.append((area.top + start, i - start))
            start = None
    return bands


def inked_columns(surface: pygame.Surface, area: pygame.Rect, colour: Colour) -> tuple[int, int]:
    xs = [x for x in range(area.left, area.right) for y in range(area.top, area.bottom, 3)
          if surface.get_at((x, y))[:3] == colour]
    return min(xs), max(xs)


def test_an_item_refused_at_the_acceptor_shows_a_notice(session: Session) -> None:
    session.cabinet.devices.bill_acceptor.insert_ticket("000000000000000042", 500)  # never issued here
    session.video.update()
    assert any("ticket" in text.lower() for text in toasts(session)), toasts(session)
    assert session.cabinet.credits_cents == 0


def test_panel_buttons_drive_the_shell_through_the_mapping(session: Session) -> None:
    panel = session.cabinet.devices.button_panel
    session.cabinet.devices.bill_acceptor.insert_bill(10000)
    session.video.update()
    game = session.video.game_shown()
    first = session.video.wager(game)
    panel.press("b1")  # BET ONE
    session.video.update()
    assert session.video.wager(game).bet_credits != first.bet_credits
    panel.press("b3")  # SIDE BET: the pair bonus
    session.video.update()
    assert sum(session.video.wager(game).side_bets.values()) > sum(first.side_bets.values())
    panel.press("b4")  # HELP
    session.video.update()
    assert session.video.overlay == "help"
    panel.press("b4")
    session.video.update()
    panel.press("b2")  # MAX BET: the highest bet, and the game starts
    session.video.update()
    assert session.video.wager(game).bet_credits == max(session.cabinet.games[game].bets_offered())
    assert session.state.startswith("game.")
    assert session.cabinet.memory.meters["games_played"] == 1


def test_the_drawer_says_emulated_only_for_emulated_devices(session: Session) -> None:
    assert session.video.drawer_title() == "EMULATED DEVICES"
    session.video.devices.bill_acceptor = object()  # e.g. a serial driver: no emulator controls
    assert session.video.drawer_title() != "EMULATED DEVICES"
    session.video.device("bill:0")
    assert "The bill acceptor is a real device" in toasts(session)[-1]
    session.video.devices.doors = object()
    session.video.device("door:main")
    assert toasts(session)[-1].startswith("The doors and key switches are real devices")


def tilt_surface(detail: str, now: float = 0.0) -> pygame.Surface:
    pygame.init()
    surface = pygame.Surface((1920, 1080))
    snapshot: dict[str, Any] = {"state": "tilt.romerror", "tilt": "rom_error", "tilt_detail": detail,
                                "open_doors": []}
    TiltScene(Resources.create()).draw(surface, Frame(snapshot, now))
    return surface


TILT_REASONS = {  # the tilts a technician meets on serial hardware, as the drivers word them
    "untrusted-key": UNTRUSTED_KEY,
    "power-loss-while-stacking": "The bill acceptor lost power while stacking a $20.00 note, so it was not "
    "credited; count the cash box, hand-pay it if it is there, then turn the ATTENDANT key to clear this.",
    "wrong-port": "The printer port /dev/serial/by-id/usb-FutureLogic_GEN2_Printer_0001-if00 cannot be "
    "opened: No such file or directory; check that the device is plugged in and powered, the port in "
    "the configuration (ls -l /dev/serial/by-id) and that the cabinet's user may use it (group dialout).",
    "garbled": "The button panel on /dev/ttyACM0 answers only with garbled replies (3 exchanges failed); "
    "check its baud rate, parity and stop bits, and its cable.",
}


@pytest.mark.parametrize("name", sorted(TILT_REASONS))
def test_long_tilt_text_is_wrapped_at_a_readable_height(name: str, tmp_path: Path) -> None:
    surface = tilt_surface(TILT_REASONS[name])
    pygame.image.save(surface, str(tmp_path / f"tilt-{name}.png"))
    bands = text_bands(surface, pygame.Rect(60, 400, 1800, 380), (255, 255, 255))
    assert len(bands) >= 2  # wrapped over several lines
    assert all(height >= MIN_TEXT_PX for _, height in bands), bands
    left, right = inked_columns(surface, pygame.Rect(0, 400, 1920, 380), (255, 255, 255))
    assert left >= 60 and right <= 1860  # nothing runs off the screen


def test_tilt_text_too_long_for_one_screen_is_paged() -> None:
    detail = "; ".join([UNTRUSTED_KEY] * 3)
    first, later = tilt_surface(detail, 0.0), tilt_surface(detail, 6.0)
    area = pygame.Rect(60, 400, 1800, 380)
    assert text_bands(first, area, (255, 255, 255)) and text_bands(later, area, (255, 255, 255))
    assert pygame.image.tobytes(first.subsurface(area), "RGB") != pygame.image.tobytes(
        later.subsurface(area), "RGB")
    assert all(h >= MIN_TEXT_PX for _, h in text_bands(first, area, (255, 255, 255)))


def test_event_log_lines_wrap_instead_of_being_cut_off() -> None:
    pygame.init()
    scene = OperatorScene(Resources.create())
    scene.tab = "events"
    surface = pygame.Surface((1920, 1080))
    message = "ROM self-test failed: " + UNTRUSTED_KEY
    entry = {"at": "2026-11-26T08:00:00", "kind": "rom_error", "message": message}
    scene.draw(surface, Frame({"state": "audit", "event_log": [entry], "meters": {}}, 0.0))
    grey = LIGHT_GREY
    bands = text_bands(surface, pygame.Rect(60, 220, 1800, 600), grey)
    assert len(bands) >= 3, bands
    _, right = inked_columns(surface, pygame.Rect(0, 220, 1920, 600), grey)
    assert right <= 1870


def test_a_warning_shows_on_the_attendants_page() -> None:
    pygame.init()
    scene = OperatorScene(Resources.create())
    surface = pygame.Surface((1920, 1080))
    snapshot: dict[str, Any] = {"state": "audit", "meters": {}, "event_log": []}
    scene.draw(surface, Frame(snapshot, 0.0))
    banner = pygame.Rect(960, 160, 900, 50)
    assert not text_bands(surface, banner, AMBER)
    warning = "The ticket printer's paper is low; load a new pack soon."
    scene.draw(surface, Frame({**snapshot, "warnings": [warning]}, 0.0))
    assert [h for _, h in text_bands(surface, banner, AMBER)]

"""The serial path in a real X window (Xvfb), as a technician demonstrates it (issue 21):
`egm sim all` plus `egm emulate --config config/cabinet-serial.toml` over socket:// on 127.0.0.1.

Everything is done at the simulators' consoles, exactly as typed by hand: a note goes in, a game is
played from the serial panel (BET, DEAL, the game's own buttons, HOUSE WAY), the player cashes out,
the ticket is redeemed, the same ticket is refused again with a message on screen, and the cabinet
survives a bill jam and a printer power loss. The screen is read back from the X server: the tilt
text must be at least MIN_TEXT_PX high, and the refusal must be on screen. The meters in the wager
memory prove the money at the end."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import numpy as np
import pygame
import pytest

from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.games import game_class
from egm.rom import load_paytable
from egm.video.layout import BAR_RECT
from egm.video.theme import AMBER, RED
from tests.rom_support import SignedTree, with_rom_section
from tests.test_kiosk_video import MIN_TEXT_PX, text_bands
from tests.xvfb_support import xvfb

SHOTS = Path(os.environ.get("EGM_SCREENSHOTS", "/tmp/egm-kiosk-xvfb"))
WIDTH, HEIGHT = 1920, 1080
WHITE = (255, 255, 255)


class XImage(ctypes.Structure):  # the leading fields of Xlib's XImage
    _fields_ = [(name, ctypes.c_int) for name in ("width", "height", "xoffset", "format")] + [
        ("data", ctypes.c_void_p)] + [(name, ctypes.c_int) for name in (
            "byte_order", "bitmap_unit", "bitmap_bit_order", "bitmap_pad", "depth", "bytes_per_line",
            "bits_per_pixel")]


def grab_screen(display: str) -> pygame.Surface:
    """The X server's screen (the emulator's window sits at 0,0), read with XGetImage."""
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XGetImage.restype = ctypes.POINTER(XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                              ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XDestroyImage = x11.XDestroyImage if hasattr(x11, "XDestroyImage") else None
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    assert dpy, f"cannot open X display {display}"
    try:
        image = x11.XGetImage(dpy, x11.XDefaultRootWindow(dpy), 0, 0, WIDTH, HEIGHT, 0xFFFFFFFF, 2)  # ZPixmap
        info = image.contents
        raw = ctypes.string_at(info.data, info.bytes_per_line * HEIGHT)
    finally:
        x11.XCloseDisplay(dpy)
    pixels = np.frombuffer(raw, dtype=np.uint8).reshape(HEIGHT, info.bytes_per_line // 4, 4)[:, :WIDTH, 2::-1]
    return pygame.surfarray.make_surface(np.ascontiguousarray(pixels.swapaxes(0, 1)))


def wait_for_screen(display: str, shown: Callable[[pygame.Surface], bool], seconds: float = 5.0
                    ) -> pygame.Surface:
    """The screen once `shown` holds; the test fails with the last screen saved if it never does."""
    end = time.monotonic() + seconds
    while True:
        screen = grab_screen(display)
        if shown(screen):
            return screen
        if time.monotonic() > end:
            SHOTS.mkdir(parents=True, exist_ok=True)
            pygame.image.save(screen, str(SHOTS / "not-shown.png"))
            raise AssertionError(f"never on screen (last screen: {SHOTS / 'not-shown.png'})")
        time.sleep(0.2)


def free_base_port() -> int:
    """Three consecutive free TCP ports on 127.0.0.1."""
    for base in range(17_000, 18_000, 7):
        sockets = []
        try:
            for offset in range(3):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", base + offset))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no free TCP ports")


class Console:
    """The `egm sim all` console: one command, one answer line."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.stdin: IO[str] = process.stdin
        self.stdout: IO[str] = process.stdout
        for _ in range(3):  # "<device> simulator on socket://..."
            assert "simulator on" in self.stdout.readline()

    def __call__(self, command: str) -> str:
        self.stdin.write(command + "\n")
        self.stdin.flush()
        return self.stdout.readline().strip()

    def wait_for(self, command: str, done: Callable[[str], bool], seconds: float = 30.0) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            answer = self(command)
            if done(answer):
                return answer
            time.sleep(0.2)
        raise AssertionError(f"'{command}' never satisfied the test; last answer: {answer}")

    def lamps(self) -> dict[str, str]:
        return eval(self("panel lamps"))  # noqa: S307 - the simulator prints a dict of plain strings


@pytest.fixture
def x_display() -> Iterator[str]:
    with xvfb("2200x1300x24") as display:  # larger than the window: the window is 1920x1080
        yield display


REASON_AREA = pygame.Rect(60, 400, 1800, 380)


def tilt_bands(screen: pygame.Surface) -> list[tuple[int, int]]:
    return text_bands(screen, REASON_AREA, WHITE) + text_bands(screen, REASON_AREA, AMBER)


def has_tilt_text(screen: pygame.Surface) -> bool:
    """The tilt's wording is drawn at full size (a frame grabbed while the screen before it was still
    shown, or half drawn, has smaller text in the area: wait past it rather than judge it)."""
    bands = tilt_bands(screen)
    return bool(bands) and all(height >= MIN_TEXT_PX for _, height in bands)


def tilt_is_readable(surface: pygame.Surface, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(SHOTS / f"{name}.png"))
    bands = tilt_bands(surface)
    assert bands, f"{name}: no tilt text on screen"
    assert all(height >= MIN_TEXT_PX for _, height in bands), (name, bands)


def attract(lamps: dict[str, str]) -> bool:
    """The panel's lamps as the cabinet sets them on the attract screen (DEAL flashes)."""
    return lamps.get("deal") == "FLASH"


def survive_tilt(console: Console, display: str, fault: str, clear: str, name: str) -> None:
    """A fault typed at a simulator: the cabinet tilts (service lamp flashing) with readable text on
    screen, then the fix typed there brings it back to the attract screen."""
    console(fault)
    console.wait_for("panel lamps", lambda a: eval(a).get("service") == "FLASH")
    tilt_is_readable(wait_for_screen(display, has_tilt_text, seconds=15.0), name)
    console(clear)
    console.wait_for("panel lamps", lambda a: attract(eval(a)) and eval(a).get("service") == "OFF")


def test_serial_cabinet_in_a_real_window(x_display: str, signed_tree: SignedTree, tmp_path: Path) -> None:
    base = free_base_port()
    text = (PROJECT_ROOT / "config" / "cabinet-serial.toml").read_text()
    for offset in range(3):
        text = text.replace(f"socket://127.0.0.1:{7001 + offset}", f"socket://127.0.0.1:{base + offset}")
    config_path = tmp_path / "cabinet-serial.toml"
    config_path.write_text(with_rom_section(text, signed_tree.manifest_path, signed_tree.trusted_keys))
    nvram = tmp_path / "nvram"
    cli = [sys.executable, "-m", "egm.cli"]
    sims = subprocess.Popen([*cli, "sim", "all", "--base-port", str(base)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=(tmp_path / "sim.log").open("w"), text=True)
    env = {**os.environ, "DISPLAY": x_display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy",
           "SDL_VIDEO_WINDOW_POS": "0,0"}
    emulator = None
    try:
        console = Console(sims)
        emulator = subprocess.Popen([*cli, "emulate", "--config", str(config_path), "--nvram", str(nvram)],
                                    env=env, stdout=subprocess.DEVNULL,
                                    stderr=(tmp_path / "emulate.log").open("w"))
        console.wait_for("panel lamps", lambda a: attract(eval(a)), 90)  # booted, in attract

        # a note, then a game from the serial panel: BET (b2), DEAL (b5), hands A-C (g1-g3), DEAL to
        # confirm, HOUSE WAY (b4, the game's auto button)
        console.wait_for("bill insert 10000", lambda a: a == "note of 10000 cents inserted")  # once enabled
        console.wait_for("bill cashbox", lambda a: "(10000, None)" in a)
        time.sleep(0.5)
        for button in ("b2", "b5"):
            console(f"panel tap {button}")
            time.sleep(0.6)
        console.wait_for("panel lamps", lambda a: eval(a).get("deal") == "OFF")  # the game is on
        for button in ("g1", "g2", "g3", "b5", "b4"):
            console(f"panel tap {button}")
            time.sleep(0.6)
        console.wait_for("panel lamps", lambda a: attract(eval(a)))  # settled: back to attract
        time.sleep(6.5)  # the reveal

        survive_tilt(console, x_display, "bill jam", "bill clear", "tilt-bill-jam")

        # cash out from the panel (b6): a ticket through the TCL printer simulator
        console("panel tap b6")
        issued = console.wait_for("printer issued", lambda a: a != "no tickets")
        barcode = issued.split(" | ")[-1]
        assert len(barcode) == 18 and barcode.isdigit()
        console.wait_for("panel lamps", lambda a: attract(eval(a)))

        # redeem it; then the same ticket again: refused, returned, and said on screen
        inserted = f"ticket {barcode} inserted"
        console.wait_for(f"bill ticket {barcode}", lambda a: a == inserted)  # once the acceptor is enabled
        console.wait_for("bill cashbox", lambda a: barcode in a)
        console.wait_for(f"bill ticket {barcode}", lambda a: a == inserted)
        notice = pygame.Rect(200, BAR_RECT.y - 110, 1520, 100)

        def refusal_shown(screen: pygame.Surface) -> bool:  # the red notice above the bar
            row = notice.bottom - 20
            return sum(screen.get_at((x, row))[:3] == RED for x in range(notice.left, notice.right, 4)) > 50

        screen = wait_for_screen(x_display, refusal_shown)
        pygame.image.save(screen, str(SHOTS / "ticket-refused.png"))
        assert console("bill cashbox").count(barcode) == 1  # returned, not stacked twice

        survive_tilt(console, x_display, "printer power-loss", "printer power-on", "tilt-printer-power-loss")

        survive_tilt(console, x_display, "panel door main open", "panel door main closed", "tilt-main-door")
    finally:
        if emulator is not None:
            emulator.send_signal(signal.SIGTERM)  # a clean shutdown, as systemd stops the kiosk
            emulator.wait(timeout=30)
        sims.stdin.close()  # type: ignore[union-attr]
        sims.wait(timeout=30)
    log = (tmp_path / "emulate.log").read_text()
    assert "stopped by SIGTERM" in log and "Traceback" not in log, log[-3000:]  # a clean stop

    read = subprocess.run([*cli, "meters", "--nvram", str(nvram), "--config", str(config_path), "--json"],
                          capture_output=True, text=True, timeout=60)
    meters = json.loads(read.stdout)["meters"]
    config = load_cabinet_config(config_path)
    game = game_class("dragon-poker")(load_paytable(PROJECT_ROOT / "paytables" / "dragon-poker.toml",
                                                    root=PROJECT_ROOT, trusted_keys=signed_tree.trusted_keys,
                                                    manifest_path=signed_tree.manifest_path))
    bets = game.bets_offered()
    default = game.default_wager(config.denomination_cents).bet_credits
    bet = next((b for b in bets if b > default), bets[0])  # one press of BET ONE
    stake = game.wager_for(bet, config.denomination_cents).stake_credits * config.denomination_cents
    assert meters["bills_in"] == 10000 and meters["games_played"] == 1
    assert meters["coin_in"] == stake
    ticket = 10000 - stake + meters["coin_out"]
    assert meters["tickets_out"] == ticket and meters["tickets_in"] == ticket
    assert meters["current_credits"] == ticket

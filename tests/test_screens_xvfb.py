"""Issue 18's proof in a real X window (Xvfb): `egm emulate` plays a whole session from a script of
injected input (keys and clicks through SDL's event queue): a bill, a Dragon Poker game with the pair
bonus side bet, the power cut during the reveal, the restart that shows the result first, a Poker Grid
game, cash-out, the ticket redeemed, and the service pages. Each screenshot is the window as shown; the
words drawn on it (FILE.png.txt) are checked for the expected text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pygame

from egm.config import load_cabinet_config
from egm.rom.manifest import read_manifest
from egm.video.layout import grid
from egm.video.scenes.game_select import TILES_RECT
from egm.video.scenes.operator import PAGER
from egm.video.screenshot import tab_centre
from tests.test_video_xvfb import x_display  # noqa: F401 - the Xvfb fixture

GAMES = load_cabinet_config().games  # the game menu's tiles, as the cabinet offers them
GRID_PLAY = grid(TILES_RECT, len(GAMES), 1, gap=60)[GAMES.index("poker-grid")]  # Poker Grid's tile


def first_run(shots: Path) -> str:
    return f"""
wait 1.0
key f7                  # a $100 bill
wait 0.5
shot {shots}/01-credit.png
key s
key s                   # the pair bonus: 2 credits
wait 0.3
shot {shots}/02-side-bet.png
key space               # DEAL
wait 0.3
key 1
key 2
key 3
key return              # player A, dealer B, Dragon C
wait 0.3
key h                   # HOUSE WAY: the hand is settled and the reveal begins
wait 0.6
shot {shots}/03-reveal.png
key f12                 # the power is cut during the reveal
wait 5.0
quit
"""


def second_run(shots: Path) -> str:
    # a Poker Grid game is 26 turns; after each, the machine's card goes down (0.9 s, input held)
    autoplay = "\n".join("key h\nwait 1.1" for _ in range(32))
    tabs = "\n".join(f"click {x} {y}\nwait 0.3\nshot {shots}/09-service-{tab}.png"
                     for tab, (x, y) in ((t, tab_centre(t)) for t in ("devices", "settings", "pools", "rom",
                                                                     "events")))
    return f"""
wait 1.5
shot {shots}/04-restored.png
key g                   # the game menu
wait 0.3
click {GRID_PLAY.centerx} {GRID_PLAY.bottom - 95}
wait 0.5
{autoplay}
wait 2.0
shot {shots}/05-grid-end.png
key c                   # CASH OUT
wait 2.0
shot {shots}/06-ticket.png
key escape
key t                   # the ticket goes back in
wait 1.0
shot {shots}/07-redeemed.png
key f10                 # the operator key
wait 0.5
shot {shots}/08-operator.png
{tabs}
key f10
wait 0.3
quit
"""


def emulate(config: Path, nvram: Path, script: str, display: str, tmp: Path, name: str) -> tuple[int, str]:
    path = tmp / f"{name}.txt"
    path.write_text(script, encoding="utf-8")
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    run = subprocess.run(
        [sys.executable, "-m", "egm.cli", "emulate", "--config", str(config), "--nvram", str(nvram),
         "--seed", "5", "--script", str(path)],
        env=env, capture_output=True, text=True, timeout=300,
    )
    return run.returncode, run.stderr[-2000:]


def words(shot: Path) -> list[str]:
    assert shot.exists(), f"{shot.name} was not taken"
    image = pygame.image.load(str(shot))  # the window as shown (shrunk to fit the screen)
    w, h = image.get_size()
    assert w >= 640 and len({image.get_at((x, h // 2))[:3] for x in range(0, w, 5)}) > 8  # not blank
    return shot.with_name(shot.name + ".txt").read_text(encoding="utf-8").splitlines()


def test_a_whole_session_in_a_real_window(x_display: str, signed_tree, tmp_path: Path) -> None:  # noqa: F811
    shots = Path(os.environ.get("EGM_XVFB_SHOTS", tmp_path / "shots"))  # keep them to look at: set it
    nvram, config = tmp_path / "nvram", signed_tree.config_path
    code, errors = emulate(config, nvram, first_run(shots), x_display, tmp_path, "first")
    assert code == -9, errors  # CUT POWER kills the process (SIGKILL)
    assert "CREDIT  $100.00" in words(shots / "01-credit.png")
    assert any("SIDE 2" in w for w in words(shots / "02-side-bet.png"))
    reveal = words(shots / "03-reveal.png")
    assert "Waiting for the reveal" in reveal and not any(w.startswith("RESULT") for w in reveal)

    code, errors = emulate(config, nvram, second_run(shots), x_display, tmp_path, "second")
    assert code == 0, errors
    restored = words(shots / "04-restored.png")
    assert "STAKE 12 CREDITS" in restored and "Jackpot now" in restored  # the settled table first
    paid = re.compile(r".*  -  (PAYS|RETURNS|STAKE RETURNED|NO WIN)")  # issue 31: a partial return is no pay
    assert any(w.startswith(("RESULT", "JACKPOT")) and paid.match(w) for w in restored)
    assert "12" in restored and any("SIDE 2" in w for w in restored)  # the bet in force for that game
    grid_end = words(shots / "05-grid-end.png")
    assert "PLAY AGAIN" in grid_end and "GAME MENU" in grid_end
    said = ("PAYS ", "RETURNS ", "STAKE RETURNED", "NO WIN")
    assert any(w.startswith(said) and "($" in w for w in grid_end)
    assert any(w.startswith("TICKET PRINTED") for w in words(shots / "06-ticket.png"))
    assert "DEVICE STATUS" in words(shots / "09-service-devices.png")
    assert "Credit limit" in words(shots / "09-service-settings.png")
    assert "Dragon Jackpot: total contributed" in words(shots / "09-service-pools.png")
    assert "ROM DETAILS" in words(shots / "09-service-rom.png")
    assert any(w.startswith("EVENT LOG") for w in words(shots / "09-service-events.png"))

    read = subprocess.run([sys.executable, "-m", "egm.cli", "meters", "--nvram", str(nvram), "--config",
                           str(config), "--json"], capture_output=True, text=True, timeout=60)
    meters = json.loads(read.stdout)["meters"]
    assert meters["bills_in"] == 10000 and meters["games_played"] == 2
    assert meters["tickets_in"] == meters["tickets_out"] > 0  # the ticket printed was redeemed
    assert meters["current_credits"] == meters["tickets_in"]


def service_by_touch(shots: Path, rom_pages: int) -> str:
    """The operator key, then the service pages by touch alone: every METERS page, every ROM DETAILS
    page (NEXT PAGE until it is dark), SETTINGS, the EVENT LOG, DEVICE STATUS and POOL METERS."""
    nxt = PAGER[0].center
    turn = f"touch {nxt[0]} {nxt[1]}\nwait 0.2\nshot {shots}"
    meters = "\n".join(f"{turn}/meters-{n}.png" for n in range(1, 3))
    rom = "\n".join(f"{turn}/rom-{n}.png" for n in range(1, rom_pages + 1))
    tabs = "\n".join(f"touch {tab_centre(tab)[0]} {tab_centre(tab)[1]}\nwait 0.3\nshot {shots}/tab-{tab}.png"
                     for tab in ("settings", "events", "devices", "pools"))
    return f"""
wait 1.0
key f7                  # a $100 bill
key space               # DEAL: one Dragon Poker hand, the house way
wait 0.5
key 1
key 2
key 3
key return
key h
wait 8.0
key g                   # GAMES
wait 0.3
key f10                 # the operator key: from here on, touch only
wait 0.5
shot {shots}/meters-0.png
{meters}
touch {tab_centre("rom")[0]} {tab_centre("rom")[1]}
wait 0.3
shot {shots}/rom-0.png
{rom}
{tabs}
key f10
wait 0.3
quit
"""


def test_the_service_pages_by_touch_alone(x_display: str, signed_tree, tmp_path: Path) -> None:  # noqa: F811
    shots = Path(os.environ.get("EGM_XVFB_SHOTS", tmp_path / "shots"))
    manifest = read_manifest(Path(load_cabinet_config(signed_tree.config_path).rom.manifest))
    files = [(e.path, e.sha256) for e in manifest.files]
    pages = len(files) // 10 + 2  # touches enough to reach the last page (fewer than 10 files a page fit)
    code, errors = emulate(signed_tree.config_path, tmp_path / "nvram", service_by_touch(shots, pages),
                           x_display, tmp_path, "service")
    assert code == 0, errors
    meters = [w for n in range(3) for w in words(shots / f"meters-{n}.png")]
    assert any(w.startswith("METERS: page 1 of") for w in meters)
    expected = {"DRAGON POKER COIN IN", "DRAGON POKER V2.0.0 GAMES PLAYED", "$100.00 NOTES"}
    assert expected <= set(meters)
    assert not [w for w in meters if "DRAGON-POKER" in w]
    shown = {tuple(w.split()[::-1]) for n in range(pages + 1) for w in words(shots / f"rom-{n}.png")
             if re.fullmatch(r"[0-9a-f]{64} +\S+", w)}
    assert shown == set(files)  # every program file of the manifest, reached by NEXT PAGE
    assert "Credit limit" in words(shots / "tab-settings.png")
    log = words(shots / "tab-events.png")
    assert any(w.startswith("EVENT LOG") for w in log)
    assert any("Note of $100.00 stacked and credited." in w for w in log)
    assert "DEVICE STATUS" in words(shots / "tab-devices.png")
    assert "Dragon Jackpot: total contributed" in words(shots / "tab-pools.png")

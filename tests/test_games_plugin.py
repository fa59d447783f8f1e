"""The plug-in proof (issue 12): a small third game, Coin Flip, in a temporary folder and a package of its
own, registered by one line of cabinet configuration, touching no project file. On a signed copy of
the firmware it is listed by `egm games`, plays through `egm autoplay` with recovery after a power cut,
draws through `egm screenshot`, replays, and certifies.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pygame
import pytest

from egm.config import PROJECT_ROOT
from egm.games import descriptors
from egm.rom import FIRMWARE_DIRS
from tests.accounting import identity_gap
from tests.rom_support import sign_tree

GAME_SOURCE = Path(__file__).parent / "third_game"
GAME_ID = "coin-flip"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a signed copy of the firmware with the game configured, the folder holding the game's package)."""
    root = tmp_path_factory.mktemp("tree")
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    vendor = tmp_path_factory.mktemp("vendor")
    shutil.copytree(GAME_SOURCE / "coin_flip", vendor / "coin_flip")
    # Adding the game: its pay table, its id among the games offered, and the one configuration line.
    shutil.copy(GAME_SOURCE / "coin-flip.toml", root / "paytables" / "coin-flip.toml")
    config = root / "config" / "cabinet.toml"
    text = config.read_text(encoding="utf-8")
    # (the built-in games offered stay as configured; the new one joins the end of the list)
    text = re.sub(r'^games = \[(.*)\]$', r'games = [\1, "coin-flip"]\ngame_packages = ["coin_flip"]', text,
                  count=1, flags=re.MULTILINE)
    config.write_text(text, encoding="utf-8")
    sign_tree(root, root)  # the ROM signs the tree the commands run (root/rom/manifest.json)
    return root, vendor


def run(installed: tuple[Path, Path], *args: str, code: str | None = None
        ) -> subprocess.CompletedProcess[str]:
    root, vendor = installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(root), str(vendor))),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "egm.cli", *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_no_project_file_names_the_game() -> None:
    tops = ("egm", "hardware", "paytables", "config")
    firmware = [p for top in tops for p in (PROJECT_ROOT / top).rglob("*") if p.is_file()]
    naming = [p for p in firmware if b"coin-flip" in p.read_bytes() or b"coin_flip" in p.read_bytes()]
    assert naming == []


def test_it_is_listed(installed: tuple[Path, Path]) -> None:
    done = run(installed, "games", "--json")
    assert done.returncode == 0, done.stderr
    games = {entry["id"]: entry for entry in json.loads(done.stdout)["games"]}
    assert list(games) == [*descriptors(packages=()), GAME_ID]  # the built-in games, then the package
    assert games[GAME_ID] == {"id": GAME_ID, "title": "Coin Flip", "paytables": ["paytables/coin-flip.toml"],
                              "steps": ["call", "complete"], "replay": True, "certify": True}


POWER_CUT = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config
    from egm.events import StartGame

    cabinet = build_cabinet(load_cabinet_config(), Path(sys.argv[1]), seed=5)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(10000)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame("coin-flip")).accepted
    print(cabinet.state, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the power goes in the middle of the game
""")


def test_it_plays_through_autoplay_and_recovers_after_a_power_cut(installed: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    nvram = tmp_path / "nvram"
    cut = run(installed, code=POWER_CUT.replace("sys.argv[1]", repr(str(nvram))))
    assert cut.returncode == -9 and cut.stdout.strip() == "game.coin-flip.call", cut.stderr
    done = run(installed, "autoplay", "--nvram", str(nvram), "--game", GAME_ID, "--games", "20",
               "--seed", "5", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["recovered"][-1] == "game at step call" and report["games_completed"] == 20
    meters = report["meters"]
    assert meters["games_played"] == 21 and meters["current_credits"] == 0  # all cashed out
    assert meters["games_won"] + meters["games_lost"] == 21
    assert identity_gap(meters) == 0 and meters["tickets_out"] == meters["bills_in"] + meters["coin_out"] - \
        meters["coin_in"]
    recall = run(installed, "recall", "--nvram", str(nvram), "--json")
    games = json.loads(recall.stdout)
    assert {g["game_id"] for g in games} == {GAME_ID} and games[-1]["round"]["call"] == "heads"


def test_it_draws_through_screenshot(installed: tuple[Path, Path], tmp_path: Path) -> None:
    listed = run(installed, "screenshot", "--scene", "list").stdout.split()
    assert "coin-flip-played" in listed
    out = tmp_path / "coin.png"
    done = run(installed, "screenshot", "--scene", "coin-flip-played", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(state attract)" in done.stdout
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1920, 1080)
    # the generic table (the game has no scene) is drawn on the cabinet's background
    assert len({picture.get_at((x, 300))[:3] for x in range(400, 1500, 10)}) > 2


def test_it_replays(installed: tuple[Path, Path]) -> None:
    first = run(installed, "replay", "--game", GAME_ID, "--seed", "3", "--json")
    assert first.returncode == 0, first.stderr
    result = json.loads(first.stdout)
    assert result["seed"] == 3 and result["call"] == "heads" and result["coin"] in ("heads", "tails")
    assert result["win_credits"] == (19 if result["coin"] == "heads" else 0)
    assert run(installed, "replay", "--game", GAME_ID, "--seed", "3", "--json").stdout == first.stdout


def test_it_certifies(installed: tuple[Path, Path]) -> None:
    done = run(installed, "certify", "paytables/coin-flip.toml", "--games", "20000", "--seed", "1",
               "--workers", "1", "--best-games", "0", "--jurisdiction", "generic", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == GAME_ID and result["paytable_id"] == "coin-flip-test"
    assert result["games"] == 20000
    assert sum(result["results"].values()) == 20000 and result["exact"]["rtp"] == 0.95
    low, high = result["ci95"]
    assert low < 0.95 < high and result["rtp"] == result["results"]["W"] * 19 / (20000 * 10)
    assert [j["status"] for j in result["jurisdictions"]] == ["pass"]

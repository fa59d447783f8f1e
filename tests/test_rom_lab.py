"""The lab is not firmware: the signed program ROM covers what the cabinet runs (its code, the hardware
layer, the pay tables), not the lab that certifies pay tables off the cabinet, and nothing the cabinet
runs imports the lab."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.rom import verify_rom
from egm.rom.manifest import FIRMWARE_DIRS, check_path, read_manifest
from tests.rom_support import SignedTree, sign_tree


def test_the_shipped_rom_covers_the_cabinet_and_not_the_lab() -> None:
    listed = {entry.path for entry in read_manifest(PROJECT_ROOT / "rom" / "manifest.json").files}
    for firmware in (
        "egm/cabinet/core.py",
        "egm/games/base.py",
        "egm/games/poker_grid/game.py",
        "egm/rom/manifest.py",
        "hardware/core/clock.py",
        "paytables/dragon-poker.toml",
    ):
        assert firmware in listed
    lab = [p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / "egm" / "lab").glob("*.py")]
    lab.append("egm/games/poker_grid/lab.py")
    assert len(lab) > 5 and all((PROJECT_ROOT / path).exists() for path in lab)
    assert sorted(set(lab) & listed) == []


def copied_tree(tmp_path: Path) -> SignedTree:
    root = tmp_path / "tree"
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return sign_tree(root, root)


def verify(tree: SignedTree) -> list[str]:
    return [str(p) for p in verify_rom(tree.root, tree.trusted_keys, tree.manifest_path).problems]


def test_a_lab_change_leaves_the_rom_verified_and_a_cabinet_change_does_not(tmp_path: Path) -> None:
    tree = copied_tree(tmp_path)
    assert verify(tree) == []
    with (tree.root / "egm" / "lab" / "stats.py").open("a") as lab_file:
        lab_file.write("# a lab engineer's note\n")
    (tree.root / "egm" / "lab" / "new_report.py").write_text("REPORT = 1\n")
    with (tree.root / "egm" / "games" / "poker_grid" / "lab.py").open("a") as adapter:
        adapter.write("\n")
    assert verify(tree) == []
    with (tree.root / "egm" / "cabinet" / "play.py").open("a") as cabinet_file:
        cabinet_file.write("\n")
    assert [p.split(": ")[:2] for p in verify(tree)] == [["changed", "egm/cabinet/play.py"]]


def test_a_manifest_that_lists_the_lab_is_refused() -> None:
    for path in ("egm/lab/cli.py", "egm/games/poker_grid/lab.py", "egm/games/new_game/lab/kernel.py"):
        assert "not firmware" in (check_path(path) or "")
    assert check_path("egm/games/poker_grid/game.py") is None
    assert check_path("egm/labels.py") is None  # only the lab itself is left out


CABINET_RUN = """
import re, sys
from pathlib import Path
import egm.cabinet_cli, egm.video.app  # autoplay, emulate and kiosk
from egm.config import load_cabinet_config
from egm.events import PlayerDecision, StartGame
from egm.video.session import Session

session = Session(load_cabinet_config(sys.argv[1]), Path(sys.argv[2]), seed=2,
                  game_ids=["dragon-poker", "poker-grid"])
cabinet = session.cabinet
cabinet.devices.bill_acceptor.insert_bill(10000)
cabinet.poll_devices()
for game_id in ("dragon-poker", "poker-grid"):
    assert cabinet.handle(StartGame(game_id)).accepted
    while cabinet.round is not None:
        assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
        session.render()
    session.wait(1.0)
print(cabinet.memory.meters["games_played"])
cabinet.close()
print(sorted(m for m in sys.modules if re.match(r"egm\\.(lab|games\\.[^.]+\\.lab)($|\\.)", m)))
"""


def test_the_cabinet_and_its_emulator_run_without_loading_the_lab(
    signed_tree: SignedTree, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CABINET_RUN, str(signed_tree.config_path), str(tmp_path / "nvram")],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["2", "[]"]  # after pygame's banner

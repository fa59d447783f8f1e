"""The boot loader (egm/cli.py) on a damaged copy of the firmware.

A real cabinet verifies its program before it runs it. Here a changed firmware file must stop
`egm autoplay` with the ROM-error tilt (exit 3, no game played), never with a traceback, even when the
changed byte makes the file fail to load; and `egm rom verify` must still name the file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from egm.config import PROJECT_ROOT
from egm.rom import FIRMWARE_DIRS
from tests.rom_support import sign_tree


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    sign_tree(root, root)  # writes root/rom/manifest.json, where config/cabinet.toml looks for it
    return root


def egm(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([sys.executable, "-m", "egm.cli", *args], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=120)


def autoplay(tree: Path, nvram: Path) -> tuple[int, dict]:
    done = egm(tree, "autoplay", "--nvram", str(nvram), "--game", "dragon-poker", "--games", "2",
               "--seed", "1", "--json")
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("damaged", [
    "egm/games/dragon_poker/rows.py",  # game code: never loaded from a ROM that failed its self-test
    "egm/cabinet/core.py",  # the controller itself no longer loads
    "egm/games/dragon_poker/cli.py",  # a command module that the boot loader leaves out
    "paytables/dragon-poker.toml",
])
def test_a_damaged_file_is_a_rom_tilt_and_no_game_is_played(tree: Path, tmp_path: Path, damaged: str) -> None:
    path = tree / damaged
    original = path.read_bytes()
    path.write_bytes(original + b"x")  # a stray byte: Python code no longer loads (NameError)
    try:
        code, report = autoplay(tree, tmp_path / "nvram")
        verify = egm(tree, "rom", "verify")
    finally:
        path.write_bytes(original)
    assert code == 3 and report["tilt"] == "rom_error"
    assert report.get("games_completed", 0) == 0 and (report.get("meters") or {}).get("coin_in", 0) == 0
    assert verify.returncode == 1 and damaged in verify.stdout


@pytest.mark.parametrize("name", ["generic", "nevada"])  # the jurisdiction in force, and one offered
def test_a_raised_hand_pay_limit_is_a_rom_tilt(tree: Path, tmp_path: Path, name: str) -> None:
    """The jurisdiction rules are firmware: a limit edited in a valid file is caught like changed code."""
    relative = f"jurisdictions/{name}.toml"
    path = tree / relative
    original = path.read_text(encoding="utf-8")
    edited = re.sub(r"^hand_pay_limit_cents = .*$", "hand_pay_limit_cents = 9999999", original, flags=re.M)
    assert edited != original
    path.write_text(edited, encoding="utf-8")
    try:
        code, report = autoplay(tree, tmp_path / "nvram")
        verify = egm(tree, "rom", "verify")
    finally:
        path.write_text(original, encoding="utf-8")
    assert code == 3 and report["tilt"] == "rom_error" and f"changed: {relative}" in report["tilt_detail"]
    assert report["games_completed"] == 0 and report["meters"]["coin_in"] == 0
    assert verify.returncode == 1 and f"changed: {relative}" in verify.stdout


def test_unreadable_rules_in_force_are_a_rom_tilt_naming_the_file(tree: Path, tmp_path: Path) -> None:
    """A stray byte that breaks the rules' syntax: the cabinet cannot know its rules, so it does not
    start (no game, no money, no wager memory written), and the ROM check still names the file."""
    path = tree / "jurisdictions/generic.toml"
    original = path.read_bytes()
    path.write_bytes(original + b"x")
    try:
        done = egm(tree, "autoplay", "--nvram", str(tmp_path / "nvram"), "--game", "dragon-poker",
                   "--games", "2", "--seed", "1", "--json")
        verify = egm(tree, "rom", "verify")
    finally:
        path.write_bytes(original)
    report = json.loads(done.stdout)
    assert done.returncode == 3 and report["tilt"] == "rom_error" and "Traceback" not in done.stderr
    assert "jurisdictions/generic.toml: not valid TOML" in report["error"]
    assert not (tmp_path / "nvram").exists()
    assert verify.returncode == 1 and "changed: jurisdictions/generic.toml" in verify.stdout


def test_a_damaged_verifier_still_fails_verification_naming_the_file(tree: Path) -> None:
    path = tree / "egm/rom/cli.py"
    original = path.read_bytes()
    path.write_bytes(original + b"\x02")  # a SyntaxError
    try:
        verify = egm(tree, "rom", "verify")
    finally:
        path.write_bytes(original)
    assert verify.returncode == 1 and "egm/rom/cli.py" in verify.stdout and "Traceback" not in verify.stderr


def test_the_intact_copy_plays(tree: Path, tmp_path: Path) -> None:
    code, report = autoplay(tree, tmp_path / "nvram")
    assert code == 0 and report["games_completed"] == 2 and report["meters"]["games_played"] == 2


def test_a_missing_package_is_an_installation_error_not_a_damaged_rom(tree: Path, tmp_path: Path) -> None:
    path = tree / "egm/games/dragon_poker/rows.py"
    original = path.read_bytes()
    path.write_bytes(original + b"\nimport egm_test_package_not_installed  # noqa\n")
    sign_tree(tree, tree)  # a correctly signed tree whose code needs a package that is not installed
    try:
        done = egm(tree, "autoplay", "--nvram", str(tmp_path / "nvram"), "--game", "dragon-poker",
                   "--games", "1", "--seed", "1", "--json")
    finally:
        path.write_bytes(original)
        sign_tree(tree, tree)
    assert done.returncode == 2 and "rom_error" not in done.stdout
    assert "'egm_test_package_not_installed' is not installed" in done.stderr

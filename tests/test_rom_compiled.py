"""Compiled code is firmware (egm.rom.compiled): a copy of the tree with its ROM built and signed,
then one compiled artefact changed, added or removed, is a ROM error naming the file and the cabinet
plays nothing; and a pickle planted where numba used to look is never loaded by a cabinet."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from egm.config import PROJECT_ROOT
from egm.rom import FIRMWARE_DIRS
from egm.rom.compiled import CACHE, MANIFEST, build_dir
from tests.rom_support import sign_tree

FIRMWARE_GAMES = ("poker-grid", "poker-tiles", "prism-words")  # the games with compiled code
COMPILED_MODULES = ("egm.games.poker_grid.compiled", "egm.games.poker_tiles.engine",
                    "egm.games.poker_tiles.hands", "egm.games.prism_words.movegen")


@pytest.fixture
def tree(tmp_path: Path, compiled_build: Path) -> Path:
    """A copy of the tree whose ROM is built (this checkout's compiled build, copied: the bytes
    `egm rom build` makes) and signed with the development key."""
    root = tmp_path / "tree"
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(compiled_build, root / "rom" / "compiled")
    sign_tree(root, root)
    return root


def egm(tree: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}  # the copy sets its own
    env = {**clean, **(env or {}), "PYTHONPATH": str(tree)}
    return subprocess.run([sys.executable, "-m", "egm.cli", *args], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=600)


def autoplay(tree: Path, nvram: Path, game: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    done = egm(tree, "autoplay", "--nvram", str(nvram), "--game", game, "--games", "1", "--seed", "1",
               "--json", env=env)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout)


def artefacts(tree: Path) -> Path:
    return build_dir(tree / "rom" / "compiled") / CACHE


def test_the_built_copy_verifies_and_plays(tree: Path, tmp_path: Path) -> None:
    verify = egm(tree, "rom", "verify")
    assert verify.returncode == 0 and "compiled code verified" in verify.stdout, verify.stdout
    code, report = autoplay(tree, tmp_path / "nvram", "poker-tiles")
    assert code == 0 and report["games_completed"] == 1


@pytest.mark.parametrize("damage", ["flip", "add", "remove"])
def test_a_changed_added_or_removed_artefact_is_a_rom_error_naming_it(tree: Path, tmp_path: Path,
                                                                     damage: str) -> None:
    cache = artefacts(tree)
    victim = sorted(cache.glob("egm/games/poker_tiles/*.nbc"))[0]
    if damage == "flip":
        data = bytearray(victim.read_bytes())
        data[len(data) // 2] ^= 0x01
        victim.write_bytes(bytes(data))
        kind = "changed"
    elif damage == "add":
        victim = victim.with_name("engine.extra-1.py311.1.nbc")
        victim.write_bytes(b"machine code from elsewhere")
        kind = "extra"
    else:
        victim.unlink()
        kind = "missing"
    named = f"{kind}: {victim.relative_to(tree).as_posix()}"
    verify = egm(tree, "rom", "verify")
    assert verify.returncode == 1 and named in verify.stdout, verify.stdout
    code, report = autoplay(tree, tmp_path / "nvram", "poker-tiles")
    assert code == 3 and report["tilt"] == "rom_error" and named in report["tilt_detail"]
    assert report.get("games_completed", 0) == 0 and report["meters"]["coin_in"] == 0


def test_an_altered_compiled_manifest_is_a_rom_error(tree: Path, tmp_path: Path) -> None:
    manifest = build_dir(tree / "rom" / "compiled") / MANIFEST
    manifest.write_text(manifest.read_text().replace('"python"', '"python" ', 1))
    code, report = autoplay(tree, tmp_path / "nvram", "prism-words")
    assert code == 3 and "bad_signature" in report["tilt_detail"] and "manifest.json" in report["tilt_detail"]


class Planted:
    """Loading this pickle creates the file it names: what an attacker's cache index would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return open, (str(self.marker), "w")


def planted_index(marker: Path) -> bytes:
    """A numba cache index (the numba version, then the pickled stamp and overloads) that runs code."""
    return pickle.dumps(numba.__version__) + pickle.dumps(Planted(marker))


def old_cache_places(tree: Path, xdg_cache: Path) -> list[Path]:
    """Every file numba's own locators, or this project's old cache, would read for each compiled
    function of the copy: __pycache__ beside the source, the lab's keyed cache, the user-wide cache."""
    import importlib

    from numba.core.caching import _CacheLocator
    from numba.core.registry import CPUDispatcher

    from egm.lab.jit import kernel_cache_dir

    places = []
    for name in COMPILED_MODULES:
        module = importlib.import_module(name)
        relative = Path(*name.split(".")).parent
        source_dir = tree / relative
        subpath = _CacheLocator.get_suitable_cache_subpath(str(source_dir / "x.py"))
        for dispatcher in vars(module).values():
            if isinstance(dispatcher, CPUDispatcher):
                index = dispatcher._cache._cache_file._index_name
                places += [source_dir / "__pycache__" / index,
                           kernel_cache_dir(tree / "egm" / "lab") / subpath / index,
                           xdg_cache / "numba" / subpath / index]
    return places


def test_a_pickle_planted_in_the_old_writable_caches_is_never_loaded(tree: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = planted_index(marker)
    pickle.loads(payload[len(pickle.dumps(numba.__version__)):])  # the payload works when loaded...
    assert marker.exists()
    marker.unlink()
    xdg = tmp_path / "xdg-cache"
    places = old_cache_places(tree, xdg)
    assert len(places) >= 3 * 20
    for place in places:
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_bytes(payload)
    env = {"XDG_CACHE_HOME": str(xdg)}
    for game in FIRMWARE_GAMES:  # ... but no cabinet loads it: booting, and playing every game
        code, report = autoplay(tree, tmp_path / f"nvram-{game}", game, env)
        assert code == 0 and report["games_completed"] == 1, report
        assert not marker.exists(), f"{game}: a planted cache index was loaded"

"""The lab's compiled code is cached under a key of its sources, so an edit never runs stale code; the
firmware's compiled code only in the process's private runtime cache (egm.jit)."""

from __future__ import annotations

import shutil
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.jit import runtime_cache_dir
from egm.lab.jit import kernel_cache_dir


def test_the_lab_caches_under_the_key_of_its_sources_and_firmware_in_the_private_runtime_cache() -> None:
    from egm.games.dragon_poker.lab.kernel import _play
    from egm.games.poker_tiles.engine import generate

    lab = Path(_play._cache.cache_path)
    assert lab.is_relative_to(kernel_cache_dir())
    assert lab.relative_to(kernel_cache_dir()).as_posix() == "egm/games/dragon_poker/lab"  # relocatable
    firmware = Path(generate._cache.cache_path)
    assert firmware == runtime_cache_dir() / "egm" / "games" / "poker_tiles"
    assert runtime_cache_dir().stat().st_mode & 0o077 == 0  # no one else may write (or read) it


def test_an_edit_to_any_kernel_source_or_the_house_way_tables_changes_the_key(tmp_path: Path) -> None:
    for part in ("egm/lab", "egm/games"):
        shutil.copytree(PROJECT_ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    lab = tmp_path / "egm" / "lab"
    keys = {kernel_cache_dir(lab)}
    edits = ("egm/lab/fast_eval.py", "egm/games/dragon_poker/lab/kernel_house_way.py",
             "egm/games/dragon_poker/house_way.py", "egm/games/poker_grid/lab.py")
    for edited in edits:
        path = tmp_path / edited
        path.write_text(path.read_text() + "\n# edited\n")
        keys.add(kernel_cache_dir(lab))
    assert len(keys) == 5

"""The lab's compiled code is cached under a key of its sources, so an edit never runs stale code."""

from __future__ import annotations

import shutil
from pathlib import Path

import numba

from egm.config import PROJECT_ROOT
from egm.lab.jit import kernel_cache_dir


def test_numba_caches_under_the_key_of_the_current_sources() -> None:
    import egm.games.dragon_poker.lab.kernel  # noqa: F401  (compiles or loads the kernel through numba's cache)

    assert Path(numba.config.CACHE_DIR) == kernel_cache_dir()


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

"""The installed program is whole: a wheel built from the source tree (what `pip install .` installs)
holds every file the packages read at run time besides their Python modules: the server's web
templates, scripts, style sheets and art, and each game's own web table."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from egm.config import PROJECT_ROOT

PACKAGES = ("egm", "hardware")


def runtime_data_files(root: Path) -> set[str]:
    """The non-Python files under the packages, as paths relative to `root` (as a wheel names them)."""
    return {
        path.relative_to(root).as_posix()
        for package in PACKAGES
        for path in (root / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }


def test_the_wheel_holds_every_runtime_data_file(tmp_path: Path) -> None:
    data = runtime_data_files(PROJECT_ROOT)
    # the web pages and tables are among them: an empty or partial walk would prove nothing
    assert {"egm/server/web/templates/base.html", "egm/server/web/static/board.js",
            "egm/games/property/web/table.js"} <= data
    source = tmp_path / "source"  # a copy, so the build leaves no build/ or egg-info in the tree
    for package in PACKAGES:
        shutil.copytree(PROJECT_ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(PROJECT_ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(tmp_path / "dist"), str(source)],
                   check=True, capture_output=True, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("egm-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    assert sorted(data - held) == []
    assert "egm/server/web/pages.py" in held  # the modules themselves, as before

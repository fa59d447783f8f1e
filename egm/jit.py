"""numba's `njit`, and where its compiled code is cached: never where anyone but this process can write.

numba loads a cache with `pickle`, so a cache is executable code. Every module with compiled code imports
`njit` from here (firmware) or from `egm.lab.jit` (the lab), so that importing it first installs
`CompiledCodeLocator` as numba's only cache locator:

* **Firmware** sources (in the program ROM: the games' engines) cache in this process's own **runtime
  cache**, a fresh private temporary directory (mode 0700) removed at exit. It starts empty; the boot
  fills it with the ROM's verified compiled code (`egm.rom.compiled.install_compiled_code`), whatever
  is not there is compiled into it, and nothing in it is trusted by the next boot. numba's default
  places (`__pycache__` beside the sources, a user-wide folder) are never read.
* **Lab** sources (`egm/lab`, the games' lab adapters: not firmware) cache in the lab's folder, keyed by
  a hash of every source that compiled code may come from: numba's own check covers only the file a
  function lives in, not the modules it calls nor the constants it folds in, so any edit compiles afresh.

Cache paths inside either directory are the source folder's path relative to the project root (numba's
own are keyed by the absolute path), so a build made in one checkout is found in a copy of it.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numba
from numba import njit
from numba.core.caching import _CacheLocator

from egm.config import PROJECT_ROOT

LAB_DIR = PROJECT_ROOT / "egm" / "lab"


def kernel_cache_dir(lab: Path = LAB_DIR) -> Path:
    """The lab's numba cache directory for the compiled sources under `lab` and its sibling `games`
    (inside __pycache__: not firmware)."""
    games = lab.parent / "games"  # every game's sources: a game's kernel lives in its folder (its lab/)
    sources = sorted([*lab.glob("*.py"), *(p for p in games.rglob("*.py") if "__pycache__" not in p.parts)])
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:16]
    return lab / "__pycache__" / f"numba-{digest}"


@functools.cache
def runtime_cache_dir() -> Path:
    """This process's private cache of firmware compiled code (one per process: a pool's forked workers
    share their parent's). Removed when the process exits."""
    path = Path(tempfile.mkdtemp(prefix="egm-compiled-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def is_firmware_source(relative: str) -> bool:
    from egm.rom.manifest import is_firmware

    return is_firmware(relative)


class CompiledCodeLocator(_CacheLocator):
    """numba's cache locator for every compiled function of this project (see the module doc)."""

    def __init__(self, py_func: object, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno  # type: ignore[attr-defined]
        source = Path(py_file).resolve()
        try:
            relative = source.relative_to(PROJECT_ROOT).as_posix()
        except ValueError:  # not ours (a game package from elsewhere): firmware, the strict side
            relative = f"external/{hashlib.sha256(str(source.parent).encode()).hexdigest()[:16]}/x.py"
        base = runtime_cache_dir() if is_firmware_source(relative) else kernel_cache_dir()
        self._cache_path = str(base / Path(relative).parent)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        """The source's content, not its timestamp (a copy or a fresh clone has new timestamps)."""
        with open(self._py_file, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: object, py_file: str) -> CompiledCodeLocator | None:
        if not os.path.exists(py_file):
            return None
        locator = cls(py_func, py_file)
        locator.ensure_cache_path()
        return locator


# numba reads this when a function is decorated: only our locator, so numba never falls back to its own.
# Through the environment, because numba re-reads its configuration from it (and from a
# .numba_config.yaml in the working directory) whenever a NUMBA_ variable changes.
os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = f"{__name__}.{CompiledCodeLocator.__name__}"
numba.core.config.reload_config()
if getattr(numba.core.config, "CACHE_LOCATOR_CLASSES", None) != os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]:
    raise ImportError(f"numba {numba.__version__} cannot confine its cache (no NUMBA_CACHE_LOCATOR_CLASSES); "
                      "install the numba version pyproject.toml names (>= 0.68)")

__all__ = ["CompiledCodeLocator", "kernel_cache_dir", "njit", "runtime_cache_dir"]

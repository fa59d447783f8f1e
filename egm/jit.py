"""numba's `njit` for compiled code, with the on-disk cache keyed by the compiled sources.

numba's cache checks only the timestamp of the file a compiled function lives in: not the modules it
calls (the compiled evaluator, the house way) nor the constants it folds in (the house-way tables).
After an edit it could run stale compiled code, and the lab would certify something the ROM no longer
holds. So the cache directory is keyed by a hash of every source that compiled code may come from (the
lab and every game): any change compiles afresh. Compiled modules import `njit` from here (the engine's
hot paths, e.g. Poker Grid's) or from `egm.lab.jit` (the lab's kernels), so the key is set before they
compile.
"""

import hashlib
from pathlib import Path

import numba
from numba import njit

LAB_DIR = Path(__file__).resolve().parent / "lab"


def kernel_cache_dir(lab: Path = LAB_DIR) -> Path:
    """numba's cache directory for the compiled sources under `lab` and its sibling `games` (inside
    __pycache__: not firmware)."""
    games = lab.parent / "games"  # every game's sources: a game's kernel lives in its folder (its lab/)
    sources = sorted([*lab.glob("*.py"), *(p for p in games.rglob("*.py") if "__pycache__" not in p.parts)])
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()[:16]
    return lab / "__pycache__" / f"numba-{digest}"


numba.config.CACHE_DIR = str(kernel_cache_dir())

__all__ = ["kernel_cache_dir", "njit"]

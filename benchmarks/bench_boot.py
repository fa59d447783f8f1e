"""Power-up time with a built ROM: `python benchmarks/bench_boot.py [--repeat N]`.

Copies the tree (firmware, config, keys) and this checkout's compiled-code build for this CPU (what
`egm rom build` makes; run it first) into a temporary directory, signs it with the development key,
then in fresh processes of that copy (a power-up each):

* **power-up to ATTRACT**: from the process's launch to the cabinet in `attract` (imports, the ROM
  self-test, the compiled code's check and install, each game prepared, wager memory, devices);
* **the self-test's own cost**: the ROM step (program ROM, pay tables, compiled code) inside it;
* **the first machine move** of Poker Tiles, Prism Words and Poker Grid in the booted process: a new
  round's deal with any machine turns before the customer's, then the customer's reference move (the
  machine strategy's search) and the machine opponents' replies.

Prints the medians over N power-ups. No headless display is needed: the cabinet boots without one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.rom import FIRMWARE_DIRS
from egm.rom.compiled import build_dir, configured_compiled_root

GAMES = ("poker-tiles", "prism-words", "poker-grid")
POWER_UP = """
import json, sys, time
from pathlib import Path
from egm.cabinet import build_cabinet
from egm.boot_progress import BootProgress
from egm.config import load_cabinet_config
from egm.rng import Rng

imported = time.perf_counter()
marks = {}
def shown(progress):
    for step, state in progress.state.items():
        marks.setdefault((step, state), time.perf_counter())

progress = BootProgress(shown=shown)
cabinet = build_cabinet(load_cabinet_config(), sys.argv[1], seed=1, progress=progress)
cabinet.boot(progress)
attract = time.perf_counter()
moves = {}
for game_id in sys.argv[2:]:
    game = cabinet.games[game_id]
    start = time.perf_counter()  # the deal and any machine turns before the customer's first move,
    round_ = game.new_round(game.default_wager(25), Rng.from_seed(7), {})
    round_.decide(round_.reference_decision())  # that move (the machine's search) and the replies
    moves[game_id] = time.perf_counter() - start
rom = marks[("ROM files checked", "done")] - marks[("ROM files checked", "running")]
steps = {f"{step}: {state}": round(t - imported, 3) for (step, state), t in marks.items()}
print(json.dumps({"state": cabinet.state, "attract": attract, "rom_s": rom, "moves": moves, "steps": steps,
                  "imported": imported,
                  "compiled": progress.detail["games prepared"]}))
cabinet.close()
"""


def copy_tree(out: Path) -> Path:
    """A fresh copy of the tree with this checkout's compiled build, signed in place."""
    sys.path.insert(0, str(PROJECT_ROOT))
    from tests.rom_support import sign_tree

    root = out / "tree"
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = build_dir(configured_compiled_root(load_cabinet_config()))
    if not built.exists():
        sys.exit(f"{built}: no compiled code for this CPU; run 'egm rom build' and 'egm rom sign' first")
    shutil.copytree(built, build_dir(root / "rom" / "compiled"))
    sign_tree(root, root)
    return root


def power_up(root: Path, nvram: Path) -> dict:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}, "PYTHONPATH": str(root)}
    launched = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", POWER_UP, str(nvram), *GAMES], cwd=root, env=env,
                          capture_output=True, text=True, timeout=1800, check=True)
    report = json.loads(done.stdout)
    report["power_up_s"] = report["attract"] - launched  # perf_counter is system-wide on Linux
    report["imports_s"] = report["imported"] - launched
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="egm-bench-boot-") as tmp:
        root = copy_tree(Path(tmp))
        runs = [power_up(root, Path(tmp) / f"nvram-{n}") for n in range(args.repeat)]
    assert all(run["state"] == "attract" for run in runs), runs
    print(f"compiled code: {runs[0]['compiled']}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine slows all)")
    print(f"power-up to ATTRACT: median {statistics.median(r['power_up_s'] for r in runs):.2f} s over "
          f"{args.repeat} power-ups (target <= 5 s)")
    imports = statistics.median(r["imports_s"] for r in runs)
    print(f"  of which the interpreter and imports: median {imports:.2f} s")
    print(f"  of which the ROM self-test (program ROM, pay tables, compiled code): median "
          f"{statistics.median(r['rom_s'] for r in runs) * 1000:.0f} ms")
    print(f"  the steps, seconds after the imports (first power-up): {json.dumps(runs[0]['steps'])}")
    for game in GAMES:
        move = statistics.median(r["moves"][game] for r in runs)
        print(f"first machine move, {game}: median {move:.3f} s (target <= 1 s)")


if __name__ == "__main__":
    main()

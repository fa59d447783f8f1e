"""Boot ROM self-test time: `python benchmarks/bench_rom_verify.py [--repeat N]`.

Prints the median wall time of verify_rom() over this tree (signature, every file's SHA-256, the
unlisted-file scan), and of the GAT HMAC, with the file count and ROM image size. The files are in the
OS page cache after the first run, as they are on a cabinet re-checking at a door close.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from egm.config import PROJECT_ROOT
from egm.rom import verify_rom
from egm.rom.gat import rom_hmac
from egm.rom.manifest import configured_paths, read_manifest


def median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    manifest_path, _ = configured_paths()
    manifest = read_manifest(manifest_path)
    present = [PROJECT_ROOT / e.path for e in manifest.files if (PROJECT_ROOT / e.path).exists()]
    size = sum(path.stat().st_size for path in present)
    check = verify_rom()
    print(f"ROM: {len(manifest.files)} files, {size / 1024:.0f} KiB; verify ok={check.ok} "
          f"({len(check.problems)} problem(s))")
    verify_ms = median_ms(verify_rom, args.repeat)
    print(f"verify_rom (boot self-test):  {verify_ms:.1f} ms median of {args.repeat}")
    print(f"GAT HMAC-SHA1:                "
          f"{median_ms(lambda: rom_hmac(manifest, PROJECT_ROOT, b'seed'), args.repeat):.1f} ms median")
    # A whole process, as at power-up: interpreter start, imports, config, verification.
    command = [str(Path(sys.executable).parent / "egm"), "rom", "verify"]
    process_ms = median_ms(lambda: subprocess.run(command, capture_output=True, check=False), 5)
    print(f"egm rom verify (new process):  {process_ms:.0f} ms median of 5")


if __name__ == "__main__":
    main()

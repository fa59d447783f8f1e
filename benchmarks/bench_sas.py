"""SAS reply latency: how long the host waits for the cabinet's answer to a general poll and to long
poll 0x1A (current credits), and to 0x21 (ROM signature).

    python benchmarks/bench_sas.py [--polls N]

The cabinet runs as `egm sim sas-egm` in its own process, on one end of a pty pair; this process is
the host on the other end. Each figure is from the host's write of the poll to the last byte of the
reply read back (CRC checked), so it includes both processes' scheduling and the pty. A 0x80 poll
(to address 0, which nobody answers) goes before each long poll, so each one is a new poll handled
by the cabinet, not the port's repeat of its last reply. Prints p50, p99 and max in milliseconds.
SAS hosts allow a few milliseconds; figures on a busy shared machine are worse than on a cabinet.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from egm.config import PROJECT_ROOT
from hardware.sim.sas_host import SasHost, open_pty_pair


def timed(action: Callable[[], object], polls: int) -> list[float]:
    times = []
    for _ in range(polls):
        start = time.perf_counter()
        if action() is None:
            raise SystemExit("the cabinet did not answer a poll; is the SAS port right?")
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:<22} n={len(times):5d}  p50 {statistics.median(ordered):6.2f} ms  "
          f"p99 {p99:6.2f} ms  max {ordered[-1]:6.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=2000)
    args = parser.parse_args()
    host_end, path = open_pty_pair()
    with tempfile.TemporaryDirectory(prefix="bench-sas-") as nvram:
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        cabinet = subprocess.Popen(
            [sys.executable, "-m", "egm.cli", "sim", "sas-egm", "--port", path, "--nvram", nvram],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        try:
            assert cabinet.stdout is not None
            print(cabinet.stdout.readline().strip())
            host = SasHost(host_end, 1, timeout_s=1.0)
            list(host.exceptions())  # power applied: acknowledged, the queue is empty

            def credits() -> object:
                host.sync()
                return host.meter(0x1A)

            def rom() -> object:
                host.sync()
                return host.rom_signature(0x1234)

            timed(host.general_poll, 50)  # warm up
            report("general poll", timed(host.general_poll, args.polls))
            report("0x1A current credits", timed(credits, args.polls))
            report("0x21 ROM signature", timed(rom, max(10, args.polls // 50)))
        finally:
            cabinet.send_signal(signal.SIGTERM)
            cabinet.wait(timeout=60)
            host_end.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

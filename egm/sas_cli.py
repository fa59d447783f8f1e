"""`egm sim sas-egm`: the cabinet headless, answering a SAS host on a port, until it is stopped.

    egm sim sas-egm --port /dev/pts/7 [--address 1] [--nvram DIR] [--config FILE]

Every other device is emulated. It prints `SAS ready on PORT address N` once it listens. SIGINT or
SIGTERM stops it cleanly (the next boot reads a clean shutdown). Without --nvram the wager memory is
a fresh temporary directory. Exit codes: 0 stopped; 2 bad arguments or configuration.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from egm.host.serve import serve_headless
from hardware.sim.cli import sim_commands

EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = sim_commands(subparsers).add_parser(
        "sas-egm", help="run the cabinet headless with its SAS port on PORT (emulated devices elsewhere)"
    )
    parser.add_argument("--port", required=True, help="the SAS port: a pty path, device path or pyserial URL")
    parser.add_argument("--address", type=int, default=1, help="this machine's SAS address, 1-127")
    parser.add_argument("--nvram", type=Path, help="wager memory directory (default: a new temporary one)")
    parser.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
    parser.set_defaults(handler=_run)


def sas_config(config: Any, port: str, address: int) -> Any:
    """The cabinet config with its SAS port on `port` at `address` and every other device emulated."""
    devices = config.devices
    emulated = {name: getattr(devices, name).model_copy(update={"backend": "emulated", "port": None})
                for name in ("bill_acceptor", "printer", "button_panel", "doors")}
    sas = devices.sas.model_copy(update={"enabled": True, "port": port, "address": address})
    return config.model_copy(update={"devices": devices.model_copy(update={**emulated, "sas": sas})})


def _run(args: argparse.Namespace) -> int:
    from egm.cabinet import build_cabinet
    from egm.clock import SystemClock
    from egm.config import ConfigError, load_cabinet_config, load_jurisdiction
    from egm.memory.store import WagerMemory

    if not 1 <= args.address <= 127:
        print(f"--address {args.address}: a SAS address is 1 to 127", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        config = sas_config(load_cabinet_config(args.config), args.port, args.address)
    except ConfigError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.nvram is None:  # a fresh memory for this run: the operator's RAM clear of a new cabinet
        nvram = Path(tempfile.mkdtemp(prefix="egm-sas-"))
        WagerMemory.clear(nvram, clock=SystemClock(), event_log_size=config.event_log_size,
                          recall_depth=load_jurisdiction(config.jurisdiction).recall_depth).close()
    else:
        nvram = args.nvram
    cabinet = build_cabinet(config, nvram)
    try:
        cabinet.devices.host_link.open()
    except OSError as exc:
        print(f"cannot open the SAS port {args.port} ({exc}); check the device path or URL", file=sys.stderr)
        return EXIT_BAD_INPUT
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    with cabinet.running():
        cabinet.boot()
        print(f"SAS ready on {args.port} address {args.address}", flush=True)
        serve_headless(cabinet, stop)
    return 0

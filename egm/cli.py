"""The `egm` command: one entry point, with each capability registering its own subcommands.

Each module in COMMAND_MODULES has `register(subparsers)`, which adds its subcommands and sets
`handler` (a function taking the parsed args and returning an exit code). Modules keep heavy imports
(pygame, numba, dask) inside their handlers so that `egm --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = (
    "egm.cabinet_cli",  # autoplay, meters, recall
    "egm.rom.cli",  # rom build/sign/verify/hmac/keygen
    "egm.games.dragon_poker.cli",  # dragon replay
    "egm.games.poker_grid.cli",  # poker-grid replay
    "egm.lab.cli",  # certify, lab rng, rng
    "egm.video.cli",  # emulate, kiosk, screenshot
    "hardware.sim.cli",  # device simulators
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="egm", description="EGM firmware simulator")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a capability still being built
            if exc.name is not None and name.startswith(exc.name):
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

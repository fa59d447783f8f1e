"""The `egm` command: one entry point, with each capability registering its own subcommands.

Each module in COMMAND_MODULES has `register(subparsers)`, which adds its subcommands and sets
`handler` (a function taking the parsed args and returning an exit code); so does each installed
game that declares commands of its own (its descriptor's `commands`, e.g. `egm dragon replay`).
Modules keep heavy imports (pygame, numba, dask) inside their handlers so that `egm --help` stays fast.

This is also the cabinet's boot loader. A firmware file that does not even load is a damaged program
ROM: its commands are left out (so `egm rom verify` still runs and names the file), and a command
that trips over it stops as a ROM-error tilt (exit code 3, JSON key `tilt`), never with a traceback.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

COMMAND_MODULES = (
    "egm.cabinet_cli",  # autoplay, meters, recall, state-diagram
    "egm.rom.cli",  # rom build/sign/verify/hmac/keygen
    "egm.games.cli",  # games, replay
    "egm.lab.cli",  # certify, lab rng, rng
    "egm.video.cli",  # emulate, kiosk, screenshot
    "hardware.sim.cli",  # device simulators, SAS host
    "egm.sas_cli",  # sim sas-egm: the cabinet on a SAS port
    "egm.technician_cli",  # config check, devices probe, events
    "egm.server.cli",  # server, server audit/warm/user add
)
EXIT_TILT = 3
EXIT_ROM_FAILED = 1  # `egm rom verify`'s failure code
FIRMWARE_ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_PACKAGES = ("egm", "hardware")
EXIT_NOT_INSTALLED = 2


class DamagedFirmware(Exception):
    """A firmware file failed to load."""


def _damaged_file(exc: BaseException) -> str:
    """The firmware file a load failure comes from, relative to the project root."""
    if isinstance(exc, SyntaxError) and exc.filename:
        candidates = [exc.filename]
    else:
        candidates = [frame.filename for frame in reversed(traceback.extract_tb(exc.__traceback__))]
    for name in candidates:
        path = Path(name).resolve()
        if path.is_relative_to(FIRMWARE_ROOT):
            return path.relative_to(FIRMWARE_ROOT).as_posix()
    return "(unknown file)"


def _missing_package(exc: BaseException) -> str | None:
    """The third-party package an import could not find (an installation problem, not ROM damage)."""
    if isinstance(exc, ModuleNotFoundError) and exc.name and exc.name.split(".")[0] not in FIRMWARE_PACKAGES:
        return exc.name
    return None


def _while_loading(exc: BaseException) -> bool:
    """True when the exception was raised while a module was being loaded (not by running code)."""
    if isinstance(exc, SyntaxError | ImportError):
        return True
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].name == "<module>"  # raised by a module body as it was imported


def _damage_report(exc: BaseException) -> DamagedFirmware:
    return DamagedFirmware(
        f"firmware file {_damaged_file(exc)} does not load ({type(exc).__name__}: {exc}); "
        "the program ROM is damaged: run `egm rom verify`, restore the file, then power-cycle"
    )


Register = Callable[[Any], None]


def _module_register(name: str) -> Register:
    register: Register = importlib.import_module(name).register
    return register


def _register_loaders() -> list[Callable[[], Register]]:
    """How to load each command module's `register`, then each installed game's own (its descriptor's
    `commands`); a game's command module is loaded like the others, and left out alone if damaged."""
    from egm.games import descriptors

    loaders = [functools.partial(_module_register, name) for name in COMMAND_MODULES]
    return loaders + [found.commands.load for found in descriptors().values() if found.commands is not None]


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments get one line on stderr (the command, what is wrong, where help is) and exit 2,
    not argparse's usage block; every subcommand's parser is one too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def build_parser() -> tuple[argparse.ArgumentParser, list[DamagedFirmware]]:
    from egm.config import ConfigError
    from egm.games import UnknownGame

    parser = OneLineParser(prog="egm", description="EGM firmware simulator")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    damaged: list[DamagedFirmware] = []
    try:
        loaders = _register_loaders()
    except (ConfigError, UnknownGame):  # a wrong configuration: the commands that read it say so
        loaders = [functools.partial(_module_register, name) for name in COMMAND_MODULES]
    except Exception as exc:  # a damaged game descriptor: the games' own commands are left out
        if _missing_package(exc):
            raise
        damaged.append(_damage_report(exc))
        loaders = [functools.partial(_module_register, name) for name in COMMAND_MODULES]
    for load in loaders:
        try:
            register = load()
        except Exception as exc:  # a damaged firmware file: only its own commands are left out
            if _missing_package(exc):
                raise
            damaged.append(_damage_report(exc))
            continue
        register(subparsers)
    return parser, damaged


def _rom_tilt(problem: Exception) -> int:
    print(json.dumps({"state": "tilt", "tilt": "rom_error", "error": str(problem)}))
    print(f"ROM error: {problem}", file=sys.stderr)
    return EXIT_TILT


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser, damaged = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        if stop.code == 2 and damaged:  # the command asked for may live in the damaged file
            if argv[:1] == ["rom"]:  # the verifier itself is damaged: the verification fails
                print(f"ROM FAILED: {damaged[0]}")
                return EXIT_ROM_FAILED
            return _rom_tilt(damaged[0])
        raise
    try:
        return int(args.handler(args) or 0)
    except Exception as exc:
        from egm.rom.signing import RomError

        if isinstance(exc, RomError):  # a firmware file the cabinet cannot start without (its rules)
            return _rom_tilt(exc)
        if package := _missing_package(exc):
            print(f"egm: the package '{package}' is not installed; reinstall with `pip install -e .`",
                  file=sys.stderr)
            return EXIT_NOT_INSTALLED
        if not _while_loading(exc):
            raise
        return _rom_tilt(_damage_report(exc))


if __name__ == "__main__":
    sys.exit(main())

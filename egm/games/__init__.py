"""The games a cabinet can run, found through their descriptors (egm.games.descriptor), never by name.

Installed games are
* every package `egm/games/<game>/` with a `descriptor.py` (found by scanning this folder), and
* every package named in the cabinet configuration's `game_packages` (a game that is a package of its
  own, importable from the Python path), which must also have a `descriptor.py`.

Only the descriptor modules are imported here; a game's code is imported when its descriptor's
references are first loaded (after the cabinet has verified the program ROM). docs/games.md says
how to add a game.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from egm.games.descriptor import GameDescriptor

if TYPE_CHECKING:
    from pydantic import BaseModel

    from egm.games.base import Game

DESCRIPTOR_MODULE = "descriptor"


class UnknownGame(KeyError):
    """A game id no installed game has; the message lists the known ids."""

    def __str__(self) -> str:
        return str(self.args[0])


@functools.cache
def configured_packages() -> tuple[str, ...]:
    """The game packages the installed cabinet configuration (config/cabinet.toml) names; read once
    per process (the shell looks games up every frame)."""
    from egm.config import load_cabinet_config

    return tuple(load_cabinet_config().game_packages)


def _package_descriptor(package: str) -> GameDescriptor:
    module = importlib.import_module(f"{package}.{DESCRIPTOR_MODULE}")
    descriptor = getattr(module, "DESCRIPTOR", None)
    if not isinstance(descriptor, GameDescriptor):
        raise TypeError(f"{module.__name__} must define DESCRIPTOR, a egm.games.descriptor.GameDescriptor")
    return descriptor


def _built_in_packages() -> list[str]:
    folder = Path(__file__).parent
    return [
        f"{__name__}.{info.name}"
        for info in sorted(pkgutil.iter_modules([str(folder)]), key=lambda i: i.name)
        if info.ispkg and (folder / info.name / f"{DESCRIPTOR_MODULE}.py").is_file()
    ]


@functools.cache
def _discover(packages: tuple[str, ...]) -> dict[str, GameDescriptor]:
    found: dict[str, GameDescriptor] = {}
    for package in [*_built_in_packages(), *packages]:
        try:
            descriptor = _package_descriptor(package)
        except ModuleNotFoundError as exc:
            if exc.name not in (package, f"{package}.{DESCRIPTOR_MODULE}"):
                raise
            raise UnknownGame(
                f"game package '{package}' (game_packages in the cabinet configuration) is not installed "
                f"or has no {DESCRIPTOR_MODULE}.py; install it or remove it from game_packages"
            ) from None
        if descriptor.id in found:
            raise ValueError(f"two game packages declare the game id '{descriptor.id}'; ids must be unique")
        found[descriptor.id] = descriptor
    return found


def descriptors(packages: Sequence[str] | None = None) -> dict[str, GameDescriptor]:
    """Every installed game by id: built-in games first (by folder), then `packages` (default: the
    configuration's `game_packages`) in order."""
    return dict(_discover(tuple(configured_packages() if packages is None else packages)))


def descriptor_of(game_id: str, packages: Sequence[str] | None = None) -> GameDescriptor:
    """The descriptor of an installed game, or UnknownGame naming the known ids."""
    installed = descriptors(packages)
    try:
        return installed[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game id '{game_id}'; known games: {', '.join(installed)}") from None


def game_class(game_id: str) -> type[Game]:
    return descriptor_of(game_id).game.load()


def paytable_model(game_id: str) -> type[BaseModel]:
    return descriptor_of(game_id).paytable_model.load()


def strategies(game_id: str) -> Collection[str] | None:
    """The strategy names a game's pay tables may give, or None when the game does not say."""
    ref = descriptor_of(game_id).strategies
    return None if ref is None else ref.load()

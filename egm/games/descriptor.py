"""The game descriptor: how a game declares itself to the cabinet, the video shell, the lab, the ROM and
the command line, once, in its own folder.

A game is one package (`egm/games/<game>/`, or a package of its own named in the cabinet
configuration's `game_packages`) with a module `descriptor.py` that defines `DESCRIPTOR`, a
`GameDescriptor`. Everything the descriptor names is a `Ref` ("package.module:attribute"), imported
only when first used: the cabinet verifies the program ROM before any game code is loaded, and a
descriptor module imports nothing but this module.

    DESCRIPTOR = GameDescriptor(id="dragon-poker", title="Dragon Poker", game=Ref("...game:DragonPoker"), ...)

What each part receives is documented on its field below and in docs/games.md.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    import pygame
    from pydantic import BaseModel

    from egm.games.base import Game
    from egm.lab.adapters import LabAdapter
    from egm.rom import PayTable
    from egm.video.scene import Frame, Resources, Scene
    from egm.video.session import Session

T = TypeVar("T")

# Art drawn by the shell's generic screens into a rectangle it chooses: the attract screen (one
# game's art at a time) and the game menu's tile (the area between the tile's title and its PLAY
# button, which narrows as games are installed: the art must fit any size, e.g. with
# `egm.video.layout.row_in` or `CardRenderer.fan`; the menu cuts anything past the tile). `frame`
# gives the snapshot (e.g. the pools, so a jackpot can be shown) and the time (for animation).
DrawArt = Callable[["pygame.Surface", "Resources", "pygame.Rect", "Frame"], None]


@dataclass(frozen=True)
class InfoPage:
    """One page of the help overlay: a title and its lines (rules, or the pays of the pay table)."""

    title: str
    lines: tuple[str, ...]


# Where the rules are read: on the cabinet (its panel buttons and keys) or in a player's browser (the
# game's table and the wager form); a rule that names a control names the one the player has there.
Where = Literal["cabinet", "browser"]
# Rules and pay screens: generated from the pay table the cabinet runs, never written by hand.
InfoPages = Callable[["PayTable", Where], list[InfoPage]]
# Replay: the game's replay object for a seed, played with the given (signed) pay table by the
# reference decisions. JSON-compatible; `egm replay --game ID --seed S --json` prints it.
Replay = Callable[["PayTable", int], dict[str, Any]]
# Commands of its own: `register(subparsers)` adds subcommands to `egm` (e.g. `egm dragon replay`),
# as egm/cli.py's command modules do; heavy imports belong inside the handlers.
Commands = Callable[[Any], None]
# Screenshot recipes: scene name -> a function that drives a freshly booted emulator session to the
# picture, through real key presses and clicks (see egm/video/screenshot.py).
ScreenshotRecipes = Mapping[str, Callable[["Session"], None]]


@dataclass(frozen=True)
class Ref(Generic[T]):
    """A lazily imported object: "package.module:attribute".

    >>> Ref("egm.games.descriptor:Ref").load() is Ref
    True
    """

    target: str

    def __post_init__(self) -> None:
        module, sep, attr = self.target.partition(":")
        if not (module and sep and attr):
            raise ValueError(f"a reference is 'package.module:attribute', not '{self.target}'")

    def load(self) -> T:
        module, _, attr = self.target.partition(":")
        value: T = getattr(importlib.import_module(module), attr)
        return value


@dataclass(frozen=True)
class GameDescriptor:
    """One game, declared once (see the module doc and docs/games.md).

    id: the game id used in pay tables (`[paytable] game`), the configuration (`games`), wager memory,
      meters and commands; lower case words joined by "-".
    title: the name players see (the menu, the attract screen, the window).
    game: the `egm.games.base.Game` subclass, built from a pay table.
    paytable_model: the pydantic model of the `[game]` table of its pay tables (checked by the ROM).
    strategies: the names its pay tables may give as `[paytable] strategy` (its machine strategies or
      house ways); the ROM refuses any other. None: not checked.
    scene: its table scene, an `egm.video.scene.Scene` subclass built with `Scene(res)`; None shows
      the generic table (step, result, and the auto-play button), so a game is playable before it
      has art.
    attract: its art on the attract screen, and tile: its tile on the game menu (both `DrawArt`);
      None draws the title on the game's colour.
    info_pages: its rules and pay screens, generated from the pay table (`InfoPages`).
    lab_adapter: its `egm.lab.adapters.LabAdapter` subclass; None: `egm certify` refuses its pay tables.
    kernel: the module of its compiled fast kernel (numba), if it has one; the adapter uses it, and the
      differential test proves it identical to the reference engine. Informative (`egm games`).
    replay: its replay (`Replay`); None: `egm replay --game ID` refuses it.
    screenshots: its screenshot recipes (`ScreenshotRecipes`); their names are `egm screenshot`'s.
    commands: its own subcommands of `egm` (`Commands`), beside the generic ones; None: none.
    auto_play_label: the label of the panel button that plays the round's reference decision
      ("HOUSE\\nWAY" for Dragon Poker); a newline splits the label over two lines.
    colour: its colour (RGB) on the game menu and the attract screen.
    web: its own table for the game server's browser client, a folder of static files (an ES module
      drawing `RoundView.table`), as "package:folder", e.g. "egm.games.dragon_poker:web"; None: the
      generic web table (step, stake, result, AUTO), as `scene` None is on the cabinet.
    """

    id: str
    title: str
    game: Ref[type[Game]]
    paytable_model: Ref[type[BaseModel]]
    strategies: Ref[Collection[str]] | None = None
    scene: Ref[type[Scene]] | None = None
    attract: Ref[DrawArt] | None = None
    tile: Ref[DrawArt] | None = None
    info_pages: Ref[InfoPages] | None = None
    lab_adapter: Ref[type[LabAdapter]] | None = None
    kernel: str | None = None
    replay: Ref[Replay] | None = None
    screenshots: Ref[ScreenshotRecipes] | None = None
    commands: Ref[Commands] | None = None
    auto_play_label: str = "AUTO\nPLAY"
    colour: tuple[int, int, int] = (60, 60, 90)
    web: str | None = None

    def __post_init__(self) -> None:
        words = self.id.split("-")
        if not all(w.isascii() and w.isalnum() and w.islower() or w.isdigit() for w in words):
            raise ValueError(f"game id '{self.id}' must be lower-case words joined by '-', e.g. 'poker-grid'")
        if not self.title.strip():
            raise ValueError(f"game '{self.id}' needs a title")
        if self.web is not None and not all(self.web.partition(":")[::2]):
            raise ValueError(f"game '{self.id}': web names its folder as 'package:folder', not '{self.web}'")

    def web_folder(self) -> Path | None:
        """The folder of the game's own web table (FileNotFoundError when it is missing); None: the
        generic web table."""
        if self.web is None:
            return None
        package, _, folder = self.web.partition(":")
        path = Path(str(importlib.resources.files(package) / folder))
        if not path.is_dir():
            raise FileNotFoundError(f"game '{self.id}': its web folder {path} is missing")
        return path

"""The game catalogue: the installed games, each with its signed pay table, loaded from the ROM.

The cabinet (egm.cabinet.build) and the game server load their games here and nowhere else:
the ROM self-test first (no game code is loaded from a ROM that fails it), then each configured
game's pay table through `load_paytable` (signature and hash checked), then the game's class.
A pay table that is refused leaves its game out and stands as a ROM problem (`Catalogue.refused`),
which `Catalogue.rom_check` adds to every later self-test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from egm.config import PROJECT_ROOT, CabinetConfig
from egm.games import game_class
from egm.games.base import Game
from egm.rom.manifest import RomCheck, RomProblem, configured_paths, verify_rom
from egm.rom.paytable import PaytableError, load_paytable


@dataclass(frozen=True)
class Catalogue:
    """The games loaded, and why any configured game is not among them.

    games: game id -> Game bound to its pay table, in the configured order.
    refused: a ROM problem per pay table refused, or one for all games when the ROM failed.
    root, manifest_path, trusted_keys: the ROM the games came from (what `rom_check` verifies).
    """

    games: dict[str, Game]
    refused: tuple[RomProblem, ...]
    root: Path
    manifest_path: Path
    trusted_keys: tuple[Path, ...]

    def rom_check(self) -> RomCheck:
        """The ROM self-test now, with the pay tables refused at load counted as problems."""
        check = verify_rom(self.root, self.trusted_keys, self.manifest_path)
        return dataclasses.replace(check, problems=[*check.problems, *self.refused])


def load_game(game_id: str, paytable_name: str, *, root: Path, manifest_path: Path,
              trusted_keys: Sequence[Path]) -> Game:
    """One game with its pay table paytables/<paytable_name>, or PaytableError saying why not."""
    paytable = load_paytable(root / "paytables" / paytable_name, root=root, trusted_keys=trusted_keys,
                             manifest_path=manifest_path)
    if paytable.game != game_id:
        raise PaytableError(f"it is for {paytable.game}, not {game_id}")
    return game_class(game_id)(paytable)  # a pay-table asset it names is checked here


def load_games(config: CabinetConfig, *, root: Path = PROJECT_ROOT,
               game_ids: Sequence[str] | None = None) -> Catalogue:
    """The games `config` installs (or `game_ids`), each with its configured pay table (default
    <game id>.toml), from the ROM `config` names under `root`."""
    manifest_path, trusted_keys = configured_paths(config, root)
    games: dict[str, Game] = {}
    refused: list[RomProblem] = []
    if not verify_rom(root, trusted_keys, manifest_path).ok:
        # Load no game code from a ROM that failed its self-test: the cabinet boots into the ROM tilt,
        # and only a power cycle after the ROM is restored loads the games.
        game_ids = ()
        refused.append(RomProblem("games", "not_loaded", "the ROM failed its self-test, so no game was "
                                  "loaded; restore the ROM and power-cycle"))
    for game_id in game_ids if game_ids is not None else config.games:
        name = config.paytables.get(game_id, f"{game_id}.toml")
        try:
            games[game_id] = load_game(game_id, name, root=root, manifest_path=manifest_path,
                                       trusted_keys=trusted_keys)
        except PaytableError as exc:
            refused.append(RomProblem(f"paytables/{name}", "changed", f"pay table refused: {exc}"))
    return Catalogue(games, tuple(refused), root, manifest_path, tuple(trusted_keys))

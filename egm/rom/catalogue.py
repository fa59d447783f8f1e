"""The game catalogue: the installed games, each with its signed pay table, loaded from the ROM.

The cabinet (egm.cabinet.build) and the game server load their games here and nowhere else:
the ROM self-test first (no game code is loaded from a ROM that fails it), then each configured
game's pay table through `load_paytable` (signature and hash checked), then the game's class.
A pay table that is refused leaves its game out and stands as a ROM problem (`Catalogue.refused`),
which `Catalogue.rom_check` adds to every later self-test. A pay table as signed that its game cannot
play (its schema refuses it, `PaytableInvalid`, or the game's class fails on it) takes only its own
game out of service (`Catalogue.unavailable`, one sentence each): the ROM is as signed, and the
other games play (issue 27).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from egm.config import PROJECT_ROOT, CabinetConfig
from egm.games import descriptor_of, game_class
from egm.games.base import Game
from egm.rom.manifest import RomCheck, RomProblem, configured_paths, verify_rom
from egm.rom.paytable import PaytableError, PaytableInvalid, load_paytable

log = logging.getLogger(__name__)
# What a game's class raises on a signed pay table it cannot play. An ImportError or a SyntaxError is
# the program's own fault (an installation or a damaged ROM) and is never taken for the table's.
GAME_REFUSES_ITS_TABLE = (ValueError, ArithmeticError, TypeError, LookupError)


@dataclass(frozen=True)
class Catalogue:
    """The games loaded, and why any configured game is not among them.

    games: game id -> Game bound to its pay table, in the configured order.
    refused: a ROM problem per pay table refused, or one for all games when the ROM failed.
    unavailable: game id -> the sentence saying why that game is out of service (its signed pay
      table cannot be played); the cabinet logs it at power-up and shows it on the service page.
    root, manifest_path, trusted_keys: the ROM the games came from (what `rom_check` verifies).
    """

    games: dict[str, Game]
    refused: tuple[RomProblem, ...]
    root: Path
    manifest_path: Path
    trusted_keys: tuple[Path, ...]
    unavailable: Mapping[str, str] = dataclasses.field(default_factory=dict)

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
    unavailable: dict[str, str] = {}
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
        except PaytableInvalid as exc:
            unavailable[game_id] = out_of_service(game_id, name, str(exc))
        except PaytableError as exc:
            refused.append(RomProblem(f"paytables/{name}", "changed", f"pay table refused: {exc}"))
        except GAME_REFUSES_ITS_TABLE as exc:  # its code is sound (the ROM), its data is not: it alone is out
            log.exception("game %s could not be built from paytables/%s", game_id, name)
            unavailable[game_id] = out_of_service(game_id, name, f"{type(exc).__name__}: {exc}")
    return Catalogue(games, tuple(refused), root, manifest_path, tuple(trusted_keys), unavailable)


def out_of_service(game_id: str, paytable_name: str, why: str) -> str:
    """The one sentence the event log and the service page give for a game left out."""
    reason = " ".join(why.split())  # one line, whatever the reason held
    return (f"{descriptor_of(game_id).title} is out of service: its pay table paytables/{paytable_name} "
            f"cannot be played ({reason.rstrip('.')}); the other games play.")

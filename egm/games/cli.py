"""`egm games [--json]`: the installed games; `egm replay --game ID --seed S [--json]`: any game's replay.

`egm games --json` prints {"games": [...]}, each entry with `id`, `title`, `paytables` (the shipped
pay-table files for it, paths relative to the project root), `steps`, `replay` (true when
`egm replay --game ID` works) and `certify` (true when `egm certify` takes its pay tables).

`egm replay --game ID --seed S --json` prints the game's replay object (its descriptor's `replay`,
played with the pay table `paytables/<ID>.toml` through the pay-table ROM, or `--paytable FILE`).
An unknown game id exits 2 with one line that lists the known ids.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    games = subparsers.add_parser("games", help="list the installed games")
    games.add_argument("--json", action="store_true", help="print one JSON object")
    games.set_defaults(handler=_games_command)
    replay = subparsers.add_parser("replay", help="play one game from a seed by the reference decisions")
    replay.add_argument("--game", required=True, help="game id (see `egm games`)")
    replay.add_argument("--seed", type=_seed, required=True, help="the RNG seed (whole number >= 0)")
    replay.add_argument("--paytable", type=Path, help="pay table file (default paytables/<game id>.toml)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(handler=_replay_command)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, not '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a seed is a non-negative whole number")
    return value


def shipped_paytables(root: Path) -> dict[str, list[str]]:
    """game id -> the pay-table files under root/paytables that name it (by their `[paytable] game`)."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / "paytables").glob("*.toml")):
        try:
            game = tomllib.loads(path.read_text(encoding="utf-8")).get("paytable", {}).get("game")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # not a pay table `egm rom verify` would pass; listed nowhere
        if isinstance(game, str):
            found.setdefault(game, []).append(path.relative_to(root).as_posix())
    return found


def games_listing(root: Path) -> list[dict[str, Any]]:
    """The `egm games --json` entries of every installed game."""
    from egm.games import descriptors

    paytables = shipped_paytables(root)
    return [
        {
            "id": game_id,
            "title": found.title,
            "paytables": paytables.get(game_id, []),
            "steps": list(found.game.load().steps),
            "replay": found.replay is not None,
            "certify": found.lab_adapter is not None,
        }
        for game_id, found in descriptors().items()
    ]


def _games_command(args: argparse.Namespace) -> int:
    from egm.config import PROJECT_ROOT

    listing = games_listing(PROJECT_ROOT)
    if args.json:
        print(json.dumps({"games": listing}))
        return 0
    for entry in listing:
        abilities = [name for name in ("replay", "certify") if entry[name]]
        print(f"{entry['id']:<16} {entry['title']:<20} steps {' > '.join(entry['steps'])}; "
              f"pay tables {', '.join(entry['paytables']) or 'none'}; {', '.join(abilities) or '-'}")
    return 0


def _replay_command(args: argparse.Namespace) -> int:
    from egm.config import PROJECT_ROOT
    from egm.games import UnknownGame, descriptor_of
    from egm.rom import load_paytable
    from egm.rom.signing import RomError

    try:
        found = descriptor_of(args.game)
    except UnknownGame as exc:
        print(f"egm replay: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if found.replay is None:
        print(f"egm replay: game '{args.game}' has no replay", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        paytable = load_paytable(args.paytable or PROJECT_ROOT / "paytables" / f"{args.game}.toml")
    except RomError as exc:
        print(f"egm replay: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if paytable.game != args.game:
        print(f"egm replay: pay table {paytable.id} is for '{paytable.game}', not '{args.game}'",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    result = found.replay.load()(paytable, args.seed)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0

"""Reconciliation (`egm server audit --terminal-meters T=FILE`): a terminal's totals on the server (sums
over its rounds, egm/server/terminals.py) against its cabinet's game meters, which are the money of
record. FILE is what `egm meters --json` prints on that cabinet ({"meters": {..., "per_game": ...}});
a SAS host's meter readout gives the same file.

Compared, per game and in total: games played, coin in and coin out (wins credited). The cabinet's
meters roll over at 10**METER_DIGITS, so the server's sums are compared modulo the rollover.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from egm.meters import GAME_METER_NAMES, ROLLOVER

# the cabinet's meter name -> the server's key (GET /api/v1/terminal/meters)
SERVER_KEY = {"games_played": "games_played", "coin_in": "coin_in_cents", "coin_out": "coin_out_cents"}


class ReconcileError(Exception):
    """A --terminal-meters argument or file that cannot be used; the message is the sentence."""


def parse_pair(text: str) -> tuple[str, Path]:
    terminal_id, sep, path = text.partition("=")
    if not sep or not terminal_id or not path:
        raise ReconcileError(f"--terminal-meters takes T=FILE (a terminal id and the JSON of 'egm meters "
                             f"--json' from its cabinet), not '{text}'")
    return terminal_id, Path(path)


def read_cabinet_meters(path: Path) -> dict[str, Any]:
    """The `meters` of an `egm meters --json` file; ReconcileError with a sentence if unusable."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReconcileError(f"{path}: cannot read the cabinet's meters ({exc.strerror})") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReconcileError(f"{path}: not JSON ({exc}); give the output of 'egm meters --json'") from exc
    meters = report.get("meters") if isinstance(report, dict) else None
    if not isinstance(meters, dict) or not isinstance(meters.get("per_game"), dict):
        tilt = report.get("tilt") if isinstance(report, dict) else None
        why = f" (the cabinet reported the tilt '{tilt}')" if tilt else ""
        raise ReconcileError(f"{path}: no meters with per-game meters in it{why}; give the output of "
                             "'egm meters --json'")
    for where, row in [("total", meters), *meters["per_game"].items()]:
        if not isinstance(row, dict) or not all(_count(row.get(name)) for name in GAME_METER_NAMES):
            raise ReconcileError(f"{path}: the {where} meters must hold whole numbers for "
                                 f"{', '.join(GAME_METER_NAMES)}")
    return meters


def differences(server: dict[str, Any], cabinet: dict[str, Any]) -> list[str]:
    """Each meter on which the server's totals for the terminal and the cabinet's meters differ."""
    rows = [("total", server, cabinet)]
    for game_id in sorted(set(server["games"]) | set(cabinet["per_game"])):
        rows.append((game_id, server["games"].get(game_id, {}), cabinet["per_game"].get(game_id, {})))
    found = []
    for where, ours, theirs in rows:
        for name in GAME_METER_NAMES:
            held, metered = int(ours.get(SERVER_KEY[name], 0)), int(theirs.get(name, 0))
            if held % ROLLOVER != metered:
                found.append(f"terminal {server['terminal_id']}, {where}: {name} is {held} on the server but "
                             f"{metered} on the cabinet")
    return found


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < ROLLOVER

"""The envelope of a round record: which game wrote it, in which format, and the wager.

Every game's `Round.to_record()` is sealed with `seal`, and its `Game.restore` opens it with
`open_record`, which refuses a record of another game, of another format, or with a damaged wager,
with a sentence naming what is wrong: a record restored after a power loss must be the one the game
wrote.

>>> from egm.games.base import Wager
>>> record = seal("high-card", 1, Wager(1, 1, 25), {"card": "As"})
>>> record["game_id"], record["format"], record["card"]
('high-card', 1, 'As')
>>> open_record(record, "high-card", 1).wager
Wager(bet_credits=1, stake_credits=1, denom_cents=25, side_bets={})
>>> open_record(record, "poker-grid", 1)
Traceback (most recent call last):
...
ValueError: not a poker-grid record of format 1 (it is a high-card record of format 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from egm.games.base import Wager

ENVELOPE_KEYS = ("game_id", "format", "wager")


def seal(game_id: str, record_format: int, wager: Wager, body: Mapping[str, Any]) -> dict[str, Any]:
    """A round record: the envelope (game id, format, wager) and the game's own body."""
    clash = set(body) & set(ENVELOPE_KEYS)
    if clash:
        raise ValueError(f"a record body may not use the envelope's keys {sorted(clash)}")
    return {"game_id": game_id, "format": record_format, "wager": wager.to_record(), **body}


@dataclass(frozen=True)
class OpenedRecord:
    wager: Wager
    body: Mapping[str, Any]


def open_record(record: Mapping[str, Any], game_id: str, record_format: int) -> OpenedRecord:
    """Check the envelope and return the wager and the body (ValueError naming the problem)."""
    if not isinstance(record, Mapping):
        raise ValueError(f"a {game_id} record is a JSON object, not {type(record).__name__}")
    if record.get("game_id") != game_id or record.get("format") != record_format:
        raise ValueError(f"not a {game_id} record of format {record_format} (it is a "
                         f"{record.get('game_id')} record of format {record.get('format')})")
    wager = Wager.from_record(record.get("wager") or {})
    return OpenedRecord(wager, {k: v for k, v in record.items() if k not in ENVELOPE_KEYS})

"""Reading a Dragon Poker round's `view()` for the table scene.

The scene draws only from these accessors, so the view's shape is known in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

HAND_LABELS = ("A", "B", "C", "D")
ROLES = ("player", "dealer", "dragon")
ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
SIDE_OF_ROLE = {"player": "P", "dealer": "H", "dragon": "D"}
ROLE_OF_SIDE = {v: k for k, v in SIDE_OF_ROLE.items()}

Cards = list[str | None]


def step(view: Mapping[str, Any]) -> str:
    return str(view.get("step", ""))


def hands(view: Mapping[str, Any]) -> dict[str, Cards]:
    """The four dealt hands by label A-D (None for a face-down card)."""
    raw = view.get("hands") or {}
    if isinstance(raw, Sequence):
        raw = dict(zip(HAND_LABELS, raw, strict=False))
    return {label: list(raw.get(label) or [None] * 13) for label in HAND_LABELS}


def designation(view: Mapping[str, Any]) -> dict[str, str]:
    """role -> hand label, once designated (empty before)."""
    return {k: v for k, v in dict(view.get("designation") or {}).items() if k in ROLES and v}


def role_cards(view: Mapping[str, Any], role: str) -> Cards:
    label = designation(view).get(role)
    return hands(view)[label] if label else [None] * 13


def setting(view: Mapping[str, Any], role: str) -> dict[str, Cards] | None:
    """A seat's set hand (front/middle/back), or None while it is not set or not revealed."""
    raw = (view.get("settings") or {}).get(role)
    if not raw:
        return None
    return {row: list(raw.get(row) or []) for row in ROWS}


def row_results(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per row: {"row", "player_vs_dealer": "P"/"H", "winner": "P"/"H"/"D"} (empty until settled)."""
    return [dict(r) for r in view.get("rows") or []]


def bonus_points(view: Mapping[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in dict(view.get("bonus_points") or {}).items()}


def ledger(view: Mapping[str, Any]) -> dict[str, Any]:
    return dict(view.get("ledger") or {})


def jackpot_cents(view: Mapping[str, Any]) -> int:
    return int(view.get("jackpot_cents", 0))


def scoreboard(view: Mapping[str, Any]) -> list[str]:
    return [str(code) for code in view.get("scoreboard") or []][-10:]


def bonus_cards(view: Mapping[str, Any]) -> Cards:
    return list(view.get("bonus_cards") or [None, None])

"""Reading a Dragon Poker round's table data (`RoundView.table`, egm.games.dragon_poker.game) for the
table scene.

The scene draws only from these accessors, so the view's shape is known in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HAND_LABELS = ("A", "B", "C", "D")
ROLES = ("player", "dealer", "dragon")
ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
SIDE_OF_ROLE = {"player": "P", "dealer": "H", "dragon": "D"}
ROLE_OF_SIDE = {v: k for k, v in SIDE_OF_ROLE.items()}

View = Mapping[str, Any]
Cards = list[str | None]


def step(view: View) -> str:
    return str(view.get("step", ""))


def hands(view: View) -> dict[str, Cards]:
    """The four dealt hands by label A-D (None for a face-down card)."""
    raw = view.get("hands") or {}
    out: dict[str, Cards] = {}
    for label in HAND_LABELS:
        cards = (raw.get(label) or {}).get("cards")
        out[label] = list(cards) if cards else [None] * 13
    return out


def designation(view: View) -> dict[str, str]:
    """role -> hand label, once designated (empty before)."""
    raw = view.get("hands") or {}
    return {h["role"]: label for label, h in raw.items() if h.get("role") in ROLES}


def role_cards(view: View, role: str) -> Cards:
    label = designation(view).get(role)
    return hands(view)[label] if label else [None] * 13


def setting(view: View, role: str) -> dict[str, Cards] | None:
    """A seat's set hand (front/middle/back), or None while it is not set."""
    raw = (view.get("settings") or {}).get(SIDE_OF_ROLE[role])
    if not raw:
        return None
    return {row: list(raw.get(row) or []) for row in ROWS}


def description(view: View, role: str, row: str) -> str:
    """The poker name of a seat's row, e.g. "Four Fives" (empty until settled)."""
    return str(((view.get("hand_descriptions") or {}).get(SIDE_OF_ROLE[role]) or {}).get(row, ""))


def row_results(view: View) -> list[dict[str, str]]:
    """Per row: {"row", "player_vs_dealer": "P"/"H", "winner": "P"/"H"/"D"} (empty until settled)."""
    rows = view.get("rows") or {}
    pvd = view.get("player_vs_dealer") or {}
    return [
        {"row": row, "player_vs_dealer": str(pvd.get(row, "")), "winner": str(rows[row].get("winner", ""))}
        for row in ROWS
        if row in rows
    ]


def bonus_points(view: View) -> dict[str, int]:
    return {str(k): int(v) for k, v in dict(view.get("bonus_points") or {}).items()}


def ledger(view: View) -> dict[str, Any]:
    return dict(view.get("ledger") or {})


def money(view: View) -> dict[str, Any]:
    """The cabinet payout of a settled hand (credits): stake_return, jackpot, pair bonus, win."""
    return dict(view.get("money") or {})


def jackpot_cents(view: View) -> int:
    return int(view.get("jackpot_cents", 0))


def scoreboard(view: View, snapshot: Mapping[str, Any], game_id: str) -> list[str]:
    """The last results, newest first (P2, H3, D2...): the cabinet's board kept in wager memory, or
    the round's own when the snapshot has none (a recall picture)."""
    kept = (snapshot.get("scoreboard") or {}).get(game_id)
    return [str(code) for code in (kept if kept is not None else view.get("scoreboard") or [])][:10]


def bonus_cards(view: View) -> Cards:
    return list(view.get("bonus_cards") or [None, None])


def pair_bonus(view: View) -> dict[str, Any]:
    """The optional side bet on the bonus cards: bet_credits, hand, win_credits."""
    return dict(view.get("pair_bonus") or {})

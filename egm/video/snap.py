"""Reading the cabinet's `snapshot()` (egm.cabinet.Cabinet.snapshot) for the display: the one place
that knows its keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from egm.games.base import RoundView

Snapshot = Mapping[str, Any]


def state(s: Snapshot) -> str:
    """e.g. "attract", "game.dragon-poker.set", "tilt.maindoor", "handpay", "audit"."""
    return str(s.get("state", ""))


def meters(s: Snapshot) -> Mapping[str, int]:
    return s.get("meters") or {}


def denom_cents(s: Snapshot) -> int:
    """The denomination in force: the game's on the table, else the player's choice (the credit meter
    shows whole credits of it)."""
    return int(s.get("denomination_cents") or 1)


def denominations(s: Snapshot) -> list[int]:
    """The denominations the player may choose on this cabinet."""
    return [int(d) for d in s.get("denominations_cents") or [denom_cents(s)]]


def credits_cents(s: Snapshot) -> int:
    """The credit meter in cents (all of it, also cents short of a whole credit)."""
    return int(s.get("credits_cents") or 0)


def credits(s: Snapshot) -> int:
    """The whole credits the meter makes at the denomination in force (what may be bet)."""
    return credits_cents(s) // denom_cents(s)


def table(s: Snapshot) -> Mapping[str, Any]:
    """The round on the table: {"game_id", "step", "view" (a RoundView), "number"} (empty when none)."""
    return s.get("game") or {}


def view(s: Snapshot) -> RoundView | None:
    """The typed view of the round on the table, or None."""
    found = table(s).get("view")
    return found if isinstance(found, RoundView) else None


def game_id(s: Snapshot) -> str:
    return str(table(s).get("game_id") or "")


def last_win_credits(s: Snapshot) -> int:
    outcome = s.get("last_outcome") or {}
    return int(outcome.get("win_cents", 0)) // denom_cents(s)


def games(s: Snapshot) -> list[str]:
    return list(s.get("games") or [])


def selected_game(s: Snapshot) -> str:
    return str(s.get("selected_game") or "")


def tilt(s: Snapshot) -> str:
    return str(s.get("tilt") or "")


def tilt_detail(s: Snapshot) -> str:
    return str(s.get("tilt_detail") or "")


def open_doors(s: Snapshot) -> list[str]:
    return list(s.get("open_doors") or [])


def hand_pay_cents(s: Snapshot) -> int:
    pending = (s.get("pending") or {}).get("handpay") or {}
    return int(pending.get("amount_cents", 0))


def pools_cents(s: Snapshot) -> Mapping[str, int]:
    return s.get("pools_cents") or {}


def tickets(s: Snapshot) -> list[Mapping[str, Any]]:
    """The tickets this cabinet issued (newest first): validation_number, amount_cents, status,
    expires_at."""
    return list(s.get("tickets") or [])


def recall(s: Snapshot) -> list[Mapping[str, Any]]:
    """Operator menu only: the last games, newest first, each {"game_id", "number", "view", "outcome"}."""
    return list(s.get("recall") or [])


def event_log(s: Snapshot) -> list[Mapping[str, Any]]:
    """Newest first."""
    return list(s.get("event_log") or s.get("events") or [])

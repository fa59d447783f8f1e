"""A round's view as JSON: what a player may see (never the record, until the round is complete)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from egm.games.base import RoundView


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_plain(v) for v in value]
    return value


def view_json(view: RoundView) -> dict[str, Any]:
    """The view's fields, JSON-compatible (RoundView.to_json once the shared round engine has it)."""
    to_json = getattr(view, "to_json", None)
    if to_json is not None:
        return dict(to_json())
    return {f.name: _plain(getattr(view, f.name)) for f in fields(view)}

"""Shared set-up for the Property tests: the shipped pay table, checked by the pay-table schema
(header and `[game]` table) but not signature-checked, optionally with other rules."""

from __future__ import annotations

from types import SimpleNamespace

from egm.config import PROJECT_ROOT
from egm.games.property.paytable import PropertyRules
from egm.rom.paytable import parse_paytable

PAYTABLE = PROJECT_ROOT / "paytables" / "property.toml"


def shipped_paytable(rules: PropertyRules | None = None) -> SimpleNamespace:
    header, parsed = parse_paytable(PAYTABLE, PAYTABLE.read_bytes())
    return SimpleNamespace(id=header.id, version=header.version, game=header.game, header=header,
                           rules=rules or parsed)

"""Issue 27, defect 7: a signed pay table that would crash or run away is refused by its schema.

Every field of every shipped pay table is mutated (wrong types, signs, sizes, missing keys, an
unknown strategy): the pay-table ROM (`parse_paytable`, what a signed table goes through) answers
with one line naming the file and the key, or the table builds its game, whose default wager fits
the meters and whose first round deals, never a traceback.
"""

from __future__ import annotations

import copy
import hashlib
import math
import tomllib
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from egm.config import PROJECT_ROOT
from egm.games import game_class
from egm.meters import ROLLOVER
from egm.rng import Rng
from egm.rom.paytable import PayTable, PaytableError, parse_paytable

SHIPPED = {path.name: tomllib.loads(path.read_text())
           for path in sorted((PROJECT_ROOT / "paytables").glob("*.toml"))}
MISSING = object()
MUTATIONS: dict[str, Any] = {
    "missing": MISSING, "text": "x", "empty text": "", "negative": -1, "zero": 0, "huge": 2**70,
    "large": 10**9, "huge negative": -(2**70), "fraction": 0.5, "infinite": math.inf, "true": True,
    "list": [1], "empty list": [], "table": {"x": 1}, "list of huge": [2**70],
}
Key = tuple[str | int, ...]


def key_paths(data: Any, prefix: Key = ()) -> list[Key]:
    """Every key of a pay table: tables, their keys, and the tables inside its lists."""
    paths: list[Key] = []
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in items:
        if prefix:
            paths.append((*prefix, key))
        if isinstance(value, dict) or (isinstance(value, list) and value and isinstance(value[0], dict)):
            paths += key_paths(value, (*prefix, key))
    return paths


KEYS = [(name, path) for name, data in SHIPPED.items() for path in key_paths(data, ())]


def with_value(name: str, path: Key, value: Any) -> dict[str, Any]:
    """A shipped pay table with the key at `path` set to `value` (MISSING: removed)."""
    data = copy.deepcopy(SHIPPED[name])
    table = data
    for key in path[:-1]:
        table = table[key]
    if value is MISSING:
        del table[path[-1]]
    else:
        table[path[-1]] = copy.deepcopy(value)
    return data


def mutated(name: str, path: Key, mutation: str) -> dict[str, Any]:
    return with_value(name, path, MUTATIONS[mutation])


def outcome(name: str, data: dict[str, Any]) -> str:
    """"refused" (one line naming the file) or "plays"; anything else escapes as the failure."""
    path = PROJECT_ROOT / "paytables" / name
    raw = tomli_w.dumps(data).encode()
    try:
        header, rules = parse_paytable(path, raw)
    except PaytableError as exc:
        [line] = str(exc).splitlines()
        assert line.startswith(f"{path}: ")
        return "refused"
    table = PayTable(id=header.id, version=header.version, game=header.game,
                     sha256=hashlib.sha256(raw).hexdigest(), path=path, header=header, rules=rules)
    try:
        game = game_class(header.game)(table)  # a ROM asset the table names is checked here
    except PaytableError as exc:
        [line] = str(exc).splitlines()
        return "refused"
    wager = game.default_wager(max(header.denominations_cents))
    assert wager.stake_credits * wager.denom_cents < ROLLOVER
    game.new_round(wager, Rng.from_seed(1), {pool: 0 for pool in game.pool_names})
    return "plays"


@pytest.mark.parametrize(
    ("name", "path", "value"),
    [
        ("poker-grid.toml", ("paytable", "strategy"), "grid-opponent/9"),
        ("property.toml", ("paytable", "strategy"), "property-hoarder/1"),
        ("poker-tiles.toml", ("game", "hand_values", "pair"), 2**70),
        ("poker-tiles.toml", ("game", "stake_units"), 2**70),
    ],
)
def test_the_reported_pay_tables_are_refused_with_a_sentence(name: str, path: Key, value: Any) -> None:
    data = with_value(name, path, value)
    with pytest.raises(PaytableError, match=".".join(map(str, path))):
        parse_paytable(PROJECT_ROOT / "paytables" / name, tomli_w.dumps(data).encode())


def test_every_shipped_pay_table_plays() -> None:
    assert {outcome(name, copy.deepcopy(data)) for name, data in SHIPPED.items()} == {"plays"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KEYS), st.sampled_from(sorted(MUTATIONS)))
@example(("poker-tiles.toml", ("game", "hand_values", "pair")), "huge")
@example(("poker-tiles.toml", ("game", "stake_units")), "huge")
@example(("poker-grid.toml", ("paytable", "strategy")), "text")
@example(("property.toml", ("paytable", "strategy")), "text")
@example(("poker-tiles.toml", ("paytable", "strategy")), "missing")
@example(("poker-tiles.toml", ("paytable", "denominations_cents")), "list of huge")
@example(("poker-tiles.toml", ("game", "hand_values")), "table")
@example(("poker-tiles.toml", ("game", "result_pays", 0)), "table")
@example(("prism-words.toml", ("game", "blocks")), "text")
@example(("prism-words.toml", ("game", "lexicon")), "text")
def test_every_field_of_every_shipped_pay_table_mutated_is_refused_or_plays(
    key: tuple[str, Key], mutation: str
) -> None:
    name, path = key
    assert outcome(name, mutated(name, path, mutation)) in ("refused", "plays")


@pytest.mark.soak
def test_every_mutant_exhaustively() -> None:
    """All of them, not a draw (python -m pytest --soak tests/test_paytable_mutants.py -k exhaustively):
    11,085 mutants, each refused in one sentence or played."""
    for name, path in KEYS:
        for mutation in sorted(MUTATIONS):
            played = outcome(name, mutated(name, path, mutation))
            assert played in ("refused", "plays"), (name, path, mutation)

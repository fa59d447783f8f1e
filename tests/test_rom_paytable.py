"""Pay-table ROM: a pay table loads only when signed, and only when it passes its schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, NonNegativeInt

from egm import games
from egm.config import PROJECT_ROOT
from egm.games.descriptor import GameDescriptor, Ref
from egm.rom import PayTable, PaytableError, load_paytable
from egm.rom.signing import generate_key_pair, sign_file
from tests.rom_support import DEV_PRIVATE_KEY, DEV_PUBLIC_KEY, SignedTree, sign_tree


class TinyRules(BaseModel):
    """A stand-in game schema, so these tests do not depend on a real game's rules."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    stake_points: NonNegativeInt
    awards: dict[str, NonNegativeInt]


GOOD = """\
[paytable]
id = "TINY-1"
version = "1.0.0"
game = "tiny"
strategy = "house-way/1"
denominations_cents = [1, 5, 25]
bets_credits = [1, 2, 5]
default_bet_credits = 1
max_win_cents = 100000
description = "test table"

[game]
stake_points = 10
[game.awards]
pair = 1
flush = 5
"""


# Only the pay-table model matters here: no game class is ever built from it.
TINY = GameDescriptor(id="tiny", title="Tiny", game=Ref(f"{__name__}:TinyRules"),
                      paytable_model=Ref(f"{__name__}:TinyRules"))


@pytest.fixture(autouse=True)
def tiny_game(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = games.descriptors()
    monkeypatch.setattr(games, "descriptors", lambda packages=None: {**installed, "tiny": TINY})


def make_tree(tmp_path: Path, text: str = GOOD) -> SignedTree:
    root = tmp_path / "tree"
    (root / "paytables").mkdir(parents=True)
    (root / "egm").mkdir()
    (root / "egm/__init__.py").write_text("")
    (root / "paytables/tiny.toml").write_text(text)
    return sign_tree(root, tmp_path / "out")


def load(tree: SignedTree, name: str = "paytables/tiny.toml") -> PayTable:
    return load_paytable(tree.root / name, root=tree.root, trusted_keys=tree.trusted_keys,
                         manifest_path=tree.manifest_path)


def refused(tree: SignedTree) -> str:
    with pytest.raises(PaytableError) as info:
        load(tree)
    message = str(info.value)
    assert "tiny.toml" in message
    return message


def test_signed_table_loads(tmp_path: Path) -> None:
    import hashlib

    tree = make_tree(tmp_path)
    table = load(tree)
    assert (table.id, table.version, table.game) == ("TINY-1", "1.0.0", "tiny")
    assert table.sha256 == hashlib.sha256(GOOD.encode()).hexdigest()
    assert isinstance(table.rules, TinyRules) and table.rules.awards == {"pair": 1, "flush": 5}
    assert table.header.default_bet_credits == 1 and table.header.strategy == "house-way/1"


def test_tampered_table_is_refused(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    (tree.root / "paytables/tiny.toml").write_text(GOOD.replace("flush = 5", "flush = 500"))
    assert "differs from the signed manifest" in refused(tree)


def test_table_not_in_the_manifest_and_unsigned_is_refused(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    (tree.root / "paytables/other.toml").write_text(GOOD)
    with pytest.raises(PaytableError, match="unsigned"):
        load(tree, "paytables/other.toml")


def test_table_under_a_bad_manifest_is_refused(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    tree.manifest_path.with_suffix(".sig").write_text("00" * 63 + "\n")
    assert "manifest is not valid" in refused(tree)


def test_detached_signature_for_a_table_from_elsewhere(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    outside = tmp_path / "lab" / "candidate.toml"
    outside.parent.mkdir()
    outside.write_text(GOOD)
    with pytest.raises(PaytableError, match="unsigned"):
        load_paytable(outside, root=tree.root, trusted_keys=tree.trusted_keys,
                      manifest_path=tree.manifest_path)
    sign_file(outside, DEV_PRIVATE_KEY)
    table = load_paytable(outside, root=tree.root, trusted_keys=tree.trusted_keys,
                          manifest_path=tree.manifest_path)
    assert table.id == "TINY-1"
    outside.write_text(GOOD + "\n")  # one byte more
    with pytest.raises(PaytableError, match="not a valid signature"):
        load_paytable(outside, root=tree.root, trusted_keys=tree.trusted_keys,
                      manifest_path=tree.manifest_path)


def test_detached_signature_by_an_untrusted_key_is_refused(tmp_path: Path) -> None:
    tree = make_tree(tmp_path)
    generate_key_pair(tmp_path / "rogue")
    outside = tmp_path / "candidate.toml"
    outside.write_text(GOOD)
    sign_file(outside, tmp_path / "rogue.key")
    with pytest.raises(PaytableError, match="trusted key"):
        load_paytable(outside, root=tree.root, trusted_keys=tree.trusted_keys,
                      manifest_path=tree.manifest_path)


@pytest.mark.parametrize(("old", "new", "key", "why"), [
    ('description = "test table"', 'description = "x"\npaytable_colour = "red"', "paytable.paytable_colour",
     "unknown key"),
    ("flush = 5", "flush = 5\nstraight = -3", "game.awards.straight", "greater than or equal to 0"),
    ("stake_points = 10", 'stake_points = "10"', "game.stake_points", "valid integer"),
    ("stake_points = 10", "stake_points = 10\nbonus = 1", "game.bonus", "unknown key"),
    ("max_win_cents = 100000", "max_win_cents = 1.5", "paytable.max_win_cents", "valid integer"),
    ("max_win_cents = 100000", "max_win_cents = -1", "paytable.max_win_cents", "greater than 0"),
    ("denominations_cents = [1, 5, 25]", "denominations_cents = []", "paytable.denominations_cents",
     "at least 1"),
    ("denominations_cents = [1, 5, 25]", "denominations_cents = [1, 1]", "paytable.denominations_cents",
     "listed twice"),
    ("default_bet_credits = 1", "default_bet_credits = 3", "paytable.default_bet_credits",
     "not one of bets_credits"),
    ('game = "tiny"', 'game = "blackjack"', "paytable.game", "not a registered game id"),
    ('id = "TINY-1"\n', "", "paytable.id", "missing key"),
], ids=["unknown-header-key", "negative-award", "wrong-type", "unknown-game-key", "float-cents",
        "negative-limit", "no-denominations", "repeated-denomination", "default-bet-not-allowed",
        "unknown-game", "missing-id"])
def test_bad_values_name_file_and_key(tmp_path: Path, old: str, new: str, key: str, why: str) -> None:
    assert old in GOOD
    message = refused(make_tree(tmp_path, GOOD.replace(old, new)))
    assert f"'{key}'" in message and why in message


def test_missing_game_table(tmp_path: Path) -> None:
    message = refused(make_tree(tmp_path, GOOD.split("[game]")[0]))
    assert "missing key 'game'" in message


def test_not_toml(tmp_path: Path) -> None:
    assert "not valid TOML" in refused(make_tree(tmp_path, GOOD + "[game\n"))


@pytest.mark.parametrize("name", sorted(p.name for p in (PROJECT_ROOT / "paytables").glob("*.toml")))
def test_every_shipped_table_loads_through_the_rom(signed_tree: SignedTree, name: str) -> None:
    table = load_paytable(signed_tree.root / "paytables" / name, trusted_keys=signed_tree.trusted_keys,
                          manifest_path=signed_tree.manifest_path)
    assert isinstance(table.rules, games.paytable_model(table.game))


@pytest.mark.parametrize(("old", "new", "key", "why"), [
    ("pair = 0\nthree_of_a_kind = 2", "three_of_a_kind = 2", "game.bonus_points", "no points for pair"),
    ("natural_pair = 7", "natural_pair = -7", "game.pair_bonus.pays_to_one.natural_pair", "greater than"),
], ids=["missing-rank", "negative-award"])
def test_real_dragon_poker_schema_refuses_bad_awards(tmp_path: Path, old: str, new: str, key: str,
                                                      why: str) -> None:
    """A table from elsewhere, with a valid detached signature, is still checked by the game's schema."""
    text = (PROJECT_ROOT / "paytables/dragon-poker.toml").read_text()
    assert old in text
    candidate = tmp_path / "candidate.toml"
    candidate.write_text(text.replace(old, new, 1))
    sign_file(candidate, DEV_PRIVATE_KEY)
    with pytest.raises(PaytableError) as info:
        load_paytable(candidate, trusted_keys=[DEV_PUBLIC_KEY])
    assert str(candidate) in str(info.value) and f"'{key}'" in str(info.value) and why in str(info.value)


DENOMINATIONS = "denominations_cents = [1, 5, 25, 100]"


@pytest.mark.parametrize(("table", "old", "new"), [
    # every pay within its schema's bounds (egm.games.bounds), the products past the meters
    ("dragon-poker", DENOMINATIONS, DENOMINATIONS.replace("100]", "100, 999999999]")),
    ("dragon-poker", DENOMINATIONS, DENOMINATIONS.replace("100]", "100, 90000000]")),
    ("poker-grid", DENOMINATIONS, DENOMINATIONS.replace("100]", "100, 90000000]")),
], ids=["dragon-stake", "dragon-win", "grid-win"])
def test_a_table_whose_largest_win_does_not_fit_the_meters_is_refused(tmp_path: Path, table: str,
                                                                      old: str, new: str) -> None:
    text = (PROJECT_ROOT / f"paytables/{table}.toml").read_text()
    assert old in text
    candidate = tmp_path / "candidate.toml"
    candidate.write_text(text.replace(old, new, 1))
    sign_file(candidate, DEV_PRIVATE_KEY)
    with pytest.raises(PaytableError, match="does not fit the 10-digit meters"):
        load_paytable(candidate, trusted_keys=[DEV_PUBLIC_KEY])


def test_a_max_win_beyond_the_meters_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace("max_win_cents = 100000", "max_win_cents = 10000000000")
    assert "'paytable.max_win_cents'" in refused(make_tree(tmp_path, text))

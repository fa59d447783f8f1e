"""The game catalogue (egm.rom.catalogue): the one place the cabinet and the game server load their
games: the ROM self-test, each pay table from the ROM, the game's class."""

from __future__ import annotations

from pathlib import Path

import pytest

from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.games import descriptors
from egm.rom import PaytableError
from egm.rom.catalogue import load_game, load_games
from tests.rom_support import SignedTree, sign_tree


def test_every_installed_game_loads_with_its_signed_pay_table(signed_tree: SignedTree) -> None:
    config = load_cabinet_config(signed_tree.config_path)
    catalogue = load_games(config, game_ids=list(descriptors()))
    assert list(catalogue.games) == list(descriptors()) and len(catalogue.games) >= 5
    assert catalogue.refused == ()
    for game_id, game in catalogue.games.items():
        assert game.game_id == game_id and game.paytable.game == game_id
    assert catalogue.rom_check().ok


def test_a_pay_table_for_another_game_is_refused_and_stands_as_a_rom_problem(signed_tree: SignedTree) -> None:
    config = load_cabinet_config(signed_tree.config_path)
    config = config.model_copy(update={"paytables": {"dragon-poker": "property.toml"}})
    catalogue = load_games(config, game_ids=["dragon-poker", "property"])
    assert list(catalogue.games) == ["property"]
    (problem,) = catalogue.refused
    assert str(problem) == "changed: paytables/property.toml: pay table refused: it is for property, not " \
                           "dragon-poker"
    assert catalogue.rom_check().problems == [problem]  # every later self-test still names it
    with pytest.raises(PaytableError, match="it is for property, not dragon-poker"):
        load_game("dragon-poker", "property.toml", root=PROJECT_ROOT, manifest_path=signed_tree.manifest_path,
                  trusted_keys=signed_tree.trusted_keys)


def test_a_rom_that_fails_its_self_test_loads_no_game(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    (root / "paytables").mkdir(parents=True)
    shipped = PROJECT_ROOT / "paytables" / "property.toml"
    (root / "paytables" / "property.toml").write_bytes(shipped.read_bytes())
    tree = sign_tree(root, tmp_path / "signed")
    (root / "paytables" / "property.toml").write_text("# changed after signing\n")
    catalogue = load_games(load_cabinet_config(tree.config_path), root=root, game_ids=["property"])
    assert catalogue.games == {}
    assert [p.kind for p in catalogue.refused] == ["not_loaded"]
    assert "no game was loaded" in str(catalogue.refused[0])

"""Issue 27, defect 7: a signed pay table that fails takes only its own game out of the menu.

A pay table signed into the ROM but refused by its schema (here Property's with an unknown machine
strategy, which raised a ValueError traceback while the cabinet was built, so no game started) or
by its game leaves that game out: the cabinet boots without a ROM tilt, the event log and the
service page say why in one sentence, and the other games play. A pay table the ROM's signature
refuses is still a ROM problem (docs/rom.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from egm.clock import FakeClock
from egm.config import PROJECT_ROOT, load_cabinet_config
from egm.events import StartGame
from egm.rom import FIRMWARE_DIRS
from egm.rom.catalogue import load_games
from tests.rom_support import sign_tree

GAMES = '["poker-grid", "property"]'


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the firmware whose Property pay table names a strategy Property does not run,
    signed into its ROM."""
    root = tmp_path_factory.mktemp("tree")
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    table = root / "paytables" / "property.toml"
    text = table.read_text()
    assert 'strategy = "property-reserve/1"' in text
    table.write_text(text.replace('strategy = "property-reserve/1"', 'strategy = "property-hoarder/1"'))
    config = root / "config" / "cabinet.toml"
    config.write_text("\n".join(f"games = {GAMES}" if line.startswith("games = ") else line
                                for line in config.read_text().splitlines()) + "\n")
    sign_tree(root, root)
    return root


def test_only_the_failing_game_is_left_out(tree: Path) -> None:
    catalogue = load_games(load_cabinet_config(tree / "config" / "cabinet.toml"), root=tree)
    assert list(catalogue.games) == ["poker-grid"]
    assert catalogue.refused == ()  # not a ROM problem: the ROM is as signed
    [sentence] = catalogue.unavailable.values()
    assert list(catalogue.unavailable) == ["property"]
    assert "Property" in sentence and "property-hoarder/1" in sentence and "\n" not in sentence
    assert catalogue.rom_check().ok


def test_the_cabinet_boots_says_why_and_plays_the_others(tree: Path, tmp_path: Path) -> None:
    from egm.cabinet import build_cabinet

    config = load_cabinet_config(tree / "config" / "cabinet.toml")
    cabinet = build_cabinet(config, tmp_path / "nvram", seed=3, clock=FakeClock(), root=tree)
    try:
        cabinet.boot()
        assert cabinet.tilt is None and cabinet.state == "attract"
        assert cabinet.snapshot()["games"] == ["poker-grid"]
        [sentence] = cabinet.snapshot()["games_unavailable"].values()
        logged = [e for e in cabinet.event_log() if e["kind"] == "game_unavailable"]
        assert [e["message"] for e in logged] == [sentence]
        assert logged[0]["detail"]["game_id"] == "property"
        cabinet.devices.bill_acceptor.insert_bill(2000)
        cabinet.poll_devices()
        assert cabinet.handle(StartGame("poker-grid")).accepted
        refused = cabinet.handle(StartGame("property"))
        assert not refused.accepted
    finally:
        cabinet.close()


def test_the_service_page_shows_the_sentence(tree: Path, tmp_path: Path) -> None:
    from egm.cabinet import build_cabinet
    from egm.video.service_info import unavailable_lines

    config = load_cabinet_config(tree / "config" / "cabinet.toml")
    cabinet = build_cabinet(config, tmp_path / "nvram", seed=3, clock=FakeClock(), root=tree)
    try:
        cabinet.boot()
        [sentence] = cabinet.snapshot()["games_unavailable"].values()
        assert unavailable_lines(cabinet.snapshot()) == [sentence]
    finally:
        cabinet.close()

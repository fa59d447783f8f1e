"""Property on the cabinet, end to end on a signed copy of the firmware: listed by `egm games`, its pay
table loaded through the pay-table ROM, a power cut in the middle of a game (the game resumes at the
same decision with the same board), `egm autoplay`, recall, and `egm replay --game property`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from egm.config import PROJECT_ROOT
from egm.games import descriptor_of
from egm.rom import FIRMWARE_DIRS, load_paytable
from tests.accounting import identity_gap
from tests.rom_support import sign_tree
from tests.test_property_replay import check_money


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    for top in (*FIRMWARE_DIRS, "config", "keys"):
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    sign_tree(root, root)
    return root


def run(tree: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "egm.cli", *args]
    return subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=300)


def test_listed_with_replay_and_certify(tree: Path) -> None:
    done = run(tree, "games", "--json")
    games = {entry["id"]: entry for entry in json.loads(done.stdout)["games"]}
    assert games["property"] == {"id": "property", "title": "Property",
                                 "paytables": ["paytables/property.toml"], "steps": ["play", "complete"],
                                 "replay": True, "certify": True}


def test_the_shipped_pay_table_loads_through_the_rom(signed_tree: Any) -> None:
    paytable = load_paytable(PROJECT_ROOT / "paytables" / "property.toml",
                             manifest_path=signed_tree.manifest_path, trusted_keys=signed_tree.trusted_keys)
    assert paytable.game == "property" and paytable.header.strategy == "property-reserve/1"
    replay = descriptor_of("property").replay
    assert replay is not None
    check_money(json.loads(json.dumps(replay.load()(paytable, 9))))


POWER_CUT = textwrap.dedent("""
    import json, os, signal, sys
    from pathlib import Path
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config
    from egm.events import PlayerDecision, StartGame

    cabinet = build_cabinet(load_cabinet_config(), Path(sys.argv[1]), seed=5)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(10000)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame("property")).accepted
    for _ in range(15):
        assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
    print(json.dumps([cabinet.state, cabinet.round.table_view()]), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the power goes in the middle of the game
""")

RESUMED = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config

    cabinet = build_cabinet(load_cabinet_config(), Path(sys.argv[1]), seed=6)
    cabinet.boot()
    print(json.dumps([cabinet.state, cabinet.round.table_view()]), flush=True)
""")


def test_a_power_cut_mid_game_resumes_the_same_game_then_autoplay_and_recall(tree: Path,
                                                                               tmp_path: Path) -> None:
    nvram = repr(str(tmp_path / "nvram"))
    cut = run(tree, code=POWER_CUT.replace("sys.argv[1]", nvram))
    assert cut.returncode == -9, cut.stderr
    before = json.loads(cut.stdout)
    after = run(tree, code=RESUMED.replace("sys.argv[1]", nvram))
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout) == before and before[0] == "game.property.play"
    done = run(tree, "autoplay", "--nvram", str(tmp_path / "nvram"), "--game", "property", "--games", "3",
               "--seed", "5", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["games_completed"] == 3 and identity_gap(report["meters"]) == 0
    recall = json.loads(run(tree, "recall", "--nvram", str(tmp_path / "nvram"), "--json").stdout)
    assert {game["game_id"] for game in recall} == {"property"} and len(recall) == 4


def test_egm_replay_prints_the_contract(tree: Path) -> None:
    first = run(tree, "replay", "--game", "property", "--seed", "12", "--json")
    assert first.returncode == 0, first.stderr
    check_money(json.loads(first.stdout))
    assert run(tree, "replay", "--game", "property", "--seed", "12", "--json").stdout == first.stdout

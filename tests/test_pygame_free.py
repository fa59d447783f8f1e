"""What the game server runs imports without pygame: the game descriptors, the game plug-ins and their
rules pages, the round engine and the game catalogue. A fresh interpreter with pygame made
unimportable loads every installed game from the ROM with its verified compiled code (as the server
does) and plays one round of each through the round engine (start, the reference decisions, settle)."""

from __future__ import annotations

import json
import subprocess
import sys

from egm.config import PROJECT_ROOT
from egm.games import descriptors
from tests.rom_support import SignedTree

SCRIPT = """
import json, sys
sys.modules["pygame"] = None  # `import pygame` now raises ImportError
from egm.config import load_cabinet_config
from egm.games import descriptors
from egm.games.base import play_reference
from egm.play import rounds
from egm.rng import Rng
from egm.rom.catalogue import load_games
from egm.rom.compiled import configured_compiled_root, install_catalogue_code

# as the game server loads its games (egm.server.lobby): with the ROM's verified build for this CPU
config = load_cabinet_config(sys.argv[1])
catalogue, compiled = install_catalogue_code(load_games(config, game_ids=list(descriptors())),
                                             configured_compiled_root(config))
played = {}
for game_id, game in catalogue.games.items():
    pages = descriptors()[game_id].info_pages.load()(game.paytable)
    denom = game.wager_offer().denominations_cents[0]
    started = rounds.start(game, game.default_wager(denom), Rng.from_seed(1), number=1, pools_held={})
    play_reference(started.round)
    settled = rounds.settle(game, started.round, started.record, credits_cents=0,
                            hand_pay_limit_cents=120_000, pools_held={}, pool_meters={}, scoreboard={})
    played[game_id] = {"pages": len(pages), "stake_cents": settled.stake_cents,
                       "steps": started.round.step}
print(json.dumps({"refused": [str(p) for p in catalogue.refused], "played": played,
                  "compiled": compiled and compiled.state,
                  "pygame": sorted(m for m in sys.modules if m.startswith("pygame") and sys.modules[m])}))
"""


def test_the_server_side_of_every_game_runs_without_pygame(signed_tree: SignedTree) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(signed_tree.config_path)], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["refused"] == [] and report["pygame"] == [] and report["compiled"] == "verified"
    assert sorted(report["played"]) == sorted(descriptors()) and len(report["played"]) >= 5
    for game in report["played"].values():
        assert game["pages"] >= 2 and game["stake_cents"] > 0 and game["steps"] == "complete"


def test_blocking_pygame_is_seen() -> None:
    """The block works: importing the cabinet's art in that interpreter fails."""
    script = "import sys; sys.modules['pygame'] = None\nimport egm.games.dragon_poker.art"
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode != 0 and "pygame" in done.stderr

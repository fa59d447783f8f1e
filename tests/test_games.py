"""Games found through their descriptors: `egm games`, `egm replay --game`, and the shared pieces.

The replay outputs in tests/data/replay/ were recorded with `egm dragon replay --seed S --json` and
`egm poker-grid replay --seed S --json` on main before the games became plug-ins (commit 32504fb):
the new command and the kept aliases must print them byte for byte.
"""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import egm.games
import egm.games.base
import egm.games.descriptor
import egm.games.grid
import egm.games.margin
import egm.games.record
import egm.games.scoreboard
import egm.games.seats
import egm.video.drag
from egm.cli import main
from egm.config import PROJECT_ROOT
from egm.games import UnknownGame, descriptor_of, descriptors, game_class, paytable_model
from egm.games.base import Decision, Wager, play_reference
from egm.games.descriptor import GameDescriptor, Ref
from egm.games.record import open_record
from egm.rng import Rng
from egm.rom import load_paytable

RECORDED = Path(__file__).parent / "data" / "replay"
ALIASES = {"dragon-poker": ["dragon", "replay"], "poker-grid": ["poker-grid", "replay"]}


def recorded() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(RECORDED.glob("*.json")):
        game_id, _, seed = path.stem.rpartition("-seed")
        out.append((game_id, int(seed), path.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize(("game_id", "seed", "expected"), recorded(), ids=lambda v: str(v)[:20])
def test_replay_prints_what_main_printed_byte_for_byte(signed_tree, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, game_id: str,
                                                       seed: int, expected: str) -> None:
    monkeypatch.chdir(PROJECT_ROOT)
    assert main(["replay", "--game", game_id, "--seed", str(seed), "--json"]) == 0
    assert capsys.readouterr().out == expected
    assert main([*ALIASES[game_id], "--seed", str(seed), "--json"]) == 0  # the alias outside checks use
    assert capsys.readouterr().out == expected


def test_games_json_lists_every_installed_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert list(listing) == ["games"]
    games = {entry["id"]: entry for entry in listing["games"]}
    assert games["dragon-poker"] == {"id": "dragon-poker", "title": "Dragon Poker",
                                     "paytables": ["paytables/dragon-poker.toml"],
                                     "steps": ["designate", "set", "complete"], "replay": True,
                                     "certify": True}
    assert games["poker-grid"] == {"id": "poker-grid", "title": "Poker Grid",
                                   "paytables": [f"paytables/poker-grid{n}.toml" for n in ("-2", "-3", "")],
                                   "steps": ["play", "complete"],
                                   "replay": True, "certify": True}
    # every folder of egm/games with a descriptor is a game; nothing else is
    folders = {p.parent.name for p in (PROJECT_ROOT / "egm" / "games").glob("*/descriptor.py")}
    assert len(games) == len(folders) and set(games) == set(descriptors())


def test_an_unknown_game_exits_2_with_one_line_naming_the_known_ids(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--game", "blackjack", "--seed", "1", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "unknown game id 'blackjack'" in lines[0]
    assert all(game_id in lines[0] for game_id in descriptors())


def test_lookups_go_through_the_descriptors() -> None:
    found = descriptor_of("dragon-poker")
    assert game_class("dragon-poker") is found.game.load() and game_class("dragon-poker").game_id == found.id
    assert paytable_model("poker-grid").__name__ == "PokerGridRules"
    assert found.auto_play_label == "HOUSE\nWAY"
    assert descriptor_of("poker-grid").auto_play_label == "AUTO\nPLAY"
    with pytest.raises(UnknownGame, match="unknown game id 'nope'; known games: dragon-poker"):
        descriptor_of("nope")
    with pytest.raises(ValueError, match="lower-case words"):
        egm.games.descriptor.GameDescriptor(id="Bad Id", title="x", game=found.game,
                                            paytable_model=found.paytable_model)


def test_each_descriptor_names_its_own_game() -> None:
    for game_id, found in descriptors().items():
        game = found.game.load()
        assert game.game_id == game_id and game.title == found.title and game.steps[-1] == "complete"


def test_a_configured_game_package_that_is_not_installed_is_named() -> None:
    with pytest.raises(UnknownGame, match="game package 'no_such_game_package'.* is not installed"):
        descriptors(["no_such_game_package"])


@pytest.mark.parametrize("game_id", ["dragon-poker", "poker-grid"])
def test_every_record_is_sealed_and_a_record_of_another_game_is_refused(signed_tree, game_id: str) -> None:
    paytable = load_paytable(PROJECT_ROOT / "paytables" / f"{game_id}.toml", root=signed_tree.root,
                             trusted_keys=signed_tree.trusted_keys, manifest_path=signed_tree.manifest_path)
    game = game_class(game_id)(paytable)
    round_ = game.new_round(game.default_wager(5), Rng.from_seed(9), {})
    play_reference(round_)
    record = round_.to_record()
    assert open_record(record, game_id, 1).wager == game.default_wager(5)
    assert game.restore(record).view() == round_.view()
    other = "poker-grid" if game_id == "dragon-poker" else "dragon-poker"
    with pytest.raises(ValueError, match=f"not a {game_id} record"):
        game.restore({**record, "game_id": other})
    with pytest.raises(ValueError, match="wager is damaged"):
        game.restore({**record, "wager": {"bet_credits": 1}})


def test_the_round_view_is_typed_and_the_same_for_every_game(signed_tree) -> None:
    for game_id in ("dragon-poker", "poker-grid"):
        paytable = load_paytable(PROJECT_ROOT / "paytables" / f"{game_id}.toml", root=signed_tree.root,
                                 trusted_keys=signed_tree.trusted_keys,
                                 manifest_path=signed_tree.manifest_path)
        game = game_class(game_id)(paytable)
        wager = game.wager_for(2, 5)
        round_ = game.new_round(wager, Rng.from_seed(4), {})
        view = round_.view()
        assert (view.game_id, view.step, view.bet_credits, view.stake_credits) == \
            (game_id, game.steps[0], 2, wager.stake_credits)
        assert view.decision_awaited and view.win_credits is None and view.result_text == ""
        outcome = play_reference(round_)
        done = round_.view()
        assert done.complete and not done.decision_awaited and not done.auto_decision
        assert done.win_credits == outcome.win_credits and done.result_text


def test_wager_records_round_trip_and_scale() -> None:
    wager = Wager(bet_credits=2, stake_credits=21, denom_cents=5, side_bets={"pair_bonus": 1})
    assert Wager.from_record(json.loads(json.dumps(wager.to_record()))) == wager
    scaled = Wager(bet_credits=10, stake_credits=105, denom_cents=5, side_bets={"pair_bonus": 5})
    assert wager.scaled(5) == scaled
    with pytest.raises(ValueError, match="stake must cover"):
        Wager.from_record({**wager.to_record(), "stake_credits": 1})


def test_the_reference_play_loop_finishes_a_round() -> None:
    class Counting:
        def __init__(self) -> None:
            self.decided: list[Decision] = []

        @property
        def finished(self) -> bool:
            return len(self.decided) == 3

        def reference_decision(self) -> Decision:
            return Decision("step", {"n": len(self.decided)})

        def decide(self, decision: Decision) -> None:
            self.decided.append(decision)

        def outcome(self) -> str:
            return "paid"

    round_ = Counting()
    assert play_reference(round_) == "paid"  # type: ignore[arg-type]
    assert [d.args["n"] for d in round_.decided] == [0, 1, 2]


def test_a_game_may_name_its_own_web_table_folder() -> None:
    for descriptor in descriptors().values():  # a game's own table, or None: the generic web table
        folder = descriptor.web_folder()
        assert folder is None or (folder / "table.js").is_file(), descriptor.id
    game = Ref("egm.games.dragon_poker.game:DragonPoker")
    model = Ref("egm.games.dragon_poker.paytable:DragonPokerRules")
    own = GameDescriptor(id="own-web", title="Own Web", game=game, paytable_model=model,
                         web="egm.games:dragon_poker")
    assert own.web_folder() == PROJECT_ROOT / "egm" / "games" / "dragon_poker"
    missing = GameDescriptor(id="no-web", title="No Web", game=game, paytable_model=model,
                             web="egm.games.dragon_poker:no_web")
    with pytest.raises(FileNotFoundError, match="game 'no-web': its web folder .*no_web is missing"):
        missing.web_folder()
    with pytest.raises(ValueError, match="web names its folder as 'package:folder', not 'web'"):
        GameDescriptor(id="bad-web", title="Bad Web", game=game, paytable_model=model, web="web")


@pytest.mark.parametrize("module", [egm.games.base, egm.games.descriptor, egm.games.grid, egm.games.record,
                                    egm.games.scoreboard, egm.games.margin, egm.games.seats, egm.video.drag])
def test_doctests_of_the_shared_modules(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0

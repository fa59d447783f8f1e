"""A round's view and outcome as JSON (what the game server sends and stores): for every installed
game, at every step of a round, `RoundView.to_json` survives json.dumps/loads and `from_json` gives the
same view back; `Outcome.to_record`/`from_record` likewise. Damaged input is refused with a sentence."""

from __future__ import annotations

import json

import pytest

from egm.config import PROJECT_ROOT
from egm.games import descriptors, game_class
from egm.games.base import Outcome, RoundView
from egm.rng import Rng
from egm.rom import load_paytable


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data, allow_nan=False))


@pytest.mark.parametrize("game_id", sorted(descriptors()))
def test_every_view_and_outcome_round_trips_through_json(signed_tree, game_id: str) -> None:
    paytable = load_paytable(PROJECT_ROOT / "paytables" / f"{game_id}.toml", root=signed_tree.root,
                             trusted_keys=signed_tree.trusted_keys, manifest_path=signed_tree.manifest_path)
    game = game_class(game_id)(paytable)
    wager = game.default_wager(game.wager_offer().denominations_cents[0])
    round_ = game.new_round(wager, Rng.from_seed(3), {})
    views = [round_.view()]
    while not round_.finished:
        round_.decide(round_.reference_decision())
        views.append(round_.view())
    assert views[-1].complete and views[-1].win_credits is not None
    for view in views:
        assert RoundView.from_json(through_json(view.to_json())) == view
    outcome = round_.outcome()
    assert Outcome.from_record(through_json(outcome.to_record())) == outcome


def test_a_damaged_view_or_outcome_is_refused() -> None:
    view = RoundView("dragon-poker", "designate", 1, 3, True, True).to_json()
    with pytest.raises(ValueError, match="the round view is damaged .*'step'"):
        RoundView.from_json({k: v for k, v in view.items() if k != "step"})
    with pytest.raises(ValueError, match=r"the round view is damaged \(wrong type: bet_credits\)"):
        RoundView.from_json({**view, "bet_credits": "1"})
    with pytest.raises(ValueError, match="wrong type: win_credits"):
        RoundView.from_json({**view, "win_credits": 1.5})
    record = Outcome(5, {"dragon_jackpot": 100}, "P2").to_record()
    with pytest.raises(ValueError, match="the outcome record is damaged"):
        Outcome.from_record({k: v for k, v in record.items() if k != "summary"})
    with pytest.raises(ValueError, match="a win cannot be negative"):
        Outcome.from_record({**record, "win_credits": -1})

"""The machine strategies keep their behaviour: games recorded from the engine before the strategies were
compiled (tests/data/poker_grid_games.json, written by tools/record_poker_grid_games.py) replay to the
same moves, points and scores, heads-up and against 2 and 3 opponents, at grid-opponent/1 and
grid-lookahead/1."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tools.record_poker_grid_games import DATA, PLAN, play, recording_game

RECORDED: list[dict[str, Any]] = json.loads(DATA.read_text())


def test_the_recording_covers_the_plan() -> None:
    counts = {(s, o): n for s, o, _, n in PLAN}
    seen: dict[tuple[str, int], int] = {}
    for game in RECORDED:
        key = (game["strategy"], game["opponents"])
        seen[key] = seen.get(key, 0) + 1
        assert len(game["moves"]) == 52 and len(game["points"]) == 52
        assert [sum(p for (seat, _, _), p in zip(game["moves"], game["points"], strict=True) if seat == s)
                for s in range(1 + game["opponents"])] == game["scores"]
    assert seen == counts


@pytest.mark.parametrize("strategy,opponents", sorted({(s, o) for s, o, _, _ in PLAN}))
def test_the_engine_replays_the_recorded_games(strategy: str, opponents: int) -> None:
    game = recording_game(opponents)
    for recorded in (g for g in RECORDED if (g["strategy"], g["opponents"]) == (strategy, opponents)):
        assert play(game, strategy, opponents, recorded["seed"]) == recorded, recorded["seed"]

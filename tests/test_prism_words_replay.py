"""The replay contract: an outside rescoring of every move from the JSON and the lexicon alone."""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any

import pytest

from egm.games.prism_words.replay import replay_game
from tests.prism_support import LEXICON_FILE, example_paytable


@pytest.fixture(scope="module")
def words() -> set[str]:
    return set(gzip.decompress(LEXICON_FILE.read_bytes()).decode("ascii").upper().split())


def rescore(report: dict[str, Any], words: set[str]) -> None:
    """Rebuild the grid from the placements and rescore each play independently of the engine."""
    rows, cols = report["board"]["rows"], report["board"]["cols"]
    blocks = report["blocks"]
    grid: dict[tuple[int, int], tuple[str, int, str]] = {}  # (row, col) -> letter, value, face
    scores = [0] * len(report["scores"])
    doubling = report["scoring"] == "rules"
    for move in report["moves"]:
        if move["kind"] != "play":
            assert set(move) == {"seat", "kind"}
            continue
        new = {}
        for p in move["placements"]:
            left, left_value, right, right_value = blocks[p["block"]]
            face_letter, value = (left, left_value) if p["face"] == "left" else (right, right_value)
            assert face_letter in ("*", p["letter"])
            assert (p["row"], p["col"]) not in grid and 0 <= p["row"] < rows and 0 <= p["col"] < cols
            new[(p["row"], p["col"])] = (p["letter"], value, p["face"])
        grid.update(new)
        total = 0
        for word in move["words"]:
            cells = [tuple(cell) for cell in word["cells"]]
            assert any(cell in new for cell in cells)
            text = "".join(grid[cell][0] for cell in cells)
            assert text == word["word"] and text in words
            basic = sum(grid[cell][1] for cell in cells)
            long_word = len(cells) >= 6
            pattern = 25 if long_word and len({grid[cell][2] for cell in cells}) == 1 else 0
            points = basic * (2 if long_word and doubling else 1) + pattern
            assert (word["basic"], word["doubled"], word["pattern_bonus"], word["points"]) == (
                basic, long_word and doubling, pattern, points)
            total += points
        assert move["rack_bonus"] == (25 if len(new) == 6 else 0)
        assert move["points"] == total + move["rack_bonus"]
        scores[move["seat"]] += move["points"]
    final = [s + a for s, a in zip(scores, report["end_adjustments"], strict=True)]
    assert final == report["scores"]
    margin = final[0] - max(final[1:])
    assert report["result"] == ("win" if margin > 0 else "tie" if margin == 0 else "loss")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_move_rescores_from_the_json(seed: int, words: set[str]) -> None:
    report = json.loads(json.dumps(replay_game(example_paytable(), seed)))
    assert len(report["blocks"]) == 96 and report["board"] == {"rows": 15, "cols": 15, "centre": [7, 7]}
    assert report["lexicon_sha256"] == hashlib.sha256(LEXICON_FILE.read_bytes()).hexdigest()
    rescore(report, words)
    assert report["win_cents"] == report["win_credits"] * 1
    assert sum(m["kind"] == "play" for m in report["moves"]) >= 8


def test_the_example_scoring_option_replays_too(words: set[str]) -> None:
    report = replay_game(example_paytable(scoring="example"), 7)
    assert report["scoring"] == "example"
    rescore(report, words)
    assert not any(w["doubled"] for m in report["moves"] if m["kind"] == "play" for w in m["words"])


def test_the_same_seed_replays_the_same_game() -> None:
    one, two = replay_game(example_paytable(), 9), replay_game(example_paytable(), 9)
    assert one == two

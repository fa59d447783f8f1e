"""Poker Grid on the cabinet: the round, refusals, record/restore at every placement, determinism, and
the replay contract, with every move rescored by an independent scorer written here."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from egm.cards import RANKS, SUITS, Card
from egm.config import PROJECT_ROOT
from egm.games import game_class
from egm.games.base import Decision, DecisionRefused, play_reference
from egm.games.poker_grid.game import PokerGrid, PokerGridRound
from egm.games.poker_grid.replay import replay_game
from egm.rng import Rng
from egm.rom import load_paytable

PAYTABLE = PROJECT_ROOT / "paytables" / "poker-grid.toml"
POINTS = {
    "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5, "full_house": 6,
    "four_of_a_kind": 7, "straight_flush": 8, "royal_flush": 9, "five_of_a_kind": 10,
}


@pytest.fixture
def paytable(signed_tree: Any) -> Any:
    return load_paytable(
        PAYTABLE, manifest_path=signed_tree.manifest_path, trusted_keys=signed_tree.trusted_keys
    )


@pytest.fixture
def game(paytable: Any) -> PokerGrid:
    return PokerGrid(paytable)


def start(game: PokerGrid, seed: int = 1, **kwargs: Any) -> PokerGridRound:
    return game.new_round(game.default_wager(1), Rng.from_seed(seed), {}, **kwargs)


# ---- an independent scorer: brute-force wild substitution, its own hand ranking -------------------

def _rank_points(hand: tuple[tuple[int, int], ...]) -> int:
    counts = sorted(Counter(rank for rank, _ in hand).values(), reverse=True)
    if len(hand) == 5:
        ranks = {rank for rank, _ in hand}
        flush = len({suit for _, suit in hand}) == 1
        straight = len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or ranks == {12, 0, 1, 2, 3})
        if counts[0] == 5:
            return 10
        if straight and flush:
            return 9 if min(ranks) == 8 else 8
        if counts[0] == 4:
            return 7
        if counts[:2] == [3, 2]:
            return 6
        if flush:
            return 5
        if straight:
            return 4
    if counts[0] >= 4:
        return 7
    if counts[0] == 3:
        return 3
    if counts[:2] == [2, 2]:
        return 2
    return 1 if counts[0] == 2 else 0


@cache
def naive_points(cards: tuple[str, ...]) -> int:
    """Points of 1..5 line cards ("As", "JK" or "W" for a wild space) by trying every substitution."""
    naturals = tuple((RANKS.index(c[0]), SUITS.index(c[1])) for c in cards if c not in ("JK", "W"))
    wilds = len(cards) - len(naturals)
    everything = [(rank, suit) for rank in range(13) for suit in range(4)]
    return max(
        _rank_points(naturals + subs) for subs in itertools.combinations_with_replacement(everything, wilds)
    )


def check_replay(report: dict[str, Any]) -> None:
    """Rescore every move of a replay from the board alone."""
    rows, cols = report["board"]["rows"], report["board"]["cols"]
    grid: dict[tuple[int, int], str] = {(r, c): card for r, c, card in report["board"]["starters"]}
    wild = {tuple(cell) for cell in report["board"]["wild_spaces"]}
    scores = [0] * len(report["scores"])
    assert len(report["moves"]) == 52
    for move in report["moves"]:
        at = (move["row"], move["col"])
        assert at not in grid and at not in wild and 0 <= at[0] < rows and 0 <= at[1] < cols
        neighbours = [(at[0] + dr, at[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        assert any(n in grid for n in neighbours), move

        def content(cell: tuple[int, int], next_to: list[tuple[int, int]] = neighbours) -> str | None:
            if cell in grid:
                return grid[cell]
            return "W" if cell in wild and cell in next_to else None

        best = 0
        for dr, dc in ((0, 1), (1, 0)):
            for size in range(2, 6):
                for offset in range(size):
                    cells = [(at[0] + (i - offset) * dr, at[1] + (i - offset) * dc) for i in range(size)]
                    others = [content(cell) for cell in cells if cell != at]
                    if None in others:
                        continue
                    points = naive_points(tuple([move["card"], *others]))
                    if points > naive_points(tuple(others)):
                        best = max(best, points)
        assert move["points"] == best, move
        if best:
            cells = [tuple(cell) for cell in move["cells"]]
            assert at in cells and 2 <= len(cells) <= 5
            step = (0, 1) if move["line"] == "row" else (1, 0)
            assert all(b == (a[0] + step[0], a[1] + step[1]) for a, b in itertools.pairwise(cells))
            others = tuple(content(cell) for cell in cells if cell != at)
            assert None not in others
            assert naive_points((move["card"], *others)) == best == POINTS[move["category"]]
            assert naive_points(others) < best  # the placed card contributes
        else:
            assert (move["line"], move["cells"], move["category"]) == ("row", [], "none")
        grid[at] = move["card"]
        scores[move["seat"]] += move["points"]
    assert scores == report["scores"]
    assert Counter(grid.values()) == Counter([str(Card(i)) for i in range(54)])


# ---- tests ---------------------------------------------------------------------------------------

def test_registry_finds_the_game(paytable: Any) -> None:
    assert game_class("poker-grid") is PokerGrid
    assert PokerGrid.steps == ("play", "complete")


def test_replay_contract_rescored_independently(paytable: Any) -> None:
    report = replay_game(paytable, seed=3)
    assert set(report) >= {"board", "moves", "scores", "result", "win_cents"}
    assert report["board"]["rows"] == 7 and report["board"]["cols"] == 8
    assert report["board"]["wild_spaces"] == [[1, 4], [5, 3]]
    assert [s[:2] for s in report["board"]["starters"]] == [[3, 2], [3, 5]]
    assert set(report["moves"][0]) == {"seat", "card", "row", "col", "line", "cells", "category", "points"}
    assert [m["seat"] for m in report["moves"]] == [0, 1] * 26
    check_replay(report)
    margin = report["scores"][0] - report["scores"][1]
    assert report["result"] == ("win" if margin > 0 else "tie" if margin == 0 else "loss")
    assert json.loads(json.dumps(report)) == report


def test_same_seed_same_game_other_seed_other_game(paytable: Any) -> None:
    first = replay_game(paytable, seed=11)
    assert replay_game(paytable, seed=11) == first
    assert replay_game(paytable, seed=12)["moves"] != first["moves"]


def test_replay_cli_prints_one_json_object(paytable: Any, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import egm.rom
    from egm.cli import main

    monkeypatch.setattr(egm.rom, "load_paytable", lambda path: paytable)
    assert main(["poker-grid", "replay", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == replay_game(paytable, seed=5)


def test_record_restore_at_every_placement(game: PokerGrid) -> None:
    round_ = start(game, seed=21)
    resumed_at = {3, 13, 25}
    for placement in itertools.count():
        record = json.loads(json.dumps(round_.to_record()))
        restored = game.restore(record)
        assert restored.view() == round_.view() and restored.to_record() == record
        if placement in resumed_at:  # resume the copy to the end: the same game, the same pay
            resumed = play_reference(restored)
        if round_.finished:
            break
        round_.decide(round_.reference_decision())
    assert round_.outcome() == resumed
    assert round_.to_record()["moves"] == restored.to_record()["moves"]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ({"row": 0, "col": 0}, "not next to a card"),
        ({"row": 3, "col": 2}, "already holds"),
        ({"row": 1, "col": 4}, "wild space"),
        ({"row": 9, "col": 0}, "off the 7 x 8 board"),
        ({"row": 3, "col": 3, "seat": 1}, "MACHINE plays its own turns"),
        ({"row": "3", "col": 3}, "whole-number 'row' and 'col'"),
    ],
)
def test_refusals_name_the_rule_and_change_nothing(
    game: PokerGrid, args: dict[str, Any], reason: str
) -> None:
    round_ = start(game)
    before = round_.to_record()
    card = round_.view().table["hand"][0]
    with pytest.raises(DecisionRefused, match=reason):
        round_.decide(Decision("place", {"card": card, **args}))
    assert round_.to_record() == before and round_.table.turn == 0 and round_.step == "play"


def test_a_card_not_held_and_a_wrong_decision_are_refused(game: PokerGrid) -> None:
    round_ = start(game)
    before = round_.to_record()
    missing = next(str(Card(i)) for i in range(52) if i not in round_.table.hands[0])
    with pytest.raises(DecisionRefused, match="is not in your hand"):
        round_.decide(Decision("place", {"card": missing, "row": 3, "col": 3}))
    with pytest.raises(DecisionRefused, match="'place' decisions"):
        round_.decide(Decision("house_way"))
    with pytest.raises(DecisionRefused, match="is not a card"):
        round_.decide(Decision("place", {"card": "1x", "row": 3, "col": 3}))
    assert round_.to_record() == before


def test_out_of_turn_and_after_the_end(game: PokerGrid) -> None:
    round_ = start(game)
    round_.table.turn = 1  # as if the machine had not played yet
    with pytest.raises(DecisionRefused, match="the machine's turn"):
        round_.decide(Decision("place", {"card": round_.view().table["hand"][0], "row": 3, "col": 3}))
    round_.table.turn = 0
    play_reference(round_)
    with pytest.raises(DecisionRefused, match="game is over"):
        round_.decide(Decision("place", {"card": "As", "row": 0, "col": 0}))


def test_customer_move_then_machine_move_and_the_view(game: PokerGrid) -> None:
    round_ = start(game, seed=4)
    view = round_.view().table
    assert view["step"] == "play" and len(view["hand"]) == 5 and view["draw_pile"] == 42
    legal = [(2, 2), (2, 5), (3, 1), (3, 3), (3, 4), (3, 6), (4, 2), (4, 5)]
    assert sorted(map(tuple, view["legal"])) == legal
    assert view["board"][1][4] == "W" and view["board"][0][0] == ""
    decision = round_.reference_decision()
    round_.decide(decision)
    view = round_.view().table
    assert [m["seat"] for m in view["last_plays"]] == [0, 1]
    assert view["last_plays"][0]["card"] == decision.args["card"]
    assert view["scores"] == [sum(m["points"] for m in view["last_plays"] if m["seat"] == s) for s in (0, 1)]
    assert len(view["hand"]) == 5 and view["draw_pile"] == 40


def test_joker_is_played_by_its_name(game: PokerGrid) -> None:
    for seed in range(200):
        round_ = start(game, seed=seed)
        if any(c >= 52 for c in round_.table.hands[0]):
            break
    round_.decide(Decision("place", {"card": "JK", "row": 3, "col": 3}))
    assert round_.table.moves[0].card >= 52 and str(Card(round_.table.moves[0].card)) == "JK"


def test_three_opponents_play_every_card(paytable: Any) -> None:
    """The shipped pay table is heads-up only; the 3-opponent pay table deals 4 seats."""
    from types import SimpleNamespace

    from egm.games.poker_grid.paytable import EXAMPLE, PokerGridRules

    with pytest.raises(ValueError, match=r"pays for 1 opponent\(s\) only, not 2"):
        start(PokerGrid(paytable), opponents=2)
    rules = PokerGridRules.model_validate({**EXAMPLE, "opponents_default": 3, "opponents_max": 3})
    game = PokerGrid(SimpleNamespace(header=paytable.header, rules=rules))
    round_ = start(game, seed=8)
    play_reference(round_)
    assert round_.table.seats == 4 and len(round_.table.moves) == 52
    assert sum(round_.table.scores) == sum(m.play.points for m in round_.table.moves)
    assert round_.margin == round_.table.scores[0] - max(round_.table.scores[1:])
    for other in (1, 2, 4):
        with pytest.raises(ValueError, match=rf"pays for 3 opponent\(s\) only, not {other}"):
            start(game, opponents=other)


def test_outcome_pays_the_margin_tier_and_awards(game: PokerGrid, paytable: Any) -> None:
    round_ = start(game, seed=2)
    outcome = play_reference(round_)
    rules = paytable.rules
    units = rules.result_units(round_.margin) + sum(rules.hand_awards.for_hand(h) for h in round_.awards())
    assert outcome.win_credits == units * game.default_wager(1).bet_credits
    assert outcome.summary["scores"] == round_.table.scores
    assert outcome.result_code[0] in "WTL"
    assert game.default_wager(1).stake_credits == rules.stake_units * paytable.header.default_bet_credits


def test_unknown_machine_strategy_is_refused(paytable: Any) -> None:
    header = paytable.header.model_copy(update={"strategy": "grid-opponent/9"})
    with pytest.raises(ValueError, match="not a Poker Grid machine strategy"):
        PokerGrid(type(paytable)(**{**paytable.__dict__, "header": header}))


def test_paytable_file_is_valid(paytable: Any) -> None:
    assert paytable.game == "poker-grid" and paytable.header.strategy == "grid-opponent/1"
    assert Path(paytable.path).name == "poker-grid.toml"


def test_the_cabinet_plays_the_opponent_count_of_the_configured_pay_table(signed_tree: Any,
                                                                          tmp_path: Path) -> None:
    """The operator offers 3 opponents by configuring Poker Grid's 3-opponent pay table."""
    from egm.cabinet import build_cabinet
    from egm.config import load_cabinet_config

    config = load_cabinet_config(signed_tree.config_path)
    chosen = config.model_copy(update={"paytables": {"poker-grid": "poker-grid-3.toml"}})
    cabinet = build_cabinet(chosen, tmp_path / "nvram", seed=1)
    game = cabinet.games["poker-grid"]
    assert game.paytable.id == "poker-grid-3opp" and game.rules.opponents_default == 3
    assert start(game).table.seats == 4
    wrong = config.model_copy(update={"paytables": {"poker-grid": "dragon-poker.toml"}})
    assert "poker-grid" not in build_cabinet(wrong, tmp_path / "nvram2", seed=1).games

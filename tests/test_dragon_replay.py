"""`egm dragon replay --seed S --json`: the contract's shape, determinism, and every field recomputed
here independently from the seed (deal, house way, rows, bonuses, ledger)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from egm.cards import DECK
from egm.cli import main
from egm.config import PROJECT_ROOT
from egm.games.dragon_poker import game as game_module
from egm.games.dragon_poker.house_way import score, set_house_way
from egm.poker import best_hand, category, evaluate
from egm.rng import Rng
from egm.rom import load_paytable
from tests.rom_support import sign_tree

ROWS = ("front", "middle", "back")


@pytest.fixture(autouse=True)
def signed_rom(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Load the default pay table against a freshly signed manifest, not the shipped one."""
    tree = sign_tree(PROJECT_ROOT, tmp_path)
    monkeypatch.setattr(game_module, "load_paytable", functools.partial(
        load_paytable, manifest_path=tree.manifest_path, trusted_keys=tree.trusted_keys))


def replay(seed: int, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["dragon", "replay", "--seed", str(seed), "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one JSON object on one line
    return json.loads(out)


def test_the_json_has_the_contract_shape(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay(5, capsys)
    for key in ("hands", "bonus_cards", "settings", "rows", "winner", "bonus_points", "ledger", "paytable"):
        assert key in result
    assert sorted(result["hands"]) == ["dealer", "discard", "dragon", "player"]
    assert all(len(cards) == 13 for cards in result["hands"].values())
    assert len(result["bonus_cards"]) == 2
    for role in ("player", "dealer", "dragon"):
        assert [len(result["settings"][role][row]) for row in ROWS] == [3, 5, 5]
    assert all(result["rows"][row]["winner"] in ("P", "H", "D") for row in ROWS)
    assert result["winner"] in ("P", "H", "D", "split")
    assert sorted(result["bonus_points"]) == ["D", "H", "P"]
    for key in ("player_net", "house_net", "jackpot_before", "jackpot_after"):
        assert isinstance(result["ledger"][key], int)
    assert result["paytable"]["win_points"] == {"two_rows": 2, "three_rows": 3}
    assert result["paytable"]["bonus_points"]["front"]["three_of_a_kind"] == 2


def test_the_same_seed_gives_the_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert replay(11, capsys) == replay(11, capsys)
    assert replay(11, capsys) != replay(12, capsys)


def test_the_text_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dragon", "replay", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Dragon Poker replay, seed 5" in out and "jackpot 0 -> " in out


@pytest.mark.parametrize("seed", range(25))
def test_every_field_recomputed_independently(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    result = replay(seed, capsys)
    table = result["paytable"]

    # The deal: one Fisher-Yates shuffle of the deck in index order; A player, B dealer, C Dragon.
    deck = list(DECK)
    Rng.from_seed(seed).shuffle(deck)
    text = [str(c) for c in deck]
    assert result["hands"] == {"player": text[0:13], "dealer": text[13:26], "dragon": text[26:39],
                               "discard": text[39:52]}
    assert result["bonus_cards"] == text[52:54]

    # The house way (docs/house-way.md; tests/test_lab_house_way.py checks it against its compiled
    # twin): each seat's setting is a legal split of its hand that scores at least as high as the
    # greedy setting (back = best 5 of 13, middle = best 5 of the other 8, front = the last 3).
    values = {}
    for role, hand in (("player", deck[0:13]), ("dealer", deck[13:26]), ("dragon", deck[26:39])):
        setting = result["settings"][role]  # each row by descending card index (both jokers are "JK")
        expected = set_house_way(hand)
        for row in ROWS:
            assert setting[row] == [str(c) for c in sorted(expected.row(row), reverse=True)]
        assert expected.foul() is None
        back_value, back = best_hand(hand, 5)
        rest = [c for c in hand if c not in back]
        middle_value, middle = best_hand(rest, 5)
        greedy = (evaluate([c for c in rest if c not in middle]), middle_value, back_value)
        values[role] = {row: evaluate(expected.row(row)) for row in ROWS}
        assert score(*values[role].values()) >= score(*greedy)

    # Rows: ties go to the house; the Dragon wins its ties with the player, the house its ties with it.
    won = []
    for row in ROWS:
        p, h, d = values["player"][row], values["dealer"][row], values["dragon"][row]
        winner = ("P" if p > d else "D") if p > h else ("H" if h >= d else "D")
        assert result["rows"][row] == {"winner": winner}
        won.append(winner)
    leader = next((side for side in "PHD" if won.count(side) >= 2), "split")
    assert result["winner"] == leader

    # Bonus points by row and hand rank.
    bonus = {side: sum(table["bonus_points"][row][category(values[role][row]).name.lower()] for row in ROWS)
             for side, role in (("P", "player"), ("H", "dealer"), ("D", "dragon"))}
    assert result["bonus_points"] == bonus

    # The ledger, in points, from the patent's rules.
    rows_won = won.count(leader) if leader != "split" else 0
    win = {2: table["win_points"]["two_rows"], 3: table["win_points"]["three_rows"]}.get(rows_won, 0)
    dragon = bonus["D"] + (win if leader == "D" else 0)
    player_in, house_in = max(0, dragon - bonus["P"]), max(0, dragon - bonus["H"])
    before = table["jackpot_seed_points"]
    rows_exchange = {"P": win, "H": -win}.get(leader, 0)
    split = table["split_points"] if leader == "split" else 0
    taken = before if leader in ("P", "H") else 0
    player_net = rows_exchange + bonus["P"] - bonus["H"] - split - player_in + (taken if leader == "P" else 0)
    house_net = -rows_exchange - bonus["P"] + bonus["H"] + split - house_in + (taken if leader == "H" else 0)
    after = before - taken + player_in + house_in
    ledger = result["ledger"]
    assert (ledger["player_net"], ledger["house_net"]) == (player_net, house_net)
    assert (ledger["jackpot_before"], ledger["jackpot_after"]) == (before, after)

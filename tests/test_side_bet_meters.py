"""Issue 18: the pair-bonus side bet is metered on its own (side_bet_in, side_bet_out: sub-meters of
coin in and of the wins), in the same transaction as the game's money, kept across power cuts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from egm.cabinet import build_cabinet
from egm.cli import main
from egm.clock import FakeClock
from egm.config import load_cabinet_config
from egm.events import ChangeSetting, ChooseDenomination, Key, KeyTurned, PlayerDecision, StartGame
from egm.memory.errors import AccountingBreach
from egm.memory.recovery import read_memory
from egm.memory.store import WagerMemory
from egm.meters import ROLLOVER, Meters
from egm.video.session import Session
from egm.video.theme import money

GAME = "dragon-poker"


def dragon_cabinet(config: Any, nvram: Path, seed: int = 11) -> Any:
    cabinet = build_cabinet(config, nvram, game_ids=[GAME], seed=seed, clock=FakeClock())
    cabinet.boot()
    return cabinet


def credit(cabinet: Any, cents: int = 10000) -> None:
    cabinet.devices.bill_acceptor.insert_bill(cents)
    cabinet.poll_devices()


def play(cabinet: Any, side_bet: int) -> tuple[dict[str, int], dict[str, int], dict[str, Any]]:
    """One Dragon game at bet 1 with `side_bet` credits on the pair bonus: (meters before, meters
    after, the recall record)."""
    game = cabinet.games[GAME]
    before = dict(cabinet.memory.meters.totals)
    assert cabinet.handle(StartGame(GAME, game.wager(1, cabinet.denomination_cents, side_bet))).accepted
    while cabinet.round is not None:
        assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
    return before, dict(cabinet.memory.meters.totals), cabinet.recall()[0]


def advance(before: dict[str, int], after: dict[str, int], name: str) -> int:
    return after[name] - before[name]


@pytest.fixture
def config(signed_tree):
    return load_cabinet_config(signed_tree.config_path)


def test_the_side_meters_move_by_exactly_the_side_stake_and_its_pay(config, tmp_path: Path) -> None:
    cabinet = dragon_cabinet(config, tmp_path / "nvram")
    credit(cabinet, 10000)
    pair_wins = 0
    for _ in range(40):
        before, after, record = play(cabinet, side_bet=5)
        outcome = record["outcome"]
        pair = outcome["summary"]["pair_bonus"]
        assert pair["bet_credits"] == 5
        assert advance(before, after, "side_bet_in") == 5  # 1-cent credits: cents
        assert advance(before, after, "coin_in") == outcome["stake_cents"] == 10 + 5
        assert advance(before, after, "side_bet_out") == pair["win_credits"]
        assert advance(before, after, "coin_out") == outcome["win_cents"] >= pair["win_credits"]
        pair_wins += pair["win_credits"] > 0
    assert pair_wins  # some pair bonus paid in 40 hands (about one in eight does)
    for _ in range(5):
        before, after, record = play(cabinet, side_bet=0)
        assert advance(before, after, "side_bet_in") == advance(before, after, "side_bet_out") == 0
        assert advance(before, after, "coin_in") == record["outcome"]["stake_cents"] == 10
    kept = dict(cabinet.memory.meters.totals)
    assert kept["side_bet_in"] == 200 and kept["side_bet_out"] > 0
    cabinet.memory.close()  # a power cut: no clean shutdown
    again = dragon_cabinet(config, tmp_path / "nvram")
    try:
        assert {k: again.memory.meters[k] for k in ("side_bet_in", "side_bet_out")} == {
            k: kept[k] for k in ("side_bet_in", "side_bet_out")
        }
        assert again.memory.meters.balance_error() == 0
    finally:
        again.close()


def test_the_side_meters_count_in_the_credits_of_the_game(config, tmp_path: Path) -> None:
    cabinet = dragon_cabinet(config, tmp_path / "nvram")
    try:
        credit(cabinet, 10000)
        assert cabinet.handle(ChooseDenomination(5)).accepted
        before, after, _ = play(cabinet, side_bet=2)
        assert advance(before, after, "side_bet_in") == 2 * 5  # cents, at the game's denomination
        assert advance(before, after, "coin_in") == (10 + 2) * 5
    finally:
        cabinet.close()


def test_egm_meters_reports_the_side_meters(config, tmp_path: Path, capsys) -> None:
    cabinet = dragon_cabinet(config, tmp_path / "nvram")
    credit(cabinet)
    play(cabinet, side_bet=3)
    cabinet.close()
    assert main(["meters", "--nvram", str(tmp_path / "nvram"), "--json"]) == 0
    meters = json.loads(capsys.readouterr().out)["meters"]
    assert meters["side_bet_in"] == 3 and meters["coin_in"] == 13


def test_a_memory_from_before_the_side_meters_loads_them_as_zero(tmp_path: Path, monkeypatch) -> None:
    new_record = Meters.to_record

    def old_record(meters: Meters) -> dict[str, Any]:  # what firmware before the side meters wrote
        return {k: v for k, v in new_record(meters).items() if not k.startswith("side_bet")}

    with monkeypatch.context() as old_firmware:
        old_firmware.setattr(Meters, "to_record", old_record)
        memory = open_memory(tmp_path / "nvram")
        with memory.transaction() as tx:
            tx.meters.add_bill(500)
            tx.meters.add("coin_in", 10)
            tx.meters.add("current_credits", -10)
        memory.close()
    memory = open_memory(tmp_path / "nvram")  # the new firmware
    try:
        assert memory.meters["side_bet_in"] == memory.meters["side_bet_out"] == 0
        assert memory.meters["coin_in"] == 10 and memory.meters["current_credits"] == 490
        with memory.transaction() as tx:  # and they count from there
            tx.meters.add("coin_in", 7)
            tx.meters.add("side_bet_in", 2)
            tx.meters.add("current_credits", -7)
        assert memory.meters["side_bet_in"] == 2
        assert open_memory_record(tmp_path / "nvram")["side_bet_in"] == 2
    finally:
        memory.close()


def open_memory(nvram: Path) -> WagerMemory:
    return WagerMemory.open(nvram, clock=FakeClock(), event_log_size=100, recall_depth=10)


def open_memory_record(nvram: Path) -> dict[str, Any]:
    """The meters record as a reader (egm meters) sees it."""
    return dict(read_memory(nvram).records["meters"])


def test_side_bet_in_is_part_of_coin_in(tmp_path: Path) -> None:
    memory = open_memory(tmp_path / "nvram")
    try:
        with pytest.raises(AccountingBreach, match="side"), memory.transaction() as tx:
            tx.meters.add("side_bet_in", 5)  # staked on a side bet, but no coin in
        assert memory.meters["side_bet_in"] == 0
    finally:
        memory.close()


def test_the_side_meters_roll_over_like_the_others() -> None:
    meters = Meters()
    meters.totals["side_bet_out"] = ROLLOVER - 3
    meters.add("side_bet_out", 5)
    assert meters["side_bet_out"] == 2
    assert Meters.from_record(meters.to_record())["side_bet_out"] == 2


def test_the_operator_meters_page_shows_the_side_meters(config, tmp_path: Path) -> None:
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=[GAME])
    try:
        credit_key(s)
        for _ in range(3):
            s.key("s")  # 5 credits on the pair bonus
        s.key("space")
        for key in ("1", "2", "3", "return", "h"):
            s.key(key)
        s.wait(8.0)
        meters = s.cabinet.memory.meters
        assert meters["side_bet_in"] == 5
        s.key("f10")  # the operator menu opens on the meters
        s.render()
        words = list(s.video.res.kit.drawn)
        assert "SIDE BET IN" in words and "SIDE BET OUT" in words
        assert money(5) in words and money(meters["side_bet_out"]) in words
    finally:
        s.close()


def credit_key(s: Session) -> None:
    s.key("f7")  # $100


def test_a_side_bet_win_locked_up_for_a_hand_pay_is_metered_with_the_jackpot(config, tmp_path: Path) -> None:
    cabinet = dragon_cabinet(config, tmp_path / "nvram")
    try:
        cabinet.handle(KeyTurned(Key.OPERATOR, True))
        assert cabinet.handle(ChangeSetting("hand_pay_limit_cents", 1)).accepted  # every win: a hand pay
        cabinet.handle(KeyTurned(Key.OPERATOR, False))
        credit(cabinet, 10000)
        for _ in range(60):
            before, after, record = play(cabinet, side_bet=5)
            pair = record["outcome"]["summary"]["pair_bonus"]["win_credits"]
            if cabinet.state == "handpay" and pair:
                break
            cabinet.handle(KeyTurned(Key.ATTENDANT, True))
            cabinet.handle(KeyTurned(Key.ATTENDANT, False))
        else:
            raise AssertionError("no pair bonus won in 60 hands")
        win = record["outcome"]["win_cents"]
        assert advance(before, after, "side_bet_out") == pair  # counted when the game settles ...
        assert advance(before, after, "coin_out") == 0
        assert cabinet.memory.get("handpay")["amount_cents"] == win
        jackpot = cabinet.memory.meters["jackpot"]
        cabinet.handle(KeyTurned(Key.ATTENDANT, True))  # ... and paid by hand with the rest of the win
        assert cabinet.memory.meters["jackpot"] - jackpot == win >= pair
        assert cabinet.memory.meters.balance_error() == 0
    finally:
        cabinet.close()

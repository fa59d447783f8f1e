"""Issue 18: the player's denomination. The player chooses it between games among the cabinet's player
denominations; the credit meter keeps its cents (only the credits shown change), a game is bet and
settled in it and its records keep it, a power cut restores it, and SAS stays on the accounting
denomination."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from egm.cabinet import build_cabinet
from egm.cabinet_cli import autoplay
from egm.cli import main
from egm.clock import FakeClock
from egm.config import load_cabinet_config
from egm.events import (
    CashOut,
    ChangeSetting,
    ChooseDenomination,
    Door,
    DoorChanged,
    Key,
    KeyTurned,
    PlayerDecision,
    RamClear,
    SelectGame,
    StartGame,
)
from egm.video.screenshot import tab_centre
from egm.video.service_info import setting_rows
from egm.video.session import Session
from egm.video.theme import money
from tests.test_screens import drawn, toasts

DRAGON = "dragon-poker"


@pytest.fixture
def config(signed_tree):
    return load_cabinet_config(signed_tree.config_path)


def boot(config: Any, nvram: Path, games: list[str] | None = None, seed: int = 3) -> Any:
    cabinet = build_cabinet(config, nvram, game_ids=games or [DRAGON], seed=seed, clock=FakeClock())
    cabinet.boot()
    return cabinet


def credit(cabinet: Any, cents: int = 10000) -> None:
    cabinet.devices.bill_acceptor.insert_bill(cents)
    cabinet.poll_devices()


def finish(cabinet: Any) -> None:
    while cabinet.round is not None:
        assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted


def unchanged(cabinet: Any) -> tuple[Any, ...]:
    """What a refused choice must leave as it was: the money, the meters, the denomination."""
    memory = cabinet.memory
    return cabinet.credits_cents, memory.meters.to_record(), memory.get("denomination"), cabinet.state


@pytest.fixture
def cabinet(config, tmp_path: Path):
    cab = boot(config, tmp_path / "nvram")
    yield cab
    cab.close()


def test_the_choice_changes_the_credits_shown_never_the_money(cabinet: Any) -> None:
    credit(cabinet, 10000)
    assert cabinet.snapshot()["denominations_cents"] == [1, 5, 25, 100]
    assert cabinet.denomination_cents == 1  # the default: the configured one
    meters = cabinet.memory.meters.to_record()
    assert cabinet.handle(ChooseDenomination(25)).accepted
    snapshot = cabinet.snapshot()
    assert snapshot["denomination_cents"] == 25 and snapshot["credits_cents"] == 10000  # 400 credits
    assert snapshot["accounting_denomination_cents"] == 1
    assert cabinet.memory.meters.to_record() == meters  # no meter moved
    entry = cabinet.event_log(1)[0]
    assert entry["kind"] == "denomination_chosen" and entry["detail"] == {"old": 1, "new": 25}
    assert entry["message"] == "The player changed the denomination from 1¢ to 25¢."


def test_a_game_is_bet_and_settled_in_the_chosen_denomination(cabinet: Any) -> None:
    credit(cabinet, 10000)
    assert cabinet.handle(ChooseDenomination(5)).accepted
    game = cabinet.games[DRAGON]
    wager = game.wager(2, 5, pair_bonus_credits=1)
    assert cabinet.handle(StartGame(DRAGON, wager)).accepted
    assert cabinet.memory.get("game")["wager"]["denom_cents"] == 5  # the wager record keeps it
    assert cabinet.credits_cents == 10000 - wager.stake_credits * 5
    assert cabinet.memory.meters["coin_in"] == wager.stake_credits * 5
    finish(cabinet)
    outcome = cabinet.last_outcome
    record = cabinet.recall()[0]
    assert record["wager"]["denom_cents"] == 5 and outcome["stake_cents"] == wager.stake_credits * 5
    assert outcome["win_cents"] % 5 == 0  # paid in whole 5-cent credits
    assert cabinet.memory.meters["coin_out"] == outcome["win_cents"]
    assert cabinet.credits_cents == 10000 - wager.stake_credits * 5 + outcome["win_cents"]


def test_a_wager_in_another_denomination_is_refused_and_no_money_moves(cabinet: Any) -> None:
    credit(cabinet, 10000)
    assert cabinet.handle(ChooseDenomination(25)).accepted
    before = unchanged(cabinet)
    result = cabinet.handle(StartGame(DRAGON, cabinet.games[DRAGON].wager(1, 1)))
    assert not result.accepted
    assert result.reason == "The bet is in 1¢ credits but the denomination is 25¢; bet again."
    assert unchanged(cabinet) == before


def test_cents_short_of_a_credit_are_shown_and_cashed_out_but_never_bet(cabinet: Any) -> None:
    credit(cabinet, 1000)  # $10: the $2.50 games soon play it down to less than one
    while cabinet.credits_cents % 25 == 0:  # 1-cent games until the meter holds odd cents
        assert cabinet.handle(StartGame(DRAGON)).accepted
        finish(cabinet)
    assert cabinet.handle(ChooseDenomination(25)).accepted
    cents = cabinet.credits_cents
    stake = cabinet.games[DRAGON].wager(1, 25).stake_credits  # 10 credits: $2.50
    while cabinet.credits_cents >= stake * 25:
        assert cabinet.handle(StartGame(DRAGON)).accepted
        finish(cabinet)
        cents = cabinet.credits_cents
    assert 0 < cents < stake * 25 and cents % 25  # less than a game, and cents short of a credit
    refused = cabinet.handle(StartGame(DRAGON))
    assert not refused.accepted and "exceeds" in refused.reason and cabinet.credits_cents == cents
    assert cabinet.handle(CashOut()).accepted
    cabinet.poll_devices()
    assert cabinet.session_tickets[-1]["amount_cents"] == cents  # every cent leaves on the ticket
    assert cabinet.credits_cents == 0
    assert cabinet.denomination_cents == 1  # the player left: the next one starts at the default


def test_a_hand_paid_cash_out_returns_to_the_default_denomination(config, tmp_path: Path) -> None:
    cabinet = boot(config, tmp_path / "nvram")
    try:
        assert cabinet.handle(ChooseDenomination(5)).accepted
        for _ in range(13):
            credit(cabinet, 10000)  # $1,300: cashing out locks up for a hand pay
        cabinet.handle(CashOut())
        assert cabinet.state == "handpay" and cabinet.denomination_cents == 5
        cabinet.handle(KeyTurned(Key.ATTENDANT, True))
        assert cabinet.credits_cents == 0 and cabinet.denomination_cents == 1
    finally:
        cabinet.close()


@pytest.mark.parametrize("when", ["game", "tilt", "audit"])
def test_the_choice_is_refused_in_a_sentence_except_between_games(cabinet: Any, when: str) -> None:
    credit(cabinet, 10000)
    if when == "game":
        assert cabinet.handle(StartGame(DRAGON)).accepted
    elif when == "tilt":
        cabinet.handle(DoorChanged(Door.MAIN, True))
    else:
        cabinet.handle(KeyTurned(Key.OPERATOR, True))
    before = unchanged(cabinet)
    result = cabinet.handle(ChooseDenomination(5))
    assert not result.accepted
    assert result.reason.startswith("Changing the denomination is not allowed ")
    assert result.reason.endswith(".")
    assert "state" not in result.reason and "game." not in result.reason
    assert unchanged(cabinet) == before


def test_the_choice_is_refused_during_a_hand_pay(config, tmp_path: Path) -> None:
    cabinet = boot(config, tmp_path / "nvram")
    try:
        for _ in range(13):
            credit(cabinet, 10000)  # $1,300: cashing out locks up for a hand pay
        cabinet.handle(CashOut())
        assert cabinet.state == "handpay"
        result = cabinet.handle(ChooseDenomination(5))
        assert not result.accepted and "hand pay" in result.reason
        assert cabinet.memory.get("denomination") is None
    finally:
        cabinet.close()


def test_a_denomination_not_offered_is_refused(config, tmp_path: Path) -> None:
    cabinet = boot(config, tmp_path / "nvram", games=[DRAGON, "prism-words"])
    try:
        credit(cabinet, 10000)
        before = unchanged(cabinet)
        result = cabinet.handle(ChooseDenomination(10))
        assert not result.accepted
        assert result.reason == "This cabinet is not played in $0.10 credits; choose 1¢, 5¢, 25¢, $1."
        assert unchanged(cabinet) == before
        assert cabinet.handle(ChooseDenomination(100)).accepted  # Dragon Poker offers $1 ...
        refused = cabinet.handle(StartGame("prism-words"))  # ... Prism Words does not
        assert not refused.accepted
        assert refused.reason == "Prism Words is not played in $1 credits; choose 1¢, 5¢, 25¢."
        assert cabinet.credits_cents == 10000 and cabinet.memory.meters["coin_in"] == 0
    finally:
        cabinet.close()


def test_a_power_cut_keeps_the_choice_and_restores_a_game_in_its_denomination(config, tmp_path: Path) -> None:
    first = boot(config, tmp_path / "nvram")
    credit(first, 10000)
    assert first.handle(ChooseDenomination(25)).accepted
    first.memory.close()  # the power is cut between games
    second = boot(config, tmp_path / "nvram")
    assert second.denomination_cents == 25
    wager = second.games[DRAGON].wager(1, 25)
    assert second.handle(StartGame(DRAGON, wager)).accepted
    second.memory.close()  # the power is cut mid-game
    third = boot(config, tmp_path / "nvram")
    try:
        assert third.state.startswith("game.dragon-poker.")
        assert third.denomination_cents == 25 and third.snapshot()["denomination_cents"] == 25
        finish(third)
        outcome = third.last_outcome
        assert outcome["stake_cents"] == wager.stake_credits * 25 and outcome["win_cents"] % 25 == 0
        assert third.credits_cents == 10000 - wager.stake_credits * 25 + outcome["win_cents"]
        assert third.recall()[0]["wager"]["denom_cents"] == 25
    finally:
        third.close()


def test_the_operator_default_applies_after_a_ram_clear_and_replaces_the_choice(cabinet: Any) -> None:
    assert cabinet.handle(ChooseDenomination(25)).accepted
    cabinet.handle(KeyTurned(Key.OPERATOR, True))
    assert cabinet.handle(ChangeSetting("denomination_cents", 5)).accepted
    assert cabinet.denomination_cents == 5  # the operator's default replaced the player's choice
    refused = cabinet.handle(ChangeSetting("denomination_cents", 7))
    assert not refused.accepted
    assert cabinet.handle(RamClear()).accepted
    cabinet.handle(KeyTurned(Key.OPERATOR, False))
    assert cabinet.denomination_cents == 1  # after a RAM clear: the configured one


def test_the_operator_default_waits_for_a_game_that_took_the_last_credit(cabinet: Any) -> None:
    credit(cabinet, 1000)
    assert cabinet.handle(ChooseDenomination(100)).accepted
    assert cabinet.handle(StartGame(DRAGON)).accepted and cabinet.credits_cents == 0  # $10 staked: all of it
    cabinet.handle(KeyTurned(Key.OPERATOR, True))
    assert cabinet.state == "audit"
    refused = cabinet.handle(ChangeSetting("denomination_cents", 5))
    assert not refused.accepted and "game in progress" in refused.reason
    assert cabinet.memory.get("denomination") == 100 and cabinet.setting("denomination_cents") == 1
    cabinet.handle(KeyTurned(Key.OPERATOR, False))
    finish(cabinet)
    assert cabinet.denomination_cents == 100  # the player's choice stands for the next game


def test_sas_stays_on_the_accounting_denomination(cabinet: Any) -> None:
    credit(cabinet, 10000)
    assert cabinet.handle(ChooseDenomination(25)).accepted
    assert cabinet.handle(StartGame(DRAGON)).accepted
    finish(cabinet)
    sas = cabinet._sas_meters()
    assert sas.credits("coin_in") == cabinet.memory.meters["coin_in"]  # 1-cent accounting credits
    assert sas.credits("current_credits") == cabinet.credits_cents
    machine = cabinet._machine_id()
    assert machine[2 + 5] == 0x01  # 0x1F's denomination code: the accounting 1 cent, not 25


def test_autoplay_plays_the_configured_denomination_whatever_was_chosen(config, tmp_path: Path) -> None:
    first = boot(config, tmp_path / "nvram")
    assert first.handle(ChooseDenomination(25)).accepted
    first.close()
    cabinet = build_cabinet(config, tmp_path / "nvram", game_ids=[DRAGON], seed=4, clock=FakeClock())
    report, code = autoplay(cabinet, DRAGON, 2, 10000)
    assert code == 0 and report["games_completed"] == 2
    stake = cabinet.games[DRAGON].default_wager(1).stake_credits
    assert report["meters"]["coin_in"] == 2 * stake * 1


def test_egm_recall_shows_the_denomination_a_game_was_bet_in(cabinet: Any, tmp_path: Path, capsys) -> None:
    credit(cabinet, 10000)
    assert cabinet.handle(ChooseDenomination(5)).accepted
    assert cabinet.handle(StartGame(DRAGON)).accepted
    finish(cabinet)
    assert main(["recall", "--nvram", str(tmp_path / "nvram"), "--json"]) == 0
    recalled = json.loads(capsys.readouterr().out)
    games = recalled["games"] if isinstance(recalled, dict) else recalled
    assert games[0]["wager"]["denom_cents"] == 5


# --- the shell: the DENOM button ----------------------------------------------------------------------
@pytest.fixture
def session(config, tmp_path: Path):
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=[DRAGON, "prism-words"])
    yield s
    s.close()


def test_denom_steps_through_the_games_denominations_between_games(session: Session) -> None:
    credit_shell(session)  # $100
    assert session.video.lamps()["denomination"] == "on"
    assert "1¢" in drawn(session)  # the button shows the denomination in force
    session.key("d")
    assert session.cabinet.denomination_cents == 5
    words = drawn(session)
    assert "5¢" in words and "2,000" in words and "CREDIT  $100.00" in words  # credits at 5¢, the same money
    assert "5¢ a credit: 2,000 credits ($100.00)" in toasts(session)
    for expected in (25, 100, 1):  # Dragon Poker offers every player denomination, then round again
        session.key("d")
        assert session.cabinet.denomination_cents == expected
    session.key("d")
    session.key("space")  # DEAL: the game is bet in 5-cent credits
    assert session.cabinet.round.wager.denom_cents == 5
    assert session.cabinet.credits_cents == 10000 - session.cabinet.round.wager.stake_credits * 5


def test_denom_is_dark_during_a_game_and_its_reveal_and_says_why(session: Session) -> None:
    credit_shell(session)
    session.key("space")
    assert session.state.startswith("game.")
    assert session.video.lamps()["denomination"] == "off"
    session.key("d")
    assert "The denomination changes between games." in toasts(session)
    for key in ("1", "2", "3", "return", "h"):
        session.key(key)
    session.wait(0.2)
    assert session.video.scene.busy(session.video.frame)  # the reveal
    assert session.video.lamps()["denomination"] == "off"
    session.key("d")
    assert session.cabinet.denomination_cents == 1 and session.cabinet.memory.get("denomination") is None
    session.wait(8.0)
    assert session.video.lamps()["denomination"] == "on"  # the reveal is over: between games again
    session.key("d")  # the finished table, in 1-cent amounts, gives way to the game menu at 5 cents
    assert session.cabinet.denomination_cents == 5 and session.video.scene.name == "game-select"
    assert session.video.meters_shown(session.video.frame) == (session.cabinet.credits_cents // 5, 0)


def test_a_game_without_a_denomination_is_not_offered_it(session: Session) -> None:
    credit_shell(session)
    session.video.send(SelectGame("prism-words"))
    assert session.video.denominations() == [1, 5, 25]  # its pay table offers no $1 credits
    for expected in (5, 25, 1):
        session.key("d")
        assert session.cabinet.denomination_cents == expected


def test_cents_short_of_a_credit_show_as_money_on_the_credit_meter(session: Session) -> None:
    credit_shell(session)
    session.key("space")
    for key in ("1", "2", "3", "return", "h"):
        session.key(key)
    session.wait(8.0)
    while session.cabinet.credits_cents % 25 == 0:  # another 1-cent game until the cents are odd
        session.key("space")
        for key in ("1", "2", "3", "return", "h"):
            session.key(key)
        session.wait(8.0)
    cents = session.cabinet.credits_cents
    session.key("d")
    session.key("d")  # 25¢
    assert session.cabinet.denomination_cents == 25
    words = drawn(session)
    assert f"{cents // 25:,}" in words and f"CREDIT  {money(cents)}" in words


def credit_shell(s: Session) -> None:
    s.key("f7")  # $100


def test_recall_shows_the_denomination_a_game_was_bet_in(session: Session) -> None:
    credit_shell(session)
    session.key("d")
    session.key("d")  # 25¢
    session.key("space")
    stake = session.cabinet.round.wager.stake_credits * 25
    for key in ("1", "2", "3", "return", "h"):
        session.key(key)
    session.wait(8.0)
    session.key("f10")
    session.click(*tab_centre("recall"))
    words = drawn(session)
    assert "Denomination 25¢" in words and f"Stake {money(stake)}" in words


def test_cash_out_is_lit_for_cents_short_of_a_credit(session: Session) -> None:
    cabinet = session.cabinet
    cabinet.devices.bill_acceptor.insert_bill(100)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame(DRAGON)).accepted  # one 1-cent game: less than $1 stays
    finish(cabinet)
    while cabinet.credits_cents >= 100:
        assert cabinet.handle(StartGame(DRAGON)).accepted
        finish(cabinet)
    cents = cabinet.credits_cents
    assert cabinet.handle(ChooseDenomination(100)).accepted
    session.wait(0.2)
    assert 0 < cents < 100 and session.video.lamps()["cash_out"] == "on"  # no whole $1 credit, but money
    session.key("c")
    cabinet.poll_devices()
    assert cabinet.session_tickets[-1]["amount_cents"] == cents and cabinet.credits_cents == 0


def test_the_settings_page_offers_only_defaults_in_whole_accounting_credits(config, tmp_path: Path) -> None:
    nickel = config.model_copy(update={"denomination_cents": 5, "player_denominations_cents": [5, 25, 100]})
    cabinet = boot(nickel, tmp_path / "nvram")
    cabinet.handle(KeyTurned(Key.OPERATOR, True))
    offered = []
    for _ in range(4):  # CHANGE round the choices: each is one the cabinet takes
        rows = setting_rows(cabinet.snapshot(), cabinet.games)
        offer = next(o for name, _, _, o in rows if name == "denomination_cents")
        assert cabinet.handle(ChangeSetting("denomination_cents", offer)).accepted
        offered.append(offer)
    assert offered == [25, 100, 5, 25]
    cabinet.close()


def test_deal_is_dark_for_a_game_not_played_in_the_denomination(session: Session) -> None:
    credit_shell(session)
    for _ in range(3):
        session.key("d")  # $1
    assert session.cabinet.denomination_cents == 100
    session.video.send(SelectGame("prism-words"))  # its pay table offers no $1 credits
    session.wait(0.2)
    assert session.video.lamps()["deal"] == "off"  # lit exactly when pressing it acts
    session.key("space")
    assert session.cabinet.round is None and session.cabinet.credits_cents == 10000
    refusal = "Prism Words is not played in $1 credits; choose 1¢, 5¢"
    assert any(t.startswith(refusal) for t in toasts(session))  # the cabinet's sentence


def test_denom_is_lit_to_reach_the_one_denomination_the_game_is_played_in(config, tmp_path: Path) -> None:
    nickel = config.model_copy(update={"denomination_cents": 5, "player_denominations_cents": [5, 100]})
    s = Session(nickel, tmp_path / "nvram", seed=7, game_ids=[DRAGON, "prism-words"])
    try:
        credit_shell(s)
        s.key("d")
        assert s.cabinet.denomination_cents == 100
        s.video.send(SelectGame("prism-words"))  # played in 5¢ only of the cabinet's 5¢ and $1
        s.wait(0.2)
        assert s.video.lamps()["denomination"] == "on" and s.video.lamps()["deal"] == "off"
        s.key("d")
        assert s.cabinet.denomination_cents == 5 and s.video.lamps()["denomination"] == "off"
    finally:
        s.close()


def test_denom_is_dark_and_says_why_when_the_game_offers_none_of_the_players(config, tmp_path: Path) -> None:
    """Prism Words is played in 1, 5 and 25 cents; this cabinet's credits are $1 only: DENOM has nothing
    to step to (it used to be lit, and pressing it raised IndexError)."""
    dollar = config.model_copy(update={"denomination_cents": 100, "player_denominations_cents": [100]})
    s = Session(dollar, tmp_path / "nvram", seed=7, game_ids=[DRAGON, "prism-words"])
    try:
        credit_shell(s)
        s.video.send(SelectGame("prism-words"))
        s.wait(0.2)
        assert s.video.lamps()["denomination"] == "off" and s.video.lamps()["deal"] == "off"
        s.key("d")  # a sentence, never an exception
        assert s.cabinet.denomination_cents == 100
        assert "This game is not played in any denomination this machine offers." in toasts(s)
    finally:
        s.close()

"""Issue 18, Settings: the bet levels of each game and the jurisdiction, set by the operator.

Each change is one committed transaction whose log entry names the old and the new value; it is kept
in wager memory's settings (a power cut keeps it, a RAM clear returns to the configuration files) and
applied at once. A disabled bet level is refused before any money moves, and the shell's BET ONE and
MAX BET offer only the enabled ones. The jurisdiction changes only with nothing owed to a player; its
rules follow at once, and a limit the operator set above its most is clamped to it, logged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import egm.config
from egm.events import (
    ChangeSetting,
    Key,
    KeyTurned,
    RamClear,
    SetBetLevels,
    SetJurisdiction,
    StartGame,
)
from egm.games.base import Wager
from egm.rom import verify_rom
from egm.video.screenshot import credit
from egm.video.session import Session
from tests.cabinet_support import GAME_ID, make_cabinet, spine_jurisdiction
from tests.rom_support import sign_tree
from tests.test_screens import GAME, config, open_tab, toasts  # noqa: F401 (config: the fixture)
from tests.test_settings_clock import operator_menu


def booted(nvram: Path, **kwargs: Any) -> Any:
    cabinet = make_cabinet(nvram, **kwargs)
    cabinet.boot()
    return cabinet


def insert(cabinet: Any, cents: int) -> None:
    cabinet.devices.bill_acceptor.insert_bill(cents)
    cabinet.poll_devices()


def changes(cabinet: Any, setting: str) -> list[dict[str, Any]]:
    """The setting's change entries, newest first."""
    return [e for e in cabinet.event_log() if e["kind"] == "setting_changed"
            and (e.get("detail") or {}).get("setting") == setting]


def draw_wager(bet: int) -> Wager:
    return Wager(bet_credits=bet, stake_credits=bet, denom_cents=1)


# --- bet levels ----------------------------------------------------------------------------------------
def test_bet_levels_change_logged_kept_and_refused_when_disabled(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    assert cabinet.bet_levels(GAME_ID) == (100, 200)  # all the pay table's until the operator chooses
    operator_menu(cabinet)
    assert cabinet.handle(SetBetLevels(GAME_ID, (200,))).accepted
    [entry] = changes(cabinet, "bet_levels")
    assert entry["detail"] == {"setting": "bet_levels", "game": GAME_ID, "old": [100, 200], "new": [200]}
    assert entry["message"] == "Bet levels of High Card Draw changed from 100 and 200 to 200 credits."
    operator_menu(cabinet, on=False)
    insert(cabinet, 1000)
    coin_in = cabinet.memory.meters["coin_in"]
    refused = cabinet.handle(StartGame(GAME_ID, draw_wager(100)))
    assert not refused.accepted
    assert refused.reason == "A bet of 100 credits is not offered on this machine; bet 200 credits."
    assert cabinet.credits_cents == 1000 and cabinet.memory.meters["coin_in"] == coin_in  # no money moved
    assert cabinet.state == "attract" and cabinet.memory.get("game") is None
    assert cabinet.handle(StartGame(GAME_ID)).accepted  # no wager given: the smallest enabled level
    assert cabinet.round is not None and cabinet.credits_cents == 800


@pytest.mark.parametrize(
    ("event", "said"),
    [
        (SetBetLevels(GAME_ID, ()), "At least one bet level of High Card Draw must stay enabled."),
        (SetBetLevels("no-such-game", (100,)),
         "There is no game no-such-game on this cabinet; choose test-draw."),
        (SetBetLevels(GAME_ID, (100, 300)),
         "The pay table of High Card Draw offers bets of 100 and 200 credits, not 300."),
    ],
)
def test_bet_levels_refusals_say_why_and_change_nothing(tmp_path: Path, event: SetBetLevels,
                                                        said: str) -> None:
    cabinet = booted(tmp_path)
    operator_menu(cabinet)
    result = cabinet.handle(event)
    assert not result.accepted and result.reason == said
    assert cabinet.bet_levels(GAME_ID) == (100, 200) and changes(cabinet, "bet_levels") == []
    assert "bet_levels" not in cabinet.memory.get("settings", {})


def test_bet_levels_change_only_between_games_and_in_the_operator_menu(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    outside = cabinet.handle(SetBetLevels(GAME_ID, (200,)))
    assert not outside.accepted and "operator menu" in outside.reason
    insert(cabinet, 1000)
    assert cabinet.handle(StartGame(GAME_ID, draw_wager(100))).accepted
    operator_menu(cabinet)
    mid_game = cabinet.handle(SetBetLevels(GAME_ID, (200,)))
    assert not mid_game.accepted and mid_game.reason.startswith("The bet levels change only between games")
    assert cabinet.bet_levels(GAME_ID) == (100, 200) and changes(cabinet, "bet_levels") == []


def test_bet_levels_survive_a_power_cut_and_a_ram_clear_returns_to_the_pay_table(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    operator_menu(cabinet)
    assert cabinet.handle(SetBetLevels(GAME_ID, (200,))).accepted
    cabinet.memory.close()  # the power goes; a new cabinet boots on the same memory
    again = booted(tmp_path)
    assert again.bet_levels(GAME_ID) == (200,)
    assert again.snapshot()["bet_levels"] == {GAME_ID: [200]}
    operator_menu(again)
    assert again.handle(RamClear()).accepted
    assert again.bet_levels(GAME_ID) == (100, 200)


def test_sas_reports_the_largest_enabled_bet_as_the_max_bet(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    assert cabinet._machine_id()[2 + 6] == 200  # 0x1F's max bet: the pay table's largest stake
    operator_menu(cabinet)
    assert cabinet.handle(SetBetLevels(GAME_ID, (100,))).accepted
    assert cabinet._machine_id()[2 + 6] == 100  # now the largest the player may bet


# --- jurisdiction --------------------------------------------------------------------------------------
@pytest.fixture
def jurisdictions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The jurisdictions with a tight one added: a lower hand-pay limit, a credit limit, deeper recall."""
    folder = tmp_path / "jurisdictions"
    folder.mkdir(parents=True)
    for name in ("generic", "nevada"):
        shipped = egm.config.JURISDICTIONS_DIR / f"{name}.toml"
        (folder / f"{name}.toml").write_text(shipped.read_text())
    (folder / "tight.toml").write_text('name = "Tight"\nmin_rtp = 0.85\nmax_rtp = 1.0\n'
                                       "hand_pay_limit_cents = 60000\ncredit_limit_cents = 50000\n"
                                       "recall_depth = 25\n")
    monkeypatch.setattr(egm.config, "JURISDICTIONS_DIR", folder)
    return folder


def test_the_jurisdiction_changes_logged_its_rules_follow_and_it_survives_a_power_cut(
        tmp_path: Path, jurisdictions: Path) -> None:
    cabinet = booted(tmp_path / "nvram")
    operator_menu(cabinet)
    assert cabinet.handle(SetJurisdiction("tight")).accepted
    assert cabinet.config.jurisdiction == "tight" and cabinet.jurisdiction.name == "Tight"
    assert cabinet.jurisdiction.hand_pay_limit_cents == 60000 and cabinet.credit_limit_cents == 50000
    assert cabinet.memory.recall_depth == 25
    [entry] = changes(cabinet, "jurisdiction")
    detail = entry["detail"]
    assert (detail["old"], detail["new"]) == ("generic", "tight")
    assert detail["limits"] == {"hand_pay_limit_cents": [120000, 60000], "credit_limit_cents": [0, 50000],
                                "recall_depth": [10, 25]}
    assert detail["paytables"] == [{"game": GAME_ID, "id": "test-draw-v1", "sha256": "0" * 64}]
    assert entry["message"].startswith("Jurisdiction changed from Test to Tight: hand-pay limit $1,200.00 to "
                                       "$600.00, credit limit none to $500.00, recall depth 10 to 25 games.")
    cabinet.memory.close()
    again = booted(tmp_path / "nvram")
    assert again.config.jurisdiction == "tight" and again.jurisdiction.hand_pay_limit_cents == 60000
    assert again.memory.recall_depth == 25 and again.snapshot()["jurisdiction"] == "tight"
    operator_menu(again)
    assert again.handle(RamClear()).accepted  # back to the configuration files' jurisdiction
    assert again.config.jurisdiction == "generic" and again.jurisdiction.name == "Test"
    assert again.jurisdiction.hand_pay_limit_cents == 120000 and again.memory.recall_depth == 10


def test_limits_above_the_new_jurisdictions_are_clamped_and_logged(tmp_path: Path,
                                                                   jurisdictions: Path) -> None:
    cabinet = booted(tmp_path / "nvram", jurisdiction=spine_jurisdiction(hand_pay_limit_cents=500000))
    operator_menu(cabinet)
    assert cabinet.handle(ChangeSetting("hand_pay_limit_cents", 300000)).accepted
    assert cabinet.handle(ChangeSetting("credit_limit_cents", 100000)).accepted
    assert cabinet.handle(SetJurisdiction("tight")).accepted
    assert cabinet.jurisdiction.hand_pay_limit_cents == 60000 and cabinet.credit_limit_cents == 50000
    assert cabinet.memory.get("settings")["hand_pay_limit_cents"] == 60000
    hand_pay = changes(cabinet, "hand_pay_limit_cents")[0]
    assert hand_pay["detail"] == {"setting": "hand_pay_limit_cents", "old": 300000, "new": 60000,
                                  "reason": "jurisdiction"}
    assert hand_pay["message"] == "Hand-pay limit lowered from $3,000.00 to $600.00, the most Tight allows."
    credit_entry = changes(cabinet, "credit_limit_cents")[0]
    assert (credit_entry["detail"]["old"], credit_entry["detail"]["new"]) == (100000, 50000)
    # the clamps and the change are one transaction: consecutive entries
    names = ("jurisdiction", "hand_pay_limit_cents", "credit_limit_cents")
    seqs = [changes(cabinet, name)[0]["seq"] for name in names]
    assert seqs == [seqs[0], seqs[0] + 1, seqs[0] + 2]


def test_the_jurisdiction_is_refused_with_credit_a_game_in_progress_or_an_unknown_name(
        tmp_path: Path, jurisdictions: Path) -> None:
    cabinet = booted(tmp_path / "nvram")
    operator_menu(cabinet)
    unknown = cabinet.handle(SetJurisdiction("atlantis"))
    assert not unknown.accepted
    assert unknown.reason == "There is no jurisdiction called atlantis; choose generic, nevada and tight."
    operator_menu(cabinet, on=False)
    insert(cabinet, 1000)
    operator_menu(cabinet)
    with_credit = cabinet.handle(SetJurisdiction("nevada"))
    assert not with_credit.accepted
    assert with_credit.reason.startswith("The jurisdiction changes only when nothing is owed to a player: "
                                         "settle the $10.00 of credit on the meter")
    operator_menu(cabinet, on=False)
    assert cabinet.handle(StartGame(GAME_ID, draw_wager(100))).accepted
    operator_menu(cabinet)
    mid_game = cabinet.handle(SetJurisdiction("nevada"))
    assert not mid_game.accepted and "the game in progress" in mid_game.reason
    assert cabinet.config.jurisdiction == "generic" and changes(cabinet, "jurisdiction") == []


def test_the_jurisdiction_is_refused_under_an_accounting_error_with_credit(
        tmp_path: Path, jurisdictions: Path) -> None:
    """An accounting-error tilt lets a RAM clear through (nothing else clears it), never a change of the
    rules the credit still on the meter is paid under."""
    cabinet = booted(tmp_path / "nvram")
    insert(cabinet, 1000)
    cabinet._record_accounting_error("meters found 5 cents off the accounting identity at boot")
    operator_menu(cabinet)
    refused = cabinet.handle(SetJurisdiction("nevada"))
    assert not refused.accepted and "accounting error" in refused.reason
    assert cabinet.config.jurisdiction == "generic" and changes(cabinet, "jurisdiction") == []


def test_rules_edited_after_power_up_are_refused_and_tilt_the_rom(tmp_path: Path,
                                                                  jurisdictions: Path) -> None:
    """The rule files are signed firmware (docs/rom.md). Edited after the power-up check, they are not
    taken on the operator's word: the change runs the ROM self-test first, which names the file."""
    signed = sign_tree(tmp_path, tmp_path / "rom")  # a ROM of these rule files (tmp_path/jurisdictions)
    cabinet = booted(tmp_path / "nvram", rom_check=lambda: verify_rom(tmp_path, signed.trusted_keys,
                                                                      signed.manifest_path))
    assert cabinet.state == "attract"  # the ROM passed at power-up
    tight = jurisdictions / "tight.toml"
    raised = tight.read_text().replace("hand_pay_limit_cents = 60000", "hand_pay_limit_cents = 999999")
    assert raised != tight.read_text()
    tight.write_text(raised)
    operator_menu(cabinet)
    refused = cabinet.handle(SetJurisdiction("tight"))
    assert not refused.accepted and "changed: jurisdictions/tight.toml" in refused.reason
    assert cabinet.config.jurisdiction == "generic" and cabinet.jurisdiction.hand_pay_limit_cents == 120000
    assert changes(cabinet, "jurisdiction") == []
    errors = [e["message"] for e in cabinet.event_log() if e["kind"] == "rom_error"]
    assert any("changed: jurisdictions/tight.toml" in message for message in errors)
    assert cabinet.handle(KeyTurned(Key.OPERATOR, False)).accepted
    assert cabinet.state == "tilt.romerror" and cabinet.snapshot()["tilt"] == "rom_error"


def test_signed_rules_pass_the_rom_check_and_change(tmp_path: Path, jurisdictions: Path) -> None:
    signed = sign_tree(tmp_path, tmp_path / "rom")
    cabinet = booted(tmp_path / "nvram", rom_check=lambda: verify_rom(tmp_path, signed.trusted_keys,
                                                                      signed.manifest_path))
    operator_menu(cabinet)
    assert cabinet.handle(SetJurisdiction("tight")).accepted
    assert cabinet.jurisdiction.hand_pay_limit_cents == 60000
    checks = [e["message"] for e in cabinet.event_log() if e["kind"] == "rom_check"]
    assert checks[0] == "ROM check before the jurisdiction change: all 3 files verified."  # the 3 rule files


# --- the shell: BET ONE and MAX BET, the settings page ---------------------------------------------------
def test_bet_one_and_max_bet_offer_only_the_enabled_levels(config: Any, tmp_path: Path) -> None:  # noqa: F811
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    try:
        s.key("f10")
        assert s.cabinet.handle(SetBetLevels("dragon-poker", (2, 10))).accepted
        s.key("f10")
        credit(s)
        assert s.video.wager("dragon-poker").bet_credits == 2  # the default 1 is off: the smallest on
        s.key("b")  # BET ONE
        assert s.video.wager("dragon-poker").bet_credits == 10
        s.key("b")
        assert s.video.wager("dragon-poker").bet_credits == 2  # back to the smallest enabled
        s.key("x")  # MAX BET: the largest enabled, and it deals
        assert s.state == "game.dragon-poker.designate"
        assert s.cabinet.round.wager.bet_credits == 10
    finally:
        s.close()


def test_the_settings_page_toggles_levels_and_steps_the_jurisdiction(config: Any, tmp_path: Path) -> None:  # noqa: F811
    s = Session(config, tmp_path / "nvram", seed=7, game_ids=GAME)
    try:
        s.key("f10")
        words = open_tab(s, "settings")
        assert "Bet levels, Dragon Poker" in words and "Generic GLI (generic)" in words

        def button(prefix: str) -> Any:
            return next(b for b in s.video.scene.buttons(s.video.frame) if b.action.startswith(prefix))

        five = button("bets:dragon-poker:")  # the first toggle: level 1 off
        assert five.label == "1" and five.action == "bets:dragon-poker:2,5,10"
        s.click(*five.rect.center)
        assert s.cabinet.bet_levels("dragon-poker") == (2, 5, 10)
        for level in (2, 5):
            s.click(*next(b for b in s.video.scene.buttons(s.video.frame)
                          if b.action.startswith("bets:dragon-poker:") and b.label == str(level)).rect.center)
        assert s.cabinet.bet_levels("dragon-poker") == (10,)
        last = next(b for b in s.video.scene.buttons(s.video.frame)
                    if b.action.startswith("bets:dragon-poker:") and b.label == "10")
        s.click(*last.rect.center)  # the last one stays: refused with a sentence
        assert s.cabinet.bet_levels("dragon-poker") == (10,)
        assert "At least one bet level of Dragon Poker must stay enabled." in toasts(s)
        change = button("set:jurisdiction:")
        assert change.action == "set:jurisdiction:nevada"
        s.click(*change.rect.center)
        assert s.cabinet.config.jurisdiction == "nevada"
        assert "Nevada (nevada)" in open_tab(s, "settings")
    finally:
        s.close()

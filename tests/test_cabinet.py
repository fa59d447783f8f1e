"""The cabinet controller on the test game: states, credit flow, tilts, refusals, recovery."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from egm.events import (
    BillEscrowed,
    CashOut,
    DeviceWarning,
    Door,
    Key,
    KeyTurned,
    PlayerDecision,
    RamClear,
    ReconcileBill,
    RunRomCheck,
    SelectGame,
    StartGame,
    TicketFailed,
)
from egm.games.base import Decision, Wager
from egm.meters import Meters
from egm.rom import RomProblem
from tests.cabinet_support import GAME_ID, make_cabinet, spine_config, spine_jurisdiction

STAKE = 100  # the test game's default stake, in 1-cent credits


@pytest.fixture
def cabinet(tmp_path: Path) -> Any:
    cab = make_cabinet(tmp_path / "nvram")
    cab.boot()
    return cab


def insert(cab: Any, cents: int) -> None:
    cab.devices.bill_acceptor.insert_bill(cents)
    cab.poll_devices()


def play_to_end(cab: Any) -> None:
    while cab.round is not None and cab.state.startswith("game."):
        assert cab.handle(PlayerDecision(cab.round.reference_decision())).accepted


def money(cab: Any) -> dict[str, int]:
    return dict(cab.memory.meters.totals)


def last_event(cab: Any) -> dict[str, Any]:
    return cab.event_log(limit=1)[0]


def test_boot_self_tests_and_reaches_attract(cabinet: Any) -> None:
    assert cabinet.state == "attract"
    assert cabinet.memory.meters["power_resets"] == 1
    assert cabinet.devices.bill_acceptor.enabled_cents == frozenset(spine_config().bill_denominations_cents)
    assert cabinet.event_log()[0]["kind"] == "power_up"


def test_bill_is_credited_only_when_stacked(cabinet: Any) -> None:
    cabinet.devices.bill_acceptor.insert_bill(2000)
    assert cabinet.credits_cents == 0  # in escrow: not yet credited
    cabinet.poll_devices()
    assert cabinet.credits_cents == 2000
    assert cabinet.memory.meters.bills_by_denomination == {"2000": 1}
    assert cabinet.devices.bill_acceptor.stacked[0].amount_cents == 2000
    assert last_event(cabinet)["kind"] == "bill_in"


def test_bill_of_a_denomination_not_enabled_moves_no_money(cabinet: Any) -> None:
    before = money(cabinet)
    cabinet.devices.bill_acceptor.insert_bill(300)
    results = cabinet.poll_devices()
    assert [r.accepted for r in results] == [False]
    assert "not enabled" in results[0].reason
    # a device that escrows it anyway is refused by the cabinet, and the note goes back
    result = cabinet.handle(BillEscrowed(amount_cents=300))
    assert not result.accepted and "not enabled" in result.reason
    cabinet.poll_devices()
    assert cabinet.devices.bill_acceptor.stacked == []
    assert money(cabinet) == before
    assert last_event(cabinet)["kind"] == "refused"


def test_a_game_meters_stake_win_and_recall(cabinet: Any) -> None:
    insert(cabinet, 500)
    assert cabinet.handle(StartGame()).accepted
    assert cabinet.state == "game.test-draw.choose"
    assert money(cabinet)["coin_in"] == STAKE and cabinet.credits_cents == 500 - STAKE
    refused = cabinet.handle(PlayerDecision(Decision("confirm")))
    assert not refused.accepted and "waits for 'choose'" in refused.reason
    assert cabinet.state == "game.test-draw.choose"
    cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
    assert cabinet.state == "game.test-draw.confirm"
    cabinet.handle(PlayerDecision(Decision("confirm")))
    assert cabinet.state == "attract"
    meters = cabinet.memory.meters
    outcome = cabinet.last_outcome
    assert meters["coin_out"] == outcome["win_cents"]
    assert meters["current_credits"] == 500 - STAKE + outcome["win_cents"]
    assert meters["games_played"] == meters["games_won"] + meters["games_lost"] == 1
    assert meters.per_game[GAME_ID] == {"coin_in": STAKE, "coin_out": outcome["win_cents"], "games_played": 1}
    assert meters.balance_error() == 0
    (recalled,) = cabinet.recall()
    assert recalled["round"]["step"] == "complete"
    assert recalled["outcome"]["win_cents"] == outcome["win_cents"]


def test_start_without_enough_credits_is_refused(cabinet: Any) -> None:
    insert(cabinet, 100)
    result = cabinet.handle(StartGame(wager=Wager(bet_credits=200, stake_credits=200, denom_cents=1)))
    assert not result.accepted and "exceeds" in result.reason
    assert cabinet.state == "attract" and cabinet.credits_cents == 100


@pytest.mark.parametrize(
    "event",
    [
        PlayerDecision(Decision("choose", {"card": 0})),
        RamClear(),
        RunRomCheck(),
        KeyTurned(Key.ATTENDANT, True),
        SelectGame("no-such-game"),
        "insert coin",  # not an event at all
    ],
)
def test_events_in_the_wrong_state_are_refused_and_change_nothing(cabinet: Any, event: object) -> None:
    insert(cabinet, 500)
    before, state = money(cabinet), cabinet.state
    result = cabinet.handle(event)
    assert not result.accepted and result.reason
    assert cabinet.state == state and money(cabinet) == before
    assert last_event(cabinet) == {**last_event(cabinet), "kind": "refused", "message": result.reason}


def test_cash_out_during_a_game_is_refused(cabinet: Any) -> None:
    insert(cabinet, 500)
    cabinet.handle(StartGame())
    result = cabinet.handle(CashOut())
    assert not result.accepted and "not allowed during a game" in result.reason


def test_door_open_suspends_the_game_and_close_resumes_it(cabinet: Any) -> None:
    insert(cabinet, 500)
    cabinet.handle(StartGame())
    cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
    cards = cabinet.round.view()
    cabinet.devices.doors.open_door(Door.MAIN)
    cabinet.poll_devices()
    assert cabinet.state == "tilt.maindoor" and cabinet.tilt == "main_door_open"
    assert cabinet.memory.meters["door_opens"] == 1
    refused = cabinet.handle(PlayerDecision(Decision("confirm")))
    assert not refused.accepted and "main door open" in refused.reason
    insert(cabinet, 1000)  # the acceptor is inhibited in a tilt
    assert cabinet.credits_cents == 500 - STAKE
    cabinet.devices.doors.close_door(Door.MAIN)
    cabinet.poll_devices()
    assert cabinet.state == "game.test-draw.confirm" and cabinet.round.view() == cards


def test_logic_door_and_device_fault_stack_up(cabinet: Any) -> None:
    cabinet.devices.doors.open_door(Door.LOGIC)
    cabinet.devices.bill_acceptor.jam()
    cabinet.poll_devices()
    assert cabinet.state == "tilt.logicdoor"
    cabinet.devices.doors.close_door(Door.LOGIC)
    cabinet.poll_devices()
    assert cabinet.state == "tilt.devicefault" and "jammed" in cabinet.snapshot()["tilt_detail"]
    cabinet.devices.bill_acceptor.clear_jam()
    cabinet.poll_devices()
    assert cabinet.state == "attract"


def test_attendant_key_acknowledges_a_device_fault(cabinet: Any) -> None:
    cabinet.devices.bill_acceptor.jam()
    cabinet.poll_devices()
    assert cabinet.state == "tilt.devicefault"
    assert cabinet.handle(KeyTurned(Key.ATTENDANT, True)).accepted
    cabinet.poll_devices()  # the acceptor reports the fault cleared
    assert cabinet.state == "attract"
    assert [e["kind"] for e in cabinet.event_log(3)][:2] == ["device_fault_cleared", "attendant"]


def test_paper_low_is_a_warning_not_a_tilt(cabinet: Any) -> None:
    credits = cabinet.credits_cents
    assert cabinet.handle(DeviceWarning("printer", "paper_low", "Printer paper low.")).accepted
    assert cabinet.state == "attract" and cabinet.snapshot()["warnings"] == ["Printer paper low."]
    assert cabinet.handle(DeviceWarning("printer", "paper_low", "", active=False)).accepted
    assert cabinet.snapshot()["warnings"] == [] and cabinet.credits_cents == credits


def test_cash_out_prints_a_ticket_that_redeems_once(cabinet: Any) -> None:
    insert(cabinet, 2000)
    assert cabinet.handle(CashOut()).accepted
    assert cabinet.state == "cashout" and cabinet.memory.meters["tickets_out"] == 0  # not yet confirmed
    cabinet.poll_devices()
    (ticket,) = cabinet.devices.printer.printed
    assert len(ticket.validation_number) == 18 and ticket.amount_cents == 2000
    assert cabinet.state == "attract" and cabinet.credits_cents == 0
    assert money(cabinet)["tickets_out"] == money(cabinet)["cancelled_credits"] == 2000
    cabinet.devices.bill_acceptor.insert_ticket(ticket.validation_number, 2000)
    assert all(r.accepted for r in cabinet.poll_devices())
    assert cabinet.credits_cents == 2000 and money(cabinet)["tickets_in"] == 2000
    cabinet.devices.bill_acceptor.insert_ticket(ticket.validation_number, 2000)  # replayed
    (replayed,) = cabinet.poll_devices()[:1]
    assert not replayed.accepted and "already redeemed" in replayed.reason
    assert cabinet.credits_cents == 2000 and money(cabinet)["tickets_in"] == 2000


@pytest.mark.parametrize(("barcode", "reason"), [("000000000000000001", "not issued"), ("12", "18 digits")])
def test_unknown_or_forged_tickets_move_no_money(cabinet: Any, barcode: str, reason: str) -> None:
    before = money(cabinet)
    cabinet.devices.bill_acceptor.insert_ticket(barcode)
    (result,) = cabinet.poll_devices()[:1]
    assert not result.accepted and reason in result.reason
    assert money(cabinet) == before and cabinet.devices.bill_acceptor.stacked == []


def test_cash_out_at_the_limit_locks_up_for_a_hand_pay(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path, jurisdiction=spine_jurisdiction(hand_pay_limit_cents=2000))
    cab.boot()
    insert(cab, 2000)
    assert cab.handle(CashOut()).accepted
    assert cab.state == "handpay" and cab.credits_cents == 2000  # meters wait for the attendant
    assert not cab.handle(StartGame()).accepted
    cab.devices.doors.turn_key(Key.ATTENDANT)
    cab.poll_devices()
    assert cab.state == "attract" and cab.credits_cents == 0
    assert money(cab)["handpaid_cancelled_credits"] == money(cab)["cancelled_credits"] == 2000
    assert cab.devices.printer.printed == []


def test_a_win_at_the_limit_is_a_jackpot_hand_pay(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path, jurisdiction=spine_jurisdiction(hand_pay_limit_cents=2 * STAKE))
    cab.boot()
    insert(cab, 10000)
    while cab.state != "handpay":
        assert cab.memory.meters["games_played"] < 30, "no winning game in 30"
        cab.handle(StartGame())
        play_to_end(cab)
    win = cab.memory.get("handpay")["amount_cents"]
    why = next(e["message"] for e in cab.event_log(20) if e["kind"] == "hand_pay")
    assert why.endswith("locks up for a hand pay: it reaches the hand-pay limit."), why
    credits = cab.credits_cents
    assert not cab.handle(CashOut()).accepted
    cab.handle(KeyTurned(Key.ATTENDANT, True))
    assert cab.state == "attract" and cab.credits_cents == credits
    assert money(cab)["jackpot"] == win and cab.memory.meters.balance_error() == 0


def test_ram_error_stands_until_an_operator_ram_clear(tmp_path: Path) -> None:
    nvram = tmp_path / "nvram"
    cab = make_cabinet(nvram)
    cab.boot()
    insert(cab, 500)
    cab.memory.close()
    for name in ("copy-a.db", "copy-b.db"):
        (nvram / name).write_bytes(b"\0" * 4096)
        (nvram / f"{name}-wal").unlink(missing_ok=True)
    cab = make_cabinet(nvram)
    cab.boot()
    assert cab.state == "tilt.ramerror" and cab.tilt == "ram_error"
    assert not cab.handle(StartGame()).accepted
    again = make_cabinet(nvram)  # another power cycle does not clear it
    again.boot()
    assert again.tilt == "ram_error"
    assert again.handle(KeyTurned(Key.OPERATOR, True)).accepted and again.state == "audit"
    assert again.handle(RamClear()).accepted
    assert again.state == "attract" and again.credits_cents == 0
    assert again.event_log()[0]["kind"] == "ram_clear"


def test_accounting_breach_is_a_tilt_that_survives_power_up(tmp_path: Path, monkeypatch) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    monkeypatch.setattr(Meters, "add_bill", lambda self, cents: self.add("bills_in", cents))  # a bug
    insert(cab, 500)
    assert cab.state == "tilt.accountingerror" and cab.tilt == "accounting_error"
    assert money(cab)["bills_in"] == 0  # the breaching transaction was not committed
    monkeypatch.undo()
    cab.memory.close()
    again = make_cabinet(tmp_path)
    again.boot()
    assert again.tilt == "accounting_error"
    again.handle(KeyTurned(Key.OPERATOR, True))
    again.handle(RamClear())
    assert again.state == "attract"


def test_rom_failure_names_the_file_and_stops_play(tmp_path: Path) -> None:
    class BadRom:
        is_development_key = False
        file_count = 0
        problems = [RomProblem("egm/cabinet.py", "changed", "SHA-256 differs")]

    cab = make_cabinet(tmp_path, rom_check=lambda: BadRom())
    cab.boot()
    assert cab.state == "tilt.romerror" and cab.tilt == "rom_error"
    assert "egm/cabinet.py" in cab.snapshot()["tilt_detail"]
    assert any(e["kind"] == "rom_error" for e in cab.event_log())
    assert not cab.handle(StartGame()).accepted


def test_kiosk_refuses_the_development_key(tmp_path: Path) -> None:
    class DevRom:
        is_development_key = True
        file_count = 0
        problems: list[object] = []

    cab = make_cabinet(tmp_path, config=spine_config(kiosk=True), rom_check=lambda: DevRom())
    cab.boot()
    assert cab.tilt == "rom_error" and "development" in cab.snapshot()["tilt_detail"]


def restart(cab: Any, nvram: Path) -> Any:
    """A power cut: the process state is gone; only wager memory remains."""
    cab.memory.close()
    again = make_cabinet(nvram)
    again.boot()
    return again


def test_power_cut_mid_game_resumes_same_step_same_cards(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    insert(cab, 500)
    cab.handle(StartGame())
    cab.handle(PlayerDecision(cab.round.reference_decision()))
    record = cab.round.to_record()
    again = restart(cab, tmp_path)
    assert again.state == "game.test-draw.confirm" and again.round.to_record() == record
    assert again.recovered == ["game at step confirm"]
    assert [e["kind"] for e in again.event_log(limit=2)] == ["power_up", "power_loss"]
    play_to_end(again)
    assert again.memory.meters["games_played"] == 1 and again.memory.meters["coin_in"] == STAKE


def test_power_cut_during_cash_out_leaves_one_ticket(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    insert(cab, 2000)
    cab.handle(CashOut())  # committed and sent to the printer; confirmation lost
    number = cab.memory.get("cashout")["validation_number"]
    again = restart(cab, tmp_path)
    assert again.recovered == ["cashout"] and again.state == "attract"
    assert again.devices.printer.printed == []  # no second ticket
    assert money(again)["tickets_out"] == 2000 and again.credits_cents == 0
    again.devices.bill_acceptor.insert_ticket(number)  # the first ticket is good
    again.poll_devices()
    assert again.credits_cents == 2000


def test_power_cut_during_bill_insert_credits_once_and_only_what_the_cash_box_holds(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    cab.handle(BillEscrowed(amount_cents=5000))  # pending committed, stack commanded, power lost
    again = restart(cab, tmp_path)  # the emulated acceptor cannot say where the note went
    assert again.credits_cents == 0 and again.tilt == "device_fault"
    assert "unreconciled" in again.snapshot()["tilt_detail"]
    again.handle(KeyTurned(Key.ATTENDANT, True))
    assert again.handle(ReconcileBill(in_cash_box=True)).accepted  # the attendant found it
    assert again.credits_cents == 5000 and again.state == "attract"
    third = restart(again, tmp_path)
    assert third.credits_cents == 5000 and money(third)["bills_in"] == 5000


def test_same_seed_same_meters(tmp_path: Path) -> None:
    from egm.cabinet_cli import autoplay

    reports = [autoplay(make_cabinet(tmp_path / str(i), seed=9), GAME_ID, 15, 500)[0] for i in range(2)]
    assert reports[0]["meters"] == reports[1]["meters"]
    assert reports[0]["games_completed"] == 15
    other = autoplay(make_cabinet(tmp_path / "other", seed=10), GAME_ID, 15, 500)[0]
    assert other["meters"] != reports[0]["meters"]


def test_door_close_checks_memory_and_repairs_a_damaged_copy(cabinet: Any) -> None:
    insert(cabinet, 2000)
    cabinet.devices.doors.open_door(Door.MAIN)
    cabinet.poll_devices()
    cabinet.memory.verify()  # copy B has taken the last transaction (it follows on its own thread)
    with sqlite3.connect(cabinet.nvram_dir / "copy-b.db") as conn:  # damage while the door is open
        conn.execute("UPDATE records SET payload = replace(payload, '2000', '9000') WHERE name = 'meters'")
    cabinet.devices.doors.close_door(Door.MAIN)
    cabinet.poll_devices()
    assert cabinet.state == "attract" and cabinet.credits_cents == 2000
    assert any(e["kind"] == "memory_repaired" and "copy-b.db" in e["message"] for e in cabinet.event_log())


def test_memory_lost_during_play_is_a_ram_error_before_the_next_game(cabinet: Any) -> None:
    insert(cabinet, 2000)
    cabinet.memory.verify()  # copy B has taken the last transaction (it follows on its own thread)
    for name in ("copy-a.db", "copy-b.db"):
        with sqlite3.connect(cabinet.nvram_dir / name) as conn:
            conn.execute("UPDATE records SET mac = zeroblob(32) WHERE name = 'meters'")
    result = cabinet.handle(StartGame())
    assert not result.accepted and "RAM clear" in result.reason
    assert cabinet.state == "tilt.ramerror" and cabinet.round is None


def test_a_game_in_progress_that_is_no_longer_installed_stops_play(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    insert(cab, 500)
    cab.handle(StartGame())
    cab.memory.close()
    again = make_cabinet(tmp_path, games={})
    again.boot()
    assert again.tilt == "rom_error" and "test-draw" in again.snapshot()["tilt_detail"]
    assert again.memory.get("game")["game_id"] == GAME_ID  # kept, to finish once reinstalled


def test_printer_failure_keeps_the_credits_and_voids_the_number(cabinet: Any) -> None:
    insert(cabinet, 2000)
    cabinet.devices.printer.paper_out()
    cabinet.poll_devices()
    assert cabinet.state == "tilt.devicefault" and not cabinet.handle(CashOut()).accepted
    cabinet.devices.printer.load_paper()
    cabinet.poll_devices()
    cabinet.handle(CashOut())
    number = cabinet.memory.get("cashout")["validation_number"]
    cabinet.devices.printer.poll()  # the device reports a jam instead of the confirmation
    result = cabinet.handle(TicketFailed(number, "paper jam"))
    assert result.accepted and cabinet.state == "attract" and cabinet.credits_cents == 2000
    assert money(cabinet)["tickets_out"] == 0
    cabinet.devices.bill_acceptor.insert_ticket(number)
    assert not cabinet.poll_devices()[0].accepted  # a number that never printed redeems nothing


def test_operator_menu_mid_game_then_back_to_the_same_step(cabinet: Any) -> None:
    insert(cabinet, 500)
    cabinet.handle(StartGame())
    cabinet.devices.doors.turn_key(Key.OPERATOR)
    cabinet.poll_devices()
    assert cabinet.state == "audit" and not cabinet.handle(PlayerDecision(Decision("confirm"))).accepted
    cabinet.devices.doors.turn_key(Key.OPERATOR, on=False)
    cabinet.poll_devices()
    assert cabinet.state == "game.test-draw.choose"


def test_panel_buttons_deal_and_cash_out(cabinet: Any) -> None:
    insert(cabinet, 500)
    cabinet.devices.button_panel.press("deal")
    cabinet.poll_devices()
    assert cabinet.state == "game.test-draw.choose"
    play_to_end(cabinet)
    cabinet.devices.button_panel.press("cash_out")
    cabinet.poll_devices()
    assert cabinet.state == "attract" and len(cabinet.devices.printer.printed) == 1
    cabinet.devices.button_panel.press("help")
    assert not cabinet.poll_devices()[0].accepted


def test_power_cut_during_a_hand_pay_locks_up_again(tmp_path: Path) -> None:
    jurisdiction = spine_jurisdiction(hand_pay_limit_cents=2000)
    cab = make_cabinet(tmp_path, jurisdiction=jurisdiction)
    cab.boot()
    insert(cab, 5000)
    cab.handle(CashOut())
    cab.memory.close()
    again = make_cabinet(tmp_path, jurisdiction=jurisdiction)
    again.boot()
    assert again.state == "handpay" and again.recovered == ["hand pay"] and again.credits_cents == 5000
    again.handle(KeyTurned(Key.ATTENDANT, True))
    assert money(again)["handpaid_cancelled_credits"] == 5000 and again.credits_cents == 0


def test_a_memory_write_failure_is_a_ram_error_and_acknowledges_nothing(cabinet: Any, monkeypatch) -> None:
    def failing_commit(tx: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(cabinet.memory, "_commit", failing_commit)
    cabinet.devices.bill_acceptor.insert_bill(2000)
    cabinet.poll_devices()
    assert cabinet.tilt == "ram_error" and "disk I/O error" in cabinet.snapshot()["tilt_detail"]
    assert cabinet.credits_cents == 0 and cabinet.devices.bill_acceptor.stacked == []  # never stacked

"""Issue 27: a RAM clear records what it erases (defect 1), and one on a memory another process holds
is refused with a sentence (defect 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from egm.clock import FakeClock
from egm.events import Key, KeyTurned, PlayerDecision, RamClear, StartGame
from egm.memory.evidence import best_evidence
from egm.memory.store import WagerMemory
from egm.money import format_cents
from tests.cabinet_support import GAME_ID, make_cabinet
from tests.test_memory import flip_byte_in


def insert(cab: Any, cents: int) -> None:
    cab.devices.bill_acceptor.insert_bill(cents)
    cab.poll_devices()


def ram_error_with_a_game_in_progress(nvram: Path) -> tuple[Any, int]:
    """A cabinet with credit and a game in progress whose memory is then damaged in both copies: in
    copy B the meters record, in copy A only an event. Returns the rebooted cabinet and the credit."""
    cab = make_cabinet(nvram)
    cab.boot()
    insert(cab, 2000)
    assert cab.handle(StartGame()).accepted and cab.round is not None
    credit = cab.credits_cents
    cab.memory.close()  # the power goes
    flip_byte_in(nvram / "copy-b.db", b'"games_played"')
    flip_byte_in(nvram / "copy-a.db", b"stacked and credited")
    again = make_cabinet(nvram)
    again.boot()
    assert again.tilt == "ram_error"
    return again, credit


def ram_clear_entry(cab: Any) -> dict[str, Any]:
    return next(e for e in cab.event_log() if e["kind"] == "ram_clear")


def test_the_ram_clear_record_keeps_the_credit_and_the_game_read_from_the_surviving_copy(
    tmp_path: Path,
) -> None:
    cab, credit = ram_error_with_a_game_in_progress(tmp_path)
    assert 0 < credit < 2000
    shown = cab.snapshot()["ram_clear_evidence"]  # what the RAM-clear screen shows
    assert shown["credit_cents"] == credit and shown["verified"] is False
    assert shown["source"].startswith("copy-a.db (integrity code wrong in events")
    cab.handle(KeyTurned(Key.OPERATOR, True))
    assert cab.handle(RamClear()).accepted
    entry = ram_clear_entry(cab)
    detail = entry["detail"]
    assert detail["final_meters"]["current_credits"] == credit and detail["final_meters"]["bills_in"] == 2000
    assert detail["game_in_progress"]["game_id"] == GAME_ID and detail["verified"] is False
    assert detail["evidence"] == shown["source"] and detail["hand_paid_cents"] == 0
    assert f"credit on the meter before the clear: {format_cents(credit)}" in entry["message"]
    assert "unverified" in entry["message"] and "a game was in progress" in entry["message"]
    assert cab.tilt is None and cab.credits_cents == 0


def test_the_operator_hand_pays_the_credit_read_before_the_clear(tmp_path: Path) -> None:
    cab, credit = ram_error_with_a_game_in_progress(tmp_path)
    cab.handle(KeyTurned(Key.OPERATOR, True))
    wrong = cab.handle(RamClear(hand_pay_cents=credit + 1))
    assert not wrong.accepted and format_cents(credit) in wrong.reason and cab.tilt == "ram_error"
    assert cab.handle(RamClear(hand_pay_cents=credit)).accepted
    assert ram_clear_entry(cab)["detail"]["hand_paid_cents"] == credit
    paid = next(e for e in cab.event_log() if e["kind"] == "ram_clear_handpay")
    assert paid["detail"]["amount_cents"] == credit and format_cents(credit) in paid["message"]


def test_a_committed_memory_is_its_own_evidence(tmp_path: Path) -> None:
    cab = make_cabinet(tmp_path)
    cab.boot()
    assert cab.snapshot()["ram_clear_evidence"] is None  # only a memory in RAM error has "evidence"
    cab.handle(KeyTurned(Key.OPERATOR, True))
    assert not cab.handle(RamClear(hand_pay_cents=100)).accepted  # nothing unverified to hand-pay
    assert cab.handle(RamClear()).accepted
    detail = ram_clear_entry(cab)["detail"]
    assert detail["verified"] is True and detail["evidence"] == "the committed memory"


def test_the_best_evidence_is_the_intact_copy_nearest_below_the_seal(tmp_path: Path) -> None:
    memory = WagerMemory.open(tmp_path, clock=FakeClock(), event_log_size=100, recall_depth=10)
    with memory.transaction() as tx:
        tx.meters.add_bill(500)
    memory.close()
    saved = (tmp_path / "copy-a.db").read_bytes()
    memory = WagerMemory.open(tmp_path, clock=FakeClock(), event_log_size=100, recall_depth=10)
    with memory.transaction() as tx:
        tx.meters.add_bill(2000)
    memory.close()
    (tmp_path / "copy-a.db").write_bytes(saved)  # copy A one transaction old, copy B damaged
    (tmp_path / "copy-b.db").write_bytes(b"\0" * 4096)
    evidence = best_evidence(tmp_path)
    assert evidence is not None and evidence.credit_cents == 500
    assert evidence.source == "copy-a.db at generation 2 (the seal at 3), intact"
    (tmp_path / "copy-a.db").write_bytes(b"\0" * 4096)
    assert best_evidence(tmp_path) is None  # nothing readable is left


def test_a_ram_clear_on_a_memory_another_process_holds_is_refused_with_a_sentence(tmp_path: Path) -> None:
    """Issue 27 (defect 8): MemoryUnavailable escaped handle(RamClear())."""
    holder = WagerMemory.open(tmp_path, clock=FakeClock(), event_log_size=100, recall_depth=10)
    with holder.transaction() as tx:
        tx.meters.add_bill(2000)
    cab = make_cabinet(tmp_path)
    cab.boot()
    assert cab.tilt == "ram_error" and cab.memory_busy
    cab.handle(KeyTurned(Key.OPERATOR, True))
    result = cab.handle(RamClear())
    assert not result.accepted
    assert result.reason.startswith("RAM clear refused: the wager memory in")
    assert "in use by another process" in result.reason
    assert result.reason.endswith(".") and cab.tilt == "ram_error"
    assert holder.meters["current_credits"] == 2000  # the other process's memory is untouched
    holder.close()


def test_the_ram_clear_screen_shows_the_credit_and_offers_a_hand_pay(signed_tree, tmp_path: Path) -> None:
    """The operator's RAM-clear page, through the headless shell: the credit read from the damaged
    memory is shown, and HAND PAY ... THEN CLEAR records the hand pay with the clear."""
    from egm.config import load_cabinet_config
    from egm.video.screenshot import credit, tab_centre
    from egm.video.session import Session

    config = load_cabinet_config(signed_tree.config_path)
    nvram = tmp_path / "nvram"
    first = Session(config, nvram, seed=7, game_ids=["dragon-poker"])
    credit(first)  # $100 on the meter
    assert first.cabinet.credits_cents == 10000
    first.close()
    flip_byte_in(nvram / "copy-b.db", b'"games_played"')
    flip_byte_in(nvram / "copy-a.db", b"stacked and credited")
    s = Session(config, nvram, seed=7, game_ids=["dragon-poker"])
    try:
        assert s.cabinet.tilt == "ram_error"
        s.key("f10")
        s.click(*tab_centre("ram_clear"))
        s.click(960, 705)  # RAM CLEAR...
        s.render()
        texts = " ".join(s.video.res.kit.drawn)
        assert "Credit read from the damaged memory (unverified): $100.00" in texts
        assert "HAND PAY $100.00" in texts
        s.click(330, 705)  # HAND PAY $100.00 THEN CLEAR
        assert s.cabinet.tilt is None and s.cabinet.credits_cents == 0
        paid = next(e for e in s.cabinet.event_log() if e["kind"] == "ram_clear_handpay")
        assert paid["detail"]["amount_cents"] == 10000
    finally:
        s.close()


class DiskFull:
    """Copy A's connection on a full disk: every write fails with ENOSPC (nothing is written)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: object) -> object:
        if sql.startswith(("INSERT", "DELETE")):
            raise OSError(28, "No space left on device")
        return self.conn.execute(sql, *args)

    def close(self) -> None:
        self.conn.close()


def test_a_disk_full_during_a_game_keeps_the_credit_and_the_game_at_the_next_boot(tmp_path: Path) -> None:
    """Issue 27 (defect 1): a disk filled during play, then a reboot. Both copies still agree with the
    seal, so the boot carries on (before: a RAM error whose clear recorded $0.00 and no game)."""
    cab = make_cabinet(tmp_path)
    cab.boot()
    insert(cab, 2000)
    assert cab.handle(StartGame()).accepted
    credit, game = cab.credits_cents, cab.memory.get("game")
    cab.memory._conns[0] = DiskFull(cab.memory._conns[0])
    assert not cab.handle(PlayerDecision(cab.round.reference_decision())).accepted
    assert cab.tilt == "ram_error"
    cab.memory.close()  # the power goes; the disk has room again after the reboot
    again = make_cabinet(tmp_path)
    again.boot()
    assert again.tilt is None and again.credits_cents == credit and again.memory.get("game") == game
    assert again.round is not None  # the game in progress resumes where it stood
    assert any("No space left on device" in e["message"] for e in again.event_log(5))

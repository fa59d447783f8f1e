"""Wager memory: two copies with integrity codes, repair from the good copy, RAM error when none is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from egm.clock import FakeClock
from egm.memory.store import COPY_FILES, AccountingBreach, RamError, WagerMemory, check_copy
from egm.meters import ROLLOVER, Meters


def open_memory(directory: Path, *, log_size: int = 100, recall: int = 10) -> WagerMemory:
    return WagerMemory.open(directory, clock=FakeClock(), event_log_size=log_size, recall_depth=recall)


def insert_bill(memory: WagerMemory, cents: int) -> None:
    with memory.transaction() as tx:
        tx.meters.add_bill(cents)
        tx.log("bill_in", f"{cents} in")


def flip_byte_in(path: Path, marker: bytes) -> None:
    """Flip one byte inside the stored payload that contains `marker` (a RAM bit flip on disk)."""
    data = bytearray(path.read_bytes())
    at = data.find(marker)
    assert at >= 0, f"marker {marker!r} not in {path.name}"
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def checkpoint_and_close(memory: WagerMemory) -> None:
    memory.close()  # the last connection checkpoints the WAL into the main file


def test_fresh_memory_is_two_good_equal_copies(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 2000)
    checks = [check_copy(tmp_path / name) for name in COPY_FILES]
    assert all(c.ok for c in checks)
    assert checks[0].generation == checks[1].generation == memory.generation == 2
    with sqlite3.connect(tmp_path / COPY_FILES[0]) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_committed_money_survives_reopen(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    insert_bill(memory, 10000)
    checkpoint_and_close(memory)
    again = open_memory(tmp_path)
    assert again.meters["bills_in"] == 10500
    assert again.meters["current_credits"] == 10500
    assert again.meters.bills_by_denomination == {"500": 1, "10000": 1}
    assert [e["kind"] for e in again.events()] == ["bill_in", "bill_in", "memory_initialised"]


def test_flipped_byte_in_one_copy_is_rebuilt_from_the_other(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 2000)
    checkpoint_and_close(memory)
    flip_byte_in(tmp_path / "copy-b.db", b'"bills_in":2000')
    assert not check_copy(tmp_path / "copy-b.db").ok
    again = open_memory(tmp_path)
    assert again.meters["bills_in"] == 2000
    assert check_copy(tmp_path / "copy-b.db").ok
    repair = again.events(limit=1)[0]
    assert repair["kind"] == "memory_repaired" and "copy-b.db" in repair["message"]


def test_flipped_byte_found_by_a_running_check(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 2000)
    with sqlite3.connect(tmp_path / "copy-a.db") as conn:  # damage behind the memory's back
        conn.execute("UPDATE records SET payload = replace(payload, '2000', '9000') WHERE name = 'meters'")
    repairs = memory.verify()
    assert repairs and "copy-a.db" in repairs[0]
    assert memory.meters["bills_in"] == 2000
    assert check_copy(tmp_path / "copy-a.db").ok


def test_a_record_lost_from_one_copy_is_detected_and_restored(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    with memory.transaction() as tx:
        tx.set("game", {"step": "set", "cards": [1, 2, 3]})
    with sqlite3.connect(tmp_path / "copy-a.db") as conn:  # every remaining row still has a good MAC
        conn.execute("DELETE FROM records WHERE name = 'game'")
    assert check_copy(tmp_path / "copy-a.db").problem == "a critical record is missing or was added"
    memory.verify()
    checkpoint_and_close(memory)
    assert open_memory(tmp_path).get("game") == {"step": "set", "cards": [1, 2, 3]}


def test_truncated_copy_is_rebuilt(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 5000)
    checkpoint_and_close(memory)
    path = tmp_path / "copy-a.db"
    path.write_bytes(path.read_bytes()[:1000])
    again = open_memory(tmp_path)
    assert again.meters["current_credits"] == 5000


@pytest.mark.parametrize("damage", ["truncate", "garbage", "delete"])
def test_no_good_copy_is_a_ram_error_and_nothing_is_cleared(tmp_path: Path, damage: str) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 5000)
    checkpoint_and_close(memory)
    for name in COPY_FILES:
        path = tmp_path / name
        if damage == "truncate":
            path.write_bytes(path.read_bytes()[:3000])
        elif damage == "garbage":
            path.write_bytes(b"not a database" * 500)
        else:
            path.unlink()
            (tmp_path / name).with_name(name + "-wal").unlink(missing_ok=True)
    if damage == "delete":  # both files gone is a blank memory, not a damaged one
        assert open_memory(tmp_path).meters["bills_in"] == 0
        return
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(RamError, match="RAM clear"):
        open_memory(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # never cleared automatically


def test_copy_one_step_behind_is_rolled_forward(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 100)
    checkpoint_and_close(memory)
    saved_b = (tmp_path / "copy-b.db").read_bytes()
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    checkpoint_and_close(memory)
    (tmp_path / "copy-b.db").write_bytes(saved_b)  # as if the power failed between the two commits
    again = open_memory(tmp_path)
    assert again.meters["bills_in"] == 600
    assert "rolled forward" in again.events(limit=1)[0]["message"]
    assert check_copy(tmp_path / "copy-b.db").generation == again.generation


def test_accounting_breach_commits_nothing(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 1000)
    generation = memory.generation
    with pytest.raises(AccountingBreach):
        with memory.transaction() as tx:
            tx.meters.add("bills_in", 1000)  # money in without credit: the identity breaks
    assert memory.generation == generation
    assert memory.meters["bills_in"] == 1000
    checkpoint_and_close(memory)
    assert open_memory(tmp_path).meters["bills_in"] == 1000


def test_event_log_and_recall_are_capped_rings(tmp_path: Path) -> None:
    memory = open_memory(tmp_path, log_size=100, recall=10)
    for i in range(130):
        with memory.transaction() as tx:
            tx.log("note", f"entry {i}")
            tx.add_recall({"number": i})
    events = memory.events()
    assert len(events) == 100 and events[0]["message"] == "entry 129"
    recall = memory.recall()
    assert [g["number"] for g in recall] == list(range(129, 119, -1))


def test_meters_roll_over_and_keep_the_identity() -> None:
    meters = Meters()
    meters.totals["coin_in"] = ROLLOVER - 100
    meters.totals["bills_in"] = ROLLOVER - 100
    meters.add_bill(500)
    meters.add("coin_in", 300)
    meters.add("current_credits", -300)
    assert meters["coin_in"] == 200 and meters["bills_in"] == 400
    assert meters.balance_error() == 0
    with pytest.raises(ValueError, match="below zero"):
        meters.add("current_credits", -10**6)

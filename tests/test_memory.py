"""Wager memory: two copies with integrity codes, repair from the good copy, RAM error when none is."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from egm.clock import FakeClock
from egm.memory.copies import COPY_FILES, check_copy
from egm.memory.errors import AccountingBreach, CommitFailed, MemoryUnavailable, RamError
from egm.memory.recovery import read_memory
from egm.memory.seal import read_seal
from egm.memory.store import WagerMemory
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
    assert check_copy(tmp_path / COPY_FILES[0]).generation == memory.generation == 2  # committed
    assert memory.verify() == []  # waits for copy B, which follows on its own thread
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
    generation = again.generation
    again.close()
    assert check_copy(tmp_path / "copy-b.db").generation == generation


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
        meters.add("current_credits", -(10**6))


# --- issue 13: restored, foreign or lost memory; one-copy commits; readers; limits -------------------
def copy_files(src: Path, dst: Path, names: tuple[str, ...] = COPY_FILES) -> None:
    """Copy each named copy with its WAL files as they are on disk now (a snapshot, or a kill -9)."""
    dst.mkdir(exist_ok=True)
    for name in names:
        for suffix in ("", "-wal", "-shm"):
            path = src / f"{name}{suffix}"
            if path.exists():
                (dst / path.name).write_bytes(path.read_bytes())
            else:
                (dst / path.name).unlink(missing_ok=True)


def test_a_restored_snapshot_of_both_copies_is_a_ram_error(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 10000)
    memory.close()
    copy_files(tmp_path, tmp_path / "saved")  # an old snapshot: $100 on the meter
    memory = open_memory(tmp_path)
    with memory.transaction() as tx:  # the $100 goes out as a ticket
        tx.meters.add("tickets_out", 10000)
        tx.meters.add("current_credits", -10000)
    memory.close()
    copy_files(tmp_path / "saved", tmp_path)
    with pytest.raises(RamError, match="generation 2, the seal at 3"):
        open_memory(tmp_path)


def test_another_memorys_copy_is_never_adopted(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    memory = open_memory(ours)
    memory.close()
    other = open_memory(theirs)
    insert_bill(other, 50000)
    insert_bill(other, 100)  # a generation ahead of ours, as a "newer" copy would be
    other.close()
    copy_files(theirs, ours, ("copy-b.db",))
    again = open_memory(ours)
    assert again.meters["current_credits"] == 0
    assert "belongs to another memory" in again.events(limit=1)[0]["message"]
    assert check_copy(ours / "copy-b.db").memory_id == again.memory_id


def test_a_copy_far_behind_is_rebuilt_from_the_copy_that_agrees_with_the_seal(tmp_path: Path) -> None:
    """Issue 27 (defect 1): an old copy B beside a copy A that agrees with the seal is rebuilt from A
    (before, a RAM error whose clear erased the committed credit)."""
    memory = open_memory(tmp_path)
    memory.close()
    copy_files(tmp_path, tmp_path / "saved", ("copy-b.db",))
    memory = open_memory(tmp_path)
    for _ in range(30):
        insert_bill(memory, 100)
    memory.close()
    copy_files(tmp_path / "saved", tmp_path, ("copy-b.db",))
    again = open_memory(tmp_path)
    assert again.meters["current_credits"] == 3000 and again.generation == 32
    message = again.events()[0]["message"]
    assert "copy-b.db was 30 generations behind (generation 1, the seal says 31" in message
    again.close()
    assert [check_copy(tmp_path / name).generation for name in COPY_FILES] == [32, 32]


def test_a_copy_ahead_of_the_seal_by_more_than_one_is_a_ram_error(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 100)
    memory.close()
    copy_files(tmp_path, tmp_path / "saved")
    (tmp_path / "saved" / "seal").write_bytes((tmp_path / "seal").read_bytes())
    memory = open_memory(tmp_path)
    for _ in range(3):
        insert_bill(memory, 100)
    memory.close()
    copy_files(tmp_path / "saved", tmp_path, ("copy-b.db",))  # the seal and copy B put back by 3
    (tmp_path / "seal").write_bytes((tmp_path / "saved" / "seal").read_bytes())
    with pytest.raises(RamError, match="copy-a.db is at generation 5, the seal at 2"):
        open_memory(tmp_path)


def test_deleting_copy_a_wal_is_repaired_from_copy_b(tmp_path: Path) -> None:
    """Issue 27 (defect 1): copy A's WAL deleted after a kill; copy B and the seal agree."""
    memory = open_memory(tmp_path / "nvram")
    for _ in range(5):
        insert_bill(memory, 100)
    with memory.transaction() as tx:
        tx.set("game", {"game_id": "dragon-poker", "step": "draw"})
    memory._await_mirror()  # copy B took the last transaction too: it agrees with the seal
    crashed = killed_copy(tmp_path, memory)
    memory.close()
    (crashed / "copy-a.db-wal").unlink()
    (crashed / "copy-a.db-shm").unlink()
    again = open_memory(crashed)
    assert again.meters["current_credits"] == 500
    assert again.get("game") == {"game_id": "dragon-poker", "step": "draw"}
    message = again.events()[0]["message"]
    assert message.startswith("copy-a.db was") and message.endswith("rebuilt from copy-b.db")


def test_deleted_copies_are_a_ram_error_but_a_new_directory_is_initialised(tmp_path: Path) -> None:
    fresh = open_memory(tmp_path / "new" / "nvram")  # never initialised: a first boot
    assert fresh.generation == 1 and fresh.events()[0]["kind"] == "memory_initialised"
    insert_bill(fresh, 500)
    fresh.close()
    for name in COPY_FILES:
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / "new" / "nvram" / f"{name}{suffix}").unlink(missing_ok=True)
    with pytest.raises(RamError, match="no copy at the committed generation 2"):
        open_memory(tmp_path / "new" / "nvram")


def test_a_memory_without_its_seal_is_a_ram_error(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    memory.close()
    (tmp_path / "seal").unlink()
    with pytest.raises(RamError, match="seal is missing"):
        open_memory(tmp_path)


def test_an_initialisation_cut_before_the_seal_starts_again(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    first_id = memory.memory_id
    memory.close()
    (tmp_path / "seal").unlink()  # the power went after both copies, before the seal
    again = open_memory(tmp_path)
    assert again.generation == 1 and again.memory_id != first_id


def killed_copy(tmp_path: Path, memory: WagerMemory) -> Path:
    """The NVRAM directory as a kill -9 leaves it now: main files, WAL files and the seal."""
    crashed = tmp_path / "crashed"
    copy_files(memory.directory, crashed)
    (crashed / "seal").write_bytes((memory.directory / "seal").read_bytes())
    return crashed


@pytest.mark.parametrize("damage", ["delete", "garbage"])
def test_losing_both_wal_files_is_a_ram_error_not_a_silent_rollback(tmp_path: Path, damage: str) -> None:
    memory = open_memory(tmp_path / "nvram")
    for _ in range(5):
        insert_bill(memory, 100)
    crashed = killed_copy(tmp_path, memory)
    memory.close()
    for name in COPY_FILES:
        wal = crashed / f"{name}-wal"
        assert wal.stat().st_size > 0
        if damage == "delete":
            wal.unlink()
            (crashed / f"{name}-shm").unlink()
        else:
            data = bytearray(wal.read_bytes())
            data[40:] = bytes(len(data) - 40)  # the frames gone, the header kept
            wal.write_bytes(bytes(data))
    with pytest.raises(RamError, match="the seal at 6"):
        open_memory(crashed)


class FailingCommit:
    """A connection whose COMMIT fails as a disk would (the data may or may not be written)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: object) -> object:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("disk I/O error")
        return self.conn.execute(sql, *args)

    def close(self) -> None:
        self.conn.close()


def test_copy_b_failing_after_the_commit_is_rebuilt_and_the_step_stands(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    memory._conns[1] = FailingCommit(memory._conns[1])  # type: ignore[assignment]
    insert_bill(memory, 2000)  # committed in copy A and the seal: it stands
    assert memory.meters["current_credits"] == 2000
    insert_bill(memory, 500)  # copy B was rebuilt and takes this one normally
    memory.close()
    checks = [check_copy(tmp_path / name) for name in COPY_FILES]
    assert [c.generation for c in checks] == [3, 3]
    again = open_memory(tmp_path)
    assert again.meters["current_credits"] == 2500
    assert any("copy B failed to take generation 2" in e["message"] for e in again.events())


def test_copy_a_failing_commits_nothing_and_the_next_boot_recovers_the_committed_copy(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    memory._conns[0] = FailingCommit(memory._conns[0])  # type: ignore[assignment]
    with pytest.raises(CommitFailed, match="not committed"):
        insert_bill(memory, 2000)
    assert memory.meters["current_credits"] == 500 and memory.generation == 2
    with pytest.raises(RamError):  # no further transaction on a memory that failed
        insert_bill(memory, 100)
    memory.close()
    # issue 27 (defect 1): both copies still agree with the seal at generation 2, so the next boot
    # carries on from them and logs the failure (before, a RAM error whose clear erased the $5)
    again = open_memory(tmp_path)
    assert again.meters["current_credits"] == 500 and again.generation == 3
    message = again.events()[0]["message"]
    assert "before the commit of generation 3" in message
    assert "copy-a.db holds the committed generation 2 intact" in message
    again.close()
    assert open_memory(tmp_path).meters["current_credits"] == 500  # the seal's RAM error was cleared


def test_a_transaction_that_reached_copy_a_only_is_rolled_back(tmp_path: Path, monkeypatch) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    seal_writes = []

    def failing_seal(seal: object) -> None:
        seal_writes.append(seal)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(memory._seal_writer, "write", failing_seal)  # the seal's disk is gone too
    with pytest.raises(CommitFailed):
        insert_bill(memory, 2000)
    assert len(seal_writes) == 2  # the commit, then the attempt to record the RAM error
    monkeypatch.undo()
    memory.close()
    assert check_copy(tmp_path / "copy-a.db").generation == 3  # copy A holds the uncommitted step
    again = open_memory(tmp_path)
    assert again.meters["current_credits"] == 500 and again.generation == 3  # 2 + the repair's log
    assert "never committed" in again.events(limit=1)[0]["message"]


def test_a_torn_seal_write_falls_back_to_the_previous_seal(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    memory.close()
    seal = tmp_path / "seal"
    data = bytearray(seal.read_bytes())
    newest = read_seal(tmp_path)
    assert newest is not None
    at = (newest.write % 2) * 512
    data[at + 10] ^= 0xFF  # the newest slot torn
    seal.write_bytes(bytes(data))
    assert read_seal(tmp_path).generation == newest.generation - 1  # type: ignore[union-attr]


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    with pytest.raises(MemoryUnavailable, match="in use by another process"):
        open_memory(tmp_path)
    memory.close()
    open_memory(tmp_path).close()  # the lock goes with the writer


def test_readers_never_write_or_repair(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 2000)
    checkpoint_and_close(memory)
    flip_byte_in(tmp_path / "copy-b.db", b'"games_played"')
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    content = read_memory(tmp_path)
    assert content.records["meters"]["current_credits"] == 2000
    assert content.events[0]["kind"] == "bill_in"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_reader_sees_one_committed_snapshot_while_the_cabinet_writes(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    stop = threading.Event()

    def write() -> None:
        while not stop.is_set():
            insert_bill(memory, 100)
            # A cabinet commits a few hundred times a second at most; a writer with no pause at all can
            # outrun every retry of a reader on a loaded machine ("kept changing ... read it again").
            time.sleep(0.002)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        seen: list[int] = []
        while len(seen) < 10 or seen[-1] < seen[0] + 5:  # read while the writer moves on
            content = read_memory(tmp_path)
            meters = Meters.from_record(content.records["meters"])
            assert meters.balance_error() == 0
            assert meters["bills_in"] == 100 * meters.bills_by_denomination.get("100", 0)
            assert content.events[0]["seq"] == content.records["generation"]["generation"]
            seen.append(content.records["generation"]["generation"])
    finally:
        stop.set()
        writer.join()
    memory.close()
    assert seen == sorted(seen) and seen[-1] > seen[0]
    assert check_copy(tmp_path / "copy-a.db").ok and check_copy(tmp_path / "copy-b.db").ok


def test_unusable_nvram_locations_are_refused_with_a_sentence(tmp_path: Path) -> None:
    a_file = tmp_path / "not-a-directory"
    a_file.write_text("x")
    with pytest.raises(MemoryUnavailable, match="is a file, not a directory"):
        open_memory(a_file)
    nvram = tmp_path / "nvram"
    (nvram / "copy-a.db").mkdir(parents=True)
    with pytest.raises(MemoryUnavailable, match="copy-a.db is not a file"):
        open_memory(nvram)
    assert (nvram / "copy-a.db").is_dir()  # nothing removed


def test_the_identity_is_exact_not_modulo_the_rollover(tmp_path: Path) -> None:
    memory = open_memory(tmp_path)
    insert_bill(memory, 500)
    with pytest.raises(AccountingBreach, match="does not fit"):
        with memory.transaction() as tx:
            tx.meters.add("current_credits", ROLLOVER)
    with pytest.raises(AccountingBreach, match="outside its 10 digits"):
        with memory.transaction() as tx:
            tx.meters.totals["current_credits"] += ROLLOVER  # the same reading modulo 10**10
    with pytest.raises(AccountingBreach, match="move by 100 cents where the accounting meters move it by 0"):
        with memory.transaction() as tx:
            tx.meters.totals["current_credits"] += 100
    assert memory.meters["current_credits"] == 500 and memory.generation == 2

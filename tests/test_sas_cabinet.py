"""The cabinet's SAS part over a pty pair: the cabinet runs its main loop in a thread with its SAS port
on the pty's slave end; the test is the host on the master end (hardware.sim.sas_host). Anything the
test does to the cabinet runs on the loop's thread (`Rig.do`), as a front end's input would."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from egm.clock import FakeClock
from egm.events import CashOut, Door, PlayerDecision, StartGame
from egm.host import exceptions as x
from egm.host.exceptions import CAPACITY, ExceptionQueue
from hardware.factory import build_devices
from hardware.serial.sas_protocol import M_POLLS, S_POLLS, bcd, encode_long_poll, escape_for_line
from hardware.sim.sas_host import SasHost, open_pty_pair
from tests.cabinet_support import make_cabinet, spine_config
from tests.money_path import money_path

ADDRESS = 3
BARCODE = "001234567890123456"


class Rig:
    """A cabinet with an SAS port on a pty, its loop on a thread, and the host on the other end."""

    def __init__(self, nvram: Path, clock: FakeClock | None = None, cabinet: dict | None = None, **sas: Any):
        self.nvram = nvram
        self.clock = clock or FakeClock(start=datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC))
        host_end, path = open_pty_pair()
        settings = {"enabled": True, "port": path, "address": ADDRESS, "host_timeout_s": 3.0, **sas}
        self.config = spine_config(devices={"sas": settings}, **(cabinet or {}))
        self.devices = build_devices(self.config, clock=self.clock)
        self.cabinet = make_cabinet(nvram, config=self.config, devices=self.devices, clock=self.clock)
        self.host = SasHost(host_end, ADDRESS, timeout_s=2.0)
        self.tasks: queue.Queue[tuple[Callable[[Any], Any], queue.Queue[Any]]] = queue.Queue()
        self.stopping = threading.Event()
        self.failure: Exception | None = None
        self.cabinet.boot()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()
        self.host.port.timeout = 1.0
        assert self.host.read(1, time.monotonic() + 5) == bytes([ADDRESS])  # the chirp: no host yet

    def _loop(self) -> None:
        link = self.cabinet.devices.host_link
        try:
            while not self.stopping.is_set():
                link.wait(0.002)
                while not self.tasks.empty():
                    task, answer = self.tasks.get()
                    answer.put(task(self.cabinet))
                self.cabinet.poll_devices()
        except Exception as exc:  # the loop stops dead; the test fails with it at its next step
            self.failure = exc

    def do(self, task: Callable[[Any], Any]) -> Any:
        """Run `task(cabinet)` on the cabinet's thread and return what it returns."""
        if self.failure is not None:
            raise AssertionError("the cabinet's loop raised") from self.failure
        answer: queue.Queue[Any] = queue.Queue()
        self.tasks.put((task, answer))
        return answer.get(timeout=10)

    def power_cut(self) -> None:
        """The loop stops dead: nothing is closed or written (wager memory's commits are on disk)."""
        self.stopping.set()
        self.thread.join(timeout=5)
        self.devices.host_link.close()
        self.host.close()
        self.cabinet.memory.close()  # a dead process holds no lock; what it committed is on disk

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.devices.host_link.close()
        self.host.close()
        self.cabinet.close()

    def meters(self) -> dict[str, int]:
        return self.do(lambda c: dict(c.memory.meters.totals))

    def play_game(self) -> None:
        def play(c: Any) -> None:
            assert c.handle(StartGame()).accepted
            while c.round is not None:
                c.handle(PlayerDecision(c.round.reference_decision()))

        self.do(play)

    def drain(self) -> list[int]:
        return list(self.host.exceptions())


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    wire = Rig(tmp_path / "nvram")
    yield wire
    wire.stop()


def insert_bill(rig: Rig, cents: int) -> None:
    rig.do(lambda c: c.devices.bill_acceptor.insert_bill(cents))


# --- reading ---------------------------------------------------------------------------------------
def test_meters_and_machine_polls(rig: Rig) -> None:
    insert_bill(rig, 2000)
    rig.play_game()
    m = rig.meters()
    assert m["bills_in"] == 2000 and m["games_played"] == 1
    assert rig.host.meter(0x1A) == m["current_credits"]
    assert rig.host.meters(0x1E) == [0, 0, 0, 1, 0, 0]  # one $20 note
    assert rig.host.meter(0x2A) == 0 and rig.host.meter(0x2B) == 0  # no coins in a TITO cabinet
    assert rig.host.long_poll(0x18)[2:6] == bcd(1, 2) + bcd(1, 2)  # type: ignore[index]
    # 0x2F: game 0 (the machine), coin in, current credits, $20 notes, and a code it does not keep
    reply = rig.host.long_poll(0x2F, bcd(0, 2) + bytes([0x00, 0x0C, 0x44, 0x7D]))
    assert reply is not None
    assert reply[3:] [:2] == bcd(0, 2)
    assert reply[5:-2] == (b"\x00" + bcd(m["coin_in"], 4) + b"\x0c" + bcd(m["current_credits"], 4)
                           + b"\x44" + bcd(1, 4) + b"\x7d" + bcd(0, 4))
    # 0x6F: game 1 (the test game's own meters), games played and an unknown code (size 0)
    reply = rig.host.long_poll(0x6F, bcd(1, 2) + (5).to_bytes(2, "little") + (0x7D).to_bytes(2, "little"))
    assert reply is not None and reply[5:-2] == b"\x05\x00\x05" + bcd(1, 5) + b"\x7d\x00\x00"
    assert rig.host.long_poll(0x2F, bcd(9, 2) + b"\x00") is None  # no game 9: no answer


def test_date_and_time_are_set_and_logged(rig: Rig) -> None:
    assert rig.host.date_time() == datetime(2026, 3, 4, 5, 6, 7)
    assert rig.host.set_date_time(datetime(2027, 12, 31, 23, 59, 58))
    rig.do(lambda c: rig.clock.advance(1))
    assert rig.host.date_time() == datetime(2027, 12, 31, 23, 59, 59)
    events = rig.do(lambda c: c.event_log(5))
    assert any(e["kind"] == "sas_time_set" and "2027-12-31T23:59:58" in e["message"] for e in events)
    rig.host.sync()
    assert rig.host.long_poll(0x7F, bytes.fromhex("13452027235958")) is None  # month 13: ignored


@pytest.mark.parametrize("digits", ["01010001000000", "12319999235959", "06151999120000"])
def test_a_date_the_cabinet_cannot_keep_is_ignored(rig: Rig, digits: str) -> None:
    """A real date outside the years a ticket, the log and SAS's MMDDYYYY write (2000 to 2099) is not
    answered and changes nothing: the cabinet still reports its time and still cashes out."""
    insert_bill(rig, 1000)
    assert rig.host.long_poll(0x7F, bytes.fromhex(digits)) is None
    assert rig.host.date_time() == datetime(2026, 3, 4, 5, 6, 7)
    assert rig.do(lambda c: [e["kind"] for e in c.event_log(3)]).count("sas_time_set") == 0
    rig.host.long_poll(0x0E, b"\x00")  # the host's tickets off: the cabinet numbers its own
    assert rig.do(lambda c: c.handle(CashOut())).accepted


def test_the_host_sets_the_cabinets_one_clock(tmp_path: Path) -> None:
    """0x7F sets the cabinet's own date and time (the one the Settings page sets): the event log,
    tickets and recall follow the host, and the setting survives a power cut."""
    rig = Rig(tmp_path / "nvram")
    assert rig.host.set_date_time(datetime(2027, 12, 31, 23, 59, 58))
    assert rig.do(lambda c: c.clock.now()) == datetime(2027, 12, 31, 23, 59, 58, tzinfo=UTC)
    assert rig.do(lambda c: c.snapshot()["date_time"]).startswith("2027-12-31T23:59:58")
    rig.power_cut()
    again = Rig(rig.nvram, clock=rig.clock)
    try:
        assert again.do(lambda c: c.clock.now()) == datetime(2027, 12, 31, 23, 59, 58, tzinfo=UTC)
        assert again.host.date_time() == datetime(2027, 12, 31, 23, 59, 58)
    finally:
        again.stop()


def test_shutdown_refuses_play_and_says_why(rig: Rig) -> None:
    insert_bill(rig, 500)
    assert rig.host.long_poll(0x01) == bytes([ADDRESS])
    refused = rig.do(lambda c: c.handle(StartGame()))
    assert not refused.accepted and "disabled this machine" in refused.reason
    assert rig.do(lambda c: c.devices.bill_acceptor.enabled_cents) == frozenset()  # no money in either
    before = rig.meters()
    assert rig.host.long_poll(0x02) == bytes([ADDRESS])
    assert rig.do(lambda c: c.handle(StartGame())).accepted
    assert rig.meters()["games_played"] == before["games_played"] + 1


# --- exceptions ------------------------------------------------------------------------------------
def test_exceptions_in_priority_order_and_across_a_power_cut(tmp_path: Path) -> None:
    nvram = tmp_path / "nvram"
    rig = Rig(nvram)
    assert rig.drain() == [x.AC_POWER_APPLIED]
    rig.do(lambda c: c.devices.doors.open_door(Door.MAIN))
    rig.do(lambda c: c.devices.doors.close_door(Door.MAIN))
    insert_bill(rig, 1000)
    rig.play_game()
    # reported but never acknowledged: it must survive the power cut
    assert rig.host.general_poll() == x.SLOT_DOOR_OPENED
    rig.power_cut()

    again = Rig(nvram)
    try:
        reported = again.drain()
        assert reported[:2] == [x.AC_POWER_LOST, x.AC_POWER_APPLIED]  # priority 1 first
        assert reported[2:] == [x.SLOT_DOOR_OPENED, x.SLOT_DOOR_CLOSED, x.BILL_ACCEPTED, x.GAME_STARTED,
                                x.GAME_ENDED]
        assert again.host.general_poll() == x.NO_ACTIVITY
    finally:
        again.stop()


def test_queue_overflow_keeps_the_important_and_says_so() -> None:
    q = ExceptionQueue()
    for _ in range(CAPACITY):
        q.add(x.GAME_STARTED)
    q.add(x.SLOT_DOOR_OPENED)
    q.add(x.AC_POWER_LOST)
    assert len(q.codes) == CAPACITY
    assert q.codes[:3] == [x.BUFFER_OVERFLOW, x.AC_POWER_LOST, x.SLOT_DOOR_OPENED]
    assert q.delivered(x.BUFFER_OVERFLOW) and not q.overflowed


# --- TITO ------------------------------------------------------------------------------------------
def test_cash_out_ticket_carries_the_hosts_validation_number(rig: Rig) -> None:
    insert_bill(rig, 2000)
    rig.drain()
    assert rig.do(lambda c: c.handle(CashOut())).accepted
    assert rig.drain() == [x.SYSTEM_VALIDATION_REQUEST, x.CASH_OUT_PRESSED]  # in priority order
    assert rig.do(lambda c: c.devices.printer.printed) == []  # nothing printed without the host's number
    assert rig.host.pending_cashout() == (0x00, 2000)
    assert rig.host.send_validation_number("1234567890123456", system_id=7) == 0x00
    printed = rig.do(lambda c: c.devices.printer.printed)
    assert [(t.validation_number, t.amount_cents) for t in printed] == [("071234567890123456", 2000)]
    assert x.TICKET_PRINTED in rig.drain()
    info = rig.host.validation_info(0)
    assert info is not None and info["validation_number"] == "1234567890123456"
    assert info["amount_cents"] == 2000 and info["system_id"] == 7
    rig.host.sync()
    assert rig.host.validation_info(0)["amount_cents"] == 0  # type: ignore[index]  # all read
    assert rig.meters()["tickets_out"] == 2000 and rig.meters()["current_credits"] == 0


@pytest.mark.parametrize("ending", ["refused", "timeout"])
def test_cash_out_without_a_number_keeps_the_credits(rig: Rig, ending: str) -> None:
    insert_bill(rig, 1000)
    rig.drain()
    assert rig.do(lambda c: c.handle(CashOut())).accepted
    if ending == "refused":
        assert rig.host.send_validation_number("0" * 16, system_id=0) == 0x00
    else:
        rig.do(lambda c: rig.clock.advance(4))  # past host_timeout_s, within the link's 5 s
        rig.host.general_poll()  # the host's next poll finds the request expired
    assert rig.host.pending_cashout() == (0x80, 0)
    assert rig.do(lambda c: (c.state, c.devices.printer.printed)) == ("attract", [])
    assert rig.meters()["current_credits"] == 1000 and rig.meters()["tickets_out"] == 0


@pytest.mark.parametrize("shift", [timedelta(hours=-1), timedelta(days=1)])
def test_the_host_setting_the_clock_does_not_move_its_own_deadline(rig: Rig, shift: timedelta) -> None:
    """host_timeout_s is a timeout: a date and time set meanwhile (0x7F) neither ends the wait for the
    validation number at once (clock set forward) nor stretches it by the shift (clock set back)."""
    insert_bill(rig, 1000)
    rig.drain()
    assert rig.do(lambda c: c.handle(CashOut())).accepted
    now = rig.do(lambda c: c.clock.now()).replace(tzinfo=None, microsecond=0)
    assert rig.host.set_date_time(now + shift)
    rig.do(lambda c: rig.clock.advance(1))  # within host_timeout_s: still waiting
    assert rig.host.pending_cashout() == (0x00, 1000)
    rig.do(lambda c: rig.clock.advance(3))  # past host_timeout_s
    rig.host.general_poll()
    assert rig.host.pending_cashout() == (0x80, 0)
    assert rig.meters()["current_credits"] == 1000 and rig.do(lambda c: c.devices.printer.printed) == []


def test_ticket_is_credited_only_after_the_host_authorises_it(rig: Rig) -> None:
    rig.drain()
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(BARCODE))
    assert rig.drain() == [x.TICKET_INSERTED]
    assert rig.host.ticket_in_escrow() == (0x00, 0, BARCODE)
    assert rig.meters()["current_credits"] == 0
    assert rig.host.redeem(0x00, 1500, BARCODE) == (0x40, 1500)  # pending: committed, then stacked
    assert rig.do(lambda c: [s.barcode for s in c.devices.bill_acceptor.stacked]) == [BARCODE]
    assert rig.drain() == [x.TICKET_TRANSFER_COMPLETE]
    rig.host.sync()
    assert rig.host.redeem(0xFF, 0, "") == (0x00, 1500)
    assert rig.meters()["tickets_in"] == 1500 and rig.meters()["current_credits"] == 1500
    rig.host.sync()
    assert rig.host.redeem(0x00, 1500, BARCODE) == (0x00, 1500)  # decided: no second credit
    assert rig.meters()["current_credits"] == 1500


@pytest.mark.parametrize(("ending", "status"), [("rejected", 0x80), ("timeout", 0x88), ("link lost", 0x89)])
def test_refused_or_unanswered_ticket_is_returned(rig: Rig, ending: str, status: int) -> None:
    rig.drain()
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(BARCODE))
    if ending == "rejected":
        assert rig.host.redeem(0x84, 0, BARCODE) == (0x80, 0)
    elif ending == "timeout":
        rig.do(lambda c: rig.clock.advance(4))  # past host_timeout_s, within the link's 5 s
        rig.host.general_poll()
    else:
        rig.do(lambda c: rig.clock.advance(6))  # the host falls silent: the link is lost
    assert rig.do(lambda c: c.devices.bill_acceptor.escrow) is None
    assert rig.do(lambda c: c.devices.bill_acceptor.stacked) == []
    rig.host.sync()
    assert rig.host.redeem(0xFF, 0, "") == (status, 0)
    assert rig.meters()["current_credits"] == 0 and rig.meters()["tickets_in"] == 0


def test_ticket_with_a_silent_host_is_returned_at_once(rig: Rig) -> None:
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(BARCODE))  # the host never polled
    assert rig.do(lambda c: (c.devices.bill_acceptor.escrow, c.memory.get("sas_redemption"))) == (None, None)


# --- AFT -------------------------------------------------------------------------------------------
def test_aft_lock_transfers_and_interrogation(rig: Rig) -> None:
    status = rig.host.aft_lock(0x00, timeout_cs=500)
    assert status is not None and status.lock_status == 0x00 and status.available_transfers & 0x01
    refused = rig.do(lambda c: c.handle(StartGame()))
    assert not refused.accepted and "locked this machine" in refused.reason
    done = rig.host.aft_transfer(0x00, 5000, "T-1", asset_number=1)
    assert done is not None and (done.status, done.cashable_cents, done.transaction_id) == (0x00, 5000, "T-1")
    assert rig.host.aft_lock(0xFF).lock_status == 0xFF  # type: ignore[union-attr]  # the transfer ends the lock
    rig.host.sync()
    again = rig.host.aft_transfer(0x00, 5000, "T-1", asset_number=1)  # a new poll, the same id
    assert again is not None and again.status == 0x81
    first = rig.host.aft_transfer(0x80, 2000, "T-2", asset_number=1)
    out = rig.host.aft_transfer(0x80, 2000, "T-2", asset_number=1)  # no poll between: implied NACK
    assert out == first  # the same reply, and the money moved once (below)
    assert out is not None and (out.status, out.cashable_cents) == (0x00, 2000)
    m = rig.meters()
    assert (m["aft_in"], m["aft_out"], m["current_credits"]) == (5000, 2000, 3000)
    last = rig.host.aft_interrogate()
    assert last is not None and (last.transaction_id, last.status) == ("T-2", 0x00)
    assert x.AFT_TRANSFER_COMPLETE in rig.drain()


@pytest.mark.parametrize(
    ("transfer_type", "cents", "asset", "status"),
    [(0x80, 9000, 1, 0x83), (0x00, 200001, 1, 0x84), (0x00, 100, 99, 0x93), (0x40, 100, 1, 0x82)],
)
def test_aft_refusals_move_nothing(rig: Rig, transfer_type: int, cents: int, asset: int, status: int) -> None:
    insert_bill(rig, 5000)
    before = rig.meters()
    refused = rig.host.aft_transfer(transfer_type, cents, "BAD", asset_number=asset)
    assert refused is not None and refused.status == status
    assert rig.meters() == before


def test_aft_after_a_power_cut_interrogation_says_it_was_done(tmp_path: Path) -> None:
    nvram = tmp_path / "nvram"
    rig = Rig(nvram)
    data = bytes([0x00, 0x00, 0x00]) + bcd(7000, 5) + bcd(0, 10) + b"\x00" + (1).to_bytes(4, "little")
    data += bytes(20) + b"\x04T-77" + bcd(0, 4) + b"\x00\x00\x00"
    rig.do(lambda c: c._transfer_funds(data))  # committed; the power fails before the reply is sent
    rig.power_cut()
    again = Rig(nvram)
    try:
        last = again.host.aft_interrogate()
        assert last is not None
        assert (last.transaction_id, last.status, last.cashable_cents) == ("T-77", 0x00, 7000)
        assert again.meters()["current_credits"] == 7000
        again.host.sync()
        repeat = again.host.aft_transfer(0x00, 7000, "T-77", asset_number=1)
        assert repeat is not None and repeat.status == 0x81 and again.meters()["current_credits"] == 7000
        nothing = again.host.long_poll(0x72, b"\xff\x05")  # no fifth transfer in the history
        assert nothing is not None and nothing[3:5] == b"\x00\xff"
    finally:
        again.stop()


def test_no_transfer_information_before_the_first_transfer(rig: Rig) -> None:
    last = rig.host.long_poll(0x72, b"\xff\x00")
    assert last is not None and last[3:5] == b"\x00\xff"


# --- bytes that are no command move nothing --------------------------------------------------------
def addressed(data: bytes) -> bytes:
    """Bytes sent as a poll to this machine (wake-up on its address), whatever follows."""
    return escape_for_line(bytes([ADDRESS]) + data)


@pytest.fixture(scope="module")
def fuzz_rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    wire = Rig(tmp_path_factory.mktemp("fuzz"))
    wire.do(lambda c: c.devices.bill_acceptor.insert_bill(2000))
    yield wire
    wire.stop()


def well_formed(command: int, data: bytes) -> bytes:
    """A poll to this machine with a good CRC and the command's length, its data random."""
    if command in S_POLLS:
        data = data[: S_POLLS[command]].ljust(S_POLLS[command], b"\x00")
    return escape_for_line(encode_long_poll(ADDRESS, command, data))


NOISE = st.one_of(
    st.binary(max_size=40),
    st.binary(min_size=1, max_size=40).map(addressed),
    st.builds(well_formed, st.sampled_from(sorted({*S_POLLS, *M_POLLS})), st.binary(max_size=60)),
)


@pytest.mark.money_path
@money_path(60, HealthCheck.function_scoped_fixture)
@given(st.lists(NOISE, max_size=8))
def test_fuzz_noise_never_moves_money(fuzz_rig: Rig, chunks: list[bytes]) -> None:
    """Random bytes, random polls to this machine with wrong CRCs or unknown commands, and well-formed
    polls with random data: the cabinet never raises, and meters and credits stay as they were
    (random data is no valid transfer: wrong asset number, amounts, transfer codes...)."""
    before = fuzz_rig.meters()
    for chunk in chunks:
        fuzz_rig.host.port.write(chunk)
    fuzz_rig.do(lambda c: None)  # the loop has handled them
    fuzz_rig.host.drain()
    after = fuzz_rig.meters()
    assert after == before


# --- a silent host, the mapping of events, the configuration, the host's console --------------------
def test_a_silent_host_never_stops_play(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "nvram")  # nobody ever polls
    try:
        insert_bill(rig, 1000)
        rig.do(lambda c: rig.clock.advance(30))  # long past the link timeout: chirping all along
        rig.play_game()
        assert rig.meters()["games_played"] == 1
        refused = rig.do(lambda c: c.handle(CashOut()))  # the host numbers the tickets
        assert not refused.accepted and "not answering" in refused.reason
        assert rig.meters()["current_credits"] > 0
    finally:
        rig.stop()


@pytest.mark.parametrize(
    ("event", "codes"),
    [
        ({"kind": "door_open", "detail": {"door": "logic"}}, (x.CARD_CAGE_OPENED,)),
        ({"kind": "door_close", "detail": {"door": "cash_box"}}, (x.CASH_BOX_DOOR_CLOSED,)),
        ({"kind": "hand_pay", "detail": {}}, (x.HAND_PAY_PENDING,)),
        ({"kind": "hand_pay_reset", "detail": {}}, (x.HAND_PAY_RESET,)),
        ({"kind": "memory_repaired", "detail": {}}, (x.RAM_ERROR_RECOVERED,)),
        ({"kind": "rom_error", "detail": {}}, (x.ROM_ERROR,)),
        ({"kind": "device_fault", "detail": {"device": "printer", "fault": "paper_out"}},
         (x.PRINTER_PAPER_OUT,)),
        ({"kind": "device_fault", "detail": {"device": "printer", "fault": "communication"}},
         (x.PRINTER_COMMUNICATION_ERROR,)),
        ({"kind": "device_fault", "detail": {"device": "bill_acceptor", "fault": "stacker_full"}},
         (x.CASH_BOX_FULL,)),
        ({"kind": "device_fault", "detail": {"device": "bill_acceptor", "fault": "cheated"}},
         (x.BILL_ACCEPTOR_FAILURE,)),
        ({"kind": "device_warning", "detail": {"device": "printer"}}, (x.PRINTER_PAPER_LOW,)),
        ({"kind": "sas_validation_request", "detail": {}}, (x.CASH_OUT_PRESSED, x.SYSTEM_VALIDATION_REQUEST)),
        ({"kind": "refused", "detail": {}}, ()),
    ],
)
def test_event_log_entries_become_exceptions(event: dict[str, Any], codes: tuple[int, ...]) -> None:
    assert x.exceptions_for(event) == codes


def test_ram_error_is_reported_while_memory_is_lost(rig: Rig) -> None:
    rig.drain()
    rig.do(lambda c: setattr(c, "_ram_error", "both copies lost (test)"))
    assert rig.host.general_poll() == x.RAM_ERROR_NOT_RECOVERED
    assert rig.host.meter(0x1A) is None  # no memory to read: no meter is made up


def test_sas_needs_a_port_to_be_enabled() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="enabled needs a port"):  # the schema: config check and boot
        spine_config(devices={"sas": {"enabled": True}})
    assert build_devices(spine_config()).host_link is None  # off by default


def test_host_console_commands(rig: Rig) -> None:
    import io

    from egm.cli import build_parser
    from hardware.sim.sas_host_cli import run_console

    insert_bill(rig, 500)
    # the host asks the cabinet, not the rig's thread: wait until the loop has stacked and credited the note
    deadline = time.monotonic() + 30
    while rig.do(lambda c: c.credits_cents) != 500:
        assert time.monotonic() < deadline, "the note was not credited"
    out = io.StringIO()
    commands = "credits\naft-in 700 C-1\nmeters\nbogus\nquit\ncredits\n"
    run_console(rig.host, threading.Lock(), io.StringIO(commands), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "credits: 500"
    assert lines[1].startswith("status 0x00")
    assert "credits=1200" in lines[2] and "bills=5" in lines[2]
    assert lines[3].startswith("commands:") and len(lines) == 4  # nothing after quit
    parser, _ = build_parser()
    assert parser.parse_args(["sim", "sas-host", "--port", "pty", "--address", "9"]).address == 9
    args = parser.parse_args(["sim", "sas-egm", "--port", "/dev/pts/9", "--nvram", "/tmp/x"])
    assert (args.port, args.address, args.nvram) == ("/dev/pts/9", 1, Path("/tmp/x"))


def test_validation_id_is_set_and_read(rig: Rig) -> None:
    reply = rig.host.long_poll(0x4C, (0x123456).to_bytes(3, "little") + (42).to_bytes(3, "little"))
    assert reply is not None and reply[2:8] == (0x123456).to_bytes(3, "little") + (42).to_bytes(3, "little")
    rig.host.sync()
    assert rig.host.long_poll(0x4C, bytes(6))[2:8] == reply[2:8]  # type: ignore[index]  # id 0: read only
    assert rig.do(lambda c: c.memory.get("sas_validation"))["id"] == 0x123456


def test_redemption_is_committed_before_the_acceptor_stacks(rig: Rig) -> None:
    rig.drain()
    seen: list[object] = []

    def watch(c: Any) -> None:
        stack = c.devices.bill_acceptor.stack
        c.devices.bill_acceptor.stack = lambda: (seen.append(c.memory.get("bill")), stack())

    rig.do(watch)
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket(BARCODE))
    assert rig.host.redeem(0x00, 800, BARCODE) == (0x40, 800)
    assert seen == [{"barcode": BARCODE, "amount_cents": 800, "host": True}]  # on disk before the stack


def test_aft_cut_before_its_commit_never_happened(tmp_path: Path) -> None:
    nvram = tmp_path / "nvram"
    rig = Rig(nvram)
    rig.drain()

    def power_fails(*args: Any) -> None:
        raise SystemError("power failed")  # the loop dies here: nothing of the transfer is written

    rig.do(lambda c: setattr(c.memory, "_commit", power_fails))
    assert rig.host.aft_transfer(0x00, 4000, "T-88", asset_number=1) is None  # no answer
    rig.power_cut()
    again = Rig(nvram)
    try:
        nothing = again.host.long_poll(0x72, b"\xff\x00")
        assert nothing is not None and nothing[3:5] == b"\x00\xff"  # no transfer: T-88 was not done
        assert again.meters()["aft_in"] == 0 and again.meters()["current_credits"] == 0
        done = again.host.aft_transfer(0x00, 4000, "T-88", asset_number=1)  # the host may send it again
        assert done is not None and done.status == 0x00 and again.meters()["current_credits"] == 4000
    finally:
        again.stop()


def test_an_expired_lock_frees_the_machine(rig: Rig) -> None:
    insert_bill(rig, 500)
    assert rig.host.aft_lock(0x00, timeout_cs=200).lock_status == 0x00  # type: ignore[union-attr]  # 2 s
    assert rig.do(lambda c: c.devices.bill_acceptor.enabled_cents) == frozenset()  # money in waits
    rig.do(lambda c: rig.clock.advance(6))  # the host falls silent; the lock runs out
    assert rig.do(lambda c: c.devices.bill_acceptor.enabled_cents) != frozenset()
    assert rig.do(lambda c: c.handle(StartGame())).accepted


def test_a_ticket_that_is_no_validation_number_is_returned(rig: Rig) -> None:
    rig.drain()
    rig.do(lambda c: c.devices.bill_acceptor.insert_ticket("12AB"))
    assert rig.do(lambda c: (c.devices.bill_acceptor.escrow, c.memory.get("sas_redemption"))) == (None, None)
    assert "not an 18-digit validation number" in rig.do(lambda c: c.event_log(1))[0]["message"]


def test_cabinet_validation_prints_at_once_and_the_host_reads_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "nvram", validation="cabinet")
    try:
        insert_bill(rig, 1000)
        rig.drain()
        assert rig.do(lambda c: c.handle(CashOut())).accepted
        printed = rig.do(lambda c: c.devices.printer.printed)
        assert len(printed) == 1 and printed[0].amount_cents == 1000
        assert rig.drain() == [x.TICKET_PRINTED, x.CASH_OUT_PRESSED]
        info = rig.host.validation_info(0)
        assert info is not None and info["system_id"] == 0 and info["amount_cents"] == 1000
        assert info["validation_number"] == printed[0].validation_number[-16:]
    finally:
        rig.stop()


def test_a_frame_loop_answers_the_host_in_its_spare_time(tmp_path: Path) -> None:
    """The display loop waits on the host link for the rest of each frame (egm.host.serve), so a poll
    is answered while the frame's time runs, not at the next frame."""
    from egm.host.serve import serve_host_until

    host_end, path = open_pty_pair()
    config = spine_config(devices={"sas": {"enabled": True, "port": path, "address": ADDRESS}})
    devices = build_devices(config, clock=FakeClock())
    cabinet = make_cabinet(tmp_path, config=config, devices=devices)
    cabinet.boot()
    host = SasHost(host_end, ADDRESS, timeout_s=2.0)
    answers: list[int | None] = []
    asking = threading.Thread(target=lambda: answers.append(host.general_poll()))
    try:
        serve_host_until(cabinet, time.monotonic() + 0.2)  # a frame: the chirp goes out
        host.drain()
        asking.start()
        serve_host_until(cabinet, time.monotonic() + 1.0)  # the next frame's spare time
        asking.join(timeout=5)
        assert answers == [x.AC_POWER_APPLIED]
    finally:
        devices.host_link.close()
        host.close()
        cabinet.close()


def test_rom_signature_follows_the_rom_as_last_verified(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """0x21 answers from the image read when the link came up; a door closing (which re-verifies the
    ROM) makes the cabinet read the image again."""
    from egm.rom import gat
    from hardware.serial.crc import crc16_kermit

    rig.drain()
    before = rig.host.rom_signature(0xBEEF)
    monkeypatch.setattr(gat, "rom_image", lambda manifest, root: iter([b"a changed image"]))
    rig.host.sync()
    assert rig.host.rom_signature(0xBEEF) == before  # nothing re-verified yet
    rig.do(lambda c: c.devices.doors.open_door(Door.LOGIC))
    rig.do(lambda c: c.devices.doors.close_door(Door.LOGIC))
    rig.drain()  # the poll that finds the door closed; the image is read again after its reply
    assert rig.host.rom_signature(0xBEEF) == crc16_kermit(b"a changed image", 0xBEEF)

"""The ID-003 driver against the ID-003 simulator over a pty pair: bytes on the wire and events."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from egm.clock import FakeClock
from hardware.interfaces import (
    AcceptorPoweredUp,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    DeviceFault,
    DeviceFaultCleared,
    PowerUpPath,
)
from hardware.serial import id003_protocol as p
from hardware.serial.id003_driver import RECONCILE_FAULTS, Id003BillAcceptor
from hardware.serial.link import FrameError
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.scripted_port import ScriptedPort
from hardware.sim.transport import PtyTransport, TcpTransport
from tests.money_path import money_path
from tests.test_hw_support import DeviceRig, of

NOTES = frozenset({100, 500, 1000, 2000, 5000, 10000})
BARCODE = "123456789012345678"


class Rig(DeviceRig[Id003Simulator, Id003BillAcceptor]):
    def boot(self) -> None:
        self.driver.enable(NOTES)
        self.poll_until(lambda _: self.sim.steady[0] == p.ENABLE_IDLING)

    def credited(self) -> int:
        return sum(e.amount_cents for e in self.events if isinstance(e, BillStacked))


@pytest.fixture
def rig() -> Iterator[Rig]:
    sim = Id003Simulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = Id003BillAcceptor(transport.port, clock, timeout_s=0.1, poll_interval_s=0.5)
        yield Rig(sim, driver, clock)
        driver.close()


def test_frame_bytes_and_crc() -> None:
    assert p.encode_frame(p.STATUS_REQUEST) == bytes.fromhex("fc 05 11 27 56")
    assert p.encode_frame(p.ACK) == bytes.fromhex("fc 05 50 aa 05")
    assert p.crc16_kermit(b"123456789") == 0x2189  # the CRC-16/KERMIT check value


def test_power_up_reset_and_initialize_on_the_wire(rig: Rig) -> None:
    rig.boot()
    wire = b"".join(rig.sim.received)
    frames = [f for f in p.FrameReader().feed(wire) if isinstance(f, p.Frame)]
    commands = [f.command for f in frames]
    assert commands[:2] == [p.STATUS_REQUEST, p.RESET]
    assert p.Frame(p.SET_BARCODE_FUNCTION, b"\x01\x12") in frames
    assert p.Frame(p.SET_DENOMINATION, bytes([0b10000010, 0xFF])) in frames  # $2 and code 8 inhibited
    assert p.Frame(p.SET_INHIBIT, b"\x00") in frames  # accepting


def test_note_is_credited_once_and_only_when_vend_valid(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(2000)
    events = rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    assert of(BillEscrowed, events) == [BillEscrowed(2000)]
    rig.poll(3)  # the cabinet has not decided yet: the note waits in escrow
    assert rig.credited() == 0 and rig.sim.cash_box == []
    rig.driver.stack()
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING and not rig.sim.upcoming)
    assert of(BillStacked, rig.events) == [BillStacked(2000)]
    assert rig.sim.cash_box == [(2000, None)]
    ack = p.encode_frame(p.ACK)
    assert any(ack in chunk for chunk in rig.sim.received)


def test_lost_ack_repeats_vend_valid_but_credits_once(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(500)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    # the device drops the host's first ACK: it keeps reporting VEND VALID
    original = rig.sim._command
    dropped: list[bool] = []

    def lossy(frame: p.Frame) -> p.Frame | None:
        if frame.command == p.ACK and not dropped:
            dropped.append(True)
            return None
        return original(frame)

    rig.sim._command = lossy  # type: ignore[method-assign]
    rig.poll(8)
    assert dropped and of(BillStacked, rig.events) == [BillStacked(500)]
    assert rig.sim.cash_box == [(500, None)]


def test_returned_note_is_not_credited(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(10000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.return_escrow()
    events = rig.poll_until(lambda ev: bool(of(BillReturned, ev)))
    assert of(BillReturned, events) == [BillReturned(10000)]
    rig.poll(3)
    assert rig.credited() == 0 and rig.sim.returned == [(10000, None)] and rig.sim.cash_box == []


def test_ticket_in_reports_its_barcode(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_ticket(BARCODE)
    events = rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    assert of(BillEscrowed, events) == [BillEscrowed(0, BARCODE)]
    rig.driver.stack()
    rig.poll_until(lambda ev: bool(of(BillStacked, ev)))
    assert of(BillStacked, rig.events) == [BillStacked(0, BARCODE)]


def test_inhibited_denomination_is_rejected(rig: Rig) -> None:
    rig.driver.enable(frozenset({100}))
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING)
    rig.sim.insert_note(5000)
    events = rig.poll_until(lambda ev: bool(of(BillRejected, ev)))
    assert "inhibited" in of(BillRejected, events)[0].reason
    assert rig.credited() == 0


def test_inhibit_disables_the_acceptor(rig: Rig) -> None:
    rig.boot()
    rig.driver.inhibit()
    rig.poll_until(lambda _: rig.sim.steady[0] == p.DISABLE_INHIBIT)
    rig.sim.insert_note(100)
    rig.poll(3)
    assert not of(BillEscrowed, rig.events)


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ("jam", "acceptor_jam"),
        ("stacker_jam", "stacker_jam"),
        ("stacker_full", "stacker_full"),
        ("stacker_open", "stacker_open"),
        ("cheat", "cheated"),
        ("failure", "failure"),
    ],
)
def test_fault_during_escrow_tilts_and_never_credits(rig: Rig, fault: str, kind: str) -> None:
    rig.boot()
    rig.sim.insert_note(2000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.sim.inject_fault(fault)
    events = rig.poll_until(lambda ev: bool(of(DeviceFault, ev)))
    (tilt,) = of(DeviceFault, events)
    assert tilt.device == "bill_acceptor" and tilt.kind == kind and tilt.message.endswith(".")
    rig.poll(3)
    assert len(of(DeviceFault, rig.events)) == 1  # reported once while it lasts
    rig.sim.clear_fault()
    events = rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)))
    assert of(DeviceFaultCleared, events) == [DeviceFaultCleared("bill_acceptor", kind)]
    assert rig.credited() == 0


@pytest.mark.parametrize("corruption", ["garble", "bad_checksum", "short"])
def test_bad_replies_are_discarded_and_retried(rig: Rig, corruption: str) -> None:
    rig.boot()
    rig.sim.insert_note(1000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.sim.corrupt_next(corruption, count=2)
    rig.poll_until(lambda ev: bool(of(BillStacked, ev)))
    rig.poll(3)
    assert of(BillStacked, rig.events) == [BillStacked(1000)]
    assert not of(DeviceFault, rig.events)  # one bad reply is retried, not a tilt
    assert rig.sim.cash_box == [(1000, None)]


def test_host_frame_with_bad_crc_gets_communication_error() -> None:
    sim = Id003Simulator()
    frame = bytearray(p.encode_frame(p.STATUS_REQUEST))
    frame[-1] ^= 0xFF
    assert p.FrameReader().feed(sim.receive(bytes(frame))) == [p.Frame(p.COMMUNICATION_ERROR)]


def test_device_that_stops_answering_tilts_and_recovers(rig: Rig) -> None:
    rig.boot()
    rig.sim.stop_answering()
    events = rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    (tilt,) = of(DeviceFault, events)
    assert tilt.kind == "communication" and "stopped answering" in tilt.message
    rig.sim.resume_answering()
    events = rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)), limit=6)
    assert DeviceFaultCleared("bill_acceptor", "communication") in events


def test_unplug_mid_stack_and_replug_credits_exactly_once(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(5000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.poll_until(lambda ev: bool(of(BillStacked, ev)))
    rig.sim.unplug()  # before the host's ACK could matter
    rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    rig.sim.replug()
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING, limit=12)
    assert of(BillStacked, rig.events) == [BillStacked(5000)]
    assert DeviceFaultCleared("bill_acceptor", "communication") in rig.events


def test_power_loss_in_escrow_reports_the_bill_given_back(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(2000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.sim.power_cycle()
    events = rig.poll_until(lambda ev: bool(of(AcceptorPoweredUp, ev)))
    assert of(AcceptorPoweredUp, events) == [AcceptorPoweredUp(PowerUpPath.IN_ACCEPTOR, 2000)]
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING)
    assert rig.credited() == 0 and rig.sim.returned == [(2000, None)]
    assert not of(DeviceFault, rig.events)


def test_power_loss_while_stacking_reports_the_bill_in_the_stacker(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(2000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.sim.power_cycle()  # before the driver saw VEND VALID
    events = rig.poll_until(lambda ev: bool(of(AcceptorPoweredUp, ev)))
    # the power-up confirms the stack the cabinet asked for, as VEND VALID would, then says where
    assert events == [BillStacked(2000), AcceptorPoweredUp(PowerUpPath.IN_STACKER, 2000)]
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING)
    assert rig.credited() == 2000 and rig.sim.cash_box == [(2000, None)] and not of(DeviceFault, rig.events)


def test_plain_power_up_after_a_stack_request_reports_an_empty_path(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(500)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.sim.power_cycle(status=p.POWER_UP)  # an acceptor that cannot say where the note went
    events = rig.poll_until(lambda ev: bool(of(AcceptorPoweredUp, ev)))
    assert of(AcceptorPoweredUp, events) == [AcceptorPoweredUp(PowerUpPath.EMPTY, 500)]


def test_a_lost_reset_repeats_the_power_up_status_but_reports_it_once(rig: Rig) -> None:
    rig.boot()
    assert of(AcceptorPoweredUp, rig.events) == [AcceptorPoweredUp(PowerUpPath.EMPTY)]  # switched on
    rig.sim.power_cycle(status=p.POWER_UP_BILL_IN_STACKER)
    rig.poll()  # sees the power-up status and sends RESET ...
    rig.sim.power_up(p.POWER_UP_BILL_IN_STACKER)  # ... which the acceptor never got
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING, limit=12)
    assert of(AcceptorPoweredUp, rig.events)[1:] == [AcceptorPoweredUp(PowerUpPath.IN_STACKER)]


# --- fuzzing -----------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_fuzz_frame_reader_yields_only_frames_or_errors(chunks: list[bytes]) -> None:
    reader = p.FrameReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            assert isinstance(item, p.Frame | FrameError)
            if isinstance(item, p.Frame):
                assert p.crc16_kermit(item.encode()[:-2]) == int.from_bytes(item.encode()[-2:], "little")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60))
def test_fuzz_valid_frames_survive_noise(noise: bytes) -> None:
    frame = p.encode_frame(p.ESCROW, b"\x65")
    items = p.FrameReader().feed(noise.replace(b"\xfc", b"") + frame)
    assert items[-1] == p.Frame(p.ESCROW, b"\x65")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=32), max_size=12))
def test_fuzz_driver_never_credits_random_bytes(replies: list[bytes]) -> None:
    port = ScriptedPort(replies)
    driver = Id003BillAcceptor("fake://", FakeClock(), port_factory=lambda *_: port, poll_interval_s=0)
    driver.enable(NOTES)
    events: list[object] = []
    for _ in range(len(replies) + 2):
        events += driver.poll()
    assert not of(BillStacked, events)


def test_over_tcp_unplug_replug_reopens_the_port_through_the_factory() -> None:
    from hardware.serial.ports import open_serial_port
    from hardware.sim.transport import TcpTransport

    sim = Id003Simulator()
    opened: list[str] = []

    def factory(url, settings, timeout_s):  # type: ignore[no-untyped-def]
        opened.append(url)
        return open_serial_port(url, settings, timeout_s)

    clock = FakeClock()
    with TcpTransport(sim) as transport:
        assert transport.port.startswith("socket://127.0.0.1:")
        driver = Id003BillAcceptor(transport.port, clock, port_factory=factory, timeout_s=0.3)
        rig = Rig(sim, driver, clock)
        rig.boot()
        rig.sim.insert_note(100)
        rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
        rig.driver.stack()
        rig.poll_until(lambda ev: bool(of(BillStacked, ev)))
        sim.unplug()
        rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=20)
        sim.replug()
        rig.poll_until(lambda ev: DeviceFaultCleared("bill_acceptor", "communication") in ev, limit=20)
        rig.poll_until(lambda _: sim.steady[0] == p.ENABLE_IDLING, limit=20)
        driver.close()
    assert len(opened) >= 2  # the connection was opened again after the unplug
    assert of(BillStacked, rig.events) == [BillStacked(100)] and sim.cash_box == [(100, None)]


def test_idle_after_stack_without_vend_valid_is_a_sticky_reconcile_fault(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(1000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    with rig.sim.lock:  # the acceptor loses track of the note and goes idle without VEND VALID
        rig.sim.stage, rig.sim.escrow = "idle", None
        rig.sim.upcoming.clear()
        rig.sim.steady = (p.ENABLE_IDLING, b"")
    events = rig.poll_until(lambda ev: bool(of(DeviceFault, ev)))
    assert of(DeviceFault, events)[0].kind == "stack_unconfirmed"
    rig.poll(3)
    assert not of(DeviceFaultCleared, rig.events) and not of(BillReturned, rig.events)
    rig.driver.acknowledge_faults()
    assert rig.poll() == [DeviceFaultCleared("bill_acceptor", "stack_unconfirmed")]
    assert rig.credited() == 0


def test_escrow_replaced_unseen_reports_the_first_returned(rig: Rig) -> None:
    rig.boot()
    rig.sim.insert_note(100)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    with rig.sim.lock:  # polls were missed: the $1 went back and a $5 is now in escrow
        rig.sim.escrow = (0x63, b"")
        rig.sim.steady = (p.ESCROW, b"\x63")
    events = rig.poll()
    assert events == [BillReturned(100), BillEscrowed(500)]


def test_unknown_escrow_code_is_returned_not_credited(rig: Rig) -> None:
    rig.boot()
    with rig.sim.lock:
        rig.sim.stage, rig.sim.escrow = "escrow", (0x68, b"")
        rig.sim.steady = (p.ESCROW, b"\x68")
    events = rig.poll_until(lambda ev: bool(of(BillRejected, ev)))
    assert "not in the bill table" in of(BillRejected, events)[0].reason
    assert p.encode_frame(p.RETURN) in b"".join(rig.sim.received)
    rig.poll(2)
    assert rig.sim.returned == [(0, None)] and rig.credited() == 0


ACTIONS = (
    "insert_500",
    "insert_2000",
    "ticket",
    "stack",
    "return",
    "garble",
    "bad_checksum",
    "short",
    "silent",
    "resume",
    "power_cycle",
    "unplug",
    "replug",
    "jam",
    "clear",
)


def act(rig: Rig, action: str) -> None:
    sim, driver = rig.sim, rig.driver
    if action.startswith("insert_"):
        sim.insert_note(int(action.removeprefix("insert_")))
    elif action == "ticket":
        sim.insert_ticket(BARCODE)
    elif action == "stack":
        driver.stack()
    elif action == "return":
        driver.return_escrow()
    elif action in ("garble", "bad_checksum", "short"):
        sim.corrupt_next(action)
    elif action == "silent":
        sim.stop_answering()
    elif action == "resume":
        sim.resume_answering()
    elif action == "power_cycle":
        sim.power_cycle()
    elif action == "unplug":
        sim.unplug()
    elif action == "replug":
        sim.replug()
    elif action == "jam":
        sim.inject_fault("jam")
    else:
        sim.clear_fault()


@pytest.mark.money_path
@money_path(25, HealthCheck.too_slow)
@given(st.lists(st.sampled_from(ACTIONS), max_size=10), st.lists(st.integers(1, 3), min_size=10, max_size=10))
@example(actions=["insert_500", "insert_500", "stack", "power_cycle"], polls=[1] * 10)  # issue 27, defect 0
def test_random_faults_never_credit_more_than_the_cash_box(actions: list[str], polls: list[int]) -> None:
    sim = Id003Simulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = Id003BillAcceptor(transport.port, clock, timeout_s=0.05, poll_interval_s=0.5)
        rig = Rig(sim, driver, clock)
        rig.boot()
        for action, count in zip(actions, polls, strict=False):
            act(rig, action)
            rig.poll(count)
        sim.resume_answering()
        if not sim.plugged:
            sim.replug()
        sim.clear_fault()
        rig.driver.stack()  # settle whatever still waits in escrow
        rig.poll(12)
        driver.close()
    credited = [(e.amount_cents, e.barcode) for e in of(BillStacked, rig.events)]
    reconcile = [e for e in of(DeviceFault, rig.events) if e.kind in RECONCILE_FAULTS]
    assert len(credited) <= len(sim.cash_box)  # never a credit without an item in the cash box
    for item in credited:
        assert credited.count(item) <= sim.cash_box.count(item)
    if len(credited) < len(sim.cash_box):  # an item stacked but not credited: a person must settle it
        assert reconcile


def test_a_driver_started_mid_stack_reports_what_the_acceptor_stacked() -> None:
    sim, clock = Id003Simulator(), FakeClock()
    with TcpTransport(sim) as transport:
        rig = Rig(sim, Id003BillAcceptor(transport.port, clock, timeout_s=0.2, poll_interval_s=0.5), clock)
        rig.boot()
        sim.insert_note(1000)
        rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
        rig.driver.stack()  # ... and the cabinet dies before it hears VEND VALID
        rig.driver.close()
        rig.driver = Id003BillAcceptor(transport.port, clock, timeout_s=0.2, poll_interval_s=0.5)
        events = rig.poll_until(lambda ev: bool(of(BillStacked, ev)), limit=20)
        assert of(BillStacked, events) == [BillStacked(1000)] and not of(DeviceFault, events)
        rig.poll_until(lambda _: sim.steady[0] == p.ENABLE_IDLING, limit=20)
        rig.driver.close()
    assert of(BillStacked, rig.events) == [BillStacked(1000)] and sim.cash_box == [(1000, None)]


def test_a_driver_started_after_the_ack_of_vend_valid_cannot_say_which_item_was_stacked() -> None:
    """Issue 27 soak (kill 501): the cabinet died after its driver ACKed VEND VALID and before the
    credit committed. The next driver's first status is STACKED; it reported nothing, so the cabinet
    kept the pending $5 and stacked the customer's next $5 as if it were that one: one credit for two
    notes. Now STACKED first is reported as a power-up with an empty path (the attendant counts)."""
    sim, clock = Id003Simulator(), FakeClock()
    with TcpTransport(sim) as transport:
        rig = Rig(sim, Id003BillAcceptor(transport.port, clock, timeout_s=0.2, poll_interval_s=0.5), clock)
        rig.boot()
        sim.insert_note(500)
        rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
        rig.driver.stack()
        rig.poll_until(lambda ev: bool(of(BillStacked, ev)))  # VEND VALID seen and ACKed ...
        rig.driver.close()  # ... and the cabinet dies before it commits the credit
        assert sim.cash_box == [(500, None)] and sim.upcoming[0][0] == p.STACKED
        rig.driver = Id003BillAcceptor(transport.port, clock, timeout_s=0.2, poll_interval_s=0.5)
        events = rig.poll_until(lambda ev: bool(of(AcceptorPoweredUp, ev)), limit=5)
        assert of(AcceptorPoweredUp, events) == [AcceptorPoweredUp(PowerUpPath.EMPTY)]
        rig.driver.close()


def test_a_second_note_of_the_same_value_is_never_stacked_unasked(rig: Rig) -> None:
    """The STACKED status of the first note goes by unseen (the next note is already in escrow): the
    second note is a new escrow the cabinet must accept, not a repeat of the first's stack."""
    rig.boot()
    rig.sim.insert_note(500)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.poll_until(lambda ev: bool(of(BillStacked, ev)))
    deadline = time.monotonic() + 5
    while rig.sim.stage != "idle" and time.monotonic() < deadline:  # the ACK reached the acceptor
        time.sleep(0.01)
    assert rig.sim.insert_note(500)  # before the driver polled STACKED
    events = rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)), limit=10)
    assert of(BillEscrowed, events) == [BillEscrowed(500)]
    rig.poll(3)
    assert rig.sim.cash_box == [(500, None)] and rig.sim.stage == "escrow"  # waits for the cabinet
    assert of(BillStacked, rig.events) == [BillStacked(500)]

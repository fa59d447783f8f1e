"""The TCL printer driver against the TCL simulator over a pty pair: bytes on the wire and events."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from egm.clock import FakeClock
from hardware.interfaces import (
    DeviceFault,
    DeviceFaultCleared,
    DeviceWarning,
    TicketData,
    TicketFailed,
    TicketPrinted,
)
from hardware.serial import tcl_protocol as t
from hardware.serial.link import FrameError
from hardware.serial.tcl_driver import TclTicketPrinter
from hardware.sim.scripted_port import ScriptedPort
from hardware.sim.tcl_sim import TclPrinterSimulator
from hardware.sim.transport import PtyTransport
from hardware.ticket_text import amount_in_words, ticket_text
from tests.money_path import money_path
from tests.test_hw_support import DeviceRig, of

TICKET = TicketData(
    validation_number="001234567890123456",
    amount_cents=12534,
    site_name="EGM TEST CASINO",
    site_address="1 TEST WAY",
    machine_number="0042",
    issued_at=datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC),
    sequence=17,
    expires_days=30,
)


class Rig(DeviceRig[TclPrinterSimulator, TclTicketPrinter]):
    def print(self, ticket: TicketData = TICKET) -> None:
        self.driver.print_ticket(ticket)
        self.events += self.driver.poll()

    def outcome(self) -> list[object]:
        return [e for e in self.events if isinstance(e, TicketPrinted | TicketFailed)]


@pytest.fixture
def rig() -> Iterator[Rig]:
    sim = TclPrinterSimulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = TclTicketPrinter(transport.port, clock, timeout_s=0.1, poll_interval_s=0.5)
        rig = Rig(sim, driver, clock)
        rig.poll_until(lambda _: driver.ready())
        yield rig
        driver.close()


def test_ticket_text() -> None:
    text = ticket_text(TICKET)
    assert text.amount_words == "ONE HUNDRED TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS"
    assert text.amount_figures == "$125.34"
    assert text.validation == "VALIDATION 00-1234-5678-9012-3456"
    assert text.date == "03/14/2026" and text.time == "15:09:26"
    assert text.expiry == "TICKET VOID AFTER 30 DAYS" and text.machine == "MACHINE # 0042"
    assert text.sequence == "TICKET # 0017" and text.barcode == TICKET.validation_number
    assert amount_in_words(101) == "ONE DOLLAR AND ONE CENT"


def test_print_command_on_the_wire(rig: Rig) -> None:
    rig.print()
    rig.poll_until(lambda ev: bool(of(TicketPrinted, ev)))
    wire = b"".join(rig.sim.received)
    expected = (
        b"^P|0|1|EGM TEST CASINO|1 TEST WAY|CASHOUT TICKET|VALIDATION 00-1234-5678-9012-3456|"
        b"03/14/2026|15:09:26|TICKET # 0017|ONE HUNDRED TWENTY-FIVE DOLLARS AND THIRTY-FOUR CENTS|"
        b"$125.34|TICKET VOID AFTER 30 DAYS|MACHINE # 0042|001234567890123456|^"
    )
    assert expected in wire
    assert wire.startswith(t.STATUS_REQUEST) and t.CLEAR_ERRORS in wire  # power-up flag cleared


def test_ticket_counted_once_when_validation_printed(rig: Rig) -> None:
    rig.print()
    rig.poll(6)
    assert rig.outcome() == [TicketPrinted(TICKET.validation_number)]
    assert len(rig.sim.issued) == 1 and rig.driver.ready()


def test_second_ticket_while_printing_fails_without_sending(rig: Rig) -> None:
    rig.print()
    second = TicketData(**{**TICKET.__dict__, "validation_number": "009999999999999999"})
    rig.driver.print_ticket(second)
    rig.poll(6)
    busy = "the printer is still printing another ticket"
    assert TicketFailed(second.validation_number, busy) in rig.events
    assert of(TicketPrinted, rig.events) == [TicketPrinted(TICKET.validation_number)]
    assert len(rig.sim.issued) == 1


@pytest.mark.parametrize(
    ("fault", "kind"), [("paper_out", "paper_out"), ("head_up", "head_up"), ("jam", "paper_jam")]
)
def test_fault_before_validation_fails_the_ticket(rig: Rig, fault: str, kind: str) -> None:
    rig.sim.arm(fault, after_validation=False)
    rig.print()
    rig.poll(6)
    (failed,) = of(TicketFailed, rig.events)
    assert rig.outcome() == [failed] and rig.sim.issued == []
    assert [e.kind for e in of(DeviceFault, rig.events)] == [kind]
    assert t.FLUSH_ALL in b"".join(rig.sim.received)
    assert not rig.driver.ready()
    rig.sim.clear_fault()
    rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)))
    assert rig.driver.ready()


def test_jam_after_validation_still_counts_the_ticket(rig: Rig) -> None:
    rig.sim.arm("jam", after_validation=True)
    rig.print()
    rig.poll(6)
    assert rig.outcome() == [TicketPrinted(TICKET.validation_number)]
    assert [e.kind for e in of(DeviceFault, rig.events)] == ["paper_jam"]


@pytest.mark.parametrize(("after", "printed"), [(False, False), (True, True)])
def test_power_loss_mid_print_decided_by_validation_flag(rig: Rig, after: bool, printed: bool) -> None:
    rig.sim.arm("power_loss", after_validation=after)
    rig.print()
    rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=8)  # the printer went quiet
    assert rig.outcome() == []  # undecided while the printer is off
    rig.sim.power_on()
    rig.poll_until(lambda _: bool(rig.outcome()), limit=8)
    rig.poll(4)
    expected = TicketPrinted if printed else TicketFailed
    assert [type(e) for e in rig.outcome()] == [expected]
    assert len(rig.sim.issued) == (1 if printed else 0)
    assert DeviceFaultCleared("printer", "communication") in rig.events


def test_paper_low_is_a_warning_not_a_fault(rig: Rig) -> None:
    rig.sim.set_paper_low(True)
    events = rig.poll_until(lambda ev: bool(of(DeviceWarning, ev)))
    assert of(DeviceWarning, events)[0].kind == "paper_low" and rig.driver.ready()
    rig.print()
    rig.poll(5)
    assert rig.outcome() == [TicketPrinted(TICKET.validation_number)]
    rig.sim.set_paper_low(False)
    events = rig.poll_until(lambda ev: bool(of(DeviceWarning, ev)))
    assert of(DeviceWarning, events)[0].active is False


def test_print_refused_when_paper_out(rig: Rig) -> None:
    rig.sim.inject_fault("paper_out")
    rig.poll_until(lambda ev: bool(of(DeviceFault, ev)))
    rig.print()
    assert rig.outcome() == [TicketFailed(TICKET.validation_number, t.FAULT_FLAGS[t.PAPER_OUT][1])]
    assert not any(chunk.startswith(b"^P|") for chunk in rig.sim.received)


@pytest.mark.parametrize("corruption", ["garble", "bad_checksum", "short"])
def test_bad_status_replies_mid_print_are_retried_and_count_once(rig: Rig, corruption: str) -> None:
    rig.print()
    rig.sim.corrupt_next(corruption, count=2)  # the job runs on while the replies are spoiled
    rig.poll(6)
    assert rig.outcome() == [TicketPrinted(TICKET.validation_number)]
    assert not of(DeviceFault, rig.events) and len(rig.sim.issued) == 1


@pytest.mark.parametrize("corruption", ["garble", "bad_checksum", "short"])
def test_bad_status_before_printing_refuses_the_ticket(rig: Rig, corruption: str) -> None:
    rig.sim.corrupt_next(corruption, count=2)
    rig.print()
    rig.poll(3)
    assert [type(e) for e in rig.outcome()] == [TicketFailed] and rig.sim.issued == []
    assert not any(chunk.startswith(b"^P|") for chunk in rig.sim.received)


def test_printer_that_stops_answering_tilts_and_recovers(rig: Rig) -> None:
    rig.sim.stop_answering()
    events = rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    assert of(DeviceFault, events)[0].kind == "communication" and not rig.driver.ready()
    rig.sim.resume_answering()
    rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)), limit=6)
    assert rig.driver.ready()


def test_unplug_replug_mid_print_counts_once(rig: Rig) -> None:
    rig.print()
    rig.poll_until(lambda ev: bool(of(TicketPrinted, ev)))
    rig.sim.unplug()
    rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    rig.sim.replug()
    rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)), limit=6)
    rig.poll(3)
    assert rig.outcome() == [TicketPrinted(TICKET.validation_number)]


def test_bad_ticket_is_refused_before_the_wire(rig: Rig) -> None:
    bad = TicketData(**{**TICKET.__dict__, "validation_number": "12-34"})
    rig.print(bad)
    (failed,) = rig.outcome()
    assert isinstance(failed, TicketFailed) and "18 digits" in failed.reason


# --- fuzzing -----------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_fuzz_status_reader_yields_only_statuses_or_errors(chunks: list[bytes]) -> None:
    reader = t.StatusReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            assert isinstance(item, t.Status | FrameError)
            if isinstance(item, t.Status):
                assert all(f & 0xC0 == 0x40 for f in item.flags)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60), st.tuples(*[st.integers(0, 0x3F)] * 5))
def test_fuzz_statuses_survive_noise(noise: bytes, bits: tuple[int, int, int, int, int]) -> None:
    status = t.Status(flags=tuple(0x40 | b for b in bits))  # type: ignore[arg-type]
    items = t.StatusReader().feed(noise.replace(b"*", b"") + t.encode_status(status))
    assert items[-1] == status


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=10))
def test_fuzz_driver_never_counts_a_ticket_from_random_bytes(replies: list[bytes]) -> None:
    port = ScriptedPort(replies)
    driver = TclTicketPrinter("fake://", FakeClock(), port_factory=lambda *_: port, poll_interval_s=0)
    driver.print_ticket(TICKET)
    events: list[object] = []
    for _ in range(len(replies) + 2):
        events += driver.poll()
    assert not of(TicketPrinted, events)


PRINTER_ACTIONS = (
    "print",
    "print",
    "arm_paper_out_before",
    "arm_jam_after",
    "arm_power_loss_before",
    "arm_power_loss_after",
    "garble",
    "bad_checksum",
    "short",
    "silent",
    "resume",
    "power_on",
    "unplug",
    "replug",
    "paper_out",
    "clear",
)


def printer_act(rig: Rig, action: str, serial_number: int) -> None:
    sim = rig.sim
    if action == "print":
        number = f"{serial_number:018d}"
        rig.driver.print_ticket(TicketData(**{**TICKET.__dict__, "validation_number": number}))
    elif action.startswith("arm_"):
        kind, _, when = action.removeprefix("arm_").rpartition("_")
        sim.arm(kind, after_validation=when == "after")
    elif action in ("garble", "bad_checksum", "short"):
        sim.corrupt_next(action)
    elif action == "silent":
        sim.stop_answering()
    elif action == "resume":
        sim.resume_answering()
    elif action == "power_on":
        sim.power_on()
    elif action == "unplug":
        sim.unplug()
    elif action == "replug":
        sim.replug()
    elif action == "paper_out":
        sim.inject_fault("paper_out")
    else:
        sim.clear_fault()


@pytest.mark.money_path
@money_path(25)
@given(
    st.lists(st.sampled_from(PRINTER_ACTIONS), max_size=10),
    st.lists(st.integers(1, 3), min_size=10, max_size=10),
)
def test_random_faults_count_each_printed_ticket_exactly_once(actions: list[str], polls: list[int]) -> None:
    sim = TclPrinterSimulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = TclTicketPrinter(transport.port, clock, timeout_s=0.05, poll_interval_s=0.5)
        rig = Rig(sim, driver, clock)
        rig.poll_until(lambda _: driver.ready())
        for serial_number, (action, count) in enumerate(zip(actions, polls, strict=False), 1):
            printer_act(rig, action, serial_number)
            rig.poll(count)
        sim.resume_answering()
        if not sim.plugged:
            sim.power_on()
        sim.clear_fault()
        rig.poll_until(lambda _: driver.job is None and not driver.link.faulted, limit=15)
        driver.close()
    printed = [e.validation_number for e in of(TicketPrinted, rig.events)]
    failed = [e.validation_number for e in of(TicketFailed, rig.events)]
    issued = [fields[-1] for fields in sim.issued]
    assert sorted(printed) == sorted(issued)  # counted if and only if its number reached the paper
    assert len(set(printed)) == len(printed)  # and only once
    assert not set(printed) & set(failed)  # never both

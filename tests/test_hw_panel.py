"""The serial button panel driver against the panel simulator over a pty pair."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from egm.clock import FakeClock
from hardware.interfaces import (
    ButtonChanged,
    DeviceFault,
    DeviceFaultCleared,
    Door,
    DoorChanged,
    Key,
    KeyTurned,
    LampState,
)
from hardware.serial import panel_protocol as pp
from hardware.serial.link import FrameError
from hardware.serial.panel_driver import SerialButtonPanel
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.scripted_port import ScriptedPort
from hardware.sim.transport import PtyTransport
from tests.test_hw_support import DeviceRig, of


class Rig(DeviceRig[PanelSimulator, SerialButtonPanel]):
    """The panel driver and its simulator."""


@pytest.fixture
def rig() -> Iterator[Rig]:
    sim = PanelSimulator()
    clock = FakeClock()
    with PtyTransport(sim) as transport:
        driver = SerialButtonPanel(transport.port, clock, timeout_s=0.1)
        rig = Rig(sim, driver, clock)
        rig.poll_until(lambda _: not sim.unacked)  # HELLO and the switch states are in
        yield rig
        driver.close()


def test_line_format_and_checksum() -> None:
    assert pp.encode_line("LAMP", "12", "deal", "FLASH") == b"LAMP,12,deal,FLASH*63\n"
    bad = b"LAMP,12,deal,FLASH*62"
    assert pp.parse_line(bad) == FrameError("checksum mismatch", bad)


def test_button_press_reported_once_and_acked(rig: Rig) -> None:
    rig.sim.tap("deal")
    rig.poll(3)
    assert of(ButtonChanged, rig.events) == [ButtonChanged("deal", True), ButtonChanged("deal", False)]
    assert not rig.sim.unacked
    ack = pp.encode_line("ACK", rig.sim.boot, "7")  # HELLO 0, 3 doors, 2 keys, then DOWN 6 and UP 7
    assert any(ack in chunk for chunk in rig.sim.received)


def test_lost_ack_repeats_the_event_but_it_counts_once(rig: Rig) -> None:
    original = rig.sim._message
    dropped: list[tuple[str, ...]] = []

    def lossy(fields: tuple[str, ...]) -> bytes:
        if fields[0] == "ACK" and not dropped:
            dropped.append(fields)
            return b""
        return original(fields)

    rig.sim._message = lossy  # type: ignore[method-assign]
    rig.sim.press("bet")
    rig.poll(4)
    assert dropped and of(ButtonChanged, rig.events) == [ButtonChanged("bet", True)]
    assert not rig.sim.unacked


def test_lamps_reach_the_panel_on_the_wire(rig: Rig) -> None:
    rig.driver.set_lamp("deal", LampState.FLASH)
    rig.driver.set_lamp("bet", LampState.ON)
    rig.poll()
    assert rig.sim.lamps == {"bet": "ON", "deal": "FLASH"}
    wire = b"".join(rig.sim.received)
    assert b"LAMP," in wire and b",deal,FLASH*" in wire


def test_doors_and_keys(rig: Rig) -> None:
    rig.sim.set_door(Door.MAIN, True)
    rig.sim.turn_key(Key.OPERATOR, True)
    rig.poll(2)
    assert of(DoorChanged, rig.events) == [DoorChanged(Door.MAIN, True)]
    assert of(KeyTurned, rig.events) == [KeyTurned(Key.OPERATOR, True)]
    assert rig.driver.is_open(Door.MAIN) and not rig.driver.is_open(Door.LOGIC)


@pytest.mark.parametrize("corruption", ["garble", "bad_checksum", "short"])
def test_bad_lines_are_discarded_and_the_event_still_arrives_once(rig: Rig, corruption: str) -> None:
    rig.sim.corrupt_next(corruption)
    rig.sim.press("cash_out")
    rig.poll(4)
    assert of(ButtonChanged, rig.events) == [ButtonChanged("cash_out", True)]
    assert not of(DeviceFault, rig.events)


def test_panel_that_stops_answering_tilts_and_recovers(rig: Rig) -> None:
    rig.sim.stop_answering()
    events = rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    assert of(DeviceFault, events)[0].device == "button_panel"
    rig.sim.resume_answering()
    rig.poll_until(lambda ev: bool(of(DeviceFaultCleared, ev)), limit=6)


def test_unplug_replug_releases_held_buttons_and_restores_lamps(rig: Rig) -> None:
    rig.driver.set_lamp("deal", LampState.ON)
    rig.sim.press("deal")
    rig.poll(2)
    rig.sim.unplug()
    rig.poll_until(lambda ev: bool(of(DeviceFault, ev)), limit=6)
    rig.sim.replug()
    rig.poll_until(lambda _: rig.sim.lamps == {"deal": "ON"}, limit=8)
    assert of(ButtonChanged, rig.events) == [ButtonChanged("deal", True), ButtonChanged("deal", False)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=8))
def test_fuzz_line_reader_yields_only_messages_or_errors(chunks: list[bytes]) -> None:
    reader = pp.LineReader()
    for chunk in chunks:
        for item in reader.feed(chunk):
            assert isinstance(item, pp.PanelMessage | FrameError)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=10))
def test_fuzz_driver_survives_random_bytes(replies: list[bytes]) -> None:
    port = ScriptedPort(replies)
    driver = SerialButtonPanel("fake://", FakeClock(), port_factory=lambda *_: port, poll_interval_s=0)
    for _ in range(len(replies) + 2):
        for event in driver.poll():
            assert isinstance(event, ButtonChanged | DoorChanged | KeyTurned | DeviceFault)


PANEL_ACTIONS = ("deal", "bet", "cash_out", "garble", "bad_checksum", "short", "silent", "resume", "replug")


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sampled_from(PANEL_ACTIONS), max_size=12),
    st.lists(st.integers(0, 2), min_size=12, max_size=12),
)
def test_random_faults_report_each_press_at_most_once(actions: list[str], polls: list[int]) -> None:
    sim = PanelSimulator()
    clock = FakeClock()
    taps: list[str] = []
    with PtyTransport(sim) as transport:
        driver = SerialButtonPanel(transport.port, clock, timeout_s=0.05)
        rig = Rig(sim, driver, clock)
        rig.poll_until(lambda _: not sim.unacked)
        for action, count in zip(actions, polls, strict=False):
            if action in ("garble", "bad_checksum", "short"):
                sim.corrupt_next(action)
            elif action == "silent":
                sim.stop_answering()
            elif action == "resume":
                sim.resume_answering()
            elif action == "replug":
                sim.replug()
            else:
                sim.tap(action)
                taps.append(action)
            rig.poll(count)
        sim.resume_answering()
        rig.poll_until(lambda _: not sim.unacked and not driver.link.faulted, limit=15)
        driver.close()
    presses = [e.button for e in of(ButtonChanged, rig.events) if e.pressed]
    for button in set(presses):
        assert presses.count(button) <= taps.count(button)  # never a press that was not made
    if "replug" not in actions:  # the panel kept power: every press arrives, exactly once
        assert sorted(presses) == sorted(taps)

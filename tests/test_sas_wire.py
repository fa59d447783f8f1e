"""The SAS wire: CRC, BCD, the wake-up convention, poll framing, and the port's line rules over a pty
pair (the test plays the host on the pty's master side)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from egm.clock import FakeClock
from hardware.interfaces import HostAcknowledged, HostLinkChanged, HostPoll
from hardware.serial.crc import SeededCrc16, crc16_kermit
from hardware.serial.sas_link import SasPort
from hardware.serial.sas_protocol import (
    GeneralPoll,
    Ignored,
    LongPoll,
    PollReader,
    WakeupDecoder,
    bcd,
    encode_general_poll,
    encode_long_poll,
    encode_reply,
    escape_for_line,
    from_bcd,
    with_crc,
)
from hardware.sim.sas_host import FdPort, open_pty_pair


def bitwise_kermit(data: bytes, crc: int = 0) -> int:
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_crc_check_value_and_seed() -> None:
    assert crc16_kermit(b"123456789") == 0x2189
    assert encode_reply(1, 0x1A, bcd(0, 4)).hex(" ")[:14] == "01 1a 00 00 00"
    frame = with_crc(b"\x01\x21\x12\x34")
    assert frame[-2:] == crc16_kermit(b"\x01\x21\x12\x34").to_bytes(2, "little")  # low byte first


@given(st.binary(max_size=300), st.integers(0, 0xFFFF))
def test_crc_matches_the_bitwise_definition(data: bytes, seed: int) -> None:
    assert crc16_kermit(data, seed) == bitwise_kermit(data, seed)


def test_bcd() -> None:
    assert bcd(12345678, 4) == bytes.fromhex("12345678")
    assert bcd(123456789, 4) == bytes.fromhex("23456789")  # rolls over like a meter
    assert from_bcd(bytes.fromhex("00001234")) == 1234
    with pytest.raises(ValueError, match="not packed BCD"):
        from_bcd(b"\x1a")


def read(polls: bytes, address: int = 1) -> list[GeneralPoll | LongPoll | Ignored]:
    return PollReader(address).feed(WakeupDecoder().feed(polls))


def test_wakeup_convention() -> None:
    # a wake-up byte B arrives as FF 00 B, a data FF as FF FF, every other byte as itself
    decoded = WakeupDecoder().feed(bytes.fromhex("ff 00 81 ff ff 05"))
    assert decoded == [(0x81, True), (0xFF, False), (5, False)]
    assert escape_for_line(bytes.fromhex("01 72 ff")) == bytes.fromhex("ff 00 01 72 ff ff")


def test_general_and_long_polls_are_framed() -> None:
    stream = b"".join(
        escape_for_line(p)
        for p in (
            encode_general_poll(1),
            encode_long_poll(1, 0x1A),
            encode_long_poll(1, 0x21, b"\xff\x00"),  # a data FF inside a poll
            encode_long_poll(1, 0x72, b"\xff\x00"),
        )
    )
    polls = read(stream)
    assert polls == [
        GeneralPoll(1),
        LongPoll(1, 0x1A, b"", b"\x01\x1a"),
        LongPoll(1, 0x21, b"\xff\x00", encode_long_poll(1, 0x21, b"\xff\x00")),
        LongPoll(1, 0x72, b"\xff\x00", encode_long_poll(1, 0x72, b"\xff\x00")),
    ]


def test_what_is_no_poll_for_this_machine_is_ignored() -> None:
    bad_crc = bytearray(encode_long_poll(1, 0x21, b"\x00\x00"))
    bad_crc[-1] ^= 1
    items = read(
        escape_for_line(encode_general_poll(2))  # another machine
        + escape_for_line(encode_long_poll(2, 0x1A))
        + escape_for_line(bytes(bad_crc))
        + b"\x01\x1a"  # no wake-up bit: not a poll
        + escape_for_line(bytes([1, 0x99, 1, 2]))  # a command this machine does not know
    )
    assert all(isinstance(i, Ignored) for i in items)
    assert [i.other_address for i in items if isinstance(i, Ignored)] == [True, True, False, False]
    # a type R poll followed by a CRC (as some hosts send it) is answered once; the CRC is ignored
    assert read(escape_for_line(with_crc(b"\x01\x1a"))) == [LongPoll(1, 0x1A, b"", b"\x01\x1a")]
    with pytest.raises(ValueError, match="out of range"):
        PollReader(128)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(1, 40))
def test_parser_fuzz_never_raises_and_finds_only_valid_polls(stream: bytes, chunk: int) -> None:
    """Any byte stream, in any chunking: nothing raises, and every long poll found is for this
    address with a good CRC (or a type R poll), so noise never reaches the cabinet as a command."""
    whole = read(stream)
    decoder, reader = WakeupDecoder(), PollReader(1)
    chunks = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
    pieces = [p for piece in chunks for p in reader.feed(decoder.feed(piece))]
    assert pieces == whole
    for item in whole:
        if isinstance(item, LongPoll):
            assert item.address == 1 and item.raw[0] == 1
            if len(item.raw) > 2:
                assert crc16_kermit(item.raw[:-2]) == int.from_bytes(item.raw[-2:], "little")


# --- the port over a pty pair ----------------------------------------------------------------------
class Line:
    """The host's end of a pty pair, and the cabinet's SasPort on the other end."""

    def __init__(self) -> None:
        self.host, path = open_pty_pair()
        self.clock = FakeClock()
        self.port = SasPort(path, 1, self.clock)
        self.port.open()

    def send(self, poll: bytes) -> None:
        self.host.write(escape_for_line(poll))

    def events(self) -> list[object]:
        deadline = time.monotonic() + 2
        while not self.port.wait(0.05) and time.monotonic() < deadline:
            pass
        time.sleep(0.01)  # the rest of the poll
        return self.port.poll()

    def received(self, wait_s: float = 0.2) -> bytes:
        self.host.timeout = wait_s
        out = b""
        while chunk := self.host.read(4096):
            out += chunk
            self.host.timeout = 0.05
        return out

    def close(self) -> None:
        self.port.close()
        self.host.close()


@pytest.fixture
def line() -> Iterator[Line]:
    wire = Line()
    yield wire
    wire.close()


def test_port_reports_polls_and_sends_replies(line: Line) -> None:
    line.send(encode_general_poll(1))
    events = line.events()
    assert events[0] == HostLinkChanged(True, events[0].message)  # type: ignore[attr-defined]
    assert events[1:] == [HostPoll(None)]
    line.port.reply(b"\x00")
    assert line.received().endswith(b"\x00")


def test_repeated_poll_gets_the_same_reply_and_no_second_event(line: Line) -> None:
    line.send(encode_long_poll(1, 0x1A))
    assert HostPoll(0x1A) in line.events()
    reply = encode_reply(1, 0x1A, bcd(500, 4))
    line.port.reply(reply)
    assert line.received().endswith(reply)
    line.send(encode_long_poll(1, 0x1A))  # implied NACK: the host did not get it
    assert line.events() == []  # the cabinet never sees the repeat
    assert line.received() == reply
    line.send(encode_general_poll(0))  # a poll to another address: implied ACK
    assert line.events() == [HostAcknowledged()]
    line.send(encode_long_poll(1, 0x1A))  # now a new poll
    assert line.events() == [HostPoll(0x1A)]


def test_bad_crc_and_other_machines_get_no_reply(line: Line) -> None:
    line.send(encode_general_poll(1))
    line.events()
    line.port.reply(b"\x00")
    line.received()
    bad = bytearray(encode_long_poll(1, 0x21, b"\x12\x34"))
    bad[-2] ^= 0xFF
    line.send(bytes(bad))
    line.send(encode_long_poll(3, 0x1A))
    events = line.events()
    assert HostPoll(0x21, b"\x12\x34") not in events
    assert line.received(0.1) == b""  # silence, as the protocol requires


def test_link_lost_chirps_and_returns(line: Line) -> None:
    line.send(encode_general_poll(1))
    assert any(isinstance(e, HostLinkChanged) and e.up for e in line.events())
    line.port.reply(b"\x00")
    line.received()
    line.clock.advance(5.0)
    events = line.port.poll()
    assert [e.up for e in events if isinstance(e, HostLinkChanged)] == [False]
    assert line.received() == b"\x01"  # the chirp: the machine's address
    line.clock.advance(0.15)
    line.port.poll()
    assert line.received(0.05) == b""  # chirps are 200 ms apart
    line.clock.advance(0.1)
    line.port.poll()
    assert line.received() == b"\x01"
    line.send(encode_general_poll(1))
    assert HostLinkChanged(True, f"SAS host link up on {line.port.url} (address 1).") in line.events()


def test_a_silent_host_never_blocks_the_port() -> None:
    host, path = open_pty_pair()
    clock = FakeClock()
    port = SasPort(path, 7, clock, chirp_interval_s=0.0)
    try:
        for _ in range(20000):  # far more chirps than a pty buffer holds; nobody reads them
            clock.advance(0.01)
            port.poll()
        assert port.port is not None
    finally:
        port.close()
        FdPort.close(host)


def test_no_activity_needs_no_acknowledgement(line: Line) -> None:
    line.send(encode_general_poll(1))
    line.events()
    line.port.reply(b"\x00", needs_ack=False)
    line.received()
    line.send(encode_general_poll(1))  # the same poll again is a new poll: something may have happened
    assert line.events() == [HostPoll(None)]


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=2000), st.integers(0, 0xFFFF))
def test_seeded_crc_matches_the_direct_crc(data: bytes, seed: int) -> None:
    assert SeededCrc16(data)(seed) == crc16_kermit(data, seed)


def test_a_real_uart_marks_wakeup_bytes() -> None:
    """On a serial device the port asks Linux for PARMRK marking (INPCK on, ISTRIP and IGNPAR off);
    a pty is recognised and left as it is (it carries the escaped stream as written)."""
    import os
    import termios

    from hardware.serial.sas_link import is_pty, mark_wakeup_bytes

    master, slave = os.openpty()
    try:
        class Device:
            def fileno(self) -> int:
                return slave

        mark_wakeup_bytes(Device())  # type: ignore[arg-type]
        iflag = termios.tcgetattr(slave)[0]
        assert iflag & termios.INPCK and iflag & termios.PARMRK
        assert not iflag & (termios.ISTRIP | termios.IGNPAR)
        assert is_pty(os.ttyname(slave)) and not is_pty("/dev/null") and not is_pty("socket://h:1")
    finally:
        os.close(master)
        os.close(slave)

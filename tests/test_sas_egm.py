"""The contract of `egm sim sas-egm`, end to end: the cabinet runs as its own process with its SAS port
on one end of a pty pair, and this test plays the outside host on the other end, with the wake-up
convention (FF 00 B). Every reply must agree with `egm meters --nvram DIR --json`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from egm.config import PROJECT_ROOT
from egm.rom.gat import rom_image
from egm.rom.manifest import read_manifest
from hardware.serial.crc import crc16_kermit
from hardware.serial.sas_protocol import crc_ok, from_bcd
from hardware.sim.sas_host import SasHost, open_pty_pair

ADDRESS = 5


def egm(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "egm.cli", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wager memory with games, bills and tickets on its meters."""
    nvram = tmp_path_factory.mktemp("nvram")
    result = egm("autoplay", "--nvram", str(nvram), "--game", "dragon-poker", "--games", "3", "--seed", "7",
                 "--json")
    assert result.returncode == 0, result.stderr
    return nvram


def test_sas_egm_answers_an_outside_host(played: Path) -> None:
    host_end, path = open_pty_pair()
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    cabinet = subprocess.Popen(
        [sys.executable, "-m", "egm.cli", "sim", "sas-egm", "--port", path, "--address", str(ADDRESS),
         "--nvram", str(played)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert cabinet.stdout is not None
        assert cabinet.stdout.readline().strip() == f"SAS ready on {path} address {ADDRESS}"
        host = SasHost(host_end, ADDRESS, timeout_s=2.0)
        host.port.timeout = 1.0
        assert host.read(1, time.monotonic() + 2.0) == bytes([ADDRESS])  # the chirp: no host yet

        # general poll: power applied first; repeated without an ACK it is sent again; then empty
        assert host.general_poll() == 0x17
        assert host.general_poll() == 0x17  # implied NACK: the same reply
        assert list(host.exceptions()) == [0x17]
        assert host.general_poll() == 0x00

        assert host.long_poll(0x0E, b"\x00") == bytes([ADDRESS])  # real-time reporting off: ACK
        replies = {command: host.long_poll(command) for command in
                   (0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1C, 0x1F, 0x20,
                    0x54, 0x55)}
        seed = 0x5A17
        signature = host.rom_signature(seed)
    finally:
        cabinet.send_signal(signal.SIGTERM)
        _, err = cabinet.communicate(timeout=60)
        host_end.close()
    assert cabinet.returncode == 0, err

    for command, reply in replies.items():
        assert reply is not None and reply[:2] == bytes([ADDRESS, command]) and crc_ok(reply), hex(command)
    meters = json.loads(egm("meters", "--nvram", str(played), "--json").stdout)["meters"]
    assert meters["games_played"] == 3 and meters["bills_in"] > 0  # the memory has something to show

    def values(command: int) -> list[int]:
        body = replies[command][2:-2]  # type: ignore[index]
        return [from_bcd(body[i : i + 4]) for i in range(0, len(body), 4)]

    drop = meters["bills_in"] + meters["tickets_in"] + meters["aft_in"]
    assert values(0x0F) == [meters["cancelled_credits"], meters["coin_in"], meters["coin_out"], drop,
                            meters["jackpot"], meters["games_played"]]
    singles = {0x10: "cancelled_credits", 0x11: "coin_in", 0x12: "coin_out", 0x14: "jackpot",
               0x15: "games_played", 0x16: "games_won", 0x17: "games_lost", 0x1A: "current_credits"}
    for command, name in singles.items():
        assert values(command) == [meters[name]], name  # denomination 1 cent: credits are cents
    assert values(0x13) == [drop]
    totals = [meters["coin_in"], meters["coin_out"], drop, meters["jackpot"], meters["games_played"]]
    assert values(0x19) == totals
    assert values(0x1C) == [*totals, meters["games_won"], meters["door_opens"], meters["power_resets"]]
    assert values(0x20) == [meters["bills_in"] // 100]
    assert replies[0x18] is not None and replies[0x18][2:6] == bytes(4)  # no game since this power-up

    info = replies[0x1F][2:-2]  # type: ignore[index]
    assert info[:5] == b"DP000" and info[5] == 0x01  # Dragon Poker, 1-cent denomination code
    assert info[6] == 10 * 10 + 10  # max bet: 10 stake points x the largest bet, plus the pair bonus
    assert replies[0x54][3:6] == b"602" and replies[0x54][6:-2] == b"0001"  # type: ignore[index]
    assert replies[0x55][2:4] == bytes.fromhex("0001")  # type: ignore[index]

    image = b"".join(rom_image(read_manifest(PROJECT_ROOT / "rom" / "manifest.json"), PROJECT_ROOT))
    assert signature == crc16_kermit(image, seed)
    assert egm("rom", "verify").returncode == 0  # the same bytes the ROM check verifies


def test_the_host_simulator_and_the_cabinet_talk(tmp_path: Path) -> None:
    """The demonstration: `egm sim sas-host --port pty` prints the pty path, `egm sim sas-egm` opens
    it, and the host shows the cabinet's first exception."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    host = subprocess.Popen(
        [sys.executable, "-m", "egm.cli", "sim", "sas-host", "--port", "pty", "--no-console",
         "--interval", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    cabinet = None
    try:
        assert host.stdout is not None
        first = host.stdout.readline().strip()
        assert first.startswith("SAS host on a pty: start the cabinet with  egm sim sas-egm --port /dev/")
        path = first.split("--port ")[1]
        cabinet = subprocess.Popen(
            [sys.executable, "-m", "egm.cli", "sim", "sas-egm", "--port", path, "--nvram", str(tmp_path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        deadline = time.monotonic() + 60
        shown = ""
        while "exception 0x17 AC power applied" not in shown and time.monotonic() < deadline:
            shown = host.stdout.readline()
        assert shown.strip() == "exception 0x17 AC power applied"
    finally:
        for process in (cabinet, host):
            if process is not None:
                process.send_signal(signal.SIGTERM)
                process.communicate(timeout=60)


def test_sas_egm_refuses_bad_arguments(tmp_path: Path) -> None:
    missing = egm("sim", "sas-egm", "--port", str(tmp_path / "no-such-port"), "--nvram", str(tmp_path / "nv"))
    assert missing.returncode == 2 and "cannot open the SAS port" in missing.stderr
    assert "check the device path or URL" in missing.stderr
    address = egm("sim", "sas-egm", "--port", "/dev/null", "--address", "128")
    assert address.returncode == 2 and "a SAS address is 1 to 127" in address.stderr

"""The technician's commands (issue 21): `egm config check`, `egm devices probe` against the
simulators and against ports with nothing on them, and `egm events` read-only."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from egm.cli import main
from egm.config import PROJECT_ROOT
from hardware.sim.id003_sim import FIRMWARE as ID003_FIRMWARE
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.panel_sim import FIRMWARE as PANEL_FIRMWARE
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import TclPrinterSimulator
from hardware.sim.transport import serve
from tests.cabinet_support import make_cabinet, spine_config

SERIAL_CONFIG = PROJECT_ROOT / "config" / "cabinet-serial.toml"


def test_config_check_prints_what_it_resolved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(SERIAL_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "bill_acceptor: serial id003 on socket://127.0.0.1:7001, 9600 8E1" in out
    assert "printer: serial tcl on socket://127.0.0.1:7002, 38400 8N1" in out and "ticket template 0" in out
    assert "b2=bet_one" in out and "b4=auto_play" in out and "b7=side_bet" in out
    assert "doors: serial egm-panel on socket://127.0.0.1:7003" in out


def test_config_check_refuses_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(SERIAL_CONFIG.read_text().replace('b2 = "bet_one"', 'b2 = "bett"'))
    assert main(["config", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "devices.button_panel.buttons.b2" in err


def with_ports(tmp_path: Path, ports: dict[str, str]) -> Path:
    text = SERIAL_CONFIG.read_text()
    for default, port in ports.items():
        text = text.replace(default, port)
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return path


@pytest.fixture
def simulators() -> Iterator[dict[str, str]]:
    transports = [serve(sim, "socket://127.0.0.1:0") for sim in
                  (Id003Simulator(), TclPrinterSimulator(), PanelSimulator())]
    ports = ["socket://127.0.0.1:7001", "socket://127.0.0.1:7002", "socket://127.0.0.1:7003"]
    yield dict(zip(ports, [t.port for t in transports], strict=True))
    for transport in transports:
        transport.stop()


def test_probe_against_the_simulators(simulators: dict[str, str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = with_ports(tmp_path, simulators)
    assert main(["devices", "probe", "--config", str(config), "--json"]) == 0
    probes = {p["device"]: p for p in json.loads(capsys.readouterr().out)}
    assert set(probes) == {"bill_acceptor", "printer", "button_panel"}  # the doors share the panel's port
    assert probes["bill_acceptor"]["firmware"] == ID003_FIRMWARE.decode()
    assert probes["bill_acceptor"]["state"] == "powered up, waiting for a reset"
    assert probes["printer"]["firmware"] == "GURU-1.00" and probes["printer"]["state"] == "ready"
    assert probes["button_panel"]["firmware"] == PANEL_FIRMWARE
    assert "main closed" in probes["button_panel"]["state"]


def test_probe_against_ports_with_nothing_on_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()  # a port that opens, with no device behind it
    try:
        config = with_ports(tmp_path, {
            "socket://127.0.0.1:7001": os.ttyname(slave),
            "socket://127.0.0.1:7002": str(tmp_path / "ttyUSB9"),  # no such file
            "socket://127.0.0.1:7003": "socket://127.0.0.1:1",  # nothing listens
        })
        assert main(["devices", "probe", "--config", str(config)]) == 1
    finally:
        os.close(master)
        os.close(slave)
    lines = capsys.readouterr().out.splitlines()
    acceptor, printer, panel = lines
    assert "NO ANSWER" in acceptor and "no valid id003 reply" in acceptor and "9600 8E1" in acceptor
    assert str(tmp_path / "ttyUSB9") in printer and "No such file or directory" in printer
    assert "cannot be opened" in panel


def test_events_reads_the_log_without_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nvram = tmp_path / "nvram"
    cabinet = make_cabinet(nvram, config=spine_config())
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    cabinet.close()
    before = {p.name: p.read_bytes() for p in nvram.iterdir() if p.is_file()}
    assert main(["events", "--nvram", str(nvram), "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    kinds = [e["kind"] for e in entries]
    assert "bill_in" in kinds or any("500" in e["message"] for e in entries)
    assert kinds[-1] == "power_down"  # oldest first: the clean shutdown is last
    assert main(["events", "--nvram", str(nvram), "--since", "2999-01-01"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["events", "--nvram", str(nvram), "--since", "yesterday"]) == 2
    after = {p.name: p.read_bytes() for p in nvram.iterdir() if p.is_file()}
    assert after == before

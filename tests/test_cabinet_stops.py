"""Every way of stopping is recorded for what it is: a clean shutdown, a software fault (with its
traceback), or a power loss (an unannounced stop), as the next boot's event log shows."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from egm.boot_progress import DEVICES, MEMORY, BootProgress
from egm.cabinet import Cabinet, build_cabinet
from egm.config import load_cabinet_config
from egm.events import StartGame
from egm.games.poker_tiles.game import PokerTiles
from egm.video import app
from egm.video.controller import VideoController
from egm.video.script import Script
from tests.cabinet_support import make_cabinet


def kinds(cab: Any, limit: int) -> list[str]:
    return [e["kind"] for e in cab.event_log(limit=limit)]


def booted(nvram: Path) -> Any:
    cab = make_cabinet(nvram)
    cab.boot()
    return cab


def reboot(nvram: Path) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The next boot, its power-up entry and the entry before it (how the last run ended)."""
    again = booted(nvram)
    power_up, before = again.event_log(limit=2)
    assert power_up["kind"] == "power_up"
    return again, power_up, before


def test_a_clean_shutdown_reads_as_one_at_the_next_boot(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    with cab.running():
        cab.devices.bill_acceptor.insert_bill(500)
        cab.poll_devices()
    again, power_up, shutdown = reboot(tmp_path)
    assert shutdown["kind"] == "power_down" and shutdown["message"] == "Clean shutdown."
    assert power_up["detail"]["previous_stop"] == "clean_shutdown"
    assert "power_loss" not in kinds(again, 10)
    assert again.credits_cents == 500


def test_an_interrupt_is_a_clean_shutdown_that_says_so(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    with pytest.raises(KeyboardInterrupt), cab.running():
        raise KeyboardInterrupt
    _, power_up, shutdown = reboot(tmp_path)
    assert shutdown["kind"] == "power_down" and "KeyboardInterrupt" in shutdown["message"]
    assert power_up["detail"]["previous_stop"] == "clean_shutdown"


def test_a_software_fault_is_logged_with_its_traceback_and_is_no_power_loss(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    cab.devices.bill_acceptor.insert_bill(500)
    cab.poll_devices()

    def faulty_handler() -> None:
        raise RuntimeError("scene lost its table")

    with pytest.raises(RuntimeError, match="scene lost its table"), cab.running():
        faulty_handler()
    again, power_up, fault = reboot(tmp_path)
    assert fault["kind"] == "software_fault"
    assert fault["message"] == "Software fault: RuntimeError: scene lost its table."
    trace = fault["detail"]["traceback"]
    assert trace.startswith("Traceback (most recent call last):") and "in faulty_handler" in trace
    assert power_up["detail"]["previous_stop"] == "software_fault"
    assert "power_loss" not in kinds(again, 10)
    assert again.credits_cents == 500 and again.state == "attract"


def test_only_an_unannounced_stop_reads_as_a_power_loss(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    cab.memory.close()  # the process is gone without a word: a power cut
    _, power_up, loss = reboot(tmp_path)
    assert loss["kind"] == "power_loss" and "without a clean power down" in loss["message"]
    assert power_up["detail"]["previous_stop"] == "power_loss"


def test_a_first_boot_has_no_previous_stop(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    assert cab.event_log(limit=1)[0]["detail"]["previous_stop"] == "none"
    assert "power_loss" not in kinds(cab, 10)


def test_a_software_fault_mid_game_resumes_the_game_at_the_next_boot(tmp_path: Path) -> None:
    cab = booted(tmp_path)
    cab.devices.bill_acceptor.insert_bill(500)
    cab.poll_devices()
    assert cab.handle(StartGame()).accepted
    record = cab.round.to_record()
    with pytest.raises(ZeroDivisionError), cab.running():
        _ = 1 / 0
    again = booted(tmp_path)
    assert again.round is not None and again.round.to_record() == record
    assert kinds(again, 2) == ["power_up", "software_fault"]


# --- the emulator's main loop ---------------------------------------------------------------------
@pytest.fixture
def options(signed_tree: Any, tmp_path: Path) -> app.RunOptions:
    config = load_cabinet_config(signed_tree.config_path)
    return app.RunOptions(
        config=config, nvram=tmp_path / "nvram", kiosk=False, seed=1, script=Script.parse("")
    )


def next_boot(options: app.RunOptions) -> Any:
    cab = build_cabinet(options.config, options.nvram, seed=1)
    cab.boot()
    return cab


def test_quitting_the_emulator_is_a_clean_shutdown(options: app.RunOptions) -> None:
    assert app.run(options) == 0
    cab = next_boot(options)
    power_up, shutdown = cab.event_log(limit=2)
    assert shutdown["kind"] == "power_down" and power_up["detail"]["previous_stop"] == "clean_shutdown"
    assert "power_loss" not in kinds(cab, 20)


def test_an_exception_in_the_emulator_loop_is_a_software_fault(
    options: app.RunOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_update(self: VideoController) -> None:
        raise KeyError("no such scene")

    monkeypatch.setattr(VideoController, "update", broken_update)
    with pytest.raises(KeyError):
        app.run(options)
    monkeypatch.undo()
    cab = next_boot(options)
    power_up, fault = cab.event_log(limit=2)
    assert fault["kind"] == "software_fault" and "KeyError: 'no such scene'" in fault["message"]
    assert "in broken_update" in fault["detail"]["traceback"]
    assert power_up["detail"]["previous_stop"] == "software_fault"


def test_sigterm_stops_the_emulator_as_a_clean_shutdown(
    options: app.RunOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    def os_shutting_down(self: VideoController) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(VideoController, "update", os_shutting_down)
    with pytest.raises(SystemExit):
        app.run(options)
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is the loop's only
    cab = next_boot(options)
    power_up, shutdown = cab.event_log(limit=2)
    assert shutdown["message"] == "Clean shutdown (stopped by SIGTERM)."
    assert power_up["detail"]["previous_stop"] == "clean_shutdown"


def test_sigterm_while_the_games_are_prepared_ends_the_boot_as_a_clean_shutdown(
    options: app.RunOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.run(options) == 0  # a first run, shut down cleanly
    prepared = []

    def long_compile(self: Any) -> None:  # a game compiling for minutes when the OS stops the cabinet
        prepared.append(self.game_id)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)

    monkeypatch.setattr(PokerTiles, "prepare", long_compile)
    with pytest.raises(SystemExit, match="stopped by SIGTERM"):
        app.run(options)
    monkeypatch.undo()
    assert prepared == ["poker-tiles"] and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    cab = next_boot(options)
    power_up, before = cab.event_log(limit=2)
    assert before["kind"] == "power_down" and power_up["detail"]["previous_stop"] == "clean_shutdown"
    assert "power_loss" not in kinds(cab, 20)


def test_sigterm_during_the_wager_memory_check_ends_the_boot_at_the_next_step(
    options: app.RunOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = []
    real_running, real_settings = BootProgress.running, Cabinet._apply_settings

    def running(self: BootProgress, step: str, detail: str = "") -> None:
        steps.append(step)
        real_running(self, step, detail)

    def settings_then_sigterm(self: Cabinet) -> None:  # the memory is open, its check under way
        real_settings(self)
        os.kill(os.getpid(), signal.SIGTERM)  # the handler only asks: the memory check goes on

    monkeypatch.setattr(BootProgress, "running", running)
    monkeypatch.setattr(Cabinet, "_apply_settings", settings_then_sigterm)
    with pytest.raises(SystemExit, match="stopped by SIGTERM"):
        app.run(options)
    monkeypatch.undo()
    assert steps[-2:] == [MEMORY, DEVICES]  # ended where the next step began
    cab = next_boot(options)
    power_up, shutdown = cab.event_log(limit=2)
    assert shutdown["message"] == "Clean shutdown (stopped by SIGTERM)."
    assert power_up["detail"]["previous_stop"] == "clean_shutdown"

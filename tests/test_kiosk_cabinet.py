"""The cabinet as an attendant meets it on serial hardware (issue 21): warnings light the service
lamp, a bill-acceptor fault does not trap the player's credit, panel buttons are mapped in the
configuration, and ROM messages say each thing once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from egm.events import ButtonChanged, CashOut, DeviceWarning
from hardware.interfaces import LampState
from tests.cabinet_support import make_cabinet, spine_config


def booted(tmp_path: Path, **config: Any) -> Any:
    cabinet = make_cabinet(tmp_path / "nvram", config=spine_config(**config))
    cabinet.boot()
    return cabinet


def credit(cabinet: Any, cents: int) -> None:
    acceptor = cabinet.devices.bill_acceptor
    assert acceptor.insert_bill(cents)
    cabinet.poll_devices()
    assert cabinet.credits_cents == cents


def test_paper_low_lights_the_service_lamp_and_reaches_the_attendant(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    lamps = cabinet.devices.button_panel.lamps
    assert lamps["service"] == LampState.OFF
    message = "The ticket printer's paper is low; load a new pack soon."
    cabinet.handle(DeviceWarning("printer", "paper_low", message, active=True))
    assert lamps["service"] == LampState.ON
    assert cabinet.state == "attract"  # play goes on
    assert message in cabinet.snapshot()["warnings"]
    cabinet.handle(DeviceWarning("printer", "paper_low", message, active=False))
    assert lamps["service"] == LampState.OFF


def test_a_bill_acceptor_fault_does_not_block_cash_out(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    credit(cabinet, 2000)
    cabinet.devices.bill_acceptor.jam()
    cabinet.poll_devices()
    assert cabinet.state == "tilt.devicefault"
    result = cabinet.handle(CashOut())
    assert result.accepted, result.reason
    cabinet.poll_devices()
    printed = cabinet.devices.printer.printed
    assert [t.amount_cents for t in printed] == [2000]
    assert cabinet.credits_cents == 0
    assert cabinet.memory.meters["tickets_out"] == 2000
    assert cabinet.state == "tilt.devicefault"  # the jam still stands for the attendant


def test_a_bill_acceptor_fault_with_the_printer_out_still_refuses_cash_out(tmp_path: Path) -> None:
    cabinet = booted(tmp_path)
    credit(cabinet, 2000)
    cabinet.devices.bill_acceptor.jam()
    cabinet.devices.printer.paper_out()
    cabinet.poll_devices()
    result = cabinet.handle(CashOut())
    assert not result.accepted and "printer" in result.reason
    assert cabinet.credits_cents == 2000


def test_panel_buttons_are_mapped_in_the_configuration(tmp_path: Path) -> None:
    panel = {"protocol": "egm-panel", "buttons": {"b6": "cash_out", "b1": "bet", "b3": "auto_play"}}
    cabinet = booted(tmp_path, devices={"button_panel": panel})
    credit(cabinet, 500)
    cabinet.devices.button_panel.press("b6")  # the board's sixth button is CASH OUT here
    cabinet.poll_devices()
    assert cabinet.credits_cents == 0
    assert [t.amount_cents for t in cabinet.devices.printer.printed] == [500]


def test_display_functions_of_the_panel_go_to_the_display(tmp_path: Path) -> None:
    buttons = {"b1": "bet_one", "b2": "side_bet", "b3": "auto_play", "b9": "game_2"}
    panel = {"protocol": "egm-panel", "buttons": buttons}
    cabinet = booted(tmp_path, devices={"button_panel": panel})
    cabinet.display_attached = True
    for button in ("b1", "b2", "b3", "b9", "deal", "max_bet", "b4"):
        cabinet.handle(ButtonChanged(button, True))
        cabinet.handle(ButtonChanged(button, False))
    presses = ["bet_one", "side_bet", "auto_play", "game_2", "deal", "max_bet"]  # b4 does nothing
    assert cabinet.take_panel_presses() == presses
    assert cabinet.take_panel_presses() == []


def test_the_former_name_bet_is_bet_one(tmp_path: Path) -> None:
    """Configurations and boards from before BET ONE, MAX BET and SIDE BET said "bet" for BET ONE."""
    panel = {"protocol": "egm-panel", "buttons": {"b1": "bet"}}
    cabinet = booted(tmp_path, devices={"button_panel": panel})
    assert cabinet.config.devices.button_panel.buttons == {"b1": "bet_one"}
    cabinet.display_attached = True
    for button in ("b1", "bet", "bett"):
        cabinet.handle(ButtonChanged(button, True))
        cabinet.handle(ButtonChanged(button, False))
    assert cabinet.take_panel_presses() == ["bet_one", "bet_one"]  # "bett" does nothing

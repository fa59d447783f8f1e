"""The simulator consoles as a technician types at them, and the power-loss-while-stacking tilt
(issue 21)."""

from __future__ import annotations

import io
import time

from hardware.interfaces import AcceptorPoweredUp, BillEscrowed, BillStacked
from hardware.serial import id003_protocol as p
from hardware.serial import tcl_protocol as t
from hardware.sim.cli import device_commands, run_console
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import TclPrinterSimulator
from tests.test_hw_id003 import Rig, rig  # noqa: F401 - the fixture
from tests.test_hw_support import of


def console(sims: dict[str, object], text: str, prompt: bool = False) -> str:
    out = io.StringIO()
    assert run_console(sims, io.StringIO(text), out, prompt=prompt) == 0  # type: ignore[arg-type]
    return out.getvalue()


def test_consoles_have_a_prompt() -> None:
    assert console({"bill": Id003Simulator()}, "cashbox\n", prompt=True).startswith("bill> ")
    sims = {"bill": Id003Simulator(), "printer": TclPrinterSimulator(), "panel": PanelSimulator()}
    assert console(sims, "bill cashbox\n", prompt=True).startswith("sim> ")


def test_command_names_use_hyphens_only() -> None:
    for sim in (Id003Simulator(), TclPrinterSimulator(), PanelSimulator()):
        names = device_commands(sim)
        assert not [n for n in names if "_" in n], sorted(names)


def test_every_printer_fault_has_a_command() -> None:
    printer = TclPrinterSimulator()
    names = device_commands(printer)
    for kind in ("offline", "paper-out", "head-up", "jam", "chassis-open", "cutter-error", "too-hot"):
        assert kind in names
    console({"printer": printer}, "offline\n")
    assert printer.status.has(t.PRINTER_OFFLINE)
    assert printer.status.faults() == {"printer_error": t.FAULT_FLAGS[t.PRINTER_OFFLINE][1]}
    for flag in t.FAULT_FLAGS:  # every flag the driver reads as a fault can be raised from the console
        fresh = TclPrinterSimulator()
        raised = [n for n, command in device_commands(fresh).items() if n in FAULT_COMMANDS and
                  (command([]), fresh.status.has(flag))[1]]
        assert raised, flag


FAULT_COMMANDS = {"offline", "paper-out", "head-up", "jam", "chassis-open", "cutter-error", "too-hot",
                  "head-error", "voltage-error", "system-error", "flash-error", "libraries-corrupt"}


def test_every_acceptor_fault_has_a_command() -> None:
    names = device_commands(Id003Simulator())
    for kind in ("jam", "stacker-jam", "stacker-full", "stacker-open", "cheat", "failure"):
        assert kind in names


def test_a_note_refused_at_the_mouth_is_not_reported_inserted() -> None:
    sim = Id003Simulator()  # powered up, never enabled by a host: it accepts nothing
    answer = console({"bill": sim}, "insert 500\n").strip()
    assert "inserted" not in answer and "refused" in answer


def test_power_loss_while_stacking_names_the_note(rig: Rig) -> None:  # noqa: F811
    """The acceptor's power-up report carries the note it held, so the cabinet can settle it (or name
    it, with the key that clears it, when the report cannot tell: tests/test_credit_in_faults.py)."""
    rig.boot()
    rig.sim.insert_note(2000)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.sim.power_cycle()
    (report,) = of(AcceptorPoweredUp, rig.poll_until(lambda ev: bool(of(AcceptorPoweredUp, ev))))
    assert (report.amount_cents, report.barcode) == (2000, None)


def test_the_same_ticket_inserted_again_at_once_is_a_new_escrow(rig: Rig) -> None:  # noqa: F811
    """Found by the Xvfb serial test: a ticket inserted again right after it was stacked was stacked
    again without the cabinet being asked (no BillEscrowed), so it could not be refused."""
    barcode = "123456789012345678"
    rig.driver.enable(frozenset({100, 500}), tickets=True)
    rig.poll_until(lambda _: rig.sim.steady[0] == p.ENABLE_IDLING)
    assert rig.sim.insert_ticket(barcode)
    rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    rig.driver.stack()
    rig.poll_until(lambda ev: bool(of(BillStacked, ev)))  # VEND VALID seen and ACKed; STACKED is next
    for _ in range(200):  # the simulator's thread takes the ACK
        if rig.sim.cash_box:
            break
        time.sleep(0.01)
    assert rig.sim.cash_box == [(0, barcode)]
    stacked_pending = [status for status, _ in rig.sim.upcoming]
    assert rig.sim.insert_ticket(barcode)  # at once, before the driver saw STACKED
    assert [status for status, _ in rig.sim.upcoming][: len(stacked_pending)] == stacked_pending  # still told
    events = rig.poll_until(lambda ev: bool(of(BillEscrowed, ev)))
    assert of(BillEscrowed, events) == [BillEscrowed(0, barcode)]
    rig.driver.return_escrow()  # the cabinet refuses it: it goes back
    rig.poll(4)
    assert rig.sim.cash_box == [(0, barcode)] and rig.sim.returned == [(0, barcode)]

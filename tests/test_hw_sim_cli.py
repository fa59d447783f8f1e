"""`egm sim`: the console commands reach the simulators; the parser is registered with `egm`."""

from __future__ import annotations

import io

from egm.cli import build_parser
from hardware.interfaces import Door
from hardware.sim.cli import run_console
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import TclPrinterSimulator


def console(sims: dict[str, object], text: str) -> list[str]:
    out = io.StringIO()
    assert run_console(sims, io.StringIO(text), out) == 0  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_single_device_commands() -> None:
    sim = Id003Simulator()
    lines = console({"bill": sim}, "jam\ngarble 2\nclear\nbogus\ninsert\nquit\ninsert 100\n")
    assert lines[:3] == ["jam injected", "next reply: garble", "fault cleared"]
    assert lines[3] == "unknown command 'bogus'; type help"
    assert lines[4].startswith("insert: bad arguments")
    assert len(lines) == 5  # nothing after quit
    assert list(sim.corruptions) == ["garble", "garble"] and sim.fault is None


def test_all_devices_need_a_prefix() -> None:
    bill, printer, panel = Id003Simulator(), TclPrinterSimulator(), PanelSimulator()
    sims = {"bill": bill, "printer": printer, "panel": panel}
    commands = "panel door main open\nprinter paper-low on\nprinter arm power_loss after\ntap deal\n"
    lines = console(sims, commands)
    assert lines[0] == "door main open" and Door.MAIN in panel.doors_open
    assert printer.paper_low and printer.armed == ("power_loss", True)
    assert lines[-1].startswith("commands:")  # no device named: the help


def test_sim_subcommand_is_registered() -> None:
    parser, _ = build_parser()
    args = parser.parse_args(["sim", "all", "--base-port", "7101", "--no-console"])
    assert args.device == "all" and args.base_port == 7101 and args.no_console

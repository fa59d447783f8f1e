"""`egm sim ...`: run a device simulator on a TCP port or a pty, and inject faults from the keyboard.

    egm sim bill-acceptor --port socket://127.0.0.1:7001
    egm sim printer --port 127.0.0.1:7002
    egm sim panel --port pty
    egm sim all --base-port 7001      # bill acceptor 7001, printer 7002, panel 7003
    egm sim sas-host --port pty       # a SAS host polling a cabinet (hardware.sim.sas_host_cli)

Then point the cabinet at them (config/cabinet.toml: backend = "serial", port = "socket://...").
Type `help` for the commands; with `all`, prefix a command with the device: `bill insert 2000`.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from hardware.interfaces import Door, Key
from hardware.sim.device import CORRUPTIONS, SimDevice
from hardware.sim.id003_sim import FAULT_STATUSES, Id003Simulator
from hardware.sim.panel_sim import PanelSimulator
from hardware.sim.tcl_sim import FAULTS, TclPrinterSimulator
from hardware.sim.transport import serve

Command = Callable[[list[str]], str]

DEVICES: dict[str, tuple[str, Callable[[], SimDevice], int]] = {  # name -> (short, class, port offset)
    "bill-acceptor": ("bill", Id003Simulator, 0),
    "printer": ("printer", TclPrinterSimulator, 1),
    "panel": ("panel", PanelSimulator, 2),
}


def hyphens(name: str) -> str:
    """Console names use hyphens (`bad-checksum`, `stacker-full`); typing underscores works too."""
    return name.replace("_", "-")


def common_commands(sim: SimDevice) -> dict[str, Command]:
    def corrupt(kind: str) -> Command:
        return lambda a: (sim.corrupt_next(kind, int(a[0]) if a else 1), f"next reply: {hyphens(kind)}")[1]

    commands: dict[str, Command] = {hyphens(kind): corrupt(kind) for kind in CORRUPTIONS}
    commands.update(
        {
            "silent": lambda a: (sim.stop_answering(), "stopped answering")[1],
            "resume": lambda a: (sim.resume_answering(), "answering again")[1],
            "unplug": lambda a: (sim.unplug(), "unplugged")[1],
            "replug": lambda a: (sim.replug(), "plugged in (powered up)")[1],
        }
    )
    return commands


def device_commands(sim: SimDevice) -> dict[str, Command]:
    commands = common_commands(sim)
    if isinstance(sim, Id003Simulator):
        commands.update(
            {
                "insert": lambda a: inserted(sim.insert_note(int(a[0])), f"note of {int(a[0])} cents"),
                "ticket": lambda a: inserted(sim.insert_ticket(a[0]), f"ticket {a[0]}"),
                "clear": lambda a: (sim.clear_fault(), "fault cleared")[1],
                "power-cycle": lambda a: (sim.power_cycle(), "power cycled")[1],
                "cashbox": lambda a: f"cash box: {sim.cash_box}",
            }
        )
        for fault in FAULT_STATUSES:
            commands[hyphens(fault)] = lambda a, f=fault: (sim.inject_fault(f), f"{hyphens(f)} injected")[1]
    elif isinstance(sim, TclPrinterSimulator):
        commands.update(
            {
                "paper-low": lambda a: (sim.set_paper_low(a[:1] != ["off"]), "paper low set")[1],
                "clear": lambda a: (sim.clear_fault(), "faults cleared")[1],
                "arm": lambda a: (sim.arm(a[0].replace("-", "_"), a[1:2] == ["after"]), f"armed {a[0]}")[1],
                "power-loss": lambda a: (sim.power_loss(), "power off")[1],
                "power-on": lambda a: (sim.power_on(), "power on")[1],
                "issued": lambda a: "\n".join(" | ".join(t) for t in sim.issued) or "no tickets",
            }
        )
        for fault in FAULTS:
            commands[hyphens(fault)] = lambda a, f=fault: (sim.inject_fault(f), f"{hyphens(f)} injected")[1]
    elif isinstance(sim, PanelSimulator):
        commands.update(
            {
                "press": lambda a: (sim.press(a[0]), f"{a[0]} down")[1],
                "release": lambda a: (sim.release(a[0]), f"{a[0]} up")[1],
                "tap": lambda a: (sim.tap(a[0]), f"{a[0]} tapped")[1],
                "door": lambda a: (sim.set_door(Door(a[0]), a[1] == "open"), f"door {a[0]} {a[1]}")[1],
                "key": lambda a: (sim.turn_key(Key(a[0]), a[1] == "on"), f"key {a[0]} {a[1]}")[1],
                "lamps": lambda a: str(sim.lamps),
            }
        )
    return commands


def inserted(accepted: bool, item: str) -> str:
    if accepted:
        return f"{item} inserted"
    return f"{item} refused at the mouth: the acceptor is not taking it now (inhibited, busy or faulted)"


def run_console(sims: dict[str, SimDevice], stdin: TextIO, stdout: TextIO, prompt: bool | None = None) -> int:
    """Read commands until `quit` or end of input; each answer is one line. The prompt (`bill> `,
    or `sim> ` for several devices) is shown when typing at a terminal, unless `prompt` says."""
    tables = {name: device_commands(sim) for name, sim in sims.items()}
    single = next(iter(tables)) if len(tables) == 1 else None
    show_prompt = stdin.isatty() if prompt is None else prompt

    def ask() -> None:
        if show_prompt:
            print(f"{single or 'sim'}> ", end="", file=stdout, flush=True)

    ask()
    for raw in stdin:
        words = raw.split()
        if not words:
            ask()
            continue
        if words[0] in ("quit", "exit"):
            break
        target = single
        if words[0] in tables:
            target, words = words[0], words[1:]
        print(answer(tables, target, words), file=stdout, flush=True)
        ask()
    return 0


def answer(tables: dict[str, dict[str, Command]], target: str | None, words: list[str]) -> str:
    """The console's one-line answer to a command."""
    if words[:1] == ["help"] or not words or target is None:
        names = {name: sorted(table) for name, table in tables.items()}
        return f"commands: {names}, help, quit"
    command = tables[target].get(hyphens(words[0]))
    if command is None:
        return f"unknown command {words[0]!r}; type help"
    try:
        return command(words[1:])
    except (IndexError, ValueError) as exc:
        return f"{words[0]}: bad arguments ({exc}); type help"


def _run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    chosen = list(DEVICES) if args.device == "all" else [args.device]
    sims: dict[str, SimDevice] = {}
    transports = []
    for name in chosen:
        short, make, offset = DEVICES[name]
        port = f"socket://{args.host}:{args.base_port + offset}" if args.device == "all" else args.port
        sim = make()
        try:
            transport = serve(sim, port)
        except (ValueError, OSError) as exc:
            print(f"cannot serve the {name} simulator on {port}: {exc}", file=sys.stderr)
            for started in transports:
                started.stop()
            return 2
        transports.append(transport)
        sims[short] = sim
        print(f"{name} simulator on {transport.port}", flush=True)
    try:
        if args.no_console:
            threading.Event().wait()  # serve until interrupted
        return run_console(sims, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        return 0
    finally:
        for transport in transports:
            transport.stop()


def sim_commands(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The subcommands of `egm sim` (created on first use), so that other packages add theirs
    (`egm sim sas-egm` lives with the cabinet's host link, in egm.sas_cli)."""
    sim = subparsers.choices.get("sim")
    if sim is None:
        sim = subparsers.add_parser("sim", help="run a simulator: devices (ID-003, TCL, panel), a SAS host")
        sim.add_subparsers(dest="device", required=True, metavar="SIMULATOR")
    return next(a for a in sim._actions if isinstance(a, argparse._SubParsersAction))


def register(subparsers: argparse._SubParsersAction) -> None:
    commands = sim_commands(subparsers)
    for device in [*DEVICES, "all"]:
        parser = commands.add_parser(device, help=f"the {device} simulator" if device != "all" else
                                     "every device simulator, on consecutive TCP ports")
        parser.add_argument("--port", default="pty", help="socket://HOST:PORT, HOST:PORT or pty (default)")
        parser.add_argument("--host", default="127.0.0.1", help="with 'all': the address to listen on")
        parser.add_argument("--base-port", type=int, default=7001, help="with 'all': first TCP port")
        parser.add_argument("--no-console", action="store_true", help="serve until interrupted; no commands")
        parser.set_defaults(handler=_run)
    from hardware.sim.sas_host_cli import register_sas_host

    register_sas_host(commands)

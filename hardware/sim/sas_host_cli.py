"""`egm sim sas-host`: a SAS host at the console. It general-polls the machine in the background
(showing each exception, acknowledged), and takes commands for meters, tickets and AFT.

    egm sim sas-host --port pty                  # prints the pty path to give `egm sim sas-egm`
    egm sim sas-host --port /dev/pts/7 --address 1
    egm sim sas-host --port /dev/ttyUSB0         # a real line: wake-up bit by MARK parity

Type `help` for the commands.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from datetime import datetime
from typing import TextIO

from hardware.sim.sas_host import EXCEPTION_NAMES, SasHost, open_pty_pair

Command = Callable[[SasHost, list[str]], str]
METER_POLLS = {"cancelled": 0x10, "coin-in": 0x11, "coin-out": 0x12, "drop": 0x13, "jackpot": 0x14,
               "games": 0x15, "won": 0x16, "lost": 0x17, "credits": 0x1A, "bills": 0x20}


def exception_text(code: int) -> str:
    return f"exception 0x{code:02X} {EXCEPTION_NAMES.get(code, 'unknown')}"


def _meters(host: SasHost, args: list[str]) -> str:
    values = {name: host.meter(command) for name, command in METER_POLLS.items()}
    return " ".join(f"{name}={value}" for name, value in values.items())


def _rom(host: SasHost, args: list[str]) -> str:
    seed = int(args[0], 16) if args else 0
    signature = host.rom_signature(seed)
    return "no answer" if signature is None else f"ROM signature (seed {seed:04X}): {signature:04X}"


def _ack_text(host: SasHost, command: int) -> str:
    reply = host.long_poll(command)
    return "acknowledged" if reply == bytes([host.address]) else f"not acknowledged ({reply!r})"


def _redeem(host: SasHost, code: int, args: list[str]) -> str:
    escrow = host.ticket_in_escrow()
    if escrow is None or escrow[0] != 0x00:
        return "no ticket in escrow"
    answer = host.redeem(code, int(args[0]) if args else 0, escrow[2])
    return "no answer" if answer is None else f"machine status 0x{answer[0]:02X}, {answer[1]} cents"


def _aft(direction: int) -> Command:
    def move(host: SasHost, args: list[str]) -> str:
        host.aft_lock()
        asset = int(args[2]) if args[2:] else 1
        transfer = host.aft_transfer(direction, int(args[0]), args[1], asset_number=asset)
        return "no answer" if transfer is None else f"status 0x{transfer.status:02X}: {transfer}"

    return move


COMMANDS: dict[str, Command] = {
    "meters": _meters,
    "credits": lambda h, a: f"credits: {h.meter(0x1A)}",
    "rom": _rom,
    "time": lambda h, a: f"machine time: {h.date_time()}",
    "settime": lambda h, a: f"set: {h.set_date_time(datetime.now())}",
    "disable": lambda h, a: _ack_text(h, 0x01),
    "enable": lambda h, a: _ack_text(h, 0x02),
    "pending": lambda h, a: f"pending cash-out (type, cents): {h.pending_cashout()}",
    "validate": lambda h, a: f"0x58 status: {h.send_validation_number(a[0], int(a[1]) if a[1:] else 1)}",
    "info": lambda h, a: f"ticket: {h.validation_info(int(a[0]) if a else 0)}",
    "ticket": lambda h, a: f"in escrow (status, cents, number): {h.ticket_in_escrow()}",
    "redeem": lambda h, a: _redeem(h, 0x00, a),
    "reject": lambda h, a: _redeem(h, 0x84, a),
    "status": lambda h, a: f"redemption (status, cents): {h.redeem(0xFF, 0, '')}",
    "lock": lambda h, a: f"{h.aft_lock(0x00)}",
    "unlock": lambda h, a: f"{h.aft_lock(0x80)}",
    "aft-in": _aft(0x00),
    "aft-out": _aft(0x80),
    "interrogate": lambda h, a: f"{h.aft_interrogate()}",
}
HELP = (
    "commands: meters, credits, rom [SEED_HEX], time, settime, disable, enable, pending, "
    "validate NUMBER16 [SYSTEM_ID], info [INDEX], ticket, redeem CENTS, reject, status, lock, unlock, "
    "aft-in CENTS ID [ASSET], aft-out CENTS ID [ASSET], interrogate, quit"
)


def run_console(host: SasHost, lock: threading.Lock, stdin: TextIO, stdout: TextIO) -> None:
    for raw in stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            return
        command = COMMANDS.get(words[0])
        if command is None:
            print(HELP, file=stdout, flush=True)
            continue
        try:
            with lock:
                print(command(host, words[1:]), file=stdout, flush=True)
        except (IndexError, ValueError) as exc:
            print(f"{words[0]}: bad arguments ({exc}); type help", file=stdout, flush=True)


def poll_exceptions(host: SasHost, lock: threading.Lock, stop: threading.Event, interval_s: float,
                    stdout: TextIO) -> None:
    """The host's background loop: general polls, each exception shown and acknowledged."""
    while not stop.wait(interval_s):
        with lock:
            code = host.general_poll()
            if code:
                host.sync()
        if code:
            print(exception_text(code), file=stdout, flush=True)


def _run(args: argparse.Namespace) -> int:
    if not 1 <= args.address <= 127:
        print(f"--address {args.address}: a SAS address is 1 to 127", file=sys.stderr)
        return 2
    if args.port == "pty":
        port, path = open_pty_pair()
        host = SasHost(port, args.address)
        print(f"SAS host on a pty: start the cabinet with  egm sim sas-egm --port {path}", flush=True)
    else:
        try:
            host = SasHost.open(args.port, args.address)
        except (OSError, ValueError) as exc:
            print(f"cannot open {args.port}: {exc}", file=sys.stderr)
            return 2
        print(f"SAS host on {args.port}, polling address {args.address}", flush=True)
    lock, stop = threading.Lock(), threading.Event()
    poller = threading.Thread(
        target=poll_exceptions, args=(host, lock, stop, args.interval, sys.stdout), daemon=True
    )
    poller.start()
    try:
        if args.no_console:
            stop.wait()
        else:
            run_console(host, lock, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        poller.join(timeout=2)
        host.close()
    return 0


def register_sas_host(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("sas-host", help="a SAS host polling a gaming machine (tests, demos)")
    parser.add_argument("--port", default="pty", help="pty (default), a device path or a pyserial URL")
    parser.add_argument("--address", type=int, default=1, help="the machine's SAS address (1-127)")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between general polls")
    parser.add_argument("--no-console", action="store_true", help="only show exceptions; no commands")
    parser.set_defaults(handler=_run)

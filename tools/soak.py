"""Kill -9 soak: a cabinet process is killed at random instants, again and again, and its money checked.

    python tools/soak.py [--kills 1000] [--seed 1] [--max-run 3.0] [--game-server] [--json]

The bill acceptor (ID-003) and the ticket printer (TCL) are wire-protocol simulators served on TCP
ports by this process, so, like real devices, they outlive each cabinet process: the acceptor's
cash box and the printer's printed tickets are the physical truth. Each cabinet (a child process,
every installed game, from a freshly signed ROM manifest) boots, recovers, and plays: the reference
strategy on a random game, cash-outs (tickets and, above the hand-pay limit, hand pays paid by the
attendant), the operator menu. Meanwhile this process is the customer: it feeds notes and printed
tickets into the acceptor. At a random instant the child is killed with SIGKILL; sometimes the same
power cut also power-cycles the acceptor (so it reports 0x41 / 0x42 at power-up).

Where the kills strike: 40% during start-up and recovery, 40% at random while it plays, and 20%
aimed at a window, half each:
  cashout        a cash-out committed, its ticket not yet confirmed printed (the child cashes out
                 at once and says when it enters the window; the kill follows within 0.05 s);
  handpay        a hand pay locked up, the attendant not yet done (the child lowers the hand-pay
                 limit to $20.00 through the operator menu, cashes out above it, and its attendant
                 takes 0.05 to 0.3 s; the kill follows within 0.3 s).
Each window's line counts the kills aimed at it, those that landed in it (the memory read after the
kill holds the pending cash-out or hand pay) and the problems the checks found after them.

After each kill the wager memory is read (read-only, as `egm meters` does) and checked:
  identity       the accounting identity holds, no accounting error stands, games played = games
                 finished (+1 in progress), the newest recall entry is the last game finished, and
                 games played never goes down;
  cash box       credits in (bills_in + tickets_in) never exceed what the cash box holds (duplicated),
                 and the cash box never holds more than was credited plus the one pending item (lost);
  tickets out    tickets the memory counts as issued that never came out of the printer (a kill
                 between the commit and the paper: the ticket stands as issued and its number stays
                 redeemable, see docs/wager-memory.md) are counted apart.
An unreconciled pending item is settled by the next cabinet's attendant from the cash-box count.

With --game-server the cabinet plays the catalogue of a real `egm server` that outlives every kill
(tools/soak_remote.py): the start's pending record, the reply committed with coin in, the boot sending
the pending request again, the server's hand pays (its limit set to $5.00) are all struck. A third
aimed window, `start`, strikes within 0.05 s of a start committed and sent. After each kill the
server's totals for the terminal must equal the cabinet's meters but for what its memory holds in
flight; at the end a last cabinet settles what is pending and `egm server audit --terminal-meters`
must find no difference ("server differences" counts the checks that failed).
Prints `kills, identity breaks, credits lost, credits duplicated, errors`; exit code 1 unless all
but kills are 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from egm.cabinet.remote_play import PENDING_START
from egm.config import PROJECT_ROOT, CabinetConfig, load_cabinet_config, load_jurisdiction
from egm.memory.errors import MemoryUnavailable, RamError
from egm.memory.recovery import read_memory
from egm.meters import Meters
from egm.rom.manifest import sign_manifest, write_manifest
from hardware.sim.id003_sim import Id003Simulator
from hardware.sim.tcl_sim import TclPrinterSimulator
from hardware.sim.transport import TcpTransport

sys.path.insert(0, str(PROJECT_ROOT))  # run as a script (python tools/soak.py), not only as tools.soak
from tools.soak_remote import OFFLINE_TILT_S, SoakServer  # noqa: E402

DEV_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"
NOTES = (100, 500, 1000, 2000, 5000, 10000)
DENOMINATION_CENTS = 25
CHILD_TIMEOUT_S = 60
STARTUP_S = 2.5  # about how long a cabinet process takes to import, verify its ROM and boot
WINDOWS = ("cashout", "handpay")  # the windows aimed kills strike in
REMOTE_WINDOWS = (*WINDOWS, "start")  # with --game-server: also a start sent and not yet answered
WINDOW_RECORD = {"cashout": "cashout", "handpay": "handpay", "start": PENDING_START}  # kept while in it
AIMED_SHARE = 0.2  # of the kills, half at each window
AIM_HAND_PAY_LIMIT_CENTS = 2000  # an aimed hand-pay run cashes out above this (a setting, kept in memory)
WINDOW_WAIT_S = 20.0  # how long an aimed kill waits for its window before striking anyway
STRIKE_WITHIN_S = {"cashout": 0.05, "handpay": 0.3, "start": 0.05}  # an aimed kill's delay in the window
PROGRESS_EVERY = 50  # kills between progress lines
FINISH_TIMEOUT_S = 900  # the last cabinet of a --game-server soak finishes what the kills left


# --- the cabinet process ---------------------------------------------------------------------------
def child_config(args: argparse.Namespace) -> CabinetConfig:
    """The shipped cabinet config, every installed game, the devices on the soak's simulators; with
    --game-server, the games the server's catalogue offers, played on it."""
    manifest, acceptor_port, printer_port = Path(args.manifest), args.acceptor, args.printer
    base = load_cabinet_config().model_dump()
    base["denomination_cents"] = DENOMINATION_CENTS
    base["player_denominations_cents"] = []  # the soak plays the accounting denomination only
    base["rom"] = {"manifest": str(manifest), "trusted_keys": [str(DEV_KEY.with_suffix(".pub"))]}
    base["devices"]["bill_acceptor"] = {"backend": "serial", "protocol": "id003", "port": acceptor_port}
    base["devices"]["printer"] = {"backend": "serial", "protocol": "tcl", "port": printer_port}
    if args.server_url:
        base["game_server"] = {"url": args.server_url, "terminal_id": args.terminal_id,
                               "private_key": args.terminal_key, "offline_tilt_s": OFFLINE_TILT_S}
    return CabinetConfig.model_validate(base)


def run_child(args: argparse.Namespace) -> int:
    """One cabinet: boot, settle what the attendant was asked to, then play until killed.

    With `--aim cashout` or `--aim handpay` it cashes out as soon as it can (at the lowered hand-pay
    limit for a hand pay) and writes the window's name to the `window` file on entering it; with
    `--aim start` (on a game server) it starts games only, and writes `start` while a start is sent
    and not yet answered. With `--finish` it settles what is pending, then exits 0 (no new game).
    """
    from egm.cabinet import build_cabinet
    from egm.events import CashOut, ChangeSetting, Key, KeyTurned, PlayerDecision, ReconcileBill, StartGame

    config = child_config(args)
    cabinet = build_cabinet(config, Path(args.nvram))
    cabinet.boot()
    if args.reconcile:
        cabinet.handle(KeyTurned(Key.ATTENDANT, True))
        cabinet.handle(ReconcileBill(in_cash_box=args.reconcile == "found"))
        cabinet.handle(KeyTurned(Key.ATTENDANT, False))
    # the operator lowers the hand-pay limit for an aimed hand pay, and puts it back afterwards
    limit = load_jurisdiction(config.jurisdiction).hand_pay_limit_cents
    wanted = AIM_HAND_PAY_LIMIT_CENTS if args.aim == "handpay" else limit
    if cabinet.state == "attract" and cabinet.jurisdiction.hand_pay_limit_cents != wanted:
        cabinet.handle(KeyTurned(Key.OPERATOR, True))
        cabinet.handle(ChangeSetting("hand_pay_limit_cents", wanted))
        cabinet.handle(KeyTurned(Key.OPERATOR, False))
    window = Path(args.nvram).with_name("window")
    Path(args.nvram).with_name("ready").touch()  # the soak times half its kills from here
    rng = random.Random(args.seed)
    while True:
        cabinet.poll_devices()
        state = cabinet.state
        starting = cabinet.memory is not None and cabinet.memory.get(PENDING_START) is not None
        in_window = state == args.aim or (args.aim == "start" and starting)
        if in_window and not window.exists():
            window.write_text(args.aim)  # the aimed kill strikes from here
        if cabinet.waiting_for_server():  # a start or a decision is on its way to the game server
            cabinet.game_server.wait(0.01)
        elif args.finish and state == "attract" and cabinet.round is None:
            if not any(cabinet.memory.get(kind) for kind in ("game", "bill", "cashout", "handpay")):
                return 0  # nothing is left pending
            time.sleep(0.01)
        elif state == "handpay":
            if args.aim == "handpay":
                time.sleep(rng.uniform(0.05, 0.3))  # the attendant walks over
            cabinet.handle(KeyTurned(Key.ATTENDANT, True))
        elif state.startswith("game.") and cabinet.round is not None:
            cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
        elif state == "audit":
            cabinet.handle(KeyTurned(Key.OPERATOR, False))
        elif state == "attract":
            limit = cabinet.jurisdiction.hand_pay_limit_cents
            game_id = rng.choice(list(cabinet.games))
            stake = cabinet.games[game_id].default_wager(DENOMINATION_CENTS).stake_credits
            roll = rng.random()  # about 100 rolls a second: credits build up for the odd hand pay
            aimed = (args.aim == "cashout" and cabinet.credits_cents > 0) or (
                args.aim == "handpay" and cabinet.credits_cents >= limit
            )
            starts = args.aim in ("", "start")
            if args.finish:
                time.sleep(0.01)
            elif roll < 0.002 and not args.aim:
                cabinet.handle(KeyTurned(Key.OPERATOR, True))
            elif aimed or cabinet.credits_cents >= limit or (roll < 0.003 and cabinet.credits_cents > 0):
                cabinet.handle(CashOut())  # a ticket, or a hand pay at the limit
            elif cabinet.credits_cents >= stake * DENOMINATION_CENTS and roll < 0.2 and starts:
                cabinet.handle(StartGame(game_id))
            else:
                time.sleep(0.01)  # waiting for the customer's notes
        else:
            time.sleep(0.01)  # a tilt the next process may settle, or a ticket printing


# --- the customer, the devices and the checks ------------------------------------------------------
@dataclass
class Tally:
    kills: int = 0
    identity_breaks: int = 0
    credits_lost: int = 0  # cents, at the worst check
    credits_duplicated: int = 0  # cents, at the worst check
    errors: int = 0
    server_differences: int = 0  # with --game-server: checks at which the server's totals disagreed
    notes_inserted: int = 0
    tickets_inserted: int = 0
    acceptor_power_cuts: int = 0
    reconciled: int = 0
    games_played: int = 0
    caught: dict[str, int] = field(default_factory=dict)  # what each kill interrupted, by kind
    windows: dict[str, dict[str, int]] = field(  # per window: kills aimed, landed in it, problems after
        default_factory=lambda: {w: {"aimed": 0, "landed": 0, "problems": 0} for w in REMOTE_WINDOWS}
    )
    tickets_unprinted: int = 0  # issued (a kill between the commit and the paper): stand as issued
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"kills {self.kills}, identity breaks {self.identity_breaks}, credits lost "
            f"{self.credits_lost}, credits duplicated {self.credits_duplicated}, errors {self.errors}"
        )

    def window_lines(self) -> list[str]:
        return [
            f"window {name}: {w['aimed']} kills aimed, {w['landed']} landed in it, {w['problems']} problems"
            for name, w in self.windows.items() if name in WINDOWS or w["aimed"]
        ]

    def ok(self) -> bool:
        return not (self.identity_breaks or self.credits_lost or self.credits_duplicated or self.errors
                    or self.server_differences)


@dataclass
class Soak:
    workdir: Path
    rng: random.Random
    max_run_s: float
    tally: Tally = field(default_factory=Tally)
    acceptor: Id003Simulator = field(default_factory=Id003Simulator)
    printer: TclPrinterSimulator = field(default_factory=TclPrinterSimulator)
    ticket_amounts: dict[str, int] = field(default_factory=dict)  # every ticket the cabinet issued
    inserted_tickets: set[str] = field(default_factory=set)
    games_played: int = 0
    reconcile: str = ""
    stop: bool = False  # set by SIGTERM: finish this kill, then report what was done
    kill_context: str = ""  # how the last kill struck, for the problems it shows
    game_server: bool = False  # the cabinet plays its rounds on a game server (tools/soak_remote.py)
    server: SoakServer | None = None

    @property
    def nvram(self) -> Path:
        return self.workdir / "nvram"

    def run(self, kills: int) -> Tally:
        manifest = self.workdir / "rom" / "manifest.json"
        write_manifest(manifest, PROJECT_ROOT)
        sign_manifest(manifest, DEV_KEY)
        windows = REMOTE_WINDOWS if self.game_server else WINDOWS
        if self.game_server:
            self.server = SoakServer(self.workdir).start()
        try:
            with TcpTransport(self.acceptor) as acceptor_port, TcpTransport(self.printer) as printer_port:
                def argv(aim: str) -> list[str]:
                    return [
                        sys.executable, "-m", "tools.soak", "--child", "--nvram", str(self.nvram),
                        "--manifest", str(manifest), "--acceptor", acceptor_port.port,
                        "--printer", printer_port.port, "--seed", str(self.rng.randrange(2**32)),
                        "--reconcile", self.reconcile, "--aim", aim,
                        *(self.server.child_args() if self.server else []),
                    ]  # fmt: skip

                for _ in range(kills):
                    aim = self.rng.choice(windows) if self.rng.random() < AIMED_SHARE else ""
                    self.one_kill(argv(aim), aim)
                    if self.tally.errors or self.stop:
                        break
                    if self.tally.kills % PROGRESS_EVERY == 0:
                        print(self.tally.line(), flush=True)
                if self.server and not self.tally.errors:
                    self.finish(argv(""))
        finally:
            if self.server:
                self.server.stop()
        return self.tally

    def finish(self, argv: list[str]) -> None:
        """The last cabinet settles what the kills left; then the server's books and its totals for
        the terminal must match the cabinet's meters exactly (`egm server audit --terminal-meters`)."""
        assert self.server is not None
        self.kill_context = "the last cabinet, after every kill"
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        try:
            done = subprocess.run([*argv, "--finish"], cwd=PROJECT_ROOT, env=env, capture_output=True,
                                  text=True, timeout=FINISH_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.problem(f"the last cabinet did not settle what was pending in {FINISH_TIMEOUT_S} s")
            self.tally.errors += 1
            return
        if done.returncode != 0:
            self.problem(f"the last cabinet exited with {done.returncode}: {done.stderr[-2000:]}")
            self.tally.errors += 1
            return
        self.check()
        audit = self.server.audit(self.nvram)
        if audit:
            self.problem(f"egm server audit --terminal-meters: {audit}")
            self.tally.server_differences += 1

    def one_kill(self, argv: list[str], aim: str = "") -> None:
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        ready, window = self.workdir / "ready", self.workdir / "window"
        ready.unlink(missing_ok=True)
        window.unlink(missing_ok=True)
        child = subprocess.Popen(argv, cwd=PROJECT_ROOT, env=env, stderr=subprocess.PIPE, text=True)
        started = time.monotonic()
        if aim:  # strike soon after the child enters the window (feeding it notes meanwhile)
            deadline = time.monotonic() + WINDOW_WAIT_S
            fed = 0.0
            while not window.exists() and child.poll() is None and time.monotonic() < deadline:
                if time.monotonic() - fed > 0.1:
                    self.customer(notes_only=True)
                    fed = time.monotonic()
                time.sleep(0.002)
            time.sleep(self.rng.uniform(0.0, STRIKE_WITHIN_S[aim]))
            deadline = time.monotonic()  # strike now, without the customer's pause below
        elif self.rng.random() < 0.5:  # half the other kills strike during start-up and recovery
            deadline = started + self.rng.uniform(0.1, STARTUP_S)
        else:  # half while it plays
            while (
                not ready.exists() and child.poll() is None and time.monotonic() < started + CHILD_TIMEOUT_S
            ):
                time.sleep(0.02)
            deadline = time.monotonic() + self.rng.uniform(0.1, self.max_run_s)
        while time.monotonic() < deadline and child.poll() is None:
            self.customer()
            time.sleep(self.rng.uniform(0.05, 0.2))
        if child.poll() is not None:  # the cabinet stopped by itself: that is an error
            self.problem(f"the cabinet exited with {child.returncode}: {child.stderr.read()[-2000:]}")
            self.tally.errors += 1
            return
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=CHILD_TIMEOUT_S)
        self.tally.kills += 1
        power_cut = self.rng.random() < 0.3
        if power_cut:  # the power cut took the acceptor down too
            self.acceptor.power_cycle()
            self.tally.acceptor_power_cuts += 1
        reconciled = argv[argv.index("--reconcile") + 1] or "nothing"
        self.kill_context = (
            f"aimed at {aim or 'nothing'}, acceptor power cut {'yes' if power_cut else 'no'}, "
            f"the child reconciled {reconciled}"
        )
        problems = len(self.tally.problems)
        pending = self.check()
        if aim:
            tally = self.tally.windows[aim]
            tally["aimed"] += 1
            tally["landed"] += WINDOW_RECORD[aim] in pending
            tally["problems"] += len(self.tally.problems) - problems

    def customer(self, *, notes_only: bool = False) -> None:
        """Feed the acceptor: mostly notes, sometimes a ticket this cabinet printed."""
        printed = [f[-1] for f in self.printer.issued if f and f[-1] not in self.inserted_tickets]
        if printed and not notes_only and self.rng.random() < 0.15:
            barcode = self.rng.choice(printed)
            if self.acceptor.insert_ticket(barcode):
                self.inserted_tickets.add(barcode)
                self.tally.tickets_inserted += 1
        elif self.acceptor.insert_note(self.rng.choice(NOTES)):
            self.tally.notes_inserted += 1

    def problem(self, text: str) -> None:
        self.tally.problems.append(f"after kill {self.tally.kills} ({self.kill_context}): {text}")

    def check(self) -> set[str]:
        """Check the memory a kill left; returns the kinds of record it found pending."""
        try:
            content = read_memory(self.nvram)
        except MemoryUnavailable:
            return set()  # killed before the first boot made a memory
        except RamError as exc:
            self.problem(f"RAM error: {exc}")
            self.tally.errors += 1
            return set()
        records = content.records
        meters = Meters.from_record(records["meters"])
        pending = {kind for kind in ("game", "bill", "cashout", "handpay", PENDING_START)
                   if records.get(kind) is not None}
        for kind in pending:
            self.tally.caught[kind] = self.tally.caught.get(kind, 0) + 1
        self.check_identity(meters, records, content.recall)
        if self.server is not None:
            for problem in self.server.check(meters, records):
                self.tally.server_differences += 1
                self.problem(problem)
        for vn, ticket in content.tickets.items():
            self.ticket_amounts[vn] = ticket["amount_cents"]
        if self.check_cash_box(meters, records.get("bill")):  # the first money problem: what led to it
            self.problem("the last events: " + " | ".join(e["message"] for e in content.events[:12]))
        printed = {f[-1] for f in self.printer.issued if f}
        self.tally.tickets_unprinted = len([vn for vn in content.tickets if vn not in printed])
        return pending

    def check_identity(self, meters: Meters, records: dict[str, Any], recall: list[dict[str, Any]]) -> None:
        finished = meters["games_won"] + meters["games_lost"]
        broken = []
        if meters.balance_error() or records.get("accounting_error"):
            broken.append(
                f"accounting identity off by {meters.balance_error()} ({records.get('accounting_error')})"
            )
        if meters["games_played"] != finished + (1 if records.get("game") else 0):
            broken.append(f"games played {meters['games_played']} but {finished} finished")
        if recall and recall[0]["number"] != finished:
            broken.append(f"the newest recall is game {recall[0]['number']}, {finished} finished")
        if meters["games_played"] < self.games_played:
            broken.append(f"games played went down from {self.games_played} to {meters['games_played']}")
        self.games_played = max(self.games_played, meters["games_played"])
        self.tally.games_played = self.games_played
        if broken:
            self.tally.identity_breaks += 1
            self.problem("; ".join(broken))

    def check_cash_box(self, meters: Meters, pending: dict[str, Any] | None) -> bool:
        """Check credits in against the cash box; True when a problem is found for the first time."""
        first = not (self.tally.credits_lost or self.tally.credits_duplicated)
        in_box = sum(cents for cents, barcode in self.acceptor.cash_box if barcode is None)
        in_box += sum(self.ticket_amounts.get(barcode, 0) for _, barcode in self.acceptor.cash_box if barcode)
        credited = meters["bills_in"] + meters["tickets_in"]
        pending_cents = pending["amount_cents"] if pending else 0
        if credited > in_box:
            self.tally.credits_duplicated = max(self.tally.credits_duplicated, credited - in_box)
            self.problem(f"credited {credited} cents in, the cash box holds {in_box}")
        if in_box > credited + pending_cents:
            self.tally.credits_lost = max(self.tally.credits_lost, in_box - credited - pending_cents)
            self.problem(f"the cash box holds {in_box} cents, {credited} credited, {pending_cents} pending")
        self.reconcile = ""
        if pending and pending.get("unreconciled"):  # the attendant counts the cash box
            self.reconcile = "found" if in_box - credited >= pending_cents else "missing"
            self.tally.reconciled += 1
        return first and bool(self.tally.credits_lost or self.tally.credits_duplicated)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-run", type=float, default=3.0, help="longest a cabinet runs before its kill (s)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--game-server", action="store_true",
        help="the cabinet plays its rounds on a real egm server (tools/soak_remote.py), checked at each kill",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--finish", action="store_true", help=argparse.SUPPRESS)
    for name in ("--nvram", "--manifest", "--acceptor", "--printer", "--reconcile", "--aim", "--server-url",
                 "--terminal-id", "--terminal-key"):
        parser.add_argument(name, default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_child(args)
    with tempfile.TemporaryDirectory() as tmp:
        soak = Soak(Path(tmp), random.Random(args.seed), args.max_run, game_server=args.game_server)
        signal.signal(signal.SIGTERM, lambda *_: setattr(soak, "stop", True))
        tally = soak.run(args.kills)
    if args.json:
        print(json.dumps(asdict(tally)))
    else:
        print(tally.line() + (f", server differences {tally.server_differences}" if args.game_server else ""))
        print(
            f"({tally.games_played} games played, {tally.notes_inserted} notes and {tally.tickets_inserted} "
            f"tickets inserted, {tally.acceptor_power_cuts} acceptor power cuts, {tally.reconciled} "
            f"items reconciled by the attendant; kills with pending: {tally.caught}; tickets standing "
            f"as issued without paper: {tally.tickets_unprinted})"
        )
        for line in tally.window_lines():
            print(line)
        for line in tally.problems[:20]:
            print(line)
    return 0 if tally.ok() else 1


if __name__ == "__main__":
    raise SystemExit(main())

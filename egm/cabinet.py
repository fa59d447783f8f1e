"""The cabinet controller (the patent's CPU 205): one hierarchical state machine and its event handling.

Public API (see docs/cabinet.md):

    cabinet = Cabinet(config, nvram_dir, games=..., devices=..., jurisdiction=..., clock=..., ...)
    cabinet.boot()                   power-up, self-test (ROM + wager memory), recovery, then attract
    cabinet.handle(event) -> Result  every input, from egm.events; refused events change nothing
    cabinet.poll_devices()           turn device reports into events until the devices are quiet
    cabinet.snapshot() -> dict       what a display shows: state, credits, meters, round view, tilts...

The state machine is declared as tables (STATE_TABLE, `_transition_table`) so a reader can take it in
at a glance, and `state_diagram()` renders the same tables as mermaid for docs/state-diagram.md.

Money moves only inside a wager-memory transaction, and the transaction commits before the state
machine moves or a device is told anything (stack, print): so a power cut at any instant leaves
either the step done and recorded, or not done at all. Standing conditions (tilts, lock-ups, the
game in progress) are derived from memory and devices; `_settle()` moves the machine to whatever
they call for, which is also how a boot resumes whatever a power cut interrupted.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from transitions import MachineError
from transitions.extensions.nesting import HierarchicalMachine, NestedState

from egm.clock import Clock, SystemClock
from egm.config import PROJECT_ROOT, CabinetConfig, JurisdictionConfig, load_jurisdiction
from egm.events import (
    ACCEPTED,
    BillEscrowed,
    BillRejected,
    BillReturned,
    BillStacked,
    ButtonChanged,
    CashOut,
    DeviceFault,
    DeviceFaultCleared,
    DeviceWarning,
    Door,
    DoorChanged,
    Key,
    KeyTurned,
    PlayerDecision,
    RamClear,
    Result,
    RunRomCheck,
    SelectGame,
    StartGame,
    TicketFailed,
    TicketPrinted,
)
from egm.games import game_class
from egm.games.base import DecisionRefused, Game, Round, Wager
from egm.memory.store import AccountingBreach, RamError, Transaction, WagerMemory
from egm.payout.handpay import requires_hand_pay
from egm.payout.tickets import TicketRefused, check_redemption, issue_ticket
from egm.rng import Rng, derive_seed
from hardware.factory import Devices, build_devices
from hardware.interfaces import LampState, TicketData

log = logging.getLogger(__name__)

# Tilts in priority order: the first standing one is the state shown.
TILTS = ("ramerror", "romerror", "accountingerror", "maindoor", "logicdoor", "cashboxdoor", "devicefault")
TILT_NAMES = {  # the names reported to the outside (autoplay JSON, snapshot)
    "ramerror": "ram_error",
    "romerror": "rom_error",
    "accountingerror": "accounting_error",
    "maindoor": "main_door_open",
    "logicdoor": "logic_door_open",
    "cashboxdoor": "cash_box_door_open",
    "devicefault": "device_fault",
}
DOOR_TILTS = {Door.MAIN: "maindoor", Door.LOGIC: "logicdoor", Door.CASH_BOX: "cashboxdoor"}
RESUMABLE_FROM = ["selftest", "tilt", "audit"]  # where `_settle` may move the machine from
TILTABLE_FROM = ["selftest", "attract", "game", "cashout", "handpay", "tilt", "audit"]
SCOREBOARD_SIZE = 10


class CabinetState(NestedState):
    separator = "."  # game steps may contain underscores


class CabinetMachine(HierarchicalMachine):
    state_cls = CabinetState


def state_table(steps_by_game: Mapping[str, Sequence[str]]) -> list[Any]:
    """The cabinet's states; each game's steps are nested under game.<game id>."""
    return [
        "powerup",
        "selftest",
        "attract",
        {"name": "game", "children": [{"name": g, "children": list(s)} for g, s in steps_by_game.items()]},
        "cashout",
        "handpay",
        {"name": "tilt", "children": list(TILTS)},
        "audit",
        "ramclear",
    ]


def transition_table(steps_by_game: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """Every allowed move: trigger, source(s), destination (conditions are added by the Cabinet)."""
    table: list[dict[str, Any]] = [
        {"trigger": "power_on", "source": "powerup", "dest": "selftest"},
        {"trigger": "idle", "source": RESUMABLE_FROM, "dest": "attract"},
        {"trigger": "game_over", "source": "game", "dest": "attract"},
        {"trigger": "jackpot_lockup", "source": "game", "dest": "handpay"},
        {"trigger": "cash_out", "source": "attract", "dest": "cashout"},
        {"trigger": "cash_out_handpay", "source": "attract", "dest": "handpay"},
        {"trigger": "ticket_done", "source": "cashout", "dest": "attract"},
        {"trigger": "attendant_reset", "source": "handpay", "dest": "attract"},
        {"trigger": "resume_cashout", "source": RESUMABLE_FROM, "dest": "cashout"},
        {"trigger": "resume_handpay", "source": RESUMABLE_FROM, "dest": "handpay"},
        {"trigger": "operator_key_on", "source": ["attract", "game", "handpay", "tilt"], "dest": "audit"},
        {"trigger": "ram_clear", "source": "audit", "dest": "ramclear"},
        {"trigger": "ram_cleared", "source": "ramclear", "dest": "selftest"},
    ]
    table += [{"trigger": f"tilt_{t}", "source": TILTABLE_FROM, "dest": f"tilt.{t}"} for t in TILTS]
    for game_id, steps in steps_by_game.items():
        states = [f"game.{game_id}.{s}" for s in steps]
        table.append({"trigger": "start_game", "source": "attract", "dest": states[0], "game": game_id})
        table += [{"trigger": "advance", "source": a, "dest": b} for a, b in pairwise(states)]
        table += [
            {"trigger": "resume_game", "source": RESUMABLE_FROM, "dest": s, "game": game_id, "step": step}
            for s, step in zip(states, steps, strict=True)
        ]
    return table


def state_diagram(steps_by_game: Mapping[str, Sequence[str]]) -> str:
    """The state machine as a mermaid stateDiagram-v2, generated from the same tables."""

    def node(path: str) -> str:
        return path.replace(".", "__").replace("-", "_")

    lines = ["stateDiagram-v2", "    [*] --> powerup"]

    def declare(entry: Any, prefix: str, indent: str) -> None:
        if isinstance(entry, str):
            lines.append(f'{indent}state "{entry}" as {node(prefix + entry)}')
            return
        path = prefix + entry["name"]
        lines.append(f"{indent}state {node(path)} {{")
        for child in entry["children"]:
            declare(child, path + ".", indent + "    ")
        lines.append(f"{indent}}}")

    for entry in state_table(steps_by_game):
        declare(entry, "", "    ")
    for row in transition_table(steps_by_game):
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        for source in sources:
            lines.append(f"    {node(source)} --> {node(row['dest'])}: {row['trigger']}")
    return "\n".join(lines) + "\n"


def diagram_document(game_ids: Sequence[str]) -> str:
    """docs/state-diagram.md for these games (their steps come from the game classes)."""
    steps = {game_id: game_class(game_id).steps for game_id in game_ids}
    return (
        "# Cabinet state diagram\n\n"
        "Generated from the state and transition tables in `egm/cabinet.py` for the games in\n"
        "`config/cabinet.toml`; `tests/test_cabinet_diagram.py` fails when this copy is stale.\n"
        "Regenerate with `egm state-diagram --write docs/state-diagram.md`.\n\n"
        f"```mermaid\n{state_diagram(steps)}```\n"
    )


def seeded_rng(seed: int) -> Callable[[int], Rng]:
    """Deterministic replay: game number n draws from its own stream, derived from the seed."""
    return lambda number: Rng.from_seed(derive_seed(seed, "game", number))


def os_rng() -> Callable[[int], Rng]:
    """Play: one CTR_DRBG seeded from the OS serves every game."""
    rng = Rng.from_os()
    return lambda number: rng


def _wager_record(wager: Wager) -> dict[str, Any]:
    return {**dataclasses.asdict(wager), "side_bets": dict(wager.side_bets)}


class Cabinet:
    """The controller. Construct, `boot()`, then feed it events (see the module doc)."""

    def __init__(
        self,
        config: CabinetConfig,
        nvram_dir: Path | str,
        *,
        games: Mapping[str, Game],
        devices: Devices,
        jurisdiction: JurisdictionConfig,
        clock: Clock | None = None,
        rng_for_game: Callable[[int], Rng] | None = None,
        rom_check: Callable[[], Any] | None = None,
    ) -> None:
        self.config = config
        self.nvram_dir = Path(nvram_dir)
        self.games = dict(games)
        self.devices = devices
        self.jurisdiction = jurisdiction
        self.clock = clock or SystemClock()
        self.rng_for_game = rng_for_game or os_rng()
        self.rom_check = rom_check
        self.memory: WagerMemory | None = None
        self.round: Round | None = None
        self.selected_game = next(iter(self.games), "")
        self.last_outcome: dict[str, Any] | None = None
        self.session_tickets: list[dict[str, Any]] = []  # tickets issued since this boot
        self.recovered: list[str] = []  # what the boot found interrupted and finished
        self._ram_error = ""
        self._rom_problems: list[str] = []
        self._open_doors: set[Door] = set()
        self._faults: dict[tuple[str, str], str] = {}
        self._warnings: dict[tuple[str, str], str] = {}
        steps = {g: game.steps for g, game in self.games.items()}
        self.machine = CabinetMachine(
            states=state_table(steps),
            initial="powerup",
            auto_transitions=False,
            ignore_invalid_triggers=False,
            after_state_change=self._drive_devices,
        )
        for row in transition_table(steps):
            conditions = []
            if row["trigger"] == "start_game":
                conditions = [functools.partial(self._playing, row["game"], None)]
            elif row["trigger"] == "resume_game":
                conditions = [functools.partial(self._playing, row["game"], row["step"])]
            self.machine.add_transition(row["trigger"], row["source"], row["dest"], conditions=conditions)

    # --- reading -----------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        return str(self.machine.state)

    @property
    def tilt(self) -> str | None:
        """The standing tilt shown (its outside name, e.g. "ram_error"), or None."""
        tilts = self._standing_tilts()
        return TILT_NAMES[tilts[0]] if tilts else None

    @property
    def credits_cents(self) -> int:
        return self.memory.meters["current_credits"] if self.memory else 0

    @property
    def game_id(self) -> str | None:
        record = self.memory.get("game") if self.memory else None
        return record["game_id"] if record else None

    def snapshot(self) -> dict[str, Any]:
        """Everything a display needs, JSON-compatible."""
        memory = self.memory
        return {
            "state": self.state,
            "tilt": self.tilt,
            "tilts": [TILT_NAMES[t] for t in self._standing_tilts()],
            "tilt_detail": self._tilt_detail(),
            "credits_cents": self.credits_cents,
            "denomination_cents": self.config.denomination_cents,
            "games": list(self.games),
            "selected_game": self.selected_game,
            "meters": memory.meters.to_record() if memory else None,
            "game": self._round_snapshot(),
            "last_outcome": self.last_outcome,
            "scoreboard": memory.get("scoreboard", {}) if memory else {},
            "pools_cents": memory.get("pools", {}) if memory else {},
            "pending": {k: memory.get(k) for k in ("bill", "cashout", "handpay")} if memory else {},
            "tickets": memory.last_tickets() if memory else [],
            "events": memory.events(limit=10) if memory else [],
            "open_doors": sorted(d.value for d in self._open_doors),
            "warnings": sorted(self._warnings.values()),
        }

    def recall(self) -> list[dict[str, Any]]:
        """The last N games, newest first (operator menu)."""
        return self.memory.recall() if self.memory else []

    def event_log(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The event log, newest first (operator menu)."""
        return self.memory.events(limit) if self.memory else []

    def _round_snapshot(self) -> dict[str, Any] | None:
        if self.round is None or self.memory is None:
            return None
        record = self.memory.get("game")
        return {"game_id": record["game_id"], "step": self.round.step, "view": self.round.view()}

    def _tilt_detail(self) -> str:
        tilts = self._standing_tilts()
        if not tilts:
            return ""
        detail = {
            "ramerror": self._ram_error,
            "romerror": "; ".join(self._rom_problems),
            "accountingerror": self.memory.get("accounting_error", "") if self.memory else "",
            "devicefault": "; ".join(self._faults.values()),
        }
        return detail.get(tilts[0], f"{TILT_NAMES[tilts[0]].replace('_', ' ')}: close it to resume")

    def close(self) -> None:
        """Power down cleanly: close wager memory (its WAL is checkpointed into each copy)."""
        if self.memory is not None:
            self._commit(lambda tx: tx.log("power_down", "Clean power down."))
            self.memory.close()

    # --- boot --------------------------------------------------------------------------------------
    def boot(self) -> Result:
        """Power-up: self-test (ROM, wager memory), recover what a power cut interrupted, settle."""
        self.machine.trigger("power_on")
        self._open_doors = {d for d in Door if self.devices.doors.is_open(d)}
        self._run_rom_check()
        try:
            self.memory = WagerMemory.open(
                self.nvram_dir,
                clock=self.clock,
                event_log_size=self.config.event_log_size,
                recall_depth=self.jurisdiction.recall_depth,
            )
        except RamError as exc:
            self._ram_error = str(exc)
            log.error("RAM error at power-up: %s", exc)
        if self.memory is not None:
            self._power_up_records()
        self._settle()
        return Result(True, f"booted into {self.state}")

    def _power_up_records(self) -> None:
        memory = self.memory
        assert memory is not None
        last = memory.events(limit=1)
        clean = not last or last[0]["kind"] in ("power_down", "memory_initialised")
        with memory.transaction() as tx:
            if not clean:
                tx.log("power_loss", f"Power was lost after {last[0]['at']} without a clean power down.")
            tx.meters.add("power_resets", 1)
            tx.log("power_up", "Power up.", doors_open=sorted(d.value for d in self._open_doors))
            for problem in self._rom_problems:
                tx.log("rom_error", f"ROM self-test failed: {problem}")
        error = memory.meters.balance_error()
        if error and not memory.get("accounting_error"):
            self._record_accounting_error(f"meters found {error} cents off the accounting identity at boot")
        self._recover()

    def _recover(self) -> None:
        """Finish what a power cut interrupted: each pending record is settled exactly once."""
        memory = self.memory
        assert memory is not None
        bill = memory.get("bill")
        if bill is not None:
            self._credit_stacked(bill, after_power_loss=True)
            self.recovered.append("bill")
        if memory.get("cashout") is not None:
            # The validation number was committed before printing; whether or not the paper came out,
            # that ticket stands as issued, and no second ticket is printed.
            self._ticket_issued(memory.get("cashout"), after_power_loss=True)
            self.recovered.append("cashout")
        record = memory.get("game")
        if record is not None and record["game_id"] not in self.games:
            problem = f"the game in progress, '{record['game_id']}', is not installed; install it to finish"
            self._rom_problems.append(problem)
        elif record is not None:
            self.round = self.games[record["game_id"]].restore(record["round"])
            self.recovered.append(f"game at step {self.round.step}")
            if self.round.finished:
                self._finish_round()
        if memory.get("handpay") is not None:
            self.recovered.append("hand pay")

    def _run_rom_check(self) -> None:
        """Verify the program and pay-table ROM; each problem names the file and is logged."""
        if self.rom_check is None:
            self._rom_problems = []
            return
        check = self.rom_check()
        problems = [str(p) for p in check.problems]
        if self.config.kiosk and check.is_development_key:
            problems.append("kiosk mode refuses the development signing key; install a production-signed ROM")
        self._rom_problems = problems
        if problems:  # at power-up memory is not open yet: _power_up_records logs them
            self._commit(lambda tx: [tx.log("rom_error", f"ROM self-test failed: {p}") for p in problems])

    # --- events ------------------------------------------------------------------------------------
    def handle(self, event: object) -> Result:
        """Apply one input event. Refused events are logged with their reason and change nothing."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return self._refuse(event, f"{type(event).__name__} is not a cabinet event; nothing done")
        try:
            return handler(event)
        except MachineError as exc:  # handlers check first and commit only after; this is the backstop
            return self._refuse(event, f"{type(event).__name__} is not allowed in state {self.state} ({exc})")

    def poll_devices(self) -> list[Result]:
        """Handle every device report until all devices are quiet (a report may cause another)."""
        results: list[Result] = []
        for _ in range(100):
            events = [e for device in self.devices.all() for e in device.poll()]
            if not events:
                break
            results += [self.handle(e) for e in events]
        return results

    @functools.cached_property
    def _handlers(self) -> dict[type, Callable[[Any], Result]]:
        return {
            SelectGame: self._select_game,
            StartGame: self._start_game,
            PlayerDecision: self._decide,
            CashOut: self._cash_out,
            RamClear: self._ram_clear,
            RunRomCheck: self._operator_rom_check,
            DoorChanged: self._door_changed,
            KeyTurned: self._key_turned,
            BillEscrowed: self._bill_escrowed,
            BillStacked: self._bill_stacked,
            BillReturned: self._bill_returned,
            BillRejected: self._bill_rejected,
            TicketPrinted: self._ticket_printed,
            TicketFailed: self._ticket_failed,
            DeviceFault: self._device_fault,
            DeviceFaultCleared: self._device_fault_cleared,
            DeviceWarning: self._device_warning,
            ButtonChanged: self._button,
        }

    def _refuse(self, event: object, reason: str) -> Result:
        log.info("refused %s in %s: %s", event, self.state, reason)
        if self.memory is not None and not self._ram_error:
            self._commit(lambda tx: tx.log("refused", reason, event=type(event).__name__, state=self.state))
        return Result(False, reason)

    def _allowed(self, trigger: str) -> bool:
        return trigger in self.machine.get_triggers(self.state)

    def _not_now(self, event: object, what: str) -> Result:
        why = f"; {self._tilt_detail()}" if self._standing_tilts() else ""
        return self._refuse(event, f"{what} is not allowed in state {self.state}{why}")

    def _select_game(self, event: SelectGame) -> Result:
        if self.state != "attract":
            return self._not_now(event, "choosing a game")
        if event.game_id not in self.games:
            return self._refuse(event, f"unknown game '{event.game_id}'; choose one of {list(self.games)}")
        self.selected_game = event.game_id
        return ACCEPTED

    def _start_game(self, event: StartGame) -> Result:
        if not self._allowed("start_game"):
            return self._not_now(event, "starting a game")
        game_id = event.game_id or self.selected_game
        game = self.games.get(game_id)
        if game is None:
            return self._refuse(event, f"unknown game '{game_id}'; choose one of {list(self.games)}")
        denom = self.config.denomination_cents
        wager = event.wager or game.default_wager(denom)
        if wager.denom_cents != denom:
            return self._refuse(
                event, f"the wager is in {wager.denom_cents}-cent credits; bet in {denom}-cent"
            )
        stake_cents = wager.stake_credits * denom
        if stake_cents > self.credits_cents:
            return self._refuse(
                event, f"the stake of {stake_cents} cents exceeds the {self.credits_cents} cents on the meter"
            )
        if not self._check_memory("before the game"):
            return Result(False, self._tilt_detail())
        assert self.memory is not None
        number = self.memory.meters["games_played"] + 1
        pools = {name: self.memory.get("pools", {}).get(name, 0) for name in game.pool_names}
        round_ = game.new_round(wager, self.rng_for_game(number), pools)
        paytable_id = self._paytable_id(game)
        record = {
            "game_id": game_id,
            "paytable_id": paytable_id,
            "number": number,
            "wager": _wager_record(wager),
            "round": round_.to_record(),
        }

        def start(tx: Transaction) -> None:
            tx.meters.add("coin_in", stake_cents)
            tx.meters.add("current_credits", -stake_cents)
            tx.meters.add("games_played", 1)
            tx.meters.add_game(game_id, paytable_id, "coin_in", stake_cents)
            tx.meters.add_game(game_id, paytable_id, "games_played", 1)
            tx.set("game", record)

        if not self._commit(start):
            return Result(False, self._tilt_detail())
        self.round = round_
        self.selected_game = game_id
        self.machine.trigger("start_game")
        self._follow_round()
        return ACCEPTED

    def _decide(self, event: PlayerDecision) -> Result:
        if self.round is None or not self.state.startswith("game."):
            return self._not_now(event, "a player decision")
        try:
            self.round.decide(event.decision)
        except DecisionRefused as exc:
            return self._refuse(event, str(exc))
        if self.round.finished:  # the last step and the settlement are one transaction
            self._finish_round()
            return ACCEPTED
        memory = self.memory
        assert memory is not None
        record = {**memory.get("game"), "round": self.round.to_record()}
        if not self._commit(lambda tx: tx.set("game", record)):
            return Result(False, self._tilt_detail())
        self._follow_round()
        return ACCEPTED

    def _follow_round(self) -> None:
        """Move the machine to the round's step; finish the round when it is complete."""
        assert self.round is not None
        target = f"game.{self.game_id}.{self.round.step}"
        while self.state != target:
            self.machine.trigger("advance")  # a MachineError here is a game that went backwards
        if self.round.finished:
            self._finish_round()

    def _finish_round(self) -> None:
        memory = self.memory
        assert memory is not None and self.round is not None
        record = memory.get("game")
        outcome = self.round.outcome()
        denom = record["wager"]["denom_cents"]
        win_cents = outcome.win_credits * denom
        stake_cents = record["wager"]["stake_credits"] * denom
        hand_paid = requires_hand_pay(win_cents, self.jurisdiction.hand_pay_limit_cents)
        game_id, paytable_id = record["game_id"], record["paytable_id"]
        scoreboard = dict(memory.get("scoreboard", {}))
        scoreboard[game_id] = ([outcome.result_code] + scoreboard.get(game_id, []))[:SCOREBOARD_SIZE]
        result = {
            "game_id": game_id,
            "number": record["number"],
            "win_cents": win_cents,
            "stake_cents": stake_cents,
            "hand_paid": hand_paid,
            "result_code": outcome.result_code,
        }

        def finish(tx: Transaction) -> None:
            if hand_paid:
                tx.set("handpay", {"kind": "jackpot", "amount_cents": win_cents, "game": record["number"]})
                tx.log("hand_pay", f"Jackpot of {win_cents} cents locks up for a hand pay.", game=game_id)
            elif win_cents:
                tx.meters.add("coin_out", win_cents)
                tx.meters.add("current_credits", win_cents)
                tx.meters.add_game(game_id, paytable_id, "coin_out", win_cents)
            tx.meters.add("games_won" if win_cents > stake_cents else "games_lost", 1)
            if outcome.pools_cents:
                tx.set("pools", {**memory.get("pools", {}), **outcome.pools_cents})
            tx.set("scoreboard", scoreboard)
            final = {**record, "round": self.round.to_record()}
            tx.add_recall({**final, "outcome": {**result, "summary": dict(outcome.summary)}})
            tx.set("game", None)

        if not self._commit(finish):
            return
        self.round = None
        self.last_outcome = result
        if self.state.startswith("game."):
            self.machine.trigger("jackpot_lockup" if hand_paid else "game_over")
        self._check_memory("after the game")
        self._settle()

    def _cash_out(self, event: CashOut) -> Result:
        if not self._allowed("cash_out"):
            return self._not_now(event, "cashing out")
        memory = self.memory
        assert memory is not None
        amount = self.credits_cents
        if amount <= 0:
            return self._refuse(event, "there are no credits to cash out")
        if requires_hand_pay(amount, self.jurisdiction.hand_pay_limit_cents):
            if not self._commit(
                lambda tx: (
                    tx.set("handpay", {"kind": "cancelled_credits", "amount_cents": amount}),
                    tx.log("hand_pay", f"Cash-out of {amount} cents locks up for a hand pay."),
                )
            ):
                return Result(False, self._tilt_detail())
            self.machine.trigger("cash_out_handpay")
            return Result(True, "hand pay: call an attendant")
        if not self.devices.printer.ready():
            return self._refuse(event, "the ticket printer is not ready; call an attendant")
        sequence = memory.get("ticket_sequence", 0) + 1
        ticket = issue_ticket(
            bytes.fromhex(memory.get("ticket_key")),
            machine_number=self.config.machine_number,
            sequence=sequence,
            amount_cents=amount,
            issued_at=self.clock.now(),
            expiry_days=self.config.ticket_expiry_days,
        )

        def start_cash_out(tx: Transaction) -> None:
            tx.set("ticket_sequence", sequence)
            tx.set("cashout", ticket)
            tx.log("cash_out", f"Cash-out of {amount} cents: printing ticket {ticket['validation_number']}.")

        if not self._commit(start_cash_out):
            return Result(False, self._tilt_detail())
        self.machine.trigger("cash_out")
        self.devices.printer.print_ticket(
            TicketData(
                validation_number=ticket["validation_number"],
                amount_cents=amount,
                site_name=self.config.site_name,
                site_address=self.config.site_address,
                machine_number=self.config.machine_number,
                issued_at=datetime.fromisoformat(ticket["issued_at"]),
                sequence=sequence,
                expires_days=self.config.ticket_expiry_days,
            )
        )
        return ACCEPTED

    def _ticket_printed(self, event: TicketPrinted) -> Result:
        pending = self.memory.get("cashout") if self.memory else None
        if pending is None or pending["validation_number"] != event.validation_number:
            return self._refuse(
                event, f"printer confirmed ticket {event.validation_number}, which is not pending"
            )
        self._ticket_issued(pending, after_power_loss=False)
        return ACCEPTED

    def _ticket_issued(self, ticket: dict[str, Any], *, after_power_loss: bool) -> None:
        amount = ticket["amount_cents"]
        note = (
            " (printer confirmation lost in a power cut: ticket stands as issued)" if after_power_loss else ""
        )

        def issued(tx: Transaction) -> None:
            tx.meters.add("tickets_out", amount)
            tx.meters.add("cancelled_credits", amount)
            tx.meters.add("current_credits", -amount)
            tx.put_ticket(ticket["validation_number"], ticket)
            tx.set("cashout", None)
            tx.log("ticket_out", f"Ticket {ticket['validation_number']} for {amount} cents issued{note}.")

        if self._commit(issued):
            self.session_tickets.append(ticket)
            if self.state == "cashout":
                self.machine.trigger("ticket_done")
            self._settle()

    def _ticket_failed(self, event: TicketFailed) -> Result:
        pending = self.memory.get("cashout") if self.memory else None
        if pending is None or pending["validation_number"] != event.validation_number:
            return self._refuse(event, f"printer failure for ticket {event.validation_number}, not pending")

        def cancel(tx: Transaction) -> None:
            tx.set("cashout", None)
            tx.log(
                "ticket_failed",
                f"Ticket {event.validation_number} not printed: {event.reason}; credits kept.",
            )

        if self._commit(cancel) and self.state == "cashout":
            self.machine.trigger("ticket_done")
        self._settle()
        return Result(True, f"ticket not printed ({event.reason}); the credits stay on the meter")

    def _key_turned(self, event: KeyTurned) -> Result:
        if not event.on:
            if event.key is Key.OPERATOR and self.state == "audit":
                self._commit(lambda tx: tx.log("audit", "Operator menu closed."))
                self._settle(leaving_audit=True)
            return ACCEPTED
        if event.key is Key.OPERATOR:
            if not self._allowed("operator_key_on"):
                return self._not_now(event, "the operator menu")
            self._commit(lambda tx: tx.log("audit", "Operator menu opened."))
            self.machine.trigger("operator_key_on")
            return ACCEPTED
        if self.state == "handpay":
            return self._hand_pay_reset()
        if self._faults:
            return self._attendant_acknowledge()
        return self._not_now(event, "an attendant reset")

    def _attendant_acknowledge(self) -> Result:
        """The attendant has dealt with a faulted device (cleared the path, counted the cash box).

        Faults that only a person can settle (ID-003: power loss while stacking, an unconfirmed stack)
        clear now; the device reports DeviceFaultCleared on its next poll.
        """
        self._commit(lambda tx: tx.log("attendant", "Attendant key: device faults acknowledged."))
        self.devices.bill_acceptor.acknowledge_faults()
        return ACCEPTED

    def _hand_pay_reset(self) -> Result:
        memory = self.memory
        assert memory is not None
        pending = memory.get("handpay")
        amount = pending["amount_cents"]

        def paid(tx: Transaction) -> None:
            if pending["kind"] == "jackpot":
                tx.meters.add("jackpot", amount)
            else:
                tx.meters.add("handpaid_cancelled_credits", amount)
                tx.meters.add("cancelled_credits", amount)
                tx.meters.add("current_credits", -amount)
            tx.set("handpay", None)
            tx.log("hand_pay_reset", f"Attendant reset: hand pay of {amount} cents ({pending['kind']}) paid.")

        if not self._commit(paid):
            return Result(False, self._tilt_detail())
        self.machine.trigger("attendant_reset")
        self._settle()
        return ACCEPTED

    def _ram_clear(self, event: RamClear) -> Result:
        if not self._allowed("ram_clear"):
            return self._not_now(event, "a RAM clear (operator menu only)")
        if self.memory is not None:
            self.memory.close()
        self.memory = WagerMemory.clear(
            self.nvram_dir,
            clock=self.clock,
            event_log_size=self.config.event_log_size,
            recall_depth=self.jurisdiction.recall_depth,
        )
        self._ram_error = ""
        self.round = None
        self.last_outcome = None
        self._commit(
            lambda tx: tx.log("ram_clear", "RAM clear by the operator: meters, recall and log erased.")
        )
        self.machine.trigger("ram_clear")
        self.machine.trigger("ram_cleared")
        self._run_rom_check()
        self._settle()
        return ACCEPTED

    def _operator_rom_check(self, event: RunRomCheck) -> Result:
        if self.state != "audit":
            return self._not_now(event, "a ROM check (operator menu only)")
        self._run_rom_check()
        problems = "; ".join(self._rom_problems)
        self._commit(lambda tx: tx.log("rom_check", f"ROM check: {problems or 'all files verified'}."))
        return Result(not self._rom_problems, problems or "ROM verified")

    def _door_changed(self, event: DoorChanged) -> Result:
        was_open = event.door in self._open_doors
        if event.open == was_open:
            return ACCEPTED
        name = event.door.value.replace("_", " ")
        if event.open:
            self._open_doors.add(event.door)

            def opened(tx: Transaction) -> None:
                tx.meters.add("door_opens", 1)
                tx.log("door_open", f"{name.capitalize()} door opened.", door=event.door.value)

            self._commit(opened)
        else:
            self._open_doors.discard(event.door)
            self._check_memory("at door close")  # before anything is written over a damaged record
            self._run_rom_check()
            self._commit(
                lambda tx: tx.log("door_close", f"{name.capitalize()} door closed.", door=event.door.value)
            )
        self._settle()
        return ACCEPTED

    def _device_fault(self, event: DeviceFault) -> Result:
        self._faults[(event.device, event.kind)] = event.message
        self._commit(lambda tx: tx.log("device_fault", event.message, device=event.device, fault=event.kind))
        self._settle()
        return ACCEPTED

    def _device_fault_cleared(self, event: DeviceFaultCleared) -> Result:
        if self._faults.pop((event.device, event.kind), None) is not None:
            self._commit(lambda tx: tx.log("device_fault_cleared", f"{event.device} {event.kind} cleared."))
        self._settle()
        return ACCEPTED

    def _device_warning(self, event: DeviceWarning) -> Result:
        """A condition for the attendant that does not stop play (printer paper low)."""
        if event.active:
            self._warnings[(event.device, event.kind)] = event.message
            self._commit(lambda tx: tx.log("device_warning", event.message, device=event.device))
        elif self._warnings.pop((event.device, event.kind), None) is not None:
            self._commit(lambda tx: tx.log("device_warning_cleared", f"{event.device} {event.kind} cleared."))
        return ACCEPTED

    def _bill_escrowed(self, event: BillEscrowed) -> Result:
        acceptor = self.devices.bill_acceptor
        if self.state != "attract" or self.memory is None or self.memory.get("bill") is not None:
            acceptor.return_escrow()
            return self._not_now(event, "inserting a bill or ticket")
        if event.barcode is not None:
            try:
                ticket = check_redemption(
                    bytes.fromhex(self.memory.get("ticket_key")),
                    self.memory.tickets,
                    event.barcode,
                    event.amount_cents,
                    self.clock.now(),
                )
            except TicketRefused as exc:
                acceptor.return_escrow()
                return self._refuse(event, str(exc))
            pending = {"barcode": event.barcode, "amount_cents": ticket["amount_cents"]}
        else:
            if event.amount_cents not in self.config.bill_denominations_cents:
                acceptor.return_escrow()
                enabled = self.config.bill_denominations_cents
                return self._refuse(
                    event,
                    f"a {event.amount_cents}-cent note is not an enabled denomination {enabled}; returned",
                )
            pending = {"barcode": None, "amount_cents": event.amount_cents}
        if not self._commit(lambda tx: tx.set("bill", pending)):
            acceptor.return_escrow()
            return Result(False, self._tilt_detail())
        acceptor.stack()
        return ACCEPTED

    def _bill_stacked(self, event: BillStacked) -> Result:
        pending = self.memory.get("bill") if self.memory else None
        if pending is None or pending["barcode"] != event.barcode:
            return self._refuse(
                event, "the acceptor stacked an item the cabinet did not escrow; call an attendant"
            )
        self._credit_stacked(pending, after_power_loss=False)
        return ACCEPTED

    def _credit_stacked(self, pending: dict[str, Any], *, after_power_loss: bool) -> None:
        memory = self.memory
        assert memory is not None
        amount, barcode = pending["amount_cents"], pending["barcode"]
        note = " (settled after a power loss)" if after_power_loss else ""

        def credit(tx: Transaction) -> None:
            if barcode is None:
                tx.meters.add_bill(amount)
                tx.log("bill_in", f"{amount}-cent note stacked and credited{note}.")
            else:
                tx.meters.add("tickets_in", amount)
                tx.meters.add("current_credits", amount)
                redeemed = {**memory.tickets[barcode], "status": "redeemed", "redeemed_at": tx.now}
                tx.put_ticket(barcode, redeemed)
                tx.log("ticket_in", f"Ticket {barcode} for {amount} cents redeemed{note}.")
            tx.set("bill", None)

        self._commit(credit)

    def _bill_returned(self, event: BillReturned) -> Result:
        if self.memory is not None and self.memory.get("bill") is not None:
            self._commit(
                lambda tx: (tx.set("bill", None), tx.log("bill_returned", "Escrowed item returned."))
            )
        return ACCEPTED

    def _bill_rejected(self, event: BillRejected) -> Result:
        return self._refuse(event, f"bill acceptor rejected the item: {event.reason}")

    def _button(self, event: ButtonChanged) -> Result:
        if not event.pressed:
            return ACCEPTED
        if event.button == "cash_out":
            return self._cash_out(CashOut())
        if event.button in ("deal", "play"):
            return self._start_game(StartGame())
        return self._refuse(event, f"the {event.button} button has no function in state {self.state}")

    # --- machinery ---------------------------------------------------------------------------------
    def _commit(self, change: Callable[[Transaction], object]) -> bool:
        """Run `change` in one wager-memory transaction. A breach of the accounting identity or a
        memory failure commits nothing and raises the matching tilt instead (returns False)."""
        if self.memory is None or self._ram_error:
            return False
        try:
            with self.memory.transaction() as tx:
                change(tx)
        except AccountingBreach as exc:
            self._record_accounting_error(str(exc))
            return False
        except sqlite3.Error as exc:  # the memory could not be written: nothing may be acknowledged
            self._enter_ram_error(f"wager memory write failed ({exc}); an operator RAM clear is required")
            return False
        return True

    def _record_accounting_error(self, message: str) -> None:
        assert self.memory is not None
        with self.memory.transaction() as tx:
            tx.set("accounting_error", message)
            tx.log("accounting_error", f"Accounting error: {message}. Operator RAM clear required.")
        self._settle()

    def _enter_ram_error(self, message: str) -> None:
        self._ram_error = message
        log.error("RAM error: %s", message)
        self._settle()

    def _check_memory(self, when: str) -> bool:
        """Verify both copies of the critical records; a lost memory is a RAM-error tilt."""
        if self.memory is None or self._ram_error:
            return False
        try:
            self.memory.verify()
        except RamError as exc:
            self._enter_ram_error(f"{exc} (found {when})")
            return False
        return True

    def _standing_tilts(self) -> list[str]:
        standing = {
            "ramerror": bool(self._ram_error),
            "romerror": bool(self._rom_problems),
            "accountingerror": bool(self.memory and self.memory.get("accounting_error")),
            "devicefault": bool(self._faults),
        }
        standing.update({tilt: door in self._open_doors for door, tilt in DOOR_TILTS.items()})
        return [t for t in TILTS if standing[t]]

    def _target(self) -> tuple[str, str]:
        """Where the standing conditions say the machine belongs: (state, trigger that gets there)."""
        tilts = self._standing_tilts()
        memory = self.memory
        if tilts:
            return f"tilt.{tilts[0]}", f"tilt_{tilts[0]}"
        assert memory is not None
        if memory.get("handpay") is not None:
            return "handpay", "resume_handpay"
        if memory.get("cashout") is not None:
            return "cashout", "resume_cashout"
        if self.round is not None:
            return f"game.{self.game_id}.{self.round.step}", "resume_game"
        return "attract", "idle"

    def _settle(self, *, leaving_audit: bool = False) -> None:
        """Move to the state the standing conditions call for (the operator menu stays until closed)."""
        if self.state in ("powerup", "ramclear") or (self.state == "audit" and not leaving_audit):
            return
        target, trigger = self._target()
        if target != self.state and self._allowed(trigger):
            self.machine.trigger(trigger)

    def _playing(self, game_id: str, step: str | None) -> bool:
        """Condition of start_game / resume_game: the round in progress is this game (at this step)."""
        return (
            self.round is not None and self.game_id == game_id and (step is None or self.round.step == step)
        )

    def _paytable_id(self, game: Game) -> str:
        return str(getattr(game.paytable, "id", game.game_id))

    def _drive_devices(self) -> None:
        """After every state change: notes and tickets are accepted only on the attract screen."""
        acceptor = self.devices.bill_acceptor
        if self.state == "attract":
            acceptor.enable(frozenset(self.config.bill_denominations_cents), tickets=True)
        else:
            acceptor.inhibit()
        panel = self.devices.button_panel
        panel.set_lamp("cash_out", LampState.ON if self.state == "attract" else LampState.OFF)
        panel.set_lamp("deal", LampState.FLASH if self.state == "attract" else LampState.OFF)
        panel.set_lamp(
            "service", LampState.FLASH if self.state.startswith(("handpay", "tilt")) else LampState.OFF
        )


def build_cabinet(
    config: CabinetConfig,
    nvram_dir: Path | str,
    *,
    game_ids: Sequence[str] | None = None,
    seed: int | None = None,
    clock: Clock | None = None,
    devices: Devices | None = None,
    root: Path = PROJECT_ROOT,
) -> Cabinet:
    """A cabinet as configured: devices from config, each game with its pay table from the ROM.

    A pay table the ROM refuses leaves its game out and stands as a ROM problem (a rom_error tilt).
    `seed` gives deterministic replay (tests, lab); without it the RNG is seeded from the OS.
    """
    from egm.rom import PaytableError, RomProblem, configured_paths, load_paytable, verify_rom

    manifest_path, trusted_keys = configured_paths(config, root)
    games: dict[str, Game] = {}
    refused: list[RomProblem] = []
    if not verify_rom(root, trusted_keys, manifest_path).ok:
        # Load no game code from a ROM that failed its self-test: the cabinet boots into the ROM tilt,
        # and only a power cycle after the ROM is restored loads the games.
        game_ids = ()
        refused.append(RomProblem("paytables", "changed", "no game loaded; restore the ROM and power-cycle"))
    for game_id in game_ids if game_ids is not None else config.games:
        path = root / "paytables" / f"{game_id}.toml"
        try:
            paytable = load_paytable(path, root=root, trusted_keys=trusted_keys, manifest_path=manifest_path)
        except PaytableError as exc:
            refused.append(RomProblem(f"paytables/{game_id}.toml", "changed", f"pay table refused: {exc}"))
            continue
        games[game_id] = game_class(game_id)(paytable)

    def rom_check() -> Any:
        check = verify_rom(root, trusted_keys, manifest_path)
        return dataclasses.replace(check, problems=[*check.problems, *refused])

    return Cabinet(
        config,
        nvram_dir,
        games=games,
        devices=devices or build_devices(config, clock=clock),
        jurisdiction=load_jurisdiction(config.jurisdiction),
        clock=clock,
        rng_for_game=seeded_rng(seed) if seed is not None else None,
        rom_check=rom_check,
    )

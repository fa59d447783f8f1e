"""What every part of the cabinet shares: its state, reading, event dispatch and the money machinery.

Each concern of the cabinet (play, credit in, cash out, service, ...) is a `CabinetPart`: a class that
contributes its event handlers as `handlers`, a mapping from event type to handler function, declared
by reference at the end of its class body:

    class CreditInPart(CabinetPart):
        def _bill_stacked(self, event: BillStacked) -> Result: ...
        handlers = {BillStacked: _bill_stacked, ...}

The Cabinet is the union of its parts (see build.py); `handle()` dispatches each event to the one part
that handles its type. Two parts claiming the same event type is a TypeError when a class combines them.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import types
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from transitions import MachineError

from egm.clock import SetClock
from egm.config import CabinetConfig, JurisdictionConfig
from egm.events import Door, Result
from egm.games.base import Game, Round
from egm.memory.errors import AccountingBreach, RamError
from egm.memory.evidence import Evidence, best_evidence
from egm.memory.store import Transaction, WagerMemory
from egm.meters import METER_DIGITS, ROLLOVER
from egm.money import format_cents
from egm.rng import Rng
from hardware.factory import Devices
from hardware.interfaces import LampState

from .machine import DOOR_TILTS, TILT_NAMES, TILTS, CabinetMachine

log = logging.getLogger("egm.cabinet")

STATE_WORDS = (  # state prefix -> the words a refusal uses for it
    ("game.", "during a game; finish the game first"),
    ("tilt", "while the machine is out of service"),
    ("handpay", "while a hand pay is waiting for the attendant"),
    ("cashout", "while a ticket is printing"),
    ("audit", "while the operator menu is open"),
    ("attract", "now"),
    ("powerup", "while the machine starts"),
    ("selftest", "while the machine checks itself"),
    ("ramclear", "while the memory is cleared"),
)

Handler = Callable[[Any, Any], Result]  # (cabinet, event) -> Result


class CabinetPart:
    """The state every part works on, and the machinery they share (the Cabinet sets it up)."""

    handlers: ClassVar[Mapping[type, Handler]] = {}

    config: CabinetConfig
    nvram_dir: Path
    games: dict[str, Game]
    devices: Devices
    jurisdiction: JurisdictionConfig
    clock: SetClock
    rng_for_game: Callable[[int], Rng]
    rom_check: Callable[[], Any] | None
    memory: WagerMemory | None
    round: Round | None
    selected_game: str
    last_outcome: dict[str, Any] | None
    session_tickets: list[dict[str, Any]]
    recovered: list[str]
    machine: CabinetMachine
    _ram_error: str
    memory_busy: bool
    _evidence: tuple[str, Evidence | None] | None  # (the RAM error, what its memory still holds)
    _rom_problems: list[str]
    _rom_files: int  # files the last ROM check verified
    _open_doors: set[Door]
    _faults: dict[tuple[str, str], str]
    _attendant_key_on: bool  # the attendant key switch is turned on now (service.ServicePart)
    _warnings: dict[tuple[str, str], str]
    unavailable_games: dict[str, str]  # game id -> why it is out of service (its pay table cannot be played)
    credit_limit_cents: int  # the credit limit in force (settings.SettingsPart), 0: none
    default_denomination_cents: int  # shown until the player chooses (settings.SettingsPart)
    denomination_cents: int  # the denomination in force (play.PlayPart)
    player_denominations: Callable[[], list[int]]  # what the player may choose (play.PlayPart)
    _cash_out: Callable[[Any], Result]  # cash_out.CashOutPart
    _apply_settings: Callable[[], None]  # the kept settings over the configuration (settings.SettingsPart)
    _kept_clock: Callable[[], dict[str, int]]  # the date and time setting, kept across a RAM clear (settings)
    _owed_to_player: Callable[[], list[str]]  # to settle before a RAM clear or jurisdiction change
    _ram_clear_problem: Callable[[], str | None]  # why a RAM clear would be refused now (egm.cabinet.service)
    _run_rom_check: Callable[[str], None]  # the ROM self-test, logged (service.ServicePart)
    bet_levels: Callable[[str], tuple[int, ...]]  # the bet levels a game offers now (settings.SettingsPart)
    display_attached: bool
    _panel_presses: list[str]
    _server_tilt: bool  # a round waited on an unreachable game server too long (remote_play)
    _poll_links: Callable[[], list[object]]  # the game server's answers, polled like a device (remote_play)
    waiting_for_server: Callable[[], str]  # why the cabinet waits on the game server, or "" (remote_play)
    _send_asked: Callable[[], None]  # send the decision staged on a remote round (remote_play)
    _server_tilt_detail: Callable[[], str]
    _start_remote: Callable[..., Result]  # a game server's round: the pending start (remote_play)
    game_server_status: Callable[[], dict[str, Any] | None]

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

    def _credit_refusal(self, amount_cents: int) -> str:
        """Why the credit meter cannot take `amount_cents` more now, or "". The one check of every way
        credit comes in (a note, a ticket, a host-authorised ticket, an AFT transfer in), asked before
        the item is stacked or the transfer acknowledged; a note or ticket pending counts as credit."""
        pending = self.memory.get("bill") if self.memory else None
        held = self.credits_cents + (pending["amount_cents"] if pending else 0)
        limit = self.credit_limit_cents
        if limit and held + amount_cents > limit:
            return f"That would take your credit past this machine's limit of {format_cents(limit)}"
        if held + amount_cents >= ROLLOVER:
            return f"That would take your credit past the {METER_DIGITS} digits of the credit meter"
        return ""

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
            "denomination_cents": self.denomination_cents,  # the credit meter is shown in its credits
            "denominations_cents": self.player_denominations(),
            "accounting_denomination_cents": self.config.denomination_cents,
            "games": list(self.games),
            "games_unavailable": dict(self.unavailable_games),  # game id -> why it is out of service
            "selected_game": self.selected_game,
            "meters": memory.meters.to_record() if memory else None,
            "game": self._round_snapshot(),
            "last_outcome": self.last_outcome,
            "scoreboard": memory.get("scoreboard", {}) if memory else {},
            "pools_cents": memory.get("pools", {}) if memory else {},
            "pool_meters": memory.get("pool_meters", {}) if memory else {},
            "pending": {k: memory.get(k) for k in ("bill", "cashout", "handpay")} if memory else {},
            "tickets": memory.last_tickets() if memory else [],
            "events": memory.events(limit=10) if memory else [],
            "open_doors": sorted(d.value for d in self._open_doors),
            "warnings": sorted(self._warnings.values()),
            "faults": {device: message for (device, _), message in self._faults.items()},
            "attendant_key": self._attendant_key_on,
            "unreconciled": self._unreconciled_item(),
            "ram_clear_evidence": evidence.describe() if (evidence := self._unverified_evidence()) else None,
            "game_server": self.game_server_status(),
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

    def _unverified_evidence(self) -> Evidence | None:
        """What this cabinet's memory in RAM error still holds, read once per RAM error (read-only);
        None when the memory is sound, unreadable, or another process's."""
        if not self._ram_error or self.memory_busy:
            return None
        if self._evidence is None or self._evidence[0] != self._ram_error:
            self._evidence = (self._ram_error, best_evidence(self.nvram_dir))
        return self._evidence[1]

    def _tilt_detail(self) -> str:
        tilts = self._standing_tilts()
        if not tilts:
            return ""
        detail = {
            "ramerror": self._ram_error,
            "romerror": "; ".join(self._rom_problems),
            "accountingerror": self.memory.get("accounting_error", "") if self.memory else "",
            "devicefault": "; ".join(filter(None, [*self._faults.values(), self._unreconciled_bill()])),
            "gameserver": self._server_tilt_detail() if self._server_tilt else "",
        }
        return detail.get(tilts[0], f"{TILT_NAMES[tilts[0]].replace('_', ' ')}: close it to resume")

    # --- events ------------------------------------------------------------------------------------
    def handle(self, event: object) -> Result:
        """Apply one input event. Refused events are logged with their reason and change nothing."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return self._refuse(event, f"{type(event).__name__} is not a cabinet event; nothing was done.")
        try:
            return handler(event)
        except MachineError as exc:  # handlers check first and commit only after; this is the backstop
            return self._refuse(event, f"{type(event).__name__} is not allowed in state {self.state} "
                                       f"({exc}).")

    def poll_devices(self) -> list[Result]:
        """Handle every device report until all devices are quiet (a report may cause another)."""
        results: list[Result] = []
        for _ in range(100):
            events = [e for device in self.devices.all() for e in device.poll()] + self._poll_links()
            if not events:
                break
            results += [self.handle(e) for e in events]
        return results

    @functools.cached_property
    def _handlers(self) -> dict[type, Callable[[Any], Result]]:
        """Every part's handlers, bound to this cabinet."""
        return {
            event_type: types.MethodType(h, self) for event_type, h in type(self).event_handlers().items()
        }

    @classmethod
    def event_handlers(cls) -> dict[type, Handler]:
        """The handlers of every part this class is made of; an event type belongs to exactly one part."""
        table: dict[type, Handler] = {}
        owners: dict[type, str] = {}
        for part in cls.__mro__:
            for event_type, handler in vars(part).get("handlers", {}).items():
                if event_type in owners:
                    raise TypeError(
                        f"{event_type.__name__} is handled by both {owners[event_type]} and {part.__name__}"
                    )
                owners[event_type] = part.__name__
                table[event_type] = handler
        return table

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.event_handlers()  # two parts claiming one event type fail when they are combined, not later

    def _refuse(self, event: object, reason: str) -> Result:
        log.info("refused %s in %s: %s", event, self.state, reason)
        if self.memory is not None and not self._ram_error:
            self._commit(lambda tx: tx.log("refused", reason, event=type(event).__name__, state=self.state))
        return Result(False, reason)

    def _allowed(self, trigger: str) -> bool:
        return trigger in self.machine.get_triggers(self.state)

    def _not_now(self, event: object, what: str) -> Result:
        """Refuse `what` in this state, in a sentence a player or attendant understands (the state's
        internal name stays in the log's detail)."""
        why = f": {self._tilt_detail()}" if self._standing_tilts() else ""
        return self._refuse(event, f"{what[:1].upper()}{what[1:]} is not allowed {self._when()}{why}.")

    def _when(self) -> str:
        """The machine's state in words, e.g. "during a game"."""
        state = self.state
        for prefix, words in STATE_WORDS:
            if state.startswith(prefix):
                return words
        return "now"

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
        except RamError as exc:  # not committed (the memory says why): nothing may be acknowledged
            self._enter_ram_error(str(exc))
            return False
        except (sqlite3.Error, OSError) as exc:  # a storage error is a RAM-error tilt, never a crash
            self._enter_ram_error(f"wager memory write failed ({exc}); an operator RAM clear is required")
            return False
        return True

    def _record_accounting_error(self, message: str) -> None:
        assert self.memory is not None

        try:
            with self.memory.transaction() as tx:
                tx.set("accounting_error", message)
                tx.log("accounting_error", f"Accounting error: {message}. Operator RAM clear required.")
        except (RamError, sqlite3.Error, OSError) as exc:
            self._enter_ram_error(f"{exc} (while recording an accounting error: {message})")
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

    def _unreconciled_item(self) -> dict[str, Any] | None:
        """The pending note or ticket the attendant must reconcile ({amount_cents, barcode}), or None."""
        pending = self.memory.get("bill") if self.memory else None
        if not pending or not pending.get("unreconciled"):
            return None
        return {"amount_cents": pending["amount_cents"], "barcode": pending["barcode"]}

    def _unreconciled_bill(self) -> str:
        """The sentence of a pending note or ticket the attendant must reconcile, or ""."""
        pending = self.memory.get("bill") if self.memory else None
        return str(pending.get("unreconciled", "")) if pending else ""

    def _standing_tilts(self) -> list[str]:
        standing = {
            "ramerror": bool(self._ram_error),
            "romerror": bool(self._rom_problems),
            "accountingerror": bool(self.memory and self.memory.get("accounting_error")),
            "devicefault": bool(self._faults) or bool(self._unreconciled_bill()),
            "gameserver": self._server_tilt,
        }
        standing.update({tilt: door in self._open_doors for door, tilt in DOOR_TILTS.items()})
        return [t for t in TILTS if standing[t]]

    def _target(self) -> tuple[str, str]:
        """Where the standing conditions say the machine belongs: (state, trigger that gets there)."""
        tilts = self._standing_tilts()
        memory = self.memory
        # a cash-out under way needs only the printer and a hand pay only the attendant: a device
        # fault (a jammed bill acceptor) waits until they are done
        paying = memory is not None and any(memory.get(k) is not None for k in ("handpay", "cashout"))
        if tilts and not (tilts == ["devicefault"] and paying):
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

    # --- hooks the host link (egm.host) answers; without it, these defaults ------------------------
    def _lockout(self) -> str:
        """Why play and money in are refused now (the host disabled or locked the machine), or ""."""
        return ""

    def _host_numbers_tickets(self) -> bool:
        """True when the casino host gives cash-out tickets their validation numbers."""
        return False

    def _host_redeems(self) -> bool:
        """True when the casino host decides whether a ticket inserted is paid."""
        return False

    def _request_validation(self, amount: int) -> Result:
        """Ask the casino host for a cash-out ticket's validation number."""
        return Result(False, "no host link numbers tickets on this cabinet")

    def _host_ticket_escrowed(self, event: Any) -> Result:
        """Hold a ticket in escrow until the casino host decides on it."""
        return Result(False, "no host link redeems tickets on this cabinet")

    def _ticket_credited(self, tx: Transaction, pending: Mapping[str, Any]) -> None:
        """Called inside the transaction that credits a stacked ticket."""

    def _set_clock(self, new: datetime, kind: str, message: str) -> bool:
        """Set the cabinet's date and time, logged (the Settings part answers)."""
        raise NotImplementedError

    def _drive_devices(self) -> None:
        """After every state change: notes and tickets are accepted only on the attract screen."""
        acceptor = self.devices.bill_acceptor
        if self.state == "attract" and not self._lockout():
            acceptor.enable(frozenset(self.config.bill_denominations_cents), tickets=True)
        else:
            acceptor.inhibit()
        panel = self.devices.button_panel
        cash_out = self.state == "attract" or (
            self.state == "tilt.devicefault" and self.devices.printer.ready()
        )
        panel.set_lamp("cash_out", LampState.ON if cash_out else LampState.OFF)
        panel.set_lamp("deal", LampState.FLASH if self.state == "attract" else LampState.OFF)
        service = LampState.ON if self._warnings else LampState.OFF  # e.g. paper low: soon, not now
        if self.state.startswith(("handpay", "tilt")):
            service = LampState.FLASH
        panel.set_lamp("service", service)

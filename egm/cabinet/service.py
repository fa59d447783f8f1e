"""Service: the keys, the doors, device faults and warnings, the operator menu, RAM clear, the ROM check."""

from __future__ import annotations

from egm.events import (
    ACCEPTED,
    DeviceFault,
    DeviceFaultCleared,
    DeviceWarning,
    DoorChanged,
    Key,
    KeyTurned,
    RamClear,
    Result,
    RunRomCheck,
)
from egm.memory.errors import RamError
from egm.memory.evidence import PENDING, Evidence
from egm.memory.store import Transaction, WagerMemory
from egm.money import format_cents

from .core import CabinetPart


def rom_check_message(when: str, problems: list[str], files: int) -> str:
    """The event log's line for one ROM check.

    >>> rom_check_message("at power-up", [], 212)
    'ROM check at power-up: all 212 files verified.'
    """
    if problems:
        return f"ROM check {when}: FAILED, {len(problems)} problem(s)."
    return f"ROM check {when}: all {files} files verified."


class ServicePart(CabinetPart):
    """Handles KeyTurned, DoorChanged, device faults and warnings, RamClear and RunRomCheck."""

    def _key_turned(self, event: KeyTurned) -> Result:
        if event.key is Key.ATTENDANT:
            self._attendant_key_on = event.on
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

        Faults that only a person can settle (ID-003: an unconfirmed stack, a stack nobody asked for)
        clear now; the device reports DeviceFaultCleared on its next poll. An unreconciled pending
        bill is settled separately, by `ReconcileBill` (credit_in).
        """
        self._commit(lambda tx: tx.log("attendant", "Attendant key: device faults acknowledged."))
        self.devices.bill_acceptor.acknowledge_faults()
        return ACCEPTED

    def _ram_clear(self, event: RamClear) -> Result:
        if not self._allowed("ram_clear"):
            return self._not_now(event, "a RAM clear (operator menu only)")
        problem = self._ram_clear_problem()
        if problem:
            return self._refuse(event, problem)
        evidence = self._memory_before_clear()
        offered = evidence.credit_cents if evidence is not None and not evidence.verified else 0
        if event.hand_pay_cents and event.hand_pay_cents != offered:
            return self._refuse(
                event,
                f"RAM clear refused: the hand pay must be the {format_cents(offered)} of credit read from "
                f"the memory, not {format_cents(event.hand_pay_cents)}.",
            )
        clock = self._kept_clock()
        was_open, self.memory = self.memory, None
        if was_open is not None:
            was_open.close()
        try:
            self.memory = WagerMemory.clear(
                self.nvram_dir,
                clock=self.clock,
                event_log_size=self.config.event_log_size,
                recall_depth=self.jurisdiction.recall_depth,
            )
        except RamError as exc:  # held by another process (nothing touched), or storage failed
            self._ram_error = self._ram_error or str(exc)
            self._settle()
            return self._refuse(event, f"RAM clear refused: {exc}.")
        self._ram_error = ""
        self.memory_busy = False
        if clock:  # the date and time is the cabinet's clock, not an accounting value: it stays set
            self._commit(lambda tx: tx.set("settings", clock))
        self._apply_settings()  # the configuration files' settings again
        self.round = None
        self.last_outcome = None
        self._run_rom_check("after the RAM clear")  # logged first: the clear's own entry stays the newest
        self._commit(lambda tx: self._log_ram_clear(tx, evidence, event.hand_pay_cents))
        self.machine.trigger("ram_clear")
        self.machine.trigger("ram_cleared")
        self._settle()
        return ACCEPTED

    def _ram_clear_problem(self) -> str | None:
        """Why a RAM clear would be refused now (the operator menu keeps its lamp dark), or None."""
        owed = self._owed_to_player()
        return f"RAM clear refused: settle {' and '.join(owed)} first." if owed else None

    def _memory_before_clear(self) -> Evidence | None:
        """The credit, meters and game in progress before a clear: the committed memory's, or, for a
        memory in RAM error, the best surviving evidence (None when nothing could be read)."""
        memory = self.memory
        if memory is None or self._ram_error:
            return self._unverified_evidence()
        records = {"meters": memory.meters.to_record(), **{k: memory.get(k) for k in ("game", *PENDING)}}
        return Evidence.from_records(records, "the committed memory", verified=True)

    @staticmethod
    def _log_ram_clear(tx: Transaction, evidence: Evidence | None, hand_paid: int) -> None:
        """The clear's record, the first entry of the fresh memory: what it erased, read from where."""
        if evidence is None:
            what = "nothing of the memory could be read: the credit is unknown"
            evidence = Evidence("nothing readable", False, {})
        else:
            what = f"credit on the meter before the clear: {format_cents(evidence.credit_cents)}"
            what += "" if evidence.verified else f", read from {evidence.source}, unverified"
            what += "; a game was in progress" if evidence.game else ""
        tx.log(
            "ram_clear",
            f"RAM clear by the operator: meters, recall and log erased ({what}).",
            final_meters=evidence.meters,
            game_in_progress=evidence.game,
            pending=evidence.pending,
            evidence=evidence.source,
            verified=evidence.verified,
            hand_paid_cents=hand_paid,
        )
        if hand_paid:
            tx.log(
                "ram_clear_handpay",
                f"Hand pay of {format_cents(hand_paid)} by the attendant: the credit read from "
                f"{evidence.source} before the RAM clear (outside the fresh meters).",
                amount_cents=hand_paid,
            )

    def _owed_to_player(self) -> list[str]:
        """What belongs to a player and would be wiped by a RAM clear (or judged under other rules by a
        change of jurisdiction): each names what to settle first. A RAM-error or accounting-error tilt's
        memory cannot be trusted, so it cannot hold the clear back."""
        memory = self.memory
        if memory is None or self._ram_error or memory.get("accounting_error"):
            return []  # the clear is the only way out of these tilts; its log entry keeps the final meters
        owed = []
        if self.credits_cents:
            credit = format_cents(self.credits_cents)
            owed.append(f"the {credit} of credit on the meter (cash out or hand pay it)")
        handpay = memory.get("handpay")
        if handpay is not None:
            amount = format_cents(int(handpay["amount_cents"]))
            owed.append(f"the pending hand pay of {amount} (attendant key)")
        if memory.get("cashout") is not None:
            owed.append("the ticket being printed")
        if self.round is not None:
            owed.append("the game in progress (close the operator menu and finish it)")
        return owed

    def _operator_rom_check(self, event: RunRomCheck) -> Result:
        if self.state != "audit":
            return self._not_now(event, "a ROM check (operator menu only)")
        self._run_rom_check("by the operator")
        problems = "; ".join(self._rom_problems)
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
        self._drive_devices()  # the service lamp shows a warning
        return ACCEPTED

    def _run_rom_check(self, when: str = "at door close") -> None:
        """Verify the program and pay-table ROM; the result, and each problem naming its file, is
        logged (at power-up memory is not open yet: _power_up_records logs it)."""
        if self.rom_check is None:
            self._rom_problems = []
            return
        check = self.rom_check()
        problems = [str(p) for p in check.problems]
        if self.config.kiosk and check.is_development_key:
            problems.append("kiosk mode refuses the development signing key; install a production-signed ROM")
        self._rom_problems = problems
        self._rom_files = check.file_count

        def logged(tx: Transaction) -> None:
            tx.log("rom_check", rom_check_message(when, problems, check.file_count), files=check.file_count)
            for p in problems:
                tx.log("rom_error", f"ROM self-test failed: {p}")

        self._commit(logged)

    handlers = {
        KeyTurned: _key_turned,
        DoorChanged: _door_changed,
        DeviceFault: _device_fault,
        DeviceFaultCleared: _device_fault_cleared,
        DeviceWarning: _device_warning,
        RamClear: _ram_clear,
        RunRomCheck: _operator_rom_check,
    }

"""The cabinet's SAS part: it answers the casino host's polls (docs/sas.md).

`HostPart` is one more part of the cabinet (see egm.cabinet.core.CabinetPart). The SAS port reports
each new poll as a `HostPoll` event; the part answers through `devices.host_link.reply()`. What it
answers comes from wager memory: meters from one read of `memory.meters`, the exception queue, the
ticket buffer and the AFT history from records. Money moves (ticket redemption, AFT) are committed
before they are acknowledged; the exception queue's bookkeeping is committed just after the reply,
so a general poll is never kept waiting on a disk write (a power cut in between reports the
exception again: the host may hear one twice, never zero times).

Polls answered here: the general poll, meters 0x0F-0x20, 0x2A, 0x2B, 0x2F, 0x6F (egm.host.meters),
0x01/0x02 shutdown and startup, 0x0E real-time reporting, 0x1F machine id, 0x21 ROM signature,
0x54 version and serial number, 0x55 selected game, 0x7E/0x7F date and time; ticket validation and
redemption (egm.cabinet.tito) and AFT (egm.cabinet.aft).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from egm.config import PROJECT_ROOT
from egm.events import ACCEPTED, Result
from egm.host.exceptions import NO_ACTIVITY, RAM_ERROR_NOT_RECOVERED, ExceptionQueue
from egm.host.meters import SasMeters
from egm.memory.store import Transaction
from hardware.interfaces import HostAcknowledged, HostLinkChanged, HostPoll
from hardware.serial.crc import SeededCrc16
from hardware.serial.sas_protocol import BcdError, ack, bcd, encode_reply, from_bcd

from .aft import AftPart
from .host_base import LongPollHandler
from .settings import date_problem
from .tito import TitoPart

SAS_VERSION = b"602"
MACHINE = "sas_machine"  # record: enabled, reason, real-time reporting
QUEUE = "sas_exceptions"  # record: the exception queue (egm.host.exceptions)
ROM_CHECKED = frozenset({"door_close", "rom_check", "ram_clear"})  # the cabinet re-verified its ROM
SHUTDOWN_REASON = "the casino host has disabled this machine (SAS shutdown); call an attendant"


@dataclass
class HostLinkState:
    """What the SAS part keeps between polls and loses with the power (nothing that moves money)."""

    queue: ExceptionQueue | None = None  # the committed queue plus what is not written yet
    queue_dirty: bool = False
    sent: int | None = None  # the exception reported and not yet acknowledged
    games_at_power_up: int | None = None
    games_at_door_close: int | None = None
    rom_signature: SeededCrc16 | None = None


class HostPart(TitoPart, AftPart):
    """Handles HostPoll, HostAcknowledged and HostLinkChanged."""

    @functools.cached_property
    def _sas_state(self) -> HostLinkState:
        return HostLinkState()

    # --- events ------------------------------------------------------------------------------------
    def _host_poll(self, event: HostPoll) -> Result:
        link = self.devices.host_link
        assert link is not None  # only the host link reports polls
        self._host_deadlines()
        self._aft_lock()  # a lock the host let expire frees the machine
        if event.command is None:
            reply: bytes | None = self._general_poll()
        else:
            handler = LONG_POLLS.get(event.command)
            readable = self.memory is not None and not self._ram_error  # a lost memory reports nothing
            reply = handler(self, event.data) if handler is not None and readable else None
        if reply is None:
            link.no_reply()
        else:
            link.reply(reply, needs_ack=reply != bytes([NO_ACTIVITY]) or event.command is not None)
        self._save_queue()
        if self._sas_state.rom_signature is None:  # the ROM was checked again: prepare 0x21 now
            self._rom_signer()
        # a poll left unanswered is the protocol's way to refuse it, not a refusal of the player's
        return ACCEPTED if reply is not None else Result(True, f"long poll {event.command} not answered")

    def _host_acknowledged(self, event: HostAcknowledged) -> Result:
        state = self._sas_state
        queue = self._queue() if state.sent is not None else None
        if queue is not None and state.sent is not None:
            state.queue_dirty |= queue.delivered(state.sent)
        state.sent = None
        return ACCEPTED

    def _host_link_changed(self, event: HostLinkChanged) -> Result:
        self._commit(lambda tx: tx.log("sas_link_up" if event.up else "sas_link_lost", event.message))
        if event.up:
            self._rom_signer()
        else:
            self._host_deadlines(link_lost=True)
            self._aft_lock()
        self._save_queue()
        return ACCEPTED

    # --- the exception queue -----------------------------------------------------------------------
    def _queue(self) -> ExceptionQueue | None:
        """The queue, caught up with the event log and the game meters (not yet written back)."""
        memory = self.memory
        if memory is None or self._ram_error:
            return None
        state = self._sas_state
        if state.queue is None:
            record = memory.get(QUEUE)
            if record is None:  # SAS is new on this memory: report from this power-up on
                power_ups = [e for e in memory.events(limit=50) if e["kind"] == "power_up"]
                start = power_ups[0]["seq"] - 1 if power_ups else 0
                meters = memory.meters
                state.queue = ExceptionQueue(
                    event_seq=start, games_started=meters["games_played"],
                    games_ended=meters["games_won"] + meters["games_lost"],
                )
                state.queue_dirty = True
            else:
                state.queue = ExceptionQueue.from_record(record)
        newest = memory.events(limit=1)
        behind = newest[0]["seq"] - state.queue.event_seq if newest else 0
        events = list(reversed(memory.events(limit=behind))) if behind > 0 else []
        for event in events:  # the counts behind 0x18, and when the ROM was checked again
            if event["kind"] in ROM_CHECKED:
                state.rom_signature = None  # read the image again (after this poll's reply)
            if event["kind"] == "power_up":
                state.games_at_power_up = event["detail"].get("games_played", memory.meters["games_played"])
                state.games_at_door_close = None
            elif event["kind"] == "door_close" and event["detail"].get("door") == "main":
                state.games_at_door_close = memory.meters["games_played"]
        state.queue_dirty |= state.queue.catch_up(events, memory.meters.totals)
        return state.queue

    def _save_queue(self) -> None:
        state = self._sas_state
        if state.queue is not None and state.queue_dirty:
            record = state.queue.to_record()
            if self._commit(lambda tx: tx.set(QUEUE, record)):
                state.queue_dirty = False

    def _general_poll(self) -> bytes:
        queue = self._queue()
        if queue is None:  # no wager memory to report from: the RAM error itself
            return bytes([RAM_ERROR_NOT_RECOVERED])
        code = queue.head()
        self._sas_state.sent = code or None
        return bytes([code])

    # --- reading: meters and the machine -----------------------------------------------------------
    def _sas_meters(self) -> SasMeters:
        assert self.memory is not None
        return SasMeters(self.memory.meters, self.config.denomination_cents)  # one read: one moment

    def _meter_reply(self, command: int) -> bytes | None:
        body = self._sas_meters().reply_body(command)
        return None if body is None else encode_reply(self._sas_address(), command, body)

    def _games_since(self) -> bytes:
        """0x18: games since the last power-up, and since the main (slot) door last closed (or the
        power-up, when it has not closed since)."""
        assert self.memory is not None
        self._queue()  # takes in the power-up and door events
        played = self.memory.meters["games_played"]
        state = self._sas_state
        at_power_up = played if state.games_at_power_up is None else state.games_at_power_up
        at_close = at_power_up if state.games_at_door_close is None else state.games_at_door_close
        body = bcd(played - at_power_up, 2) + bcd(played - at_close, 2)
        return encode_reply(self._sas_address(), 0x18, body)

    def _selected_game_number(self) -> int:
        """Games are numbered from 1 in configuration order; 0 is the machine as a whole."""
        games = list(self.games)
        return games.index(self.selected_game) + 1 if self.selected_game in games else 0

    def _per_game(self, number: int) -> Mapping[str, int] | None:
        if number == 0:
            return None
        games = list(self.games)
        assert self.memory is not None
        game_id = games[number - 1] if number <= len(games) else ""
        return self.memory.meters.per_game.get(game_id, {})

    def _game_meters(self, command: int, data: bytes) -> bytes | None:
        """0x2F (selected meters) and 0x6F (extended meters) for game N (0: the machine)."""
        try:
            number = from_bcd(data[:2])
        except BcdError:
            return None
        if len(data) < 2 or number > len(self.games):
            return None
        meters = self._sas_meters()
        per_game = self._per_game(number)
        if command == 0x2F:
            body = meters.selected(data[:2], data[2:12], per_game)
        else:
            body = meters.extended(data[:2], data[2:], per_game)
        return encode_reply(self._sas_address(), command, bytes([len(body)]) + body)

    def _machine_id(self) -> bytes:
        """0x1F: game id, additional id, denomination code, max bet, progressive group, game
        options, pay table id, base payback percentage."""
        game = self.games.get(self.selected_game)
        words = self.selected_game.replace("_", "-").split("-")
        game_code = "".join(w[:1] for w in words).upper().ljust(2, "0")[:2]
        paytable = getattr(game, "paytable", None)
        paytable_id = str(getattr(paytable, "id", "") or "").upper().replace("-", "")[:6].ljust(6, "0")
        denom = DENOMINATION_CODES.get(self.config.denomination_cents, 0)
        max_bet = 0 if game is None else min(255, self._largest_stake(game))
        body = (
            game_code.encode("ascii") + b"000" + bytes([denom, max_bet, 0]) + b"\x00\x00"
            + paytable_id.encode("ascii", errors="replace") + b"0000"
        )
        return encode_reply(self._sas_address(), 0x1F, body)

    def _largest_stake(self, game: Any) -> int:
        """The largest stake the game offers at the largest bet level the operator enabled, in credits
        (its default wager's stake for a game whose pay table declares no offer)."""
        try:
            offer, levels = game.wager_offer(), self.bet_levels(self.selected_game)
        except AttributeError:
            return int(game.default_wager(self.config.denomination_cents).stake_credits)
        return offer.stake_credits(max(levels), dict(offer.side_bet_limits))

    def _version_and_serial(self) -> bytes:
        serial = self.config.machine_number.encode("ascii")[:40]
        body = SAS_VERSION + serial
        return encode_reply(self._sas_address(), 0x54, bytes([len(body)]) + body)

    def _selected_game(self) -> bytes:
        return encode_reply(self._sas_address(), 0x55, bcd(self._selected_game_number(), 2))

    def _rom_signature(self, data: bytes) -> bytes | None:
        """0x21: CRC-16/KERMIT of the program ROM image (the bytes `egm rom verify` checks, in the
        manifest's order, as `egm rom hmac` reads them) with the host's seed as initial value."""
        seed = int.from_bytes(data[:2], "little")
        signature = self._rom_signer()(seed)
        return encode_reply(self._sas_address(), 0x21, signature.to_bytes(2, "little"))

    def _rom_signer(self) -> SeededCrc16:
        """The ROM image is read, and its CRC prepared for every seed, when the host link comes up
        and again after each ROM check the cabinet runs (a door closing, the operator's check), just
        after the reply to the poll that finds it: each 0x21 is answered in microseconds, for the
        ROM as last verified."""
        state = self._sas_state
        if state.rom_signature is None:
            from egm.rom.gat import rom_image
            from egm.rom.manifest import configured_paths, read_manifest
            from egm.rom.signing import RomError

            manifest_path, _ = configured_paths(self.config, PROJECT_ROOT)
            try:
                image = b"".join(rom_image(read_manifest(manifest_path), PROJECT_ROOT))
            except RomError:
                image = b""  # the ROM tilt says what is wrong; the host sees a signature that differs
            state.rom_signature = SeededCrc16(image)
        return state.rom_signature

    # --- the machine: enable, disable, time --------------------------------------------------------
    def _machine_record(self) -> dict[str, Any]:
        assert self.memory is not None
        return dict(self.memory.get(MACHINE) or {"enabled": True, "real_time": False})

    def _set_machine(self, change: dict[str, Any], kind: str, message: str) -> bytes | None:
        record = {**self._machine_record(), **change}

        def write(tx: Transaction) -> None:
            tx.set(MACHINE, record)
            tx.log(kind, message)

        if not self._commit(write):
            return None
        self._drive_devices()  # the acceptor follows the lock-out
        self._settle()
        return ack(self._sas_address())

    def _shutdown(self, data: bytes) -> bytes | None:
        if not self._machine_record()["enabled"]:
            return ack(self._sas_address())
        return self._set_machine({"enabled": False}, "sas_shutdown", "SAS host disabled play (long poll 01).")

    def _startup(self, data: bytes) -> bytes | None:
        if self._machine_record()["enabled"]:
            return ack(self._sas_address())
        return self._set_machine({"enabled": True}, "sas_startup", "SAS host enabled play (long poll 02).")

    def _real_time(self, data: bytes) -> bytes | None:
        """0x0E: recorded and acknowledged; exceptions are reported without event data either way."""
        on = bool(data[0])
        if self._machine_record().get("real_time") == on:
            return ack(self._sas_address())
        state = "enabled" if on else "disabled"
        return self._set_machine({"real_time": on}, "sas_real_time", f"SAS real-time reporting {state}.")

    def _date_time(self, data: bytes) -> bytes:
        when = self.clock.now()
        body = bytes.fromhex(when.strftime("%m%d%Y")) + bytes.fromhex(when.strftime("%H%M%S"))
        return encode_reply(self._sas_address(), 0x7E, body)

    def _set_date_time(self, data: bytes) -> bytes | None:
        """0x7F: the host's time (MMDDYYYY HHMMSS, BCD) becomes the cabinet's own date and time (the one
        the Settings page sets: event log, tickets and recall follow it), logged with the old time."""
        try:
            when = datetime.strptime(data.hex(), "%m%d%Y%H%M%S").replace(tzinfo=UTC)
        except ValueError:
            return None  # not a date: no reply, nothing changed
        if date_problem(when.year, when.month, when.day, when.hour, when.minute):
            return None  # a year the cabinet cannot keep (tickets, the log, 0x7E): likewise
        old = self.clock.now().replace(microsecond=0).isoformat()
        message = f"SAS host set the date and time to {when.isoformat()} (was {old})."
        if not self._set_clock(when, "sas_time_set", message):
            return None
        return ack(self._sas_address())

    def _lockout(self) -> str:
        """Why play is refused now (SAS shutdown, or an AFT lock), or "" (see CabinetPart)."""
        if self.memory is None or self.config.devices.sas.enabled is False:
            return ""
        if not self._machine_record()["enabled"]:
            return SHUTDOWN_REASON
        return self._aft_lockout()

    handlers = {
        HostPoll: _host_poll,
        HostAcknowledged: _host_acknowledged,
        HostLinkChanged: _host_link_changed,
    }


DENOMINATION_CODES = {1: 0x01, 5: 0x02, 10: 0x03, 25: 0x04, 50: 0x05, 100: 0x06, 500: 0x07, 1000: 0x08,
                      2000: 0x09, 10000: 0x0A, 20: 0x0B, 200: 0x0C, 2: 0x17, 3: 0x18}


def _meters(command: int) -> LongPollHandler:
    return lambda cabinet, data: cabinet._meter_reply(command)


LONG_POLLS: dict[int, LongPollHandler] = {
    **{c: _meters(c) for c in (0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x19, 0x1A, 0x1C,
                               0x1E, 0x20, 0x2A, 0x2B)},
    0x01: HostPart._shutdown,
    0x02: HostPart._startup,
    0x0E: HostPart._real_time,
    0x18: lambda cabinet, data: cabinet._games_since(),
    0x1F: lambda cabinet, data: cabinet._machine_id(),
    0x21: HostPart._rom_signature,
    0x2F: lambda cabinet, data: cabinet._game_meters(0x2F, data),
    0x6F: lambda cabinet, data: cabinet._game_meters(0x6F, data),
    0x54: lambda cabinet, data: cabinet._version_and_serial(),
    0x55: lambda cabinet, data: cabinet._selected_game(),
    0x7E: HostPart._date_time,
    0x7F: HostPart._set_date_time,
    **TitoPart.long_polls,
    **AftPart.long_polls,
}

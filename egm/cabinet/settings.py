"""Settings: what the operator may change from the service pages (behind the door and the operator
key) without editing configuration files. Each change is one committed transaction that keeps the new
value in wager memory ("settings", so it survives power cuts; a RAM clear returns to the files) and
logs the old and the new value.

* denomination_cents: the default denomination, shown until the player chooses another (and again
  after a RAM clear); one every installed game's pay table offers and a whole multiple of the
  accounting denomination (config, what SAS reports in, never changed here); changed only with no
  credit on the meter and no game in progress, and it replaces the player's kept choice;
* hand_pay_limit_cents: a win or cash-out at or above it locks up for a hand pay; up to the
  jurisdiction's limit;
* credit_limit_cents: the most credit a player may hold (0: none); up to the jurisdiction's when it
  sets one;
* volume_percent: the speakers' volume, 0 to 100;
* the date and time (`SetDateTime`, UTC, to the minute): kept as an offset from the system clock
  ("clock_offset_us", integer microseconds) and applied to the cabinet's clock (`SetClock`), so the
  event log, recall and tickets follow it. Unlike the other settings it survives a RAM clear (it is
  the cabinet's clock, not an accounting value). The log keeps its order by sequence number, so a
  clock set back makes later entries carry earlier times, never reorders them; the change's entry
  says so. Tickets keep the expiry date printed on them: a clock set forward may put an unredeemed
  ticket past it (the entry counts them), a clock set back gives it longer. No change deletes a
  ticket's record: each starts the wait of `egm.memory.ticket_retention` again;
* the bet levels of each game (`SetBetLevels`, "bet_levels": {game id: [credits]}): a subset of its
  pay table's bets_credits, at least one; changed only between games. A disabled level is refused
  when a game starts, before any money moves, and the shell's BET ONE and MAX BET offer only the
  enabled ones. Levels kept that a new pay table no longer offers are dropped (none left: all of the
  pay table's);
* the jurisdiction (`SetJurisdiction`, "jurisdiction": a file name in jurisdictions/, signed ROM): changed
  only with nothing owed to a player (the conditions of a RAM clear), and only from a ROM that passes
  its self-test at that moment (the rule files are signed firmware). Its rules follow at once: the
  hand-pay limit, credit limit, recall depth. A kept limit above the new jurisdiction's most is
  clamped to it in the same transaction, logged as its own change. The cabinet holds no certified RTP
  per pay table (the lab certifies off the cabinet), so the change's entry names every installed pay
  table's id and hash for the regulator to match against the lab's verdict for the new jurisdiction.
  A kept jurisdiction whose file is gone falls back to the configuration's at power-up.
"""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta
from typing import Any

from egm.config import ConfigError, JurisdictionConfig, all_jurisdictions, load_jurisdiction
from egm.events import ACCEPTED, ChangeSetting, RamClear, Result, SetBetLevels, SetDateTime, SetJurisdiction
from egm.memory.store import Transaction
from egm.memory.ticket_retention import CLOCK_RECORD, clock_set
from egm.money import format_cents, levels_text, listed

from .core import CabinetPart

CLOCK_OFFSET = "clock_offset_us"  # the set time minus the system clock's, in wager memory's settings
BET_LEVELS = "bet_levels"  # {game id: [credits, ...]}, the levels each game offers, in the settings
JURISDICTION = "jurisdiction"  # the jurisdiction's file name, in the settings
YEARS = range(2000, 2100)  # the years a ticket, the log and the SAS date (MMDDYYYY) all write
SETTINGS = ("denomination_cents", "hand_pay_limit_cents", "credit_limit_cents", "volume_percent")
LABELS = {
    "denomination_cents": "Denomination",
    "hand_pay_limit_cents": "Hand-pay limit",
    "credit_limit_cents": "Credit limit",
    "volume_percent": "Volume",
}


def setting_text(name: str, value: int) -> str:
    """A setting's value as the service page and the log write it.

    >>> setting_text("credit_limit_cents", 0), setting_text("volume_percent", 70)
    ('none', '70%')
    """
    if name == "volume_percent":
        return f"{value}%"
    if name == "credit_limit_cents" and value == 0:
        return "none"
    return format_cents(value)


def date_time_text(when: datetime) -> str:
    """A date and time as the service page and the log write it.

    >>> date_time_text(datetime(2027, 3, 4, 5, 6, tzinfo=UTC))
    '2027-03-04 05:06:00 UTC'
    """
    return when.strftime("%Y-%m-%d %H:%M:%S UTC")


def date_problem(year: int, month: int, day: int, hour: int, minute: int) -> str | None:
    """Why these fields are not a date and time the cabinet can be set to, as a sentence, or None.

    >>> date_problem(2027, 2, 29, 10, 0), date_problem(2028, 2, 29, 10, 0)
    ('There is no 29 February 2027.', None)
    """
    if year not in YEARS:
        return f"The year is {YEARS[0]} to {YEARS[-1]}."
    if not 1 <= month <= 12:
        return "The month is 1 to 12."
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return f"There is no {day} {calendar.month_name[month]} {year}."
    if not 0 <= hour <= 23:
        return "The hour is 0 to 23."
    if not 0 <= minute <= 59:
        return "The minute is 0 to 59."
    return None


class SettingsPart(CabinetPart):
    """Handles ChangeSetting, SetDateTime, SetBetLevels and SetJurisdiction; applies the kept settings
    at power-up and after each change."""

    _file_config: Any = None
    _file_jurisdiction: Any = None

    def setting(self, name: str) -> int:
        """The value in force."""
        values = {
            "denomination_cents": self.default_denomination_cents,
            "hand_pay_limit_cents": self.jurisdiction.hand_pay_limit_cents,
            "credit_limit_cents": self.credit_limit_cents,
            "volume_percent": round(self.config.audio.volume * 100),
        }
        return values[name]

    @property
    def default_denomination_cents(self) -> int:
        """The denomination shown until the player chooses one: the operator's, else the config's."""
        return int(self._kept().get("denomination_cents", self.config.denomination_cents))

    @property
    def credit_limit_cents(self) -> int:
        """The credit limit in force (0: none): the cabinet's where set, else the jurisdiction's."""
        return self.config.credit_limit_cents or self.jurisdiction.credit_limit_cents

    def bet_levels(self, game_id: str) -> tuple[int, ...]:
        """The bet levels (credits) the game offers the player now, smallest first: the operator's
        where kept (those its pay table still offers), else all its pay table's."""
        offered = self.games[game_id].bets_offered()
        kept = set(self._kept().get(BET_LEVELS, {}).get(game_id, ()))
        return tuple(b for b in offered if b in kept) or offered

    def settings(self) -> dict[str, int]:
        return {name: self.setting(name) for name in SETTINGS}

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "settings": self.settings(), "date_time": self.clock.now().isoformat(),
                JURISDICTION: self.config.jurisdiction, "jurisdiction_name": self.jurisdiction.name,
                BET_LEVELS: {gid: list(self.bet_levels(gid)) for gid in self.games}}

    def _kept(self) -> dict[str, Any]:
        """The settings kept in wager memory (none while it cannot be read)."""
        return self.memory.get("settings", {}) if self.memory is not None and not self._ram_error else {}

    def _keep(self, change: Any) -> Result:
        """Commit a setting's change (one transaction), then apply the settings."""
        if not self._commit(change):
            return Result(False, self._tilt_detail())
        self._apply_settings()
        return ACCEPTED

    def _change_setting(self, event: ChangeSetting) -> Result:
        if self.state != "audit":
            return self._not_now(event, "changing a setting (operator menu only)")
        if event.name not in SETTINGS:
            return self._refuse(event, f"There is no setting called {event.name}; see {', '.join(SETTINGS)}.")
        problem = self._setting_problem(event.name, event.value)
        if problem:
            return self._refuse(event, problem)
        old, memory = self.setting(event.name), self.memory
        assert memory is not None
        label = LABELS[event.name]

        def change(tx: Transaction) -> None:
            tx.set("settings", {**memory.get("settings", {}), event.name: event.value})
            if event.name == "denomination_cents":
                tx.set("denomination", None)  # the operator's default replaces the player's choice
            tx.log("setting_changed", f"{label} changed from {setting_text(event.name, old)} to "
                   f"{setting_text(event.name, event.value)}.", setting=event.name, old=old, new=event.value)

        return self._keep(change)

    def _set_bet_levels(self, event: SetBetLevels) -> Result:
        if self.state != "audit":
            return self._not_now(event, "changing the bet levels (operator menu only)")
        problem = self._bet_levels_problem(event)
        if problem:
            return self._refuse(event, problem)
        game, levels = self.games[event.game_id], tuple(sorted(set(event.levels)))
        old, kept = self.bet_levels(event.game_id), self._kept()
        if levels == old:
            return ACCEPTED

        def change(tx: Transaction) -> None:
            games = {**kept.get(BET_LEVELS, {}), event.game_id: list(levels)}
            tx.set("settings", {**kept, BET_LEVELS: games})
            tx.log("setting_changed", f"Bet levels of {game.title} changed from {levels_text(old)} to "
                   f"{levels_text(levels)} credits.", setting=BET_LEVELS, game=event.game_id,
                   old=list(old), new=list(levels))

        return self._keep(change)

    def _set_jurisdiction(self, event: SetJurisdiction) -> Result:
        if self.state != "audit":
            return self._not_now(event, "changing the jurisdiction (operator menu only)")
        known = all_jurisdictions()
        if event.name not in known:
            return self._refuse(event, f"There is no jurisdiction called {event.name}; choose "
                                       f"{listed(known)}.")
        problem = self._jurisdiction_problem()
        if problem:
            return self._refuse(event, problem)
        if event.name == self.config.jurisdiction:
            return ACCEPTED
        try:
            new = load_jurisdiction(event.name)
        except ConfigError as exc:
            return self._refuse(event, f"The jurisdiction {event.name} cannot be read: {exc}.")
        # The rules are signed firmware: taken only from a ROM that passes its self-test now (a file
        # edited since power-up is named, and the cabinet tilts when the operator menu closes).
        self._run_rom_check("before the jurisdiction change")
        if self._rom_problems:
            return self._refuse(event, f"The jurisdiction stays {self.jurisdiction.name}: the ROM failed its "
                                       f"self-test ({'; '.join(self._rom_problems)}).")
        old, lowered = self.jurisdiction, self._limits_lowered_for(new)
        kept = {**self._kept(), **{name: now for name, (_, now) in lowered.items()}, JURISDICTION: event.name}
        hand_pay = kept.get("hand_pay_limit_cents", new.hand_pay_limit_cents)
        own_credit = kept.get("credit_limit_cents", self._files()[0].credit_limit_cents)
        credit = own_credit or new.credit_limit_cents
        limits = {"hand_pay_limit_cents": [old.hand_pay_limit_cents, hand_pay],
                  "credit_limit_cents": [self.credit_limit_cents, credit],
                  "recall_depth": [old.recall_depth, new.recall_depth]}
        paytables = [{"game": gid, "id": game.paytable.id, "sha256": game.paytable.sha256}
                     for gid, game in self.games.items()]
        installed = ", ".join(p["id"] for p in paytables)
        message = (f"Jurisdiction changed from {old.name} to {new.name}: hand-pay limit "
                   f"{format_cents(old.hand_pay_limit_cents)} to {format_cents(hand_pay)}, credit limit "
                   f"{setting_text('credit_limit_cents', self.credit_limit_cents)} to "
                   f"{setting_text('credit_limit_cents', credit)}, recall depth {old.recall_depth} to "
                   f"{new.recall_depth} games. Installed pay tables: {installed}; the "
                   f"cabinet holds no certified RTP, so match them against the lab's verdict for {new.name}.")

        def change(tx: Transaction) -> None:
            tx.set("settings", kept)
            tx.log("setting_changed", message, setting=JURISDICTION, old=self.config.jurisdiction,
                   new=event.name, limits=limits, paytables=paytables)
            for name, (was, now) in lowered.items():
                tx.log("setting_changed", f"{LABELS[name]} lowered from {setting_text(name, was)} to "
                       f"{setting_text(name, now)}, the most {new.name} allows.",
                       setting=name, old=was, new=now, reason=JURISDICTION)

        return self._keep(change)

    def _limits_lowered_for(self, new: JurisdictionConfig) -> dict[str, tuple[int, int]]:
        """The operator's limits above the new jurisdiction's most, each (set, the most): they are
        clamped to it, so the change never leaves a limit the regulator does not allow."""
        kept, lowered = self._kept(), {}
        if kept.get("hand_pay_limit_cents", 0) > new.hand_pay_limit_cents:
            lowered["hand_pay_limit_cents"] = (kept["hand_pay_limit_cents"], new.hand_pay_limit_cents)
        if new.credit_limit_cents and self.config.credit_limit_cents > new.credit_limit_cents:
            lowered["credit_limit_cents"] = (self.config.credit_limit_cents, new.credit_limit_cents)
        return lowered

    def _set_date_time(self, event: SetDateTime) -> Result:
        if self.state != "audit":
            return self._not_now(event, "setting the date and time (operator menu only)")
        fields = (event.year, event.month, event.day, event.hour, event.minute)
        problem = date_problem(*fields)
        if problem:
            return self._refuse(event, problem)
        old, new = self.clock.now(), datetime(*fields, tzinfo=UTC)
        if not self._set_clock(new, "setting_changed",
                               f"Date and time changed from {date_time_text(old)} to {date_time_text(new)}."):
            return Result(False, self._tilt_detail())
        return ACCEPTED

    def _set_clock(self, new: datetime, kind: str, message: str) -> bool:
        """Set the cabinet's one clock to `new` (from the Settings page or the casino host) in one
        committed transaction, logged as `kind` with the old and the new time; False if it failed."""
        memory, old = self.memory, self.clock.now()
        assert memory is not None
        offset_us = (new - self.clock.base.now()) // timedelta(microseconds=1)
        expired = self._tickets_expired_by(old, new)
        if new < old:
            message += (" The clock was set back: later entries may carry earlier times; the log keeps its"
                        " order by sequence number.")
        if expired:
            message += (f" {expired} unredeemed ticket{' is' if expired == 1 else 's are'} now past"
                        f" {'its' if expired == 1 else 'their'} expiry date.")

        def change(tx: Transaction) -> None:
            tx.set("settings", {**memory.get("settings", {}), CLOCK_OFFSET: offset_us})
            tx.set(CLOCK_RECORD, clock_set(new))  # no ticket record goes until the clock has stood a while
            tx.log(kind, message, setting="date_time", old=old.isoformat(), new=new.isoformat(),
                   set_back=new < old, tickets_now_expired=expired)

        return self._keep(change).accepted

    def _tickets_expired_by(self, old: datetime, new: datetime) -> int:
        """Unredeemed tickets within their expiry date by the old time and past it by the new."""
        assert self.memory is not None
        was, now = old.isoformat(), new.isoformat()
        return sum(1 for t in self.memory.tickets.values()
                   if t["status"] == "issued" and now > t["expires_at"] >= was)

    def refusal(self, event: object) -> str | None:
        """Why the cabinet would refuse this operator-menu change now, without making it (None: it would
        take it). The service pages light a button only when its press can succeed. A jurisdiction's
        ROM self-test runs only when the change is made."""
        if isinstance(event, RamClear):
            return self._ram_clear_problem()
        if isinstance(event, SetJurisdiction):
            return self._jurisdiction_problem()
        if isinstance(event, SetBetLevels):
            return self._bet_levels_problem(event)
        if isinstance(event, ChangeSetting):
            known = event.name in SETTINGS
            return self._setting_problem(event.name, event.value) if known else f"No setting {event.name}."
        return None

    def _jurisdiction_problem(self) -> str | None:
        if self.memory is not None and self.memory.get("accounting_error"):  # owed cannot be judged then
            return ("The jurisdiction changes only with the meters in balance: clear the accounting error "
                    "(operator RAM clear) first.")
        owed = self._owed_to_player()
        if owed:
            return ("The jurisdiction changes only when nothing is owed to a player: "
                    f"settle {' and '.join(owed)} first.")
        return None

    def _bet_levels_problem(self, event: SetBetLevels) -> str | None:
        game = self.games.get(event.game_id)
        if game is None:
            return f"There is no game {event.game_id} on this cabinet; choose {', '.join(self.games)}."
        offered, levels = game.bets_offered(), tuple(sorted(set(event.levels)))
        if not levels:
            return f"At least one bet level of {game.title} must stay enabled."
        if not set(levels) <= set(offered):
            wrong = [b for b in levels if b not in offered]
            return (f"The pay table of {game.title} offers bets of {levels_text(offered)} credits, not "
                    f"{levels_text(wrong)}.")
        if self.round is not None:
            return ("The bet levels change only between games: close the operator menu and finish the game "
                    "in progress.")
        return None

    def _setting_problem(self, name: str, value: int) -> str | None:
        limit = self._rules(self._kept())[1]
        if name == "denomination_cents":
            offers = [set(g.wager_offer().denominations_cents) for g in self.games.values()]
            offered = set.intersection(*offers) if offers else set()
            if value not in offered:
                return f"The denomination {format_cents(value)} is not offered by every game's pay table."
            accounting = self.config.denomination_cents
            if value % accounting:
                return (f"The denomination must be a whole number of {format_cents(accounting)} credits, "
                        "the accounting denomination.")
            if self.credits_cents:
                return "The denomination changes only with no credit on the meter: cash out first."
            if self.round is not None:  # its stake may have taken the last credit: the player is still here
                return ("The denomination changes only between games: close the operator menu and finish "
                        "the game in progress.")
        most_hand_pay, most_credit = limit.hand_pay_limit_cents, limit.credit_limit_cents
        if name == "hand_pay_limit_cents" and not 1 <= value <= most_hand_pay:
            return f"The hand-pay limit may be set up to the jurisdiction's {format_cents(most_hand_pay)}."
        if name == "credit_limit_cents" and (value < 0 or (most_credit and value > most_credit)):
            return f"The credit limit may be set up to the jurisdiction's {format_cents(most_credit)}."
        if name == "volume_percent" and not 0 <= value <= 100:
            return "The volume is 0 to 100 percent."
        return None

    def _files(self) -> tuple[Any, JurisdictionConfig]:
        """The configuration and jurisdiction as the files gave them at build (before any setting): the
        first time asked, the cabinet's own (a cabinet in RAM error has applied no setting yet)."""
        if self._file_config is None:
            self._file_config, self._file_jurisdiction = self.config, self.jurisdiction
        return self._file_config, self._file_jurisdiction

    def _apply_settings(self) -> None:
        """The configuration files' values with the kept settings over them."""
        kept = self._kept()
        config, _ = self._files()
        name, jurisdiction = self._rules(kept)
        update: dict[str, Any] = {
            k: kept[k] for k in ("credit_limit_cents",) if k in kept  # the denomination: see its property
        }
        update["jurisdiction"] = name
        if "volume_percent" in kept:
            update["audio"] = config.audio.model_copy(update={"volume": kept["volume_percent"] / 100})
        self.config = config.model_copy(update=update)
        self.jurisdiction = jurisdiction.model_copy(
            update={k: kept[k] for k in ("hand_pay_limit_cents",) if k in kept}
        )
        if self.memory is not None:
            self.memory.recall_depth = self.jurisdiction.recall_depth
        self.clock.offset = timedelta(microseconds=kept.get(CLOCK_OFFSET, 0))

    def _rules(self, kept: dict[str, Any]) -> tuple[str, JurisdictionConfig]:
        """The jurisdiction in force, by file name, and its own rules (before the operator's limits):
        the kept one while its file can be read, else the configuration's."""
        name = kept.get(JURISDICTION)
        if name is not None:
            try:
                return name, load_jurisdiction(name)
            except ConfigError:
                pass  # its file is gone or broken: the configuration's jurisdiction applies
        config, jurisdiction = self._files()
        return config.jurisdiction, jurisdiction

    def _kept_clock(self) -> dict[str, int]:
        """The date and time setting as kept, to carry across a RAM clear."""
        kept = self._kept()
        return {CLOCK_OFFSET: kept[CLOCK_OFFSET]} if CLOCK_OFFSET in kept else {}

    handlers = {ChangeSetting: _change_setting, SetDateTime: _set_date_time, SetBetLevels: _set_bet_levels,
                SetJurisdiction: _set_jurisdiction}

"""Settings: what the operator may change from the service pages (behind the door and the operator
key) without editing configuration files. Each change is one committed transaction that keeps the new
value in wager memory ("settings", so it survives power cuts; a RAM clear returns to the files) and
logs the old and the new value.

* denomination_cents: the credit's value; one every installed game's pay table offers, changed only
  with no credit on the meter;
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
  ticket past it (the entry counts them), a clock set back gives it longer.
"""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta
from typing import Any

from egm.events import ACCEPTED, ChangeSetting, Result, SetDateTime
from egm.memory.store import Transaction
from egm.money import format_cents

from .core import CabinetPart

CLOCK_OFFSET = "clock_offset_us"  # the set time minus the system clock's, in wager memory's settings
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
    """Handles ChangeSetting; applies the kept settings at power-up and after each change."""

    _file_config: Any = None
    _file_jurisdiction: Any = None

    def setting(self, name: str) -> int:
        """The value in force."""
        values = {
            "denomination_cents": self.config.denomination_cents,
            "hand_pay_limit_cents": self.jurisdiction.hand_pay_limit_cents,
            "credit_limit_cents": self.credit_limit_cents,
            "volume_percent": round(self.config.audio.volume * 100),
        }
        return values[name]

    @property
    def credit_limit_cents(self) -> int:
        """The credit limit in force (0: none): the cabinet's where set, else the jurisdiction's."""
        return self.config.credit_limit_cents or self.jurisdiction.credit_limit_cents

    def settings(self) -> dict[str, int]:
        return {name: self.setting(name) for name in SETTINGS}

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "settings": self.settings(), "date_time": self.clock.now().isoformat()}

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
            tx.log("setting_changed", f"{label} changed from {setting_text(event.name, old)} to "
                   f"{setting_text(event.name, event.value)}.", setting=event.name, old=old, new=event.value)

        if not self._commit(change):
            return Result(False, self._tilt_detail())
        self._apply_settings()
        return ACCEPTED

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
            tx.log(kind, message, setting="date_time", old=old.isoformat(), new=new.isoformat(),
                   set_back=new < old, tickets_now_expired=expired)

        if not self._commit(change):
            return False
        self._apply_settings()
        return True

    def _tickets_expired_by(self, old: datetime, new: datetime) -> int:
        """Unredeemed tickets within their expiry date by the old time and past it by the new."""
        assert self.memory is not None
        was, now = old.isoformat(), new.isoformat()
        return sum(1 for t in self.memory.tickets.values()
                   if t["status"] == "issued" and now > t["expires_at"] >= was)

    def _setting_problem(self, name: str, value: int) -> str | None:
        limit = self._file_jurisdiction or self.jurisdiction
        if name == "denomination_cents":
            offers = [set(g.wager_offer().denominations_cents) for g in self.games.values()]
            offered = set.intersection(*offers) if offers else set()
            if value not in offered:
                return f"The denomination {format_cents(value)} is not offered by every game's pay table."
            if self.credits_cents:
                return "The denomination changes only with no credit on the meter: cash out first."
        most_hand_pay, most_credit = limit.hand_pay_limit_cents, limit.credit_limit_cents
        if name == "hand_pay_limit_cents" and not 1 <= value <= most_hand_pay:
            return f"The hand-pay limit may be set up to the jurisdiction's {format_cents(most_hand_pay)}."
        if name == "credit_limit_cents" and (value < 0 or (most_credit and value > most_credit)):
            return f"The credit limit may be set up to the jurisdiction's {format_cents(most_credit)}."
        if name == "volume_percent" and not 0 <= value <= 100:
            return "The volume is 0 to 100 percent."
        return None

    def _apply_settings(self) -> None:
        """The configuration files' values with the kept settings over them."""
        if self._file_config is None:
            self._file_config, self._file_jurisdiction = self.config, self.jurisdiction
        kept = self.memory.get("settings", {}) if self.memory is not None and not self._ram_error else {}
        config, jurisdiction = self._file_config, self._file_jurisdiction
        update: dict[str, Any] = {
            k: kept[k] for k in ("denomination_cents", "credit_limit_cents") if k in kept
        }
        if "volume_percent" in kept:
            update["audio"] = config.audio.model_copy(update={"volume": kept["volume_percent"] / 100})
        self.config = config.model_copy(update=update)
        self.jurisdiction = jurisdiction.model_copy(
            update={k: kept[k] for k in ("hand_pay_limit_cents",) if k in kept}
        )
        self.clock.offset = timedelta(microseconds=kept.get(CLOCK_OFFSET, 0))

    def _kept_clock(self) -> dict[str, int]:
        """The date and time setting as kept, to carry across a RAM clear."""
        kept = self.memory.get("settings", {}) if self.memory is not None and not self._ram_error else {}
        return {CLOCK_OFFSET: kept[CLOCK_OFFSET]} if CLOCK_OFFSET in kept else {}

    handlers = {ChangeSetting: _change_setting, SetDateTime: _set_date_time}

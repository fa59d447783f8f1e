"""Settings: what the operator may change from the service pages (behind the door and the operator
key) without editing configuration files. Each change is one committed transaction that keeps the new
value in wager memory ("settings", so it survives power cuts; a RAM clear returns to the files) and
logs the old and the new value.

* denomination_cents: the default denomination, shown until the player chooses another (and again
  after a RAM clear); one every installed game's pay table offers and a whole multiple of the
  accounting denomination (config, what SAS reports in, never changed here); changed only with no
  credit on the meter, and it replaces the player's kept choice;
* hand_pay_limit_cents: a win or cash-out at or above it locks up for a hand pay; up to the
  jurisdiction's limit;
* credit_limit_cents: the most credit a player may hold (0: none); up to the jurisdiction's when it
  sets one;
* volume_percent: the speakers' volume, 0 to 100.
"""

from __future__ import annotations

from typing import Any

from egm.events import ACCEPTED, ChangeSetting, Result
from egm.memory.store import Transaction
from egm.money import format_cents

from .core import CabinetPart

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


class SettingsPart(CabinetPart):
    """Handles ChangeSetting; applies the kept settings at power-up and after each change."""

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
        kept = self.memory.get("settings", {}) if self.memory is not None and not self._ram_error else {}
        return int(kept.get("denomination_cents", self.config.denomination_cents))

    @property
    def credit_limit_cents(self) -> int:
        """The credit limit in force (0: none): the cabinet's where set, else the jurisdiction's."""
        return self.config.credit_limit_cents or self.jurisdiction.credit_limit_cents

    def settings(self) -> dict[str, int]:
        return {name: self.setting(name) for name in SETTINGS}

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "settings": self.settings()}

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

        if not self._commit(change):
            return Result(False, self._tilt_detail())
        self._apply_settings()
        return ACCEPTED

    def _setting_problem(self, name: str, value: int) -> str | None:
        limit = self._file_jurisdiction or self.jurisdiction
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
            k: kept[k] for k in ("credit_limit_cents",) if k in kept  # the denomination: see its property
        }
        if "volume_percent" in kept:
            update["audio"] = config.audio.model_copy(update={"volume": kept["volume_percent"] / 100})
        self.config = config.model_copy(update=update)
        self.jurisdiction = jurisdiction.model_copy(
            update={k: kept[k] for k in ("hand_pay_limit_cents",) if k in kept}
        )

    handlers = {ChangeSetting: _change_setting}

"""The emulator's device drawer: insert a bill or a ticket (a good one or a bad one), open a door, turn
a key, cut the power. Each control drives the emulated device; the cabinet learns of it by polling
its devices, exactly as with real hardware. A mixin of the video controller (egm.video.controller)."""

from __future__ import annotations

from typing import Any

import pygame

from egm.events import Door, Key
from egm.video import snap
from egm.video.theme import RED, money
from egm.video.widgets import Button

DRAWER_RECT = pygame.Rect(20, 360, 1880, 560)
REAL_DEVICE = {  # what a drawer control says when its device is a real one
    "bill_acceptor": "The bill acceptor is a real device in this configuration: insert notes and tickets "
                     "at its mouth.",
    "doors": "The doors and key switches are real devices in this configuration: use them directly.",
}
EMULATED_CONTROLS = {  # drawer control -> (device, the emulated device's method it needs)
    "bill": ("bill_acceptor", "insert_bill"),
    "ticket": ("bill_acceptor", "insert_ticket"),
    "counterfeit": ("bill_acceptor", "insert_counterfeit"),
    "bad_ticket": ("bill_acceptor", "insert_ticket"),
    "door": ("doors", "open_door"),
    "key": ("doors", "turn_key"),
}


class DeviceDrawer:
    """The drawer's controls and what a press on one does."""

    devices: Any
    config: Any
    kiosk: bool
    overlay: str | None
    keys_on: set[Key]
    snapshot: dict[str, Any]

    def device(self, action: str) -> None:
        """An emulated device control (keyboard F-keys or the device drawer)."""
        if action == "drawer":
            self.overlay = None if self.overlay == "drawer" else "drawer"
            return
        if action == "mute":
            self.toast("Sound off" if self.audio.toggle_mute() else "Sound on", error=False)
            return
        kind, _, arg = action.partition(":")
        if self.kiosk and kind != "key":  # a kiosk's key switches may be keyboard-emulated; nothing else
            self.toast("Device controls exist only in the emulator.")
            return
        acceptor: Any = self.devices.bill_acceptor
        doors: Any = self.devices.doors
        device, method = EMULATED_CONTROLS.get(kind, ("", ""))
        if method and not hasattr(acceptor if device == "bill_acceptor" else doors, method):
            self.toast(REAL_DEVICE[device])
            return
        if kind == "bill":
            denominations = self.config.bill_denominations_cents
            if int(arg) >= len(denominations):
                self.toast("No bill is configured for that key.")
                return
            acceptor.insert_bill(denominations[int(arg)])
        elif kind == "ticket":
            printed = self._printed()
            if not printed:
                self.toast("No printed ticket to insert: cash out first.")
                return
            acceptor.insert_ticket(printed[-1].validation_number, printed[-1].amount_cents)
            self.overlay = None
        elif kind == "counterfeit":
            acceptor.insert_counterfeit(self.config.bill_denominations_cents[-1])
        elif kind == "bad_ticket":
            found = bad_ticket(arg, snap.tickets(self.snapshot), str(self.snapshot.get("date_time", "")))
            if isinstance(found, str):
                self.toast(found)
                return
            acceptor.insert_ticket(*found)
            self.overlay = None
        elif kind == "door":
            door = Door(arg)
            (doors.close_door if doors.is_open(door) else doors.open_door)(door)
        elif kind == "key":
            key = Key(arg)
            on = key not in self.keys_on
            (self.keys_on.add if on else self.keys_on.discard)(key)
            doors.turn_key(key, on)
        elif action == "power_cut":
            self.power_cut()
        self._report_device_results()

    def drawer_title(self) -> str:
        """The drawer's title says what its controls drive: emulated devices, simulators on the wire
        (backend "sim"), or, where a device is real, that those controls do nothing."""
        needs = dict(EMULATED_CONTROLS.values())  # device -> a method its controls need
        controlled = {device: getattr(self.devices, device) for device in needs}
        real = [device for device, obj in controlled.items() if not hasattr(obj, needs[device])]
        if real:
            return "DEVICES: " + " AND ".join(d.replace("_", " ").upper() for d in sorted(real)) + " ARE REAL"
        if any(hasattr(obj, "simulator") for obj in controlled.values()):
            return "SIMULATED DEVICES (ON THE WIRE)"
        return "EMULATED DEVICES"

    def drawer_buttons(self) -> list[Button]:
        doors: Any = self.devices.doors
        items = [
            (f"bill:{i}", f"INSERT\n{money(c)}") for i, c in enumerate(self.config.bill_denominations_cents)
        ]
        items += [
            ("ticket", "INSERT\nTICKET"),
            ("door:main", ("CLOSE" if doors.is_open(Door.MAIN) else "OPEN") + "\nMAIN DOOR"),
            ("door:logic", ("CLOSE" if doors.is_open(Door.LOGIC) else "OPEN") + "\nLOGIC DOOR"),
            ("key:operator", "OPERATOR\nKEY " + ("OFF" if Key.OPERATOR in self.keys_on else "ON")),
            ("key:attendant", "ATTENDANT\nKEY " + ("OFF" if Key.ATTENDANT in self.keys_on else "ON")),
            ("power_cut", "CUT\nPOWER"),
            ("counterfeit", "COUNTERFEIT\nBILL"),
            ("bad_ticket:forged", "FORGED\nTICKET"),
            ("bad_ticket:expired", "EXPIRED\nTICKET"),
            ("bad_ticket:redeemed", "REDEEMED\nTICKET"),
        ]
        return [
            Button(
                action,
                label,
                pygame.Rect(40 + (i % 6) * 310, DRAWER_RECT.y + 90 + (i // 6) * 140, 290, 120),
                "on",
                RED if action.startswith(("power_cut", "counterfeit", "bad_ticket")) else (110, 200, 255),
            )
            for i, (action, label) in enumerate(items)
        ]


def bad_ticket(kind: str, issued: list[Any], now_iso: str) -> tuple[str, int] | str:
    """(validation number, amount) of a ticket the cabinet must refuse, for the device drawer: a forged
    validation number (the newest ticket's, its last digit changed), an expired ticket, or one
    already redeemed; or a sentence saying why there is none to insert.

    >>> bad_ticket("forged", [{"validation_number": "123456789012345678", "amount_cents": 500}], "")
    ('123456789012345679', 500)
    """
    if kind == "forged":
        if not issued:
            return "000000000000000001", 100  # no ticket issued yet: any number is forged
        number, amount = str(issued[0]["validation_number"]), int(issued[0]["amount_cents"])
        return number[:-1] + str((int(number[-1]) + 1) % 10), amount
    if kind == "expired":
        found = [t for t in issued if t.get("status") == "issued" and str(t.get("expires_at")) < now_iso]
        why = "No printed ticket has expired yet: a ticket expires after the configured number of days."
    else:
        found = [t for t in issued if t.get("status") == "redeemed"]
        why = "No ticket has been redeemed yet: insert a printed ticket first."
    if not found:
        return why
    return str(found[0]["validation_number"]), int(found[0]["amount_cents"])

"""The device configuration types the hardware layer builds its backends from, and `ConfigError`.

They are part of the cabinet's configuration (`egm.config.CabinetConfig.devices`), declared here so
that the hardware layer does not depend on the firmware. `Strict` is the base of every configuration
model: strict types, extra keys forbidden.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator


class ConfigError(Exception):
    """A configuration file is unreadable or breaks the schema. The message names file and key."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


PANEL_FUNCTIONS = (
    "deal", "cash_out", "bet_one", "max_bet", "side_bet", "auto_play", "help", "denomination", "menu",
    *(f"game_{n}" for n in range(1, 10)), "game_back",
)
"""What a panel button can do: the shell's buttons (BET ONE: the next bet level; MAX BET takes the
highest bet and deals; SIDE BET: the next side-bet amount; auto_play is the game's own, e.g. HOUSE
WAY; denomination: the next denomination, between games; menu: GAMES, back to the game menu between
games) and the game's own keys (game_1..game_9
are the keys 1-9, game_back is BACKSPACE)."""
FORMER_PANEL_FUNCTIONS = {"bet": "bet_one"}
"""Names older configurations and boards use, and the function each now is (BET was BET ONE)."""
PanelFunction = Literal[PANEL_FUNCTIONS]  # type: ignore[valid-type]


DEVICE_PROTOCOLS = {  # what each device may speak on a serial or sim backend; the first is the default
    "bill_acceptor": ("id003",),
    "printer": ("tcl", "escpos"),
    "button_panel": ("egm-panel",),
    "doors": ("egm-panel",),
}
PORT_EXAMPLES = "a device path such as /dev/ttyUSB0 or a pyserial URL such as socket://127.0.0.1:7001"


class DeviceConfig(Strict):
    """One peripheral: which backend drives it, on which port, and the serial line's settings.

    backend: "emulated" (in-process, the pygame/autoplay stand-in), "serial" (a real device through
    pyserial) or "sim" (the wire-protocol simulator, usually reached by a serial driver over socket://).
    port: a device path such as /dev/serial/by-id/usb-..., or a pyserial URL such as
    socket://127.0.0.1:7001.
    baud, data_bits, parity, stop_bits: the line, when the device is set differently from its
    protocol's default (ID-003 9600 8E1, TCL 38400 8N1, egm-panel 115200 8N1, ESC/POS 9600 8N1).
    timeout_s: how long one reply may take. fault_after_s: how long the device may give no valid
    reply (and at least 3 exchanges in a row fail) before it is a communication fault (a tilt).
    """

    backend: Literal["emulated", "serial", "sim"] = "emulated"
    port: str | None = None
    protocol: str | None = None  # e.g. "id003", "tcl", "escpos", "egm-panel"
    baud: int | None = Field(default=None, ge=50, le=4_000_000)
    data_bits: Literal[5, 6, 7, 8] | None = None
    parity: Literal["none", "even", "odd", "mark", "space"] | None = None
    stop_bits: Literal[1, 1.5, 2] | None = None
    timeout_s: float = Field(default=0.2, gt=0, le=60, strict=False)
    fault_after_s: float = Field(default=3.0, gt=0, le=3600, strict=False)

    @model_validator(mode="after")
    def _serial_needs_a_port(self) -> DeviceConfig:
        if self.backend == "serial" and not self.port:
            raise ValueError(f"backend 'serial' needs a port: {PORT_EXAMPLES}")
        return self


class PrinterConfig(DeviceConfig):
    """template: the id of the ticket template stored in a TCL printer that the cabinet prints with
    (its 12 fields in the order of docs/hardware.md, "Ticket templates")."""

    template: str = Field(default="0", pattern=r"^[0-9A-Z]{1,2}$")


class ButtonPanelConfig(DeviceConfig):
    """buttons: the panel board's button names mapped to what they do (PANEL_FUNCTIONS), e.g.
    `buttons = { b1 = "bet_one", b2 = "max_bet", b3 = "auto_play" }`. A button named after its
    function (a board that sends "deal") needs no entry. The former name "bet" still means BET ONE,
    so that existing configurations and boards keep working."""

    buttons: dict[str, PanelFunction] = {}  # type: ignore[valid-type]

    @field_validator("buttons", mode="before")
    @classmethod
    def _former_names(cls, buttons: object) -> object:
        if not isinstance(buttons, dict):
            return buttons  # the schema says what is wrong with it
        return {b: FORMER_PANEL_FUNCTIONS.get(f, f) if isinstance(f, str) else f for b, f in buttons.items()}

    def function_of(self, button: str) -> str | None:
        """What the panel button `button` does, or None when it does nothing."""
        if button in self.buttons:
            return str(self.buttons[button])
        button = FORMER_PANEL_FUNCTIONS.get(button, button)
        return button if button in PANEL_FUNCTIONS else None


class SasConfig(Strict):
    """The SAS host link (docs/sas.md). Off unless `enabled`.

    port: a device path (/dev/ttyS0), a pyserial URL or a pty path. address: this machine's SAS
    address, 1-127. validation: who numbers cash-out tickets, "system" (the host, long polls
    0x57/0x58) or "cabinet" (the cabinet's own numbers). host_redemption: tickets inserted are
    redeemed by the host (0x70/0x71). host_timeout_s: how long a cash-out or a ticket in the acceptor
    waits for the host before it is refused.
    """

    enabled: bool = False
    port: str | None = None
    address: int = Field(default=1, ge=1, le=127)
    validation: Literal["system", "cabinet"] = "system"
    host_redemption: bool = True
    host_timeout_s: float = Field(default=10.0, gt=0, le=3600, strict=False)
    asset_number: int = Field(default=1, ge=0, le=0xFFFFFFFF)  # AFT: the host names it in each transfer
    transfer_limit_cents: int = Field(default=100000, ge=0, lt=10**10)  # AFT: the most one transfer moves

    @model_validator(mode="after")
    def _enabled_needs_a_port(self) -> SasConfig:
        if self.enabled and not self.port:
            raise ValueError("enabled needs a port: a device path (/dev/ttyS0), a pyserial URL or a pty")
        return self


class DevicesConfig(Strict):
    bill_acceptor: DeviceConfig = DeviceConfig(protocol="id003")
    printer: PrinterConfig = PrinterConfig(protocol="tcl")
    button_panel: ButtonPanelConfig = ButtonPanelConfig(protocol="egm-panel")
    doors: DeviceConfig = DeviceConfig()
    sas: SasConfig = SasConfig()

    @field_validator("bill_acceptor", "printer", "button_panel", "doors")
    @classmethod
    def _spoken_protocol(cls, device: DeviceConfig, info: ValidationInfo) -> DeviceConfig:
        protocols = DEVICE_PROTOCOLS[str(info.field_name)]
        if device.backend != "emulated" and device.protocol not in (None, *protocols):
            raise ValueError(f"protocol '{device.protocol}' is not supported; use one of {list(protocols)}")
        return device

    @model_validator(mode="before")
    @classmethod
    def _specialise(cls, data: object) -> object:
        """A plain DeviceConfig given for the printer or the panel becomes their own kind."""
        if isinstance(data, dict):
            return {
                name: value.model_dump(exclude_unset=True) if type(value) is DeviceConfig else value
                for name, value in data.items()
            }
        return data


class HasDevices(Protocol):
    """What `hardware.factory.build_devices` reads from a configuration (the cabinet config is one)."""

    @property
    def devices(self) -> DevicesConfig: ...

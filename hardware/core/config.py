"""The device configuration types the hardware layer builds its backends from, and `ConfigError`.

They are part of the cabinet's configuration (`egm.config.CabinetConfig.devices`), declared here so
that the hardware layer does not depend on the firmware. `Strict` is the base of every configuration
model: strict types, extra keys forbidden.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field


class ConfigError(Exception):
    """A configuration file is unreadable or breaks the schema. The message names file and key."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class DeviceConfig(Strict):
    """One peripheral: which backend drives it, and on which port.

    backend: "emulated" (in-process, the pygame/autoplay stand-in), "serial" (a real device through
    pyserial) or "sim" (the wire-protocol simulator, usually reached by a serial driver over socket://).
    port: a device path such as /dev/ttyUSB0, or a pyserial URL such as socket://127.0.0.1:7001.
    """

    backend: Literal["emulated", "serial", "sim"] = "emulated"
    port: str | None = None
    protocol: str | None = None  # e.g. "id003", "tcl", "escpos", "egm-panel"
    timeout_s: float = Field(default=0.2, gt=0, strict=False)


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
    host_timeout_s: float = Field(default=10.0, gt=0, strict=False)
    asset_number: int = Field(default=1, ge=0, le=0xFFFFFFFF)  # AFT: the host names it in each transfer
    transfer_limit_cents: int = Field(default=100000, ge=0)  # AFT: the most one transfer moves


class DevicesConfig(Strict):
    bill_acceptor: DeviceConfig = DeviceConfig(protocol="id003")
    printer: DeviceConfig = DeviceConfig(protocol="tcl")
    button_panel: DeviceConfig = DeviceConfig(protocol="egm-panel")
    doors: DeviceConfig = DeviceConfig()
    sas: SasConfig = SasConfig()


class HasDevices(Protocol):
    """What `hardware.factory.build_devices` reads from a configuration (the cabinet config is one)."""

    @property
    def devices(self) -> DevicesConfig: ...

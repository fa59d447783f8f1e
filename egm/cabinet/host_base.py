"""What the SAS parts of the cabinet share: this machine's address, the link's state, deadlines."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from .core import CabinetPart

LongPollHandler = Callable[[Any, bytes], bytes | None]  # (cabinet, poll data) -> reply, or no reply


class HostBase(CabinetPart):
    def _sas_address(self) -> int:
        return self.config.devices.sas.address

    def _deadline(self) -> str:
        """When something waiting on the host gives up (ISO), host_timeout_s from now: on the system clock,
        which a date and time set meanwhile (Settings, SAS 0x7F) does not move (`_host_deadlines`)."""
        return (self.clock.base.now() + timedelta(seconds=self.config.devices.sas.host_timeout_s)).isoformat()

    def _host_link_up(self) -> bool:
        link = self.devices.host_link
        return bool(link is not None and getattr(link, "link_up", False))

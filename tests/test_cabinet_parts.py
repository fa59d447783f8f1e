"""The cabinet is made of parts, one per concern, each contributing its event handlers; a next part
(the SAS host link) plugs in the same way."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from egm import events
from egm.cabinet import Cabinet, CabinetPart
from egm.events import ACCEPTED, Result, StartGame
from egm.memory.store import Transaction
from hardware.factory import build_devices
from tests.cabinet_support import draw_games, make_cabinet, spine_config, spine_jurisdiction

INPUTS = {  # every input the cabinet handles, and the part that owns it
    "PlayPart": {"ChooseDenomination", "SelectGame", "StartGame", "PlayerDecision"},
    "RemotePlayPart": {"GameServerAnswered"},
    "CreditInPart": {
        "BillEscrowed",
        "BillStacked",
        "BillReturned",
        "BillRejected",
        "AcceptorPoweredUp",
        "ReconcileBill",
    },
    "CashOutPart": {"CashOut", "TicketPrinted", "TicketFailed"},
    "ServicePart": {
        "KeyTurned",
        "DoorChanged",
        "DeviceFault",
        "DeviceFaultCleared",
        "DeviceWarning",
        "RamClear",
        "RunRomCheck",
    },
    "SettingsPart": {"ChangeSetting", "SetDateTime", "SetBetLevels", "SetJurisdiction"},
    "HostPart": {"HostPoll", "HostAcknowledged", "HostLinkChanged"},
    "Cabinet": {"ButtonChanged"},
}


def test_each_input_belongs_to_one_part() -> None:
    owners = {t.__name__: h.__qualname__.split(".")[0] for t, h in Cabinet.event_handlers().items()}
    assert owners == {name: part for part, names in INPUTS.items() for name in names}
    assert all(getattr(events, name) for name in owners)  # all of them are egm.events inputs


@dataclass(frozen=True)
class HostPoll:
    """A stand-in for a host-link event (the SAS part will bring its own)."""

    code: int


class HostLinkPart(CabinetPart):
    def _host_poll(self, event: HostPoll) -> Result:
        if event.code != 0x80:
            return self._refuse(event, f"poll code {event.code:#x} is not supported")

        def polled(tx: Transaction) -> None:
            tx.log("host_poll", "General poll answered.", credits_cents=self.credits_cents)

        if not self._commit(polled):
            return Result(False, self._tilt_detail())
        return ACCEPTED

    handlers = {HostPoll: _host_poll}


class HostLinkedCabinet(Cabinet, HostLinkPart):
    pass


def test_a_new_part_plugs_in_beside_the_others(tmp_path: Path) -> None:
    cab = HostLinkedCabinet(
        spine_config(),
        tmp_path,
        games=draw_games(),
        devices=build_devices(spine_config()),
        jurisdiction=spine_jurisdiction(),
    )
    cab.boot()
    cab.devices.bill_acceptor.insert_bill(500)
    cab.poll_devices()
    assert cab.handle(HostPoll(0x80)).accepted
    assert cab.event_log(limit=1)[0]["detail"] == {"credits_cents": 500}
    refused = cab.handle(HostPoll(0x1F))
    assert not refused.accepted and refused.reason == "poll code 0x1f is not supported"
    assert cab.handle(StartGame()).accepted  # the other parts are untouched
    assert (
        not make_cabinet(tmp_path / "plain").handle(HostPoll(0x80)).accepted
    )  # the plain cabinet has no host link


def test_two_parts_claiming_one_event_fail_when_combined() -> None:
    class SecondPlay(CabinetPart):
        def _start(self, event: StartGame) -> Result:
            return ACCEPTED

        handlers = {StartGame: _start}

    with pytest.raises(TypeError, match="StartGame is handled by both"):

        class Clashing(Cabinet, SecondPlay):
            pass

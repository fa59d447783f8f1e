"""An unreconciled note (the acceptor could not say where it went across a power loss) is settled on the
cabinet's own screen: the attendant turns the ATTENDANT key, counts the cash box, and answers on the
tilt screen. Without the key nothing is settled and no credit moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from egm.config import load_cabinet_config
from egm.events import BillEscrowed, Key, KeyTurned, ReconcileBill
from egm.video.scenes.tilt import FOUND_RECT, NOT_FOUND_RECT
from egm.video.session import Session
from hardware.interfaces import AcceptorPoweredUp, PowerUpPath


@pytest.fixture
def session(signed_tree, tmp_path: Path):
    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=3,
                game_ids=["dragon-poker"])
    yield s
    s.close()


def unreconciled(s: Session, cents: int = 2000) -> None:
    """A note committed as pending, then an acceptor power-up that cannot say where it went."""
    acceptor = s.cabinet.devices.bill_acceptor
    acceptor.stack = lambda: None  # the power goes before the STACK command reaches the acceptor
    assert s.cabinet.handle(BillEscrowed(amount_cents=cents)).accepted
    s.cabinet.handle(AcceptorPoweredUp(PowerUpPath.EMPTY, cents, None))
    s.video.update()
    assert s.cabinet.tilt == "device_fault" and s.cabinet.credits_cents == 0


def drawn(s: Session) -> list[str]:
    s.render()
    return list(s.video.res.kit.drawn)


def test_the_tilt_screen_names_the_note_and_asks_for_the_key(session: Session) -> None:
    unreconciled(session)
    text = " ".join(drawn(session))
    assert "$20.00 note" in text and "ATTENDANT key" in text
    assert "IN THE CASH BOX" in text and "NOT IN THE CASH BOX" in text


def test_without_the_attendant_key_nothing_is_settled(session: Session) -> None:
    unreconciled(session)
    session.click(*FOUND_RECT.center)
    assert session.cabinet.credits_cents == 0 and session.cabinet.memory.get("bill") is not None
    assert not session.cabinet.handle(ReconcileBill(in_cash_box=True)).accepted
    assert session.cabinet.memory.meters["bills_in"] == 0


def test_the_attendant_finds_the_note_and_it_is_credited_once(session: Session) -> None:
    unreconciled(session)
    session.key("f11")  # the attendant key on
    session.click(*FOUND_RECT.center)
    assert session.cabinet.credits_cents == 2000 and session.cabinet.memory.meters["bills_in"] == 2000
    assert session.cabinet.memory.get("bill") is None and session.cabinet.tilt is None
    session.click(*FOUND_RECT.center)  # a second press finds nothing left to settle
    assert session.cabinet.credits_cents == 2000


def test_the_attendant_does_not_find_it_and_nothing_is_credited(session: Session) -> None:
    unreconciled(session)
    session.cabinet.handle(KeyTurned(Key.ATTENDANT, True))
    session.video.update()
    session.click(*NOT_FOUND_RECT.center)
    assert session.cabinet.credits_cents == 0 and session.cabinet.memory.meters["bills_in"] == 0
    assert session.cabinet.memory.get("bill") is None and session.cabinet.tilt is None

"""Issue 18, Settings: the date and time, set by the technician in the operator menu.

The set time is kept in wager memory as an offset from the system clock and applied to the cabinet's
clock at power-up and after each change, so the event log, recall and tickets follow it. Each change
is one transaction whose log entry names the old and the new date and time; an impossible date is
refused with a sentence, and so is a change outside the operator menu.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from egm.clock import FakeClock
from egm.events import CashOut, Key, KeyTurned, RamClear, SetDateTime
from tests.cabinet_support import make_cabinet

START = datetime(2026, 1, 1, 8, 30, 15, tzinfo=UTC)


def booted(nvram: Path, clock: FakeClock) -> Any:
    cabinet = make_cabinet(nvram, clock=clock)
    cabinet.boot()
    return cabinet


def operator_menu(cabinet: Any, on: bool = True) -> None:
    assert cabinet.handle(KeyTurned(Key.OPERATOR, on)).accepted
    assert cabinet.state == ("audit" if on else "attract")


def clock_entries(cabinet: Any) -> list[dict[str, Any]]:
    return [e for e in cabinet.event_log() if (e.get("detail") or {}).get("setting") == "date_time"]


def test_the_date_and_time_is_set_logged_and_followed(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2027, 3, 4, 5, 6)).accepted
    assert cabinet.clock.now() == datetime(2027, 3, 4, 5, 6, tzinfo=UTC)
    assert cabinet.snapshot()["date_time"] == "2027-03-04T05:06:00+00:00"
    [entry] = clock_entries(cabinet)
    assert entry["kind"] == "setting_changed"
    assert entry["detail"]["old"] == "2026-01-01T08:30:15+00:00"
    assert entry["detail"]["new"] == "2027-03-04T05:06:00+00:00"
    assert entry["message"] == ("Date and time changed from 2026-01-01 08:30:15 UTC to "
                                "2027-03-04 05:06:00 UTC.")
    assert entry["at"].startswith("2026-01-01T08:30:15")  # written at the moment of the change, old time
    clock.advance(90)
    assert cabinet.clock.now() == datetime(2027, 3, 4, 5, 7, 30, tzinfo=UTC)  # it runs on from there
    operator_menu(cabinet, on=False)
    assert cabinet.event_log(1)[0]["at"] == "2027-03-04T05:07:30+00:00"  # the log follows the set clock
    assert cabinet.clock.monotonic() == 90  # timeouts and animation are not moved


def test_the_set_time_survives_a_power_cut(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2026, 6, 15, 12, 0)).accepted
    cabinet.memory.close()  # the power goes; a new cabinet boots on the same memory
    clock.advance(60)
    again = booted(tmp_path, clock)
    assert again.clock.now() == datetime(2026, 6, 15, 12, 1, tzinfo=UTC)
    power_up = next(e for e in again.event_log() if e["kind"] == "power_up")
    assert power_up["at"] == "2026-06-15T12:01:00+00:00"


def test_tickets_are_issued_and_expire_on_the_set_clock(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2026, 5, 1, 10, 0)).accepted
    operator_menu(cabinet, on=False)
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    assert cabinet.handle(CashOut()).accepted
    cabinet.poll_devices()
    [ticket] = cabinet.memory.last_tickets()
    assert ticket["issued_at"] == "2026-05-01T10:00:00+00:00"
    assert ticket["expires_at"] == "2026-05-31T10:00:00+00:00"  # 30 days on the set clock
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2026, 6, 1, 10, 0)).accepted  # forward past its printed expiry
    [entry] = clock_entries(cabinet)[:1]
    assert entry["detail"]["tickets_now_expired"] == 1
    assert "1 unredeemed ticket is now past its expiry date" in entry["message"]
    operator_menu(cabinet, on=False)
    cabinet.devices.bill_acceptor.insert_ticket(ticket["validation_number"], ticket["amount_cents"])
    result = cabinet.poll_devices()[0]
    assert not result.accepted and "expired on" in result.reason
    assert cabinet.credits_cents == 0


def test_a_clock_set_back_keeps_the_log_in_its_order(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2025, 1, 1, 0, 0)).accepted
    [entry] = clock_entries(cabinet)
    assert entry["detail"]["set_back"] is True
    assert "set back" in entry["message"] and "sequence" in entry["message"]
    operator_menu(cabinet, on=False)
    log = cabinet.event_log()
    seqs = [e["seq"] for e in log]
    assert seqs == sorted(seqs, reverse=True)  # newest first by sequence, whatever the times say
    assert log[0]["at"] < log[-1]["at"]  # the newest entry carries an earlier time than the first


def test_the_clock_survives_a_ram_clear(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2028, 2, 29, 23, 59)).accepted  # a leap day is a date
    assert cabinet.handle(RamClear()).accepted
    assert cabinet.clock.now() == datetime(2028, 2, 29, 23, 59, tzinfo=UTC)
    cabinet.memory.close()
    assert booted(tmp_path, clock).clock.now() == datetime(2028, 2, 29, 23, 59, tzinfo=UTC)


def test_setting_the_clock_outside_the_operator_menu_is_refused(tmp_path: Path) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    result = cabinet.handle(SetDateTime(2027, 3, 4, 5, 6))
    assert not result.accepted and result.reason.endswith(".") and "operator menu" in result.reason
    assert cabinet.clock.now() == START
    assert clock_entries(cabinet) == []


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ((2027, 2, 29, 10, 0), "There is no 29 February 2027."),
        ((2026, 4, 31, 10, 0), "There is no 31 April 2026."),
        ((2026, 13, 1, 10, 0), "The month is 1 to 12."),
        ((2026, 0, 1, 10, 0), "The month is 1 to 12."),
        ((2026, 1, 0, 10, 0), "There is no 0 January 2026."),
        ((2026, 1, 1, 24, 0), "The hour is 0 to 23."),
        ((2026, 1, 1, 10, 60), "The minute is 0 to 59."),
        ((1999, 12, 31, 10, 0), "The year is 2000 to 2099."),
    ],
)
def test_an_impossible_date_is_refused_with_a_sentence(tmp_path: Path, fields: tuple[int, ...],
                                                        said: str) -> None:
    clock = FakeClock(start=START)
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    result = cabinet.handle(SetDateTime(*fields))
    assert not result.accepted and result.reason == said
    assert cabinet.clock.now() == START
    assert clock_entries(cabinet) == []
    assert cabinet.memory.get("settings", {}).get("clock_offset_us") is None


def test_the_clock_offset_is_kept_exactly(tmp_path: Path) -> None:
    clock = FakeClock(start=START + timedelta(microseconds=123457))
    cabinet = booted(tmp_path, clock)
    operator_menu(cabinet)
    assert cabinet.handle(SetDateTime(2026, 1, 1, 8, 0)).accepted
    kept = cabinet.memory.get("settings")["clock_offset_us"]
    assert kept == -(30 * 60 + 15) * 1_000_000 - 123457
    assert cabinet.clock.now() == datetime(2026, 1, 1, 8, 0, tzinfo=UTC)


# --- the Settings page: touch a field, + and -, SET --------------------------------------------------------
@pytest.fixture
def session(signed_tree, tmp_path: Path):
    from egm.config import load_cabinet_config
    from egm.video.session import Session

    s = Session(load_cabinet_config(signed_tree.config_path), tmp_path / "nvram", seed=7,
                game_ids=["dragon-poker"])
    yield s
    s.close()


def settings_page(s: Any) -> None:
    from egm.video.screenshot import tab_centre

    s.key("f10")  # operator key on
    s.click(*tab_centre("settings"))


def press(s: Any, action: str, times: int = 1) -> None:
    for _ in range(times):
        button = next(b for b in s.video.scene.buttons(s.video.frame) if b.action == action)
        assert button.enabled, action
        s.click(*button.rect.center)


def shown(s: Any) -> list[str]:
    s.render()
    return list(s.video.res.kit.drawn)


def test_the_settings_page_sets_the_date_and_time(session: Any) -> None:
    settings_page(session)
    before = session.cabinet.clock.now()
    assert "Date and time (UTC)" in shown(session)
    dark = {b.action: b.enabled for b in session.video.scene.buttons(session.video.frame)}
    assert dark["clock:+"] is False and dark["clock:set"] is False  # dark until a field is chosen
    press(session, "clock:year")
    press(session, "clock:+")
    press(session, "clock:hour")
    press(session, "clock:-", 2)
    words = shown(session)
    assert str(before.year + 1) in words
    assert session.cabinet.clock.now().year == before.year  # nothing sent before SET
    press(session, "clock:set")
    # each field wraps on its own (00 - 2 is 22 the same day), as a clock's setting buttons do
    expected = before.replace(year=before.year + 1, hour=(before.hour - 2) % 24, second=0, microsecond=0)
    assert session.cabinet.clock.now().replace(second=0, microsecond=0) == expected
    entry = session.cabinet.event_log(1)[0]
    assert entry["detail"]["setting"] == "date_time" and entry["detail"]["new"] == expected.isoformat()
    assert expected.strftime("%Y-%m-%d %H:%M") in " ".join(shown(session))  # the page shows the set time


def test_the_settings_page_says_why_an_impossible_date_is_refused(session: Any) -> None:
    settings_page(session)
    press(session, "clock:month")
    month = session.video.scene.clock_setting.draft[1]
    press(session, "clock:+", (2 - month) % 12)  # February
    press(session, "clock:day")
    day = session.video.scene.clock_setting.draft[2]
    press(session, "clock:+", (30 - day) % 31)  # the 30th
    assert session.video.scene.clock_setting.draft[1:3] == [2, 30]
    press(session, "clock:set")
    year = session.cabinet.clock.now().year
    assert f"There is no 30 February {year}." in [t.text for t in session.video.toasts]
    assert clock_entries(session.cabinet) == []
    assert session.video.scene.clock_setting.draft[1:3] == [2, 30]  # still on screen, to be put right
    press(session, "clock:-", 2)  # the 28th
    press(session, "clock:set")
    assert session.cabinet.clock.now().date().isoformat() == f"{year}-02-28"
    assert session.video.scene.clock_setting.draft is None  # set: the page shows the clock running again


def test_the_event_log_page_numbers_each_entry(session: Any) -> None:
    from egm.video.screenshot import tab_centre

    session.key("f10")
    session.click(*tab_centre("events"))
    newest = session.cabinet.event_log(1)[0]
    assert any(w.startswith(f"#{newest['seq']} ") for w in shown(session))

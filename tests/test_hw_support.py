"""Shared helpers for the hardware tests (no tests here): a driver and its simulator, polled on a
fake clock, with every event they reported kept in order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from egm.clock import FakeClock

S = TypeVar("S")
D = TypeVar("D")


def of(kind: type, events: list[object]) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


class DeviceRig(Generic[S, D]):
    def __init__(self, sim: S, driver: D, clock: FakeClock) -> None:
        self.sim, self.driver, self.clock = sim, driver, clock
        self.events: list[object] = []

    def poll(self, times: int = 1) -> list[object]:
        """Advance the clock past the poll interval and poll, `times` times; the new events."""
        new: list[object] = []
        for _ in range(times):
            self.clock.advance(1.0)
            new += self.driver.poll()  # type: ignore[attr-defined]
        self.events += new
        return new

    def poll_until(self, done: Callable[[list[object]], bool], limit: int = 30) -> list[object]:
        """Poll until `done(new events)`; fail after `limit` polls."""
        new: list[object] = []
        for _ in range(limit):
            new += self.poll()
            if done(new):
                return new
        raise AssertionError(f"condition never met; events: {new}")

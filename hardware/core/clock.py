"""The injected clock: all time comes from it, so tests control it (devices and firmware alike)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """Wall-clock time, timezone-aware UTC (tickets, event log, recall)."""

    def monotonic(self) -> float:
        """Seconds from an arbitrary origin, for timeouts and animation."""


class SystemClock:
    """The real clock of the cabinet."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()


@dataclass
class SetClock:
    """The cabinet's clock: an injected clock plus the offset a technician set (the Settings page keeps
    it in wager memory). Only the date and time move; monotonic time (timeouts, animation) does not.

    >>> c = SetClock(FakeClock()); c.offset = timedelta(days=1); c.now().isoformat(), c.monotonic()
    ('2026-01-02T00:00:00+00:00', 0.0)
    """

    base: Clock
    offset: timedelta = timedelta(0)

    def now(self) -> datetime:
        return self.base.now() + self.offset

    def monotonic(self) -> float:
        return self.base.monotonic()


@dataclass
class FakeClock:
    """A clock that only moves when told to: `advance(seconds)`.

    >>> c = FakeClock()
    >>> c.advance(1.5); c.monotonic()
    1.5
    """

    start: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    elapsed: float = 0.0

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.elapsed)

    def monotonic(self) -> float:
        return self.elapsed

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        self.elapsed += seconds

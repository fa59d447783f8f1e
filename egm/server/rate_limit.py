"""Per-IP rate limits on the requests that need no session yet (register, login): each client address
may make `limit` of them in any `window_s` seconds (a sliding window); past that, 429 `rate_limited`
with `Retry-After` (whole seconds until the oldest one leaves the window) and nothing is done. A refused
request is not counted, so a client that waits out Retry-After gets in.

This complements the lock after the jurisdiction's `login_failures_lock` failed logins (one account
guessed at from many addresses) with a limit per address (many accounts guessed at, or registered, from
one). The limiter is one object on the app (`app.state.ip_limiter`), per process: N processes admit at
most N x limit per address, which still stops a flood. The address is the connection's peer, as uvicorn
reports it (behind a reverse proxy, uvicorn's --forwarded-allow-ips makes it the client's).

Why not slowapi or limits: slowapi (0.1.10) keeps its limiter at module level and needs a decorator and
a `request` argument on every route; limits' moving window would do, but it is a dependency for the
thirty lines below, which keep their state on the app and take the app's clock (so tests move time).
"""

from __future__ import annotations

import math
import threading
from collections import deque

from egm.server.errors import ApiError


class IpLimiter:
    """A sliding window of the times each address was admitted; thread-safe (routes run in threads)."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit, self.window_s = limit, window_s
        self._admitted: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._swept_at = 0.0

    def admit(self, address: str, now: float) -> None:
        """Count one request from `address` at `now`, or refuse it with 429 (nothing counted)."""
        if self.limit <= 0:  # no limit configured
            return
        with self._lock:
            self._sweep(now)
            times = self._admitted.setdefault(address, deque())
            while times and times[0] <= now - self.window_s:
                times.popleft()
            if len(times) >= self.limit:
                retry_after = max(1, math.ceil(times[0] + self.window_s - now))
                raise ApiError(429, "rate_limited", f"Too many attempts from this address: at most "
                               f"{self.limit} in {self.window_s:g} seconds; try again in {retry_after} "
                               "seconds.", headers={"Retry-After": str(retry_after)},
                               retry_after_s=retry_after)
            times.append(now)

    def _sweep(self, now: float) -> None:
        """Forget the addresses whose every request has left the window (once a window), so the table
        holds only the addresses seen lately."""
        if now - self._swept_at < self.window_s:
            return
        self._swept_at = now
        idle = [a for a, times in self._admitted.items() if not times or times[-1] <= now - self.window_s]
        for address in idle:
            del self._admitted[address]

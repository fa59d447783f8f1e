"""The server's settings: where its database is, who may call it, how long a session lives."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

DEFAULT_DB_URL = "sqlite:///server-data/egm.db"  # relative to the working directory
SESSION_COOKIE = "__Host-egm_session"  # __Host-: Secure, Path=/, no Domain (the browser enforces it)
SESSION_IDLE_S = 30 * 60
SESSION_ABSOLUTE_S = 12 * 60 * 60
LIVE_ROUNDS_CACHED = 1024
ABANDON_EVERY_S = 60 * 60
IP_LIMIT, IP_WINDOW_S = 20, 60.0  # unauthenticated POSTs per client address in any minute


@dataclass(frozen=True)
class Settings:
    """db_url: SQLAlchemy URL (sqlite:///FILE or postgresql://...); a bare postgresql:// uses psycopg 3.
    origins: the Origin allow-list for every POST (default: the server's own origin).
    test_seed: deterministic rounds for tests only (the CLI never sets it): a player's game n draws from
      the CTR_DRBG seeded with derive_seed(test_seed, "game", n) (egm.rng.seeded_rng); otherwise
      from the CTR_DRBG seeded from the OS (egm.rng.os_rng).
    warm: play one round of every game before reporting ready (tests that do not need it skip it).
    catalogue_key: the server's catalogue key (an Ed25519 PEM private key file, unencrypted), which
      signs the terminals' catalogue; None: the catalogue is unsigned.
    clock: seconds since the epoch (tests move it to expire sessions).
    ip_limit, ip_window_s: each client address may make ip_limit requests without a session (register,
      login) in any ip_window_s seconds, per process (egm/server/rate_limit.py); 0: no limit.
    abandon_every_s: how often this process runs the abandoned-round job (egm/server/abandon.py; the
      first run one interval after readiness); 0: never (then run `egm server abandon` from cron).
    """

    db_url: str = DEFAULT_DB_URL
    host: str = "127.0.0.1"
    port: int = 8080
    origins: tuple[str, ...] = ()
    session_idle_s: int = SESSION_IDLE_S
    session_absolute_s: int = SESSION_ABSOLUTE_S
    test_seed: int | None = None
    warm: bool = True
    catalogue_key: str | None = None
    ip_limit: int = IP_LIMIT
    ip_window_s: float = IP_WINDOW_S
    abandon_every_s: float = ABANDON_EVERY_S
    clock: Callable[[], float] = field(default=time.time, compare=False)

    @property
    def allowed_origins(self) -> tuple[str, ...]:
        return self.origins or (f"http://{self.host}:{self.port}",)

    def now(self) -> int:
        return int(self.clock())


def utc_text(stamp: int) -> str:
    """A database time as players read it in a sentence: '2026-11-28 14:05 UTC'."""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")

"""One server process: its settings, database, games, round service and readiness.

Readiness: `/healthz` answers at once; `/readyz` answers 200 only after the ROM self-test passed, the
schema is migrated and every installed game has played one warm-up round (so the compiled engines
are built before the first player arrives). Until then game and money routes answer 503.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.exc import OperationalError

from egm.games.base import Game
from egm.rng import os_rng, seeded_rng
from egm.server.abandon import abandon_rounds
from egm.server.db import Database, open_database
from egm.server.db.migrations import migrate
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.live_rounds import LiveRounds
from egm.server.lobby import Lobby, load_lobby, warm
from egm.server.rounds import RoundService
from egm.server.settings import LIVE_ROUNDS_CACHED, Settings
from egm.server.terminals import Registrations
from egm.terminal_link.signing import load_private_key

log = logging.getLogger("egm.server")
DB_RETRY_S = 2.0


@dataclass
class Server:
    settings: Settings
    hub: Hub = field(default_factory=Hub)
    db: Database | None = None
    lobby: Lobby | None = None
    rounds: RoundService | None = None
    registrations: Registrations | None = None  # the terminals' rows, kept a while (egm/server/terminals.py)
    catalogue_key: Ed25519PrivateKey | None = None
    warm_game: Callable[[Game], None] = warm
    waiting_for: str = "the ROM self-test"
    failed: str = ""
    _ready: threading.Event = field(default_factory=threading.Event)
    _closing: threading.Event = field(default_factory=threading.Event)

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def boot(self) -> None:
        """ROM self-test, games, database, warm-up; then ready. A failure leaves the server not ready."""
        try:
            self.lobby = load_lobby()
            if self.settings.catalogue_key is not None:
                self.catalogue_key = load_private_key(self.settings.catalogue_key)
            self.db = open_database(self.settings.db_url)
            self._migrate(self.db)
            self.registrations = Registrations(self.db)
            if not self.db.is_sqlite:  # instances share their events through LISTEN/NOTIFY
                url = self.db.engine.url.set(drivername="postgresql")
                self.hub.listen(url.render_as_string(hide_password=False))
            seed = self.settings.test_seed
            self.rounds = RoundService(self.db, self.lobby, os_rng() if seed is None else seeded_rng(seed),
                                       LiveRounds(LIVE_ROUNDS_CACHED), self.hub)
            if self.settings.warm:
                for game_id, game in self.lobby.games.items():
                    self.waiting_for = f"the warm-up round of {game_id}"
                    self.warm_game(game)
            self.waiting_for = ""
            self._ready.set()
            log.info("ready: %d games", len(self.lobby.games))
            if self.settings.abandon_every_s > 0:
                threading.Thread(target=self._abandon_periodically, name="egm-server-abandon",
                                 daemon=True).start()
        except Exception as exc:  # the server stays up to say why it is not ready
            self.failed = f"{type(exc).__name__}: {exc}"
            log.exception("not ready")

    def _migrate(self, db: Database) -> None:
        """Migrate the schema, waiting for the database while it is unreachable."""
        self.waiting_for = "the database"
        while True:
            try:
                migrate(db)
                return
            except OperationalError as exc:
                self.waiting_for = f"the database, unreachable ({str(exc.orig).strip()[:200]})"
                log.warning("waiting for the database: %s", exc.orig)
                if self._closing.wait(DB_RETRY_S):
                    raise RuntimeError("the server stopped while waiting for the database") from exc

    def _abandon_periodically(self) -> None:
        """The abandoned-round job, every abandon_every_s until the server closes (safe beside other
        processes running it: each round is locked and checked in its own transaction)."""
        assert self.rounds is not None
        while not self._closing.wait(self.settings.abandon_every_s):
            try:
                done = abandon_rounds(self.rounds, self.settings.now())
            except Exception:  # e.g. the database away for a while: the next run tries again
                log.exception("the abandoned-round job failed")
                continue
            for r in done["completed"]:
                log.info("abandoned round %s completed: %s, win %d", r["round_id"], r["status"],
                         r["win_cents"])

    def start_boot(self) -> threading.Thread:
        thread = threading.Thread(target=self.boot, name="egm-server-boot", daemon=True)
        thread.start()
        return thread

    def require_ready(self) -> tuple[Database, Lobby, RoundService]:
        if not self.ready or self.db is None or self.lobby is None or self.rounds is None:
            raise ApiError(503, "not_ready", self.readiness_sentence())
        return self.db, self.lobby, self.rounds

    def require_terminals(self) -> tuple[Database, RoundService, Registrations]:
        """require_ready, for a terminal's request: also the terminals' registrations."""
        db, _, rounds = self.require_ready()
        assert self.registrations is not None  # made with the database, before the server is ready
        return db, rounds, self.registrations

    def readiness_sentence(self) -> str:
        if self.failed:
            return f"The server cannot start: {self.failed}."
        return f"The server is starting: waiting for {self.waiting_for}." if not self.ready else "Ready."

    def close(self) -> None:
        self._closing.set()
        self.hub.close()
        if self.db is not None:
            self.db.dispose()

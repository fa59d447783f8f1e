"""Fixtures for the game server's tests: a real PostgreSQL, the app on SQLite and on PostgreSQL, and
players that talk to it through httpx (Starlette's TestClient) exactly as a browser would.

PostgreSQL: Debian's `postgresql` package. `initdb` refuses to run as root, so as root the cluster is
made by the `postgres` user (runuser) in a temporary directory it owns; the server listens on a Unix
socket there only (listen_addresses=''), with fsync off (a test cluster). One cluster per test session,
one database per test module (CREATE DATABASE ... TEMPLATE, migrated once), stopped at the end.
Without initdb the PostgreSQL cases are skipped, except when RGS_REQUIRE_PG=1 (CI), when they fail.

Cookies: the session cookie is `__Host-` and Secure, so the client talks to https://testserver (the
TestClient's own host over its https scheme; no network): the cookie jar then keeps and sends it, as a
browser does, and the flags are the production ones.

This module is a pytest plugin of the whole suite (tests/conftest.py): it imports the server only when
a server test uses one of its fixtures.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

    from egm.server.settings import Settings

ORIGIN = "https://testserver"
BACKENDS = ("sqlite", "postgresql")
PASSWORD = "correct horse battery"


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PgCluster:
    """A throwaway PostgreSQL cluster on a Unix socket in its own temporary directory."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="egm-pg-"))
        self.data = self.dir / "data"
        self._names = itertools.count(1)
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-instructions")
        options = f"-k {self.dir} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")
        self.template = self.create_database(template="template1")
        from egm.server.db import open_database
        from egm.server.db.migrations import migrate

        migrate(db := open_database(self.url(self.template)))
        db.dispose()

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.dir}"

    def psql(self, sql: str, database: str = "postgres") -> None:
        self._run("psql", "-h", str(self.dir), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1",
                  "-c", sql)

    def create_database(self, template: str | None = None) -> str:
        name = f"egm_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name} TEMPLATE {template or self.template}")
        return name

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    bin_dir = _pg_bin()
    if bin_dir is None:
        if os.environ.get("RGS_REQUIRE_PG") == "1":
            pytest.fail("PostgreSQL is required (RGS_REQUIRE_PG=1) but initdb is not installed: "
                        "apt-get install postgresql")
        pytest.skip("PostgreSQL is not installed (no initdb); the PostgreSQL cases are skipped")
    cluster = PgCluster(bin_dir)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module", params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh, migrated database for this test module: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('server')}/egm.db"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.url(cluster.create_database())


class Clock:
    """The server's clock (Settings.clock), moved only forwards by the tests."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now

    def move(self, seconds: float) -> None:
        self.now += seconds


def wait_ready(client: TestClient, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        answer = client.get("/readyz")
        if answer.status_code == 200:
            return
        if "cannot start" in answer.json()["sentence"]:
            raise AssertionError(answer.json()["sentence"])
        time.sleep(0.05)
    raise AssertionError("the server never became ready")


def settings_for(db_url: str, **overrides: Any) -> Settings:
    from egm.server.settings import Settings

    # many players register from the one test address; tests/test_server_ratelimit.py sets its own limit
    return Settings(**{"db_url": db_url, "origins": (ORIGIN,), "warm": False, "ip_limit": 0, **overrides})


@pytest.fixture(scope="module")
def app(db_url: str) -> Iterator[Any]:
    """The app, booted (ROM self-test, games, schema), without the warm-up (tests play real rounds)."""
    from fastapi.testclient import TestClient

    from egm.server.app import create_app

    application = create_app(settings_for(db_url))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        yield application


class Player:
    """A browser: its own cookie jar, the CSRF token from login, an Origin on every POST."""

    def __init__(self, app: Any, login: str | None = None) -> None:
        from fastapi.testclient import TestClient

        self.client = TestClient(app, base_url=ORIGIN)
        self.login = login or f"p{uuid.uuid4().hex[:12]}"
        self.csrf = ""

    def register(self) -> Player:
        answer = self.post("/api/v1/auth/register", {"login": self.login, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf_token"]
        return self

    def post(self, path: str, body: Any = None, **headers: str) -> Any:
        sent = {"Origin": ORIGIN, "X-CSRF-Token": self.csrf, **headers}
        return self.client.post(path, json=body, headers={k: v for k, v in sent.items() if v is not None})

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def deposit(self, cents: int) -> int:
        answer = self.post("/api/v1/wallet/deposit", {"request_id": uuid.uuid4().hex, "amount_cents": cents})
        assert answer.status_code == 200, answer.text
        return int(answer.json()["balance_cents"])

    def balance(self) -> int:
        return int(self.get("/api/v1/session").json()["balance_cents"])

    def start(self, game: dict[str, Any], **wager: Any) -> Any:
        body = {"request_id": uuid.uuid4().hex, "game_id": game["id"],
                "denom_cents": game["denominations_cents"][0], "bet_credits": game["bets_credits"][0],
                "side_bets": {}, **wager}
        return self.post("/api/v1/rounds", body)

    def decide(self, round_id: str, step_no: int, decision: Any, request_id: str | None = None) -> Any:
        return self.post(f"/api/v1/rounds/{round_id}/decisions",
                         {"request_id": request_id or uuid.uuid4().hex, "step_no": step_no,
                          "decision": decision})

    def play_out(self, round_id: str, step_no: int) -> dict[str, Any]:
        """Press AUTO until the round is complete; the last reply."""
        while True:
            answer = self.decide(round_id, step_no, {"kind": "auto"})
            assert answer.status_code == 200, answer.text
            if answer.json()["complete"]:
                return dict(answer.json())
            step_no = answer.json()["step_no"]


def audit_of(db_url: str) -> dict[str, Any]:
    from egm.server.audit import audit_books
    from egm.server.db import open_database
    from egm.server.lobby import load_lobby

    db = open_database(db_url)
    try:
        return audit_books(db, load_lobby())
    finally:
        db.dispose()


def egm_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`egm ARGS` as its own process (the operator's commands), its output as text."""
    return subprocess.run([sys.executable, "-m", "egm.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)

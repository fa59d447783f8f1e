"""Real servers and a real browser for the end-to-end tests.

`ServerProcess`: one uvicorn process on 127.0.0.1 serving the game server's app, started and stopped by
the test (two of them on one PostgreSQL make the scale-out case). It runs the app without the warm-up
round (the warm-up builds compiled engines; these tests need none of them) and without the per-address
login limit (every test's players come from 127.0.0.1; `test_server_ratelimit.py` tests the limit),
otherwise as `egm server`.
With EGM_TEST_KILL_AT_SETTLE in its environment it kills itself (SIGKILL) inside the transaction that
settles a round: the fault tests' "kill -9 inside a round transaction", with no hook in the server.

`browser`: Debian's chromium driven by Playwright through `executable_path`; nothing is downloaded and
`playwright install` is never run. Without chromium the browser tests are skipped, except in CI
(RGS_REQUIRE_BROWSER=1, set by .ci/run), where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
LAUNCH = """
import os, signal, sys, uvicorn
from egm.server.app import create_app
from egm.server.settings import Settings
db_url, port = sys.argv[1], int(sys.argv[2])
if os.environ.get("EGM_TEST_KILL_AT_SETTLE"):  # a fault test: kill -9 inside the settling transaction
    import egm.play.rounds
    egm.play.rounds.settle = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
app = create_app(Settings(db_url=db_url, host="127.0.0.1", port=port, warm=False, ip_limit=0))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """`python -c LAUNCH DB PORT` on 127.0.0.1; `start()` waits for /readyz."""

    def __init__(self, db_url: str, workdir: Path, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.db_url, self.workdir, self.env = db_url, workdir, env or {}
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout_s: float = 900) -> ServerProcess:
        """Start it and wait until it is ready. The boot (every game's ROM check) took over 300 s on
        the shared 2-core machine at a load average of 13, under `nice -n 10`; hence the long wait."""
        log = open(self.workdir / f"server-{self.port}.log", "ab")  # noqa: SIM115 (kept with the process)
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCH, self.db_url, str(self.port)],
                                        cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT,
                                        env={**os.environ, **self.env})
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.workdir / f"server-{self.port}.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{self.base}/readyz", timeout=5) as answer:
                    if answer.status == 200:
                        return self
            except urllib.error.HTTPError as refused:  # 503 while booting; a boot that failed says why
                sentence = json.loads(refused.read()).get("sentence", "")
                assert "cannot start" not in sentence, sentence
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()  # not left running behind the failed test
        raise AssertionError(f"the server on port {self.port} never became ready in {timeout_s:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("RGS_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is required (RGS_REQUIRE_BROWSER=1) but is not installed: "
                        "apt-get install chromium")
        pytest.skip("chromium is not installed; the browser tests are skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()

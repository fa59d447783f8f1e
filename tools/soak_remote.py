"""The kill soak's game server (`tools/soak.py --game-server`): the cabinet plays its rounds on it.

A real `egm server` (SQLite, in the soak's directory, on 127.0.0.1) outlives every cabinet process, as
the casino's server outlives a power cut on the floor. The soak's cabinet is registered as a terminal
with its own Ed25519 key. The server settles a win at or above `SERVER_HAND_PAY_CENTS` as a hand pay
(the venue's limit, set low so that the kills also strike remote hand pays; as the tests do, the lobby's
limit is set at the server's boot: there is no setting for it outside the jurisdiction file).

After each kill the server's totals for the terminal (GET /api/v1/terminal/meters) are checked
against the cabinet's meters as the kill left them. They may differ only by what the cabinet's memory
says is in flight: a start sent and not yet answered (the server may hold that round: one game and its
stake more), or a decision sent whose answer settled the round on the server (the server's coin out
is ahead by that win). At the end, a last cabinet finishes what the kills left, and
`egm server audit --terminal-meters` must find the books balanced and no difference at all.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from egm.cabinet.remote_play import PENDING_START
from egm.games.base import Wager
from egm.meters import Meters
from egm.rom.signing import generate_key_pair
from egm.terminal_link.signing import load_private_key, sign_request

TERMINAL_ID = "soak-cabinet"
SERVER_HAND_PAY_CENTS = 500  # the server's hand-pay limit: a win of $5.00 or more is paid by hand
BOOT_TIMEOUT_S = 1800  # the server boots every game: over 9 minutes on the loaded shared machine
OFFLINE_TILT_S = 600  # the cabinet waits this long on the server before it tilts (it never should here)
LAUNCH = """
import sys
from dataclasses import replace
import uvicorn
import egm.server.server as server
from egm.server.app import create_app
from egm.server.settings import Settings
db_url, port, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
load_lobby = server.load_lobby
server.load_lobby = lambda: replace(load_lobby(), hand_pay_limit_cents=limit)  # the venue's limit
uvicorn.run(create_app(Settings(db_url=db_url, host="127.0.0.1", port=port, warm=False)),
            host="127.0.0.1", port=port, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def egm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "egm.cli", *args], capture_output=True, text=True,
                          timeout=BOOT_TIMEOUT_S)


@dataclass
class SoakServer:
    """The game server the soak's cabinets play on, and the terminal they play as."""

    workdir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.workdir / 'server.db'}"

    @property
    def key(self) -> Path:
        return self.workdir / f"{TERMINAL_ID}.key"

    def start(self) -> SoakServer:
        """Start the server, wait until it is ready, and register the terminal."""
        log = open(self.workdir / "server.log", "ab")  # noqa: SIM115 (kept with the process)
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, self.db_url, str(self.port), str(SERVER_HAND_PAY_CENTS)],
            cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the game server did not start: {self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):  # 503 while it boots, refused before it listens
                pass
            time.sleep(0.5)
        generate_key_pair(self.workdir / TERMINAL_ID)
        added = egm("server", "terminal", "add", "--db", self.db_url, "--id", TERMINAL_ID, "--public-key",
                    str(self.workdir / f"{TERMINAL_ID}.pub"))
        if added.returncode != 0:
            raise RuntimeError(f"the terminal was not registered: {added.stderr.strip()}")
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=60)
            self.process = None

    def log_tail(self) -> str:
        return (self.workdir / "server.log").read_text(errors="replace")[-2000:]

    def child_args(self) -> list[str]:
        return ["--server-url", self.url, "--terminal-id", TERMINAL_ID, "--terminal-key", str(self.key)]

    def terminal_meters(self) -> dict[str, Any]:
        path = "/api/v1/terminal/meters"
        headers = sign_request(load_private_key(self.key), TERMINAL_ID, "GET", path, b"", time.time())
        answer = httpx.get(self.url + path, headers=headers, timeout=60)
        answer.raise_for_status()
        return dict(answer.json())

    def check(self, meters: Meters, records: dict[str, Any]) -> list[str]:
        """The server's totals against the meters a kill left (see in_flight_differences)."""
        return in_flight_differences(self.terminal_meters(), meters, records)

    def audit(self, nvram: Path) -> str:
        """`egm server audit --terminal-meters` on the cabinet's `egm meters --json`: "" when the books
        balance and the terminal matches its cabinet's meters, else what they print."""
        meters = egm("meters", "--nvram", str(nvram), "--json")
        if meters.returncode != 0:
            return f"egm meters exited with {meters.returncode}: {meters.stdout.strip()[-500:]}"
        (self.workdir / "meters.json").write_text(meters.stdout)
        audit = egm("server", "audit", "--db", self.db_url, "--terminal-meters",
                    f"{TERMINAL_ID}={self.workdir / 'meters.json'}")
        return "" if audit.returncode == 0 else (audit.stdout + audit.stderr).strip()[-1500:]


def in_flight_differences(served: dict[str, Any], meters: Meters, records: dict[str, Any]) -> list[str]:
    """Where the server's totals for the terminal (`served`) and the cabinet's meters and records, as a
    kill left them, differ by more than what the cabinet's memory holds in flight: a start sent and
    not answered (the server may hold that round: one game and its stake more), or a round open on
    the cabinet whose last answer settled it on the server (the server's coin out ahead by its win)."""
    played = served["games_played"] - meters["games_played"]
    coin_in = served["coin_in_cents"] - meters["coin_in"]
    coin_out = served["coin_out_cents"] - meters["coin_out"]
    pending, game = records.get(PENDING_START), records.get("game")
    problems = []
    if (played, coin_in) != (0, 0):
        stake = Wager.from_record(pending["wager"]) if pending else None
        if stake is None or (played, coin_in) != (1, stake.stake_credits * stake.denom_cents):
            problems.append(f"the server counts {served['games_played']} games and "
                            f"{served['coin_in_cents']} cents in, the cabinet {meters['games_played']} and "
                            f"{meters['coin_in']} (a start in flight: {'yes' if pending else 'no'})")
    if coin_out < 0 or (coin_out > 0 and game is None):
        problems.append(f"the server counts {served['coin_out_cents']} cents out, the cabinet "
                        f"{meters['coin_out']} (a round open on the cabinet: {'yes' if game else 'no'})")
    open_here = int(pending is not None or game is not None)
    if served["open_rounds"] > open_here:
        problems.append(f"the server holds {served['open_rounds']} open rounds, the cabinet {open_here}")
    return problems

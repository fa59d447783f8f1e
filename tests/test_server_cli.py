"""`egm server` as a real process (uvicorn on 127.0.0.1, the default SQLite database in the working
directory), readiness, and `egm server audit` finding books that do not balance."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import update

from egm.games import descriptors
from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.schema import account, game_round
from tests.server_support import ORIGIN, Player, egm_cli, settings_for, wait_ready


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, bytes, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json",
                                                               **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_egm_server_serves_on_loopback_with_the_default_database(tmp_path: Path,
                                                                 compiled_build: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([sys.executable, "-m", "egm.cli", "server", "--host", "127.0.0.1", "--port",
                                str(port)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            try:
                if _call(f"{base}/readyz")[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, process.stdout.read().decode()[-2000:]
            time.sleep(0.2)
        assert _call(f"{base}/healthz")[0] == 200
        status, games, _ = _call(f"{base}/api/v1/games")
        assert status == 200 and len(json.loads(games)) >= 5
        assert _call(f"{base}/api/v1/wallet/deposit", {"request_id": "x", "amount_cents": 5})[0] == 403
        credentials = {"login": "alice", "password": "pass word"}
        status, body, headers = _call(f"{base}/api/v1/auth/register", credentials,
                                      {"Origin": base})  # the default allow-list: the server's own origin
        assert status == 201 and "__Host-egm_session=" in headers["set-cookie"]
        cookie = headers["set-cookie"].split(";")[0]
        status, body, _ = _call(f"{base}/api/v1/wallet/deposit", {"request_id": "d", "amount_cents": 500},
                                {"Origin": base, "Cookie": cookie,
                                 "X-CSRF-Token": json.loads(body)["csrf_token"]})
        assert status == 200 and json.loads(body)["balance_cents"] == 500
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    assert (tmp_path / "server-data" / "egm.db").is_file()
    audited = egm_cli("server", "audit", "--json", cwd=tmp_path)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    result = json.loads(audited.stdout)
    assert result["balanced"] and result["accounts"] == 1 and result["ledger_total_cents"] == 500


def test_ready_only_after_every_game_is_warm(tmp_path: Path) -> None:
    app = create_app(settings_for(f"sqlite:///{tmp_path}/egm.db", warm=True))
    release, warmed = threading.Event(), []

    def slow_warm(game) -> None:
        assert release.wait(120)
        warmed.append(game.game_id)

    app.state.server.warm_game = slow_warm
    with TestClient(app, base_url=ORIGIN) as client:
        assert client.get("/healthz").status_code == 200
        waiting = client.get("/readyz")
        assert waiting.status_code == 503 and waiting.json()["ready"] is False
        assert waiting.json()["sentence"].startswith("The server is starting: waiting for")
        games = client.get("/api/v1/games")
        assert games.status_code == 503 and games.json()["code"] == "not_ready"
        release.set()
        wait_ready(client)
        assert set(warmed) == set(app.state.server.lobby.games)


def test_audit_exits_1_when_a_balance_or_a_win_was_changed_behind_the_ledger(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/egm.db"
    app = create_app(settings_for(url))
    with TestClient(app, base_url=ORIGIN) as client:
        wait_ready(client)
        player = Player(app).register()
        player.deposit(1_000)
        game = next(g for g in player.get("/api/v1/games").json() if g["id"] == "dragon-poker")
        started = player.start(game).json()
        player.play_out(started["round_id"], 0)
    assert egm_cli("server", "audit", "--db", url, cwd=tmp_path).returncode == 0
    db = open_database(url)
    with db.write() as conn:
        conn.execute(update(account).values(balance_cents=account.c.balance_cents + 1))
        conn.execute(update(game_round).values(win_cents=game_round.c.win_cents + 100))
    db.dispose()
    audited = egm_cli("server", "audit", "--db", url, "--json", cwd=tmp_path)
    assert audited.returncode == 1
    problems = json.loads(audited.stdout)["problems"]
    assert any("balance" in p and "ledger sums to" in p for p in problems)
    assert any("its record gives" in p for p in problems)
    plain = egm_cli("server", "audit", "--db", url, cwd=tmp_path)
    assert plain.returncode == 1 and "problems" in plain.stdout



def test_an_unreachable_database_keeps_the_server_unready_and_says_why(tmp_path: Path) -> None:
    app = create_app(settings_for(f"postgresql://postgres@/egm?host={tmp_path}/no-server-here"))
    with TestClient(app, base_url=ORIGIN) as client:
        deadline = time.monotonic() + 60
        while "unreachable" not in client.get("/readyz").json()["sentence"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        answer = client.get("/readyz")
        assert answer.status_code == 503 and "the database, unreachable" in answer.json()["sentence"]
        assert client.get("/healthz").status_code == 200
        deposit = client.post("/api/v1/wallet/deposit", json={"request_id": "x", "amount_cents": 5},
                              headers={"Origin": ORIGIN})
        assert deposit.status_code == 503 and deposit.json()["code"] == "not_ready"


def test_the_server_needs_neither_pygame_nor_the_cabinet(compiled_build: Path) -> None:
    script = (
        "import sys\n"
        "sys.modules['pygame'] = None  # importing pygame now fails\n"
        "from egm.server.app import create_app\n"
        "from egm.server.lobby import load_lobby, warm\n"
        "lobby = load_lobby()\n"
        "for game in lobby.games.values():\n"
        "    warm(game)\n"
        "shell = sorted(m for m in sys.modules if m.startswith(('egm.cabinet', 'egm.video')))\n"
        "print(json.dumps({'games': sorted(lobby.games), 'shell': shell}))\n"
    )
    done = subprocess.run([sys.executable, "-c", "import json\n" + script], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"games": sorted(descriptors()), "shell": []}

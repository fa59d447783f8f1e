"""Scale-out: two real uvicorn instances on one PostgreSQL. The same decision sent to both at once is
applied once; an instance killed (SIGKILL) inside the transaction that settles a round leaves nothing
half-done, and the same request retried on the other instance settles it once; a player's pushes
reach a websocket held on the other instance; `egm server audit` is clean after each."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets.sync.client

from egm.server.settings import SESSION_COOKIE
from tests.browser_support import ServerProcess
from tests.server_support import PASSWORD


class Client:
    """A player speaking to any instance: its session cookie and CSRF token work on all of them."""

    def __init__(self, base: str) -> None:
        self.headers: dict[str, str] = {}
        login = f"s{uuid.uuid4().hex[:12]}"
        answer = httpx.post(f"{base}/api/v1/auth/register", json={"login": login, "password": PASSWORD},
                            headers={"Origin": base}, timeout=60)
        assert answer.status_code == 201, answer.text
        token = answer.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        self.cookie = f"{SESSION_COOKIE}={token}"
        self.csrf = answer.json()["csrf_token"]

    def post(self, base: str, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(f"{base}{path}", json=body, timeout=120, headers={
            "Origin": base, "Cookie": self.cookie, "X-CSRF-Token": self.csrf})

    def get(self, base: str, path: str) -> httpx.Response:
        return httpx.get(f"{base}{path}", headers={"Cookie": self.cookie}, timeout=60)

    def start_dragon(self, base: str) -> dict[str, Any]:
        assert self.post(base, "/api/v1/wallet/deposit", {"request_id": uuid.uuid4().hex,
                                                         "amount_cents": 10_000}).status_code == 200
        game = next(g for g in httpx.get(f"{base}/api/v1/games").json() if g["id"] == "dragon-poker")
        started = self.post(base, "/api/v1/rounds", {"request_id": uuid.uuid4().hex, "game_id": game["id"],
                                                     "denom_cents": game["denominations_cents"][0],
                                                     "bet_credits": game["bets_credits"][0], "side_bets": {}})
        assert started.status_code == 200, started.text
        return dict(started.json())


def audit(db_url: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "egm.cli", "server", "audit", "--db", db_url, "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def cluster_db(pg_cluster: Any) -> str:
    return str(pg_cluster.url(pg_cluster.create_database()))


@pytest.fixture(scope="module")
def pair(cluster_db: str, compiled_build: Any,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    workdir = tmp_path_factory.mktemp("scaleout")
    servers = [ServerProcess(cluster_db, workdir).start(), ServerProcess(cluster_db, workdir).start()]
    yield servers
    for server in servers:
        server.stop()


def test_the_same_decision_sent_to_both_instances_at_once_is_applied_once(pair, cluster_db) -> None:
    a, b = (s.base for s in pair)
    player = Client(a)
    started = player.start_dragon(a)
    body = {"request_id": uuid.uuid4().hex, "step_no": started["step_no"], "decision": {"kind": "auto"}}
    replies: dict[str, httpx.Response] = {}
    gate = threading.Barrier(2)

    def send(base: str) -> None:
        gate.wait()
        replies[base] = player.post(base, f"/api/v1/rounds/{started['round_id']}/decisions", body)

    threads = [threading.Thread(target=send, args=(base,)) for base in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert [r.status_code for r in replies.values()] == [200, 200]
    assert replies[a].content == replies[b].content, "the second got the first's stored reply, byte for byte"
    shown = player.get(b, f"/api/v1/rounds/{started['round_id']}").json()
    assert shown["step_no"] == started["step_no"] + 1
    audit(cluster_db)


def test_a_kill_inside_the_settling_transaction_then_a_retry_elsewhere_settles_once(
        cluster_db, pair, tmp_path) -> None:
    fragile = ServerProcess(cluster_db, tmp_path, env={"EGM_TEST_KILL_AT_SETTLE": "1"}).start()
    other = pair[0].base
    player = Client(other)
    started = player.start_dragon(other)
    round_id, step_no = started["round_id"], started["step_no"]
    try:
        while True:  # AUTO on the fragile instance until it dies settling the round
            body = {"request_id": uuid.uuid4().hex, "step_no": step_no, "decision": {"kind": "auto"}}
            try:
                answer = player.post(fragile.base, f"/api/v1/rounds/{round_id}/decisions", body)
            except httpx.TransportError:
                break
            assert answer.status_code == 200 and not answer.json()["complete"], answer.text
            step_no = answer.json()["step_no"]
        assert fragile.process is not None and fragile.process.wait(timeout=60) == -9
        before = player.get(other, "/api/v1/session").json()
        assert before["open_round"]["round_id"] == round_id, "the killed transaction left the round open"
        retried = player.post(other, f"/api/v1/rounds/{round_id}/decisions", body)
        assert retried.status_code == 200 and retried.json()["complete"], retried.text
        again = player.post(other, f"/api/v1/rounds/{round_id}/decisions", body)
        assert again.content == retried.content
        ledger = player.get(other, "/api/v1/wallet/transactions").json()
        rows = ledger["transactions"] if isinstance(ledger, dict) else ledger
        kinds = [t["kind"] for t in rows if t.get("round_id") == round_id]
        assert kinds.count("stake") == 1 and kinds.count("win") <= 1
        balance = player.get(other, "/api/v1/session").json()["balance_cents"]
        assert started["balance_cents"] < 10_000, "the stake was taken at the start"
        assert balance == started["balance_cents"] + retried.json()["win_cents"], "the win, credited once"
    finally:
        fragile.stop()
    audit(cluster_db)


def test_a_push_crosses_instances(pair) -> None:
    a, b = (s.base for s in pair)
    player = Client(a)
    with websockets.sync.client.connect(b.replace("http://", "ws://") + "/ws",
                                        additional_headers={"Origin": b, "Cookie": player.cookie}) as socket:
        hello = json.loads(socket.recv(timeout=60))
        assert hello["type"] == "hello"
        player.post(a, "/api/v1/wallet/deposit", {"request_id": uuid.uuid4().hex, "amount_cents": 250})
        pushed = json.loads(socket.recv(timeout=60))
        assert (pushed["type"], pushed["balance_cents"], pushed["seq"]) == ("balance", 250, hello["seq"] + 1)

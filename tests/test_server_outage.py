"""The database unavailable while the server runs (PostgreSQL): money and game routes answer 503 with a
sentence and change nothing; when the database is back, the same requests succeed, and the books
balance. (The outage is this module's own database refusing connections, with its open connections
cut, so the shared test cluster keeps serving the other modules.)"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from egm.server.app import create_app
from tests.server_support import ORIGIN, Player, audit_of, settings_for, wait_ready


@pytest.fixture
def outage_db(pg_cluster):
    name = pg_cluster.create_database()

    def cut(allow: bool) -> None:
        pg_cluster.psql(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {str(allow).lower()}")
        if not allow:
            pg_cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            f"WHERE datname = '{name}'")

    return pg_cluster.url(name), cut


def test_an_outage_is_503_and_nothing_half_done_then_everything_resumes(outage_db) -> None:
    url, cut = outage_db
    app = create_app(settings_for(url))
    with TestClient(app, base_url=ORIGIN) as booted:
        wait_ready(booted)
        player = Player(app).register()
        player.deposit(1_000)
        game = {g["id"]: g for g in player.get("/api/v1/games").json()}["dragon-poker"]
        round_id = player.start(game, request_id="before").json()["round_id"]
        cut(allow=False)
        down = [player.decide(round_id, 0, {"kind": "auto"}, request_id="during"),
                player.post("/api/v1/wallet/deposit", {"request_id": "dep", "amount_cents": 50}),
                player.get("/api/v1/session")]
        for answer in down:
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "unavailable"
            assert "nothing was changed" in answer.json()["sentence"]
        cut(allow=True)
        again = player.decide(round_id, 0, {"kind": "auto"}, request_id="during")
        assert again.status_code == 200 and again.json()["step_no"] == 1
        deposit = player.post("/api/v1/wallet/deposit", {"request_id": "dep", "amount_cents": 50})
        assert deposit.status_code == 200 and deposit.json()["balance_cents"] == player.balance()
        assert player.play_out(round_id, 1)["complete"]
    assert audit_of(url)["balanced"]

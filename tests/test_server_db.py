"""The schema on SQLite and PostgreSQL: versioned migrations, the database's own guards (one open round
per account, known ledger kinds), and concurrent duplicates applied exactly once."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from egm.server.db import open_database
from egm.server.db.migrations import LATEST, migrate
from egm.server.db.schema import account, game_round, player, schema_version, wallet_tx
from egm.server.settings import SESSION_COOKIE
from tests.server_support import ORIGIN, Player, audit_of


@pytest.fixture
def db(app, db_url):
    database = open_database(db_url)
    yield database
    database.dispose()


def _account(db) -> int:
    with db.write() as conn:
        player_id = conn.execute(insert(player).values(login=f"x{uuid.uuid4().hex[:10]}", password_hash="-",
                                                       role="player", created_at=0)
                                 .returning(player.c.id)).scalar_one()
        return int(conn.execute(insert(account).values(owner="player", player_id=player_id)
                                .returning(account.c.id)).scalar_one())


def _round(account_id: int, status: str, number: int) -> dict:
    return {"id": str(uuid.uuid4()), "account_id": account_id, "number": number, "game_id": "dragon-poker",
            "paytable_id": "p", "paytable_sha256": "0" * 64, "status": status, "step_no": 0,
            "step": "designate", "wager": {}, "stake_cents": 10, "record": {}, "started_at": 0}


def test_migrations_run_once_and_are_recorded(db) -> None:
    assert migrate(db) == LATEST  # the app migrated already: nothing to do
    with db.read() as conn:
        assert [r.version for r in conn.execute(select(schema_version))] == list(range(1, LATEST + 1))


def test_the_database_allows_one_open_round_per_account(db) -> None:
    account_id = _account(db)
    with pytest.raises(IntegrityError), db.write() as conn:  # rolled back: the books stay as they were
        conn.execute(insert(game_round).values(**_round(account_id, "complete", 1)))
        conn.execute(insert(game_round).values(**_round(account_id, "open", 2)))  # one open: allowed
        conn.execute(insert(game_round).values(**_round(account_id, "open", 3)))


def test_the_ledger_takes_only_known_kinds(db) -> None:
    account_id = _account(db)
    with pytest.raises(IntegrityError), db.write() as conn:
        conn.execute(insert(wallet_tx).values(account_id=account_id, kind="bonus", amount_cents=5,
                                              balance_after=5, at=0))


def _twin(app, player: Player) -> TestClient:
    """A second connection with the same session (a double tap, or a retry racing the original)."""
    twin = TestClient(app, base_url=ORIGIN)
    twin.cookies.set(SESSION_COOKIE, player.client.cookies.get(SESSION_COOKIE))
    return twin


def test_the_same_request_sent_twice_at_once_is_applied_once(app, db_url) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    twin = _twin(app, player)
    headers = {"Origin": ORIGIN, "X-CSRF-Token": player.csrf}
    start = {"request_id": "tap", "game_id": "dragon-poker", "denom_cents": 1, "bet_credits": 1,
             "side_bets": {}}
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda c: c.post("/api/v1/rounds", json=start, headers=headers),
                                (player.client, twin)))
    assert [a.status_code for a in answers] == [200, 200] and answers[0].content == answers[1].content
    round_id = answers[0].json()["round_id"]
    decision = {"request_id": "tap-2", "step_no": 0, "decision": {"kind": "auto"}}
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda c: c.post(f"/api/v1/rounds/{round_id}/decisions", json=decision,
                                                 headers=headers), (player.client, twin)))
    assert [a.status_code for a in answers] == [200, 200] and answers[0].content == answers[1].content
    assert player.get(f"/api/v1/rounds/{round_id}").json()["step_no"] == 1
    ledger = player.get("/api/v1/wallet/transactions").json()["transactions"]
    stakes = [t for t in ledger if t["kind"] == "stake"]
    assert len(stakes) == 1
    assert audit_of(db_url)["balanced"]


def test_two_different_starts_at_once_open_one_round(app, db_url) -> None:
    """Repeated, so the race is met (before the account was locked first, PostgreSQL found a deadlock
    here about one run in four: both requests held KEY SHARE on the account and wanted FOR UPDATE)."""
    for _ in range(6):
        player = Player(app).register()
        player.deposit(1_000)
        twin = _twin(app, player)
        headers = {"Origin": ORIGIN, "X-CSRF-Token": player.csrf}

        def start(client: TestClient, headers=headers):
            body = {"request_id": uuid.uuid4().hex, "game_id": "dragon-poker", "denom_cents": 1,
                    "bet_credits": 1, "side_bets": {}}
            return client.post("/api/v1/rounds", json=body, headers=headers)

        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(start, (player.client, twin)))
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        assert player.balance() == 990
    assert audit_of(db_url)["balanced"]

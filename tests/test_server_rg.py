"""Responsible gaming over HTTP, on SQLite and PostgreSQL, with the server's clock moved by the test:
deposit and loss limits (a decrease at once, an increase only after the cooling-off and a confirmation),
refusals with sentences that move no money, the reality check (423 at the next start, never mid-round,
until acknowledged), time-out and self-exclusion blocking login, malformed bodies, no auto-play route,
and the books balanced after each."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, inspect

from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.migrations import LATEST, MIGRATIONS, migrate
from egm.server.db.schema import LEDGER_BY_TIME, schema_version
from egm.server.events import Hub
from tests.server_support import ORIGIN, PASSWORD, Clock, Player, audit_of, settings_for, wait_ready

HOUR, DAY = 3600, 24 * 3600


class Recorder(Hub):
    """The websocket hub, keeping what is published."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[tuple[int, str, dict[str, Any]]] = []

    def publish(self, conn: Any, account_id: int, kind: str, payload: dict[str, Any]) -> None:
        self.published.append((account_id, kind, payload))
        super().publish(conn, account_id, kind, payload)


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def rg_app(db_url: str, clock: Clock) -> Iterator[Any]:
    """Sessions that outlive the clock's jumps (their expiry has its own tests), seeded rounds."""
    settings = settings_for(db_url, clock=clock, session_idle_s=400 * DAY, session_absolute_s=400 * DAY,
                            test_seed=25)
    application = create_app(settings)
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        yield application


def _put_limits(player: Player, body: Any) -> Any:
    headers = {"Origin": ORIGIN, "X-CSRF-Token": player.csrf}
    return player.client.put("/api/v1/limits", json=body, headers=headers)


def _deposit(player: Player, cents: int) -> Any:
    return player.post("/api/v1/wallet/deposit", {"request_id": uuid.uuid4().hex, "amount_cents": cents})


def _login(player: Player) -> Any:
    answer = player.post("/api/v1/auth/login", {"login": player.login, "password": PASSWORD})
    if answer.status_code == 200:
        player.csrf = answer.json()["csrf_token"]
    return answer


def _dragon(app: Any) -> dict[str, Any]:
    return next(g for g in Player(app).get("/api/v1/games").json() if g["id"] == "dragon-poker")


def _stake(game: dict[str, Any]) -> int:
    return int(game["stake_bets"] * game["bets_credits"][0] * game["denominations_cents"][0])


def _ledger(player: Player) -> list[tuple[str, int]]:
    rows = player.get("/api/v1/wallet/transactions").json()["transactions"]
    return [(r["kind"], r["amount_cents"]) for r in rows]


def test_a_deposit_past_the_limit_is_refused_with_a_sentence_and_counted_gross(rg_app, db_url) -> None:
    player = Player(rg_app).register()
    limits = _put_limits(player, {"deposit": {"day": 5_000}})
    assert limits.status_code == 200, limits.text
    assert limits.json()["deposit"]["day"] == {"amount_cents": 5_000, "used_cents": 0, "left_cents": 5_000,
                                               "pending": None}
    assert _deposit(player, 3_000).status_code == 200
    refused = _deposit(player, 2_500)
    assert refused.status_code == 403 and refused.json()["code"] == "deposit_limit"
    assert refused.json()["sentence"] == ("Your 24-hour deposit limit of $50.00 leaves $20.00, so this "
                                          "deposit of $25.00 is refused and nothing was deposited.")
    assert refused.json()["left_cents"] == 2_000
    withdrawn = player.post("/api/v1/wallet/withdraw", {"request_id": "w", "amount_cents": 1_000})
    assert withdrawn.status_code == 200
    assert _deposit(player, 2_001).status_code == 403  # gross: a withdrawal gives no room back
    assert _deposit(player, 2_000).status_code == 200
    assert player.balance() == 4_000
    assert _ledger(player) == [("deposit", 2_000), ("withdraw", -1_000), ("deposit", 3_000)]
    session = player.get("/api/v1/session").json()
    assert session["limits"]["deposit"]["day"]["left_cents"] == 0
    assert audit_of(db_url)["balanced"]


def test_a_decrease_applies_at_once_an_increase_after_the_cooling_off_and_a_confirmation(rg_app,
                                                                                          clock) -> None:
    player = Player(rg_app).register()
    assert _put_limits(player, {"deposit": {"week": 10_000}}).status_code == 200
    assert _deposit(player, 8_000).status_code == 200
    lowered = _put_limits(player, {"deposit": {"week": 5_000}}).json()["deposit"]["week"]
    assert (lowered["amount_cents"], lowered["left_cents"], lowered["pending"]) == (5_000, 0, None)
    assert _deposit(player, 1).status_code == 403

    raised = _put_limits(player, {"deposit": {"week": 20_000}}).json()["deposit"]["week"]
    assert raised["amount_cents"] == 5_000  # the lower limit stays in force
    pending = raised["pending"]
    assert pending["amount_cents"] == 20_000 and not pending["confirmable"]
    assert pending["confirmable_at"] == int(clock.now) + 24 * HOUR
    confirm = f"/api/v1/limits/{pending['id']}/confirm"
    early = player.post(confirm)
    assert early.status_code == 409 and early.json()["code"] == "cooling_off"
    assert "can be confirmed from" in early.json()["sentence"]
    clock.move(23 * HOUR)
    assert player.post(confirm).status_code == 409
    clock.move(HOUR)
    assert _deposit(player, 100).status_code == 403  # cooled off, but not yet confirmed
    assert player.get("/api/v1/limits").json()["deposit"]["week"]["pending"]["confirmable"]
    confirmed = player.post(confirm)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["deposit"]["week"]["amount_cents"] == 20_000
    assert player.post(confirm).status_code == 409  # once
    assert _deposit(player, 12_001).status_code == 403
    assert _deposit(player, 12_000).status_code == 200

    removal = _put_limits(player, {"deposit": {"week": None}}).json()["deposit"]["week"]
    assert removal["amount_cents"] == 20_000 and removal["pending"]["amount_cents"] is None
    _put_limits(player, {"deposit": {"week": 15_000}})  # a decrease overrides the pending removal
    clock.move(25 * HOUR)
    superseded = player.post(f"/api/v1/limits/{removal['pending']['id']}/confirm")
    assert superseded.status_code == 409 and superseded.json()["code"] == "limit_superseded"
    assert player.get("/api/v1/limits").json()["deposit"]["week"]["amount_cents"] == 15_000
    assert player.balance() == 20_000


def test_the_loss_limit_counts_the_stake_as_lost_and_refuses_the_start(rg_app, clock, db_url) -> None:
    game = _dragon(rg_app)
    stake = _stake(game)
    player = Player(rg_app).register()
    player.deposit(100 * stake)
    assert _put_limits(player, {"loss": {"day": stake - 1}}).status_code == 200
    refused = player.start(game)
    assert refused.status_code == 403 and refused.json()["code"] == "loss_limit"
    assert refused.json()["sentence"].startswith(f"Your 24-hour loss limit of $0.{stake - 1:02d} leaves")
    assert refused.json()["sentence"].endswith(f"less than this round's stake of $0.{stake:02d} (counted as "
                                               "lost), so the round is not started and nothing was staked.")
    assert player.balance() == 100 * stake and player.get("/api/v1/history").json()["rounds"] == []

    player2 = Player(rg_app).register()
    player2.deposit(100 * stake)
    for _ in range(30):  # play until the player is down (seeded: the same rounds every run)
        started = player2.start(game)
        player2.play_out(started.json()["round_id"], 0)
        lost = -sum(a for k, a in _ledger(player2) if k in ("stake", "win"))
        if lost > 0:
            break
    else:
        pytest.fail("thirty rounds without a net loss")
    limit = lost + stake - 1  # one cent short of room for the next stake
    assert _put_limits(player2, {"loss": {"week": limit}}).json()["loss"]["week"]["used_cents"] == lost
    before = player2.balance()
    refused = player2.start(game)
    assert refused.status_code == 403 and refused.json()["left_cents"] == stake - 1
    assert refused.json()["period"] == "week" and "7-day loss limit" in refused.json()["sentence"]
    assert player2.balance() == before
    clock.move(7 * DAY)  # the loss leaves the rolling window
    assert player2.get("/api/v1/limits").json()["loss"]["week"]["used_cents"] == 0
    assert player2.start(game).status_code == 200
    assert audit_of(db_url)["balanced"]


def test_a_due_reality_check_refuses_the_next_start_never_a_decision_until_acknowledged(rg_app, clock,
                                                                                         db_url) -> None:
    server = rg_app.state.server
    recorder = Recorder()
    server.hub, server.rounds.hub = recorder, recorder
    game = _dragon(rg_app)
    player = Player(rg_app).register()
    player.deposit(50 * _stake(game))
    bad = _put_limits(player, {"reality_check_min": 7})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_interval"
    assert _put_limits(player, {"reality_check_min": 30}).json()["reality_check"]["interval_min"] == 30

    started = player.start(game)
    assert started.status_code == 200
    clock.move(30 * 60)
    assert player.get("/api/v1/session").json()["reality_check_due"] is True
    last = player.play_out(started.json()["round_id"], 0)  # mid-round: decisions go on
    assert last["complete"]
    pushed = [p for _, kind, p in recorder.published if kind == "reality_check"]
    assert pushed and pushed[-1]["due"] and pushed[-1]["elapsed_s"] >= 30 * 60

    balance, rounds = player.balance(), len(player.get("/api/v1/history").json()["rounds"])
    blocked = player.start(game)
    assert blocked.status_code == 423 and blocked.json()["code"] == "reality_check_due"
    assert "you have played for 0 h 30 min this session" in blocked.json()["sentence"]
    assert player.balance() == balance and len(player.get("/api/v1/history").json()["rounds"]) == rounds

    ack = player.post("/api/v1/reality-check/ack")
    assert ack.status_code == 200, ack.text
    net = sum(a for k, a in _ledger(player) if k in ("stake", "win"))
    assert ack.json()["elapsed_s"] == 30 * 60 and ack.json()["net_cents"] == net
    assert ack.json()["next_due_at"] == int(clock.now) + 30 * 60
    assert player.post("/api/v1/reality-check/ack").status_code == 409  # nothing due now
    assert player.get("/api/v1/session").json()["reality_check_due"] is False
    again = player.start(game)
    assert again.status_code == 200
    player.play_out(again.json()["round_id"], 0)
    clock.move(30 * 60)
    assert player.start(game).status_code == 423
    assert audit_of(db_url)["balanced"]


def test_a_time_out_ends_the_session_and_blocks_login_until_it_ends(rg_app, clock) -> None:
    player = Player(rg_app).register()
    player.deposit(5_000)
    answer = player.post("/api/v1/self-exclusion", {"days": 7})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["kind"], body["paid_out_cents"], body["balance_cents"]) == ("timeout", 0, 5_000)
    assert body["ends_at"] == int(clock.now) + 7 * DAY
    assert player.get("/api/v1/session").status_code == 401  # at once
    refused = _login(player)
    assert refused.status_code == 403 and refused.json()["code"] == "timeout"
    assert refused.json()["sentence"].startswith("This account is in a time-out until ")
    assert refused.json()["sentence"].endswith(" UTC, so it cannot log in before then.")
    clock.move(7 * DAY - 1)
    assert _login(player).status_code == 403
    clock.move(1)
    assert _login(player).status_code == 200
    assert player.balance() == 5_000  # a time-out keeps the balance


def test_self_exclusion_pays_the_balance_out_and_blocks_login(rg_app, clock, db_url) -> None:
    player = Player(rg_app).register()
    player.deposit(7_300)
    answer = player.post("/api/v1/self-exclusion", {"days": 183})
    assert answer.status_code == 200 and answer.json()["paid_out_cents"] == 7_300
    assert "your balance of $73.00 has been withdrawn to you" in answer.json()["sentence"]
    clock.move(182 * DAY)
    assert _login(player).json()["code"] == "self_exclusion"
    clock.move(DAY)
    assert _login(player).status_code == 200
    assert player.balance() == 0 and _ledger(player) == [("withdraw", -7_300), ("deposit", 7_300)]

    forever = Player(rg_app).register()
    assert forever.post("/api/v1/self-exclusion", {"permanent": True}).json()["ends_at"] is None
    refused = _login(forever)
    assert refused.status_code == 403
    assert refused.json()["sentence"] == "This account is self-excluded permanently, so it cannot log in."
    clock.move(3650 * DAY)
    assert _login(forever).status_code == 403
    assert audit_of(db_url)["balanced"]


@pytest.mark.parametrize(("route", "body", "code"), [
    ("/api/v1/limits", {"deposit": {"year": 5_000}}, "malformed"),
    ("/api/v1/limits", {"deposit": {"day": 0}}, "malformed"),
    ("/api/v1/limits", {"deposit": {"day": "5000"}}, "malformed"),
    ("/api/v1/limits", {"loss": {"day": 10**12}}, "malformed"),
    ("/api/v1/limits", {"stake": {"day": 5}}, "malformed"),
    ("/api/v1/limits", [1], "malformed"),
    ("/api/v1/limits", {"reality_check_min": "30"}, "malformed"),
    ("/api/v1/self-exclusion", {}, "malformed"),
    ("/api/v1/self-exclusion", {"days": 7, "permanent": True}, "malformed"),
    ("/api/v1/self-exclusion", {"days": "7"}, "malformed"),
    ("/api/v1/self-exclusion", {"days": 3}, "bad_period"),
])
def test_malformed_bodies_are_400_with_a_sentence_and_change_nothing(rg_app, route, body, code) -> None:
    player = Player(rg_app).register()
    player.deposit(1_000)
    if route == "/api/v1/limits":
        answer = _put_limits(player, body)
    else:
        answer = player.post(route, body)
    assert (answer.status_code, answer.json()["code"]) == (400, code), answer.text
    assert answer.json()["sentence"].endswith(".")
    limits = player.get("/api/v1/limits").json()
    assert limits["deposit"] == {"day": None, "week": None, "month": None}
    assert limits["loss"] == {"day": None, "week": None, "month": None}
    assert player.balance() == 1_000  # still logged in: no exclusion started


def test_rg_routes_need_the_origin_and_csrf_guards(rg_app) -> None:
    player = Player(rg_app).register()
    no_csrf = player.client.put("/api/v1/limits", json={"deposit": {"day": 5}}, headers={"Origin": ORIGIN})
    assert no_csrf.status_code == 403
    foreign = player.post("/api/v1/self-exclusion", {"permanent": True}, Origin="https://evil.example")
    assert foreign.status_code == 403
    assert player.get("/api/v1/session").status_code == 200


def test_no_route_starts_more_than_one_round(rg_app) -> None:
    """RTS 8A: each round is started by its own request; the API has no auto-play or batch route."""
    schema = rg_app.openapi()
    assert not [p for p in schema["paths"] if "auto" in p.lower() or "batch" in p.lower()]
    starts = [p for p, ops in schema["paths"].items() if "post" in ops and p.rstrip("/").endswith("/rounds")]
    assert starts == ["/api/v1/rounds", "/api/v1/terminal/rounds"]  # a player's; a cabinet's (issue 30)
    wager = {"request_id", "game_id", "denom_cents", "bet_credits", "side_bets"}
    for path, keys in zip(starts, (wager, wager | {"game_number"}), strict=True):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        if "$ref" in body:  # a body FastAPI reads; the terminal's is read by hand after its signature
            body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
        assert set(body["properties"]) == keys
        assert body.get("additionalProperties") is False  # no count, repeat or autoplay key sneaks in


def test_a_version_1_database_migrates_to_the_responsible_gaming_tables(db_url, request, tmp_path) -> None:
    if db_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path}/v1.db"
    else:
        cluster = request.getfixturevalue("pg_cluster")
        url = cluster.url(cluster.create_database(template="template1"))
    db = open_database(url)
    try:
        with db.write() as conn:  # the schema as a version 1 server left it
            schema_version.create(conn)
            MIGRATIONS[0][2](conn)
            LEDGER_BY_TIME.drop(conn)
            conn.execute(insert(schema_version).values(version=1, what="v1", applied_at=0))
        assert migrate(db) == 1
        tables = set(inspect(db.engine).get_table_names())
        assert {"rg_limit", "reality_check", "reality_check_ack", "rg_exclusion"} <= tables
        assert "wallet_tx_account_at" in {i["name"] for i in inspect(db.engine).get_indexes("wallet_tx")}
        assert migrate(db) == LATEST == 6  # live table 3, account events 4, terminals 5, completed_by 6
    finally:
        db.dispose()


def test_a_reality_check_falling_due_while_idle_is_pushed_once(rg_app, clock, monkeypatch) -> None:
    """No round ends to announce it: the websocket finds it at a heartbeat and sends it once."""
    from egm.server.api import ws
    from egm.server.settings import SESSION_COOKIE

    monkeypatch.setattr(ws, "HEARTBEAT_S", 0.2)
    player = Player(rg_app).register()
    assert _put_limits(player, {"reality_check_min": 30}).status_code == 200
    cookie = f"{SESSION_COOKIE}={player.client.cookies.get(SESSION_COOKIE)}"
    with player.client.websocket_connect("/ws", headers={"Origin": ORIGIN, "Cookie": cookie}) as socket:
        hello = socket.receive_json()
        assert hello["type"] == "hello" and not hello["reality_check_due"]
        assert socket.receive_json() == {"type": "ping"}  # quiet, and nothing due yet
        clock.move(31 * 60)
        kinds = []
        while len(kinds) < 6:
            kinds.append(socket.receive_json())
        checks = [m for m in kinds if m["type"] == "reality_check"]
        assert len(checks) == 1, "sent once while it stays due"
        assert checks[0]["due"] and checks[0]["elapsed_s"] >= 31 * 60 and checks[0]["seq"] == hello["seq"]

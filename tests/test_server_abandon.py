"""Abandoned rounds on SQLite and PostgreSQL: a player's round left open past the jurisdiction's
`abandoned_round_days` is completed by the game's reference decisions (`completed_by` "abandon"), once,
its win credited in the same transaction; a round played recently, and a terminal's, are left alone;
two runners at once complete it once; `egm server abandon --now` as the operator's cron job runs it; the
server runs it itself; the rules say so."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from egm.games.base import Wager, play_reference
from egm.rng import Rng, derive_seed
from egm.server.abandon import abandon_rounds
from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.schema import game_round, round_step, wallet_tx
from tests.server_support import ORIGIN, PASSWORD, Clock, Player, audit_of, egm_cli, settings_for, wait_ready

SEED = 23
DAY_S = 24 * 60 * 60
LIMIT_DAYS = 30  # the generic jurisdiction's [online] abandoned_round_days


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def abandon_app(db_url: str, clock: Clock) -> Iterator[Any]:
    application = create_app(settings_for(db_url, test_seed=SEED, clock=clock))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        yield application


def _open_round(app: Any, game_id: str = "poker-grid") -> tuple[Player, str, int]:
    """A fresh player with a round (their game 1) left open after its first decision: (player, round id,
    game number)."""
    player = Player(app).register()
    player.deposit(10_000)
    game = {g["id"]: g for g in player.get("/api/v1/games").json()}[game_id]
    started = player.start(game).json()
    assert player.decide(started["round_id"], 0, {"kind": "auto"}).status_code == 200
    return player, started["round_id"], 1


def _back(player: Player) -> Player:
    """The player logged in again (their session expired while the clock moved on)."""
    answer = player.post("/api/v1/auth/login", {"login": player.login, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    player.csrf = answer.json()["csrf_token"]
    return player


def _rows(db_url: str, round_id: str) -> tuple[Any, list[tuple[str, int]], list[Any]]:
    """The round, its ledger rows (kind, amount) and its steps."""
    db = open_database(db_url)
    try:
        with db.read() as conn:
            row = conn.execute(select(game_round).where(game_round.c.id == round_id)).one()
            ledger = [(r.kind, r.amount_cents) for r in conn.execute(
                select(wallet_tx).where(wallet_tx.c.round_id == round_id).order_by(wallet_tx.c.id))]
            steps = conn.execute(select(round_step).where(round_step.c.round_id == round_id)
                                 .order_by(round_step.c.step_no)).all()
    finally:
        db.dispose()
    return row, ledger, steps


def test_a_round_left_past_the_limit_is_completed_once_by_the_reference_decisions(
        abandon_app, db_url, clock) -> None:
    player, round_id, number = _open_round(abandon_app)
    before = player.balance()
    server = abandon_app.state.server
    clock.move(LIMIT_DAYS * DAY_S - 60)  # not yet: a minute short of the limit
    early = abandon_rounds(server.rounds, server.settings.now())
    assert round_id not in [r["round_id"] for r in early["completed"]]
    assert _rows(db_url, round_id)[0].status == "open"
    clock.move(120)
    done = abandon_rounds(server.rounds, server.settings.now())
    mine = [r for r in done["completed"] if r["round_id"] == round_id]
    assert len(mine) == 1 and done["failed"] == []
    row, ledger, steps = _rows(db_url, round_id)
    assert row.status == "complete" and row.completed_by == "abandon" and row.completed_at == int(clock.now)
    game = server.lobby.games["poker-grid"]  # the same draw, played out by the reference decisions
    reference = game.new_round(Wager.from_record(row.wager), Rng.from_seed(derive_seed(SEED, "game", number)),
                               {})
    play_reference(reference)
    assert row.record == json.loads(json.dumps(reference.to_record()))
    assert row.win_cents == mine[0]["win_cents"]
    assert row.win_cents == reference.outcome().win_credits * row.wager["denom_cents"]
    assert [s.request_id for s in steps[2:]] == ["abandon"] * (len(steps) - 2)
    assert ledger == [("stake", -row.stake_cents)] + ([("win", row.win_cents)] if row.win_cents else [])
    assert _back(player).balance() == before + row.win_cents
    again = abandon_rounds(server.rounds, server.settings.now())  # run again: nothing left to do
    assert round_id not in [r["round_id"] for r in again["completed"]]
    assert _rows(db_url, round_id)[1] == ledger
    replay = player.get(f"/api/v1/rounds/{round_id}/replay").json()
    assert replay["completed_by"] == "abandon"
    assert audit_of(db_url)["balanced"]


def test_two_runners_at_once_complete_a_round_once(abandon_app, db_url, clock) -> None:
    player, round_id, _ = _open_round(abandon_app)
    server = abandon_app.state.server
    clock.move((LIMIT_DAYS + 1) * DAY_S)
    results: list[dict[str, Any]] = []
    def run() -> None:
        results.append(abandon_rounds(server.rounds, server.settings.now()))

    runners = [threading.Thread(target=run) for _ in range(2)]
    for runner in runners:
        runner.start()
    for runner in runners:
        runner.join()
    completed = [r for result in results for r in result["completed"] if r["round_id"] == round_id]
    assert len(completed) == 1
    row, ledger, _ = _rows(db_url, round_id)
    assert row.completed_by == "abandon"
    assert [kind for kind, _ in ledger].count("win") == (1 if row.win_cents else 0)
    assert audit_of(db_url)["balanced"]


def test_a_terminals_round_is_left_for_its_cabinet(abandon_app, db_url, clock, tmp_path) -> None:
    """The cabinet holds the round in its wager memory and resumes it: the server never completes it."""
    from egm.rom.signing import generate_key_pair
    from egm.server.terminals import add_terminal

    _, round_id, _ = _open_round(abandon_app)
    generate_key_pair(tmp_path / "cab")
    db = open_database(db_url)
    try:
        terminal = add_terminal(db, f"CAB-{uuid.uuid4().hex[:6]}", (tmp_path / "cab.pub").read_text(), 1)
        with db.write() as conn:  # a copy of the player's open round, on the terminal's account
            row = conn.execute(select(game_round).where(game_round.c.id == round_id)).one()._asdict()
            cabinet_round = str(uuid.uuid4())
            conn.execute(insert(game_round).values({**row, "id": cabinet_round, "number": 1,
                                                    "account_id": terminal["account_id"],
                                                    "cabinet_game_number": 1}))
            conn.execute(insert(round_step).values(round_id=cabinet_round, step_no=0, request_id="t-1",
                                                   record=row["record"], at=row["started_at"]))
    finally:
        db.dispose()
    clock.move((LIMIT_DAYS + 1) * DAY_S)
    server = abandon_app.state.server
    done = abandon_rounds(server.rounds, server.settings.now())
    assert cabinet_round not in [r["round_id"] for r in done["completed"]]
    assert round_id in [r["round_id"] for r in done["completed"]]
    assert _rows(db_url, cabinet_round)[0].status == "open"


def test_the_cron_job_completes_a_round_by_the_time_it_is_given(abandon_app, db_url, clock, tmp_path) -> None:
    player, round_id, _ = _open_round(abandon_app)
    before = player.balance()
    last_step = int(clock.now)

    def at(days: float) -> str:
        return datetime.fromtimestamp(last_step + days * DAY_S, UTC).isoformat()

    early = egm_cli("server", "abandon", "--db", db_url, "--now", at(LIMIT_DAYS - 1), cwd=tmp_path)
    assert early.returncode == 0, early.stderr
    assert _rows(db_url, round_id)[0].status == "open"
    late = egm_cli("server", "abandon", "--db", db_url, "--now", at(LIMIT_DAYS + 1), cwd=tmp_path)
    assert late.returncode == 0, late.stderr
    assert round_id in late.stdout
    row, _, _ = _rows(db_url, round_id)
    assert row.status in ("complete", "review") and row.completed_by == "abandon"
    assert _back(player).balance() == before + (row.win_cents if row.status == "complete" else 0)
    bad = egm_cli("server", "abandon", "--db", db_url, "--now", "next tuesday", cwd=tmp_path)
    assert bad.returncode == 2 and "--now" in bad.stderr
    assert audit_of(db_url)["balanced"]


def test_the_server_runs_the_job_itself(db_url) -> None:
    clock = Clock()
    application = create_app(settings_for(db_url, clock=clock, abandon_every_s=0.2))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        _, round_id, _ = _open_round(application)
        clock.move((LIMIT_DAYS + 1) * DAY_S)
        for _ in range(600):  # the player's session expired with the clock: the database tells
            if _rows(db_url, round_id)[0].status != "open":
                break
            threading.Event().wait(0.1)
    row, _, _ = _rows(db_url, round_id)
    assert row.status != "open" and row.completed_by == "abandon"


def test_the_rules_say_what_happens_to_an_unfinished_round(abandon_app) -> None:
    player = Player(abandon_app)
    pages = player.get("/api/v1/games/dragon-poker/rules").json()
    said = [line for page in pages for line in page["lines"] if "unfinished" in line.lower()]
    assert said and any(f"{LIMIT_DAYS} days" in line for line in said)
    assert f"{LIMIT_DAYS} days" in player.get("/rules/dragon-poker").text


def test_migration_6_adds_completed_by_to_a_version_5_database(tmp_path) -> None:
    from sqlalchemy import inspect, text

    from egm.server.db.migrations import LATEST, MIGRATIONS, migrate
    from egm.server.db.schema import schema_version

    db = open_database(f"sqlite:///{tmp_path}/v5.db")
    try:
        with db.write() as conn:  # the schema as a version 5 server left it
            schema_version.create(conn)
            for version, what, apply in MIGRATIONS[:5]:
                apply(conn)
                conn.execute(schema_version.insert().values(version=version, what=what, applied_at=0))
            conn.execute(text("ALTER TABLE game_round DROP COLUMN completed_by"))
        assert migrate(db) == 5 and LATEST == 6
        with db.read() as conn:
            assert "completed_by" in {c["name"] for c in inspect(conn).get_columns("game_round")}
    finally:
        db.dispose()

"""Hand pays on SQLite and PostgreSQL: `egm server review list|pay|void` as the operator runs them (their
own processes), the money each moves (exactly once), the audit records of who approved it, terminal
rounds refused (their cabinets pay them), and `egm server audit` balanced after each."""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from egm.rom.signing import generate_key_pair
from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.schema import audit_event, game_round, wallet_tx
from egm.server.terminals import add_terminal
from tests.server_support import ORIGIN, Player, audit_of, egm_cli, settings_for, wait_ready


@pytest.fixture(scope="module")
def review_app(db_url: str) -> Iterator[Any]:
    """The app with a hand-pay limit of 1 cent: every win goes to review."""
    application = create_app(settings_for(db_url))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        server = application.state.server
        server.lobby = server.rounds.lobby = dataclasses.replace(server.lobby, hand_pay_limit_cents=1)
        yield application


def _hand_pay(app: Any) -> tuple[Player, dict[str, Any]]:
    """A fresh player whose last round won, so is in review: (player, its last decision reply)."""
    player = Player(app).register()
    player.deposit(10_000)
    game = {g["id"]: g for g in player.get("/api/v1/games").json()}["dragon-poker"]
    for _ in range(40):
        started = player.start(game).json()
        final = player.play_out(started["round_id"], 0)
        if final["win_cents"]:
            assert final["status"] == "review"
            return player, {**final, "round_id": started["round_id"]}
    raise AssertionError("no win in 40 rounds")


def _review(db_url: str, tmp_path: Path, *args: str) -> Any:
    return egm_cli("server", "review", *args, "--db", db_url, cwd=tmp_path)


def _ledger(db_url: str, round_id: str) -> list[tuple[str, int]]:
    db = open_database(db_url)
    try:
        with db.read() as conn:
            return [(r.kind, r.amount_cents) for r in conn.execute(
                select(wallet_tx).where(wallet_tx.c.round_id == round_id).order_by(wallet_tx.c.id))]
    finally:
        db.dispose()


def test_a_hand_pay_is_listed_then_paid_once_with_who_approved_it(review_app, db_url, tmp_path) -> None:
    player, won = _hand_pay(review_app)
    before = player.balance()
    listed = _review(db_url, tmp_path, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    mine = [r for r in json.loads(listed.stdout) if r["round_id"] == won["round_id"]]
    assert len(mine) == 1 and mine[0]["login"] == player.login and mine[0]["game_id"] == "dragon-poker"
    assert mine[0]["win_cents"] == won["win_cents"] and mine[0]["stake_cents"] > 0
    assert "hand-pay limit" in mine[0]["why"] and mine[0]["at"] > 0
    plain = _review(db_url, tmp_path, "list")
    assert won["round_id"] in plain.stdout and player.login in plain.stdout

    paid = _review(db_url, tmp_path, "pay", won["round_id"], "--by", "alice")
    assert paid.returncode == 0, paid.stderr
    assert player.balance() == before + won["win_cents"]
    assert player.get(f"/api/v1/rounds/{won['round_id']}").json()["status"] == "complete"
    again = _review(db_url, tmp_path, "pay", won["round_id"], "--by", "bob")
    assert again.returncode == 2
    assert "not awaiting a hand pay" in again.stderr and "paid by alice" in again.stderr
    assert player.balance() == before + won["win_cents"]  # no money moved the second time
    assert _ledger(db_url, won["round_id"])[1:] == [("win", won["win_cents"])]
    db = open_database(db_url)
    with db.read() as conn:
        paid = conn.execute(select(audit_event).where(audit_event.c.kind == "hand_pay_paid")).all()
    events = [e.detail for e in paid if e.detail["round_id"] == won["round_id"]]
    db.dispose()
    assert events == [{"round_id": won["round_id"], "by": "alice", "win_cents": won["win_cents"]}]
    assert won["round_id"] not in _review(db_url, tmp_path, "list").stdout
    assert audit_of(db_url)["balanced"]


def test_a_void_refunds_the_stake_and_pays_nothing(review_app, db_url, tmp_path) -> None:
    player, won = _hand_pay(review_app)
    before = player.balance()
    stake = -_ledger(db_url, won["round_id"])[0][1]
    voided = _review(db_url, tmp_path, "void", won["round_id"], "--by", "carol", "--reason", "misdeal")
    assert voided.returncode == 0, voided.stderr
    assert player.balance() == before + stake
    assert _ledger(db_url, won["round_id"]) == [("stake", -stake), ("refund", stake)]
    assert player.get(f"/api/v1/rounds/{won['round_id']}").json()["status"] == "voided"
    refused = _review(db_url, tmp_path, "pay", won["round_id"], "--by", "alice")
    assert refused.returncode == 2 and "voided by carol" in refused.stderr
    assert player.balance() == before + stake
    assert audit_of(db_url)["balanced"]


def test_bad_input_is_refused_with_exit_2_and_moves_nothing(review_app, db_url, tmp_path) -> None:
    player, won = _hand_pay(review_app)
    before = player.balance()
    unknown = _review(db_url, tmp_path, "pay", str(uuid.uuid4()), "--by", "alice")
    assert unknown.returncode == 2 and "There is no round" in unknown.stderr
    nobody = _review(db_url, tmp_path, "pay", won["round_id"], "--by", "  ")
    assert nobody.returncode == 2 and "--by" in nobody.stderr
    no_reason = _review(db_url, tmp_path, "void", won["round_id"], "--by", "alice", "--reason", "")
    assert no_reason.returncode == 2 and "--reason" in no_reason.stderr
    game = {g["id"]: g for g in player.get("/api/v1/games").json()}["dragon-poker"]
    open_round = player.start(game).json()["round_id"]
    not_review = _review(db_url, tmp_path, "void", open_round, "--by", "alice", "--reason", "test")
    assert not_review.returncode == 2 and "it is open" in not_review.stderr
    assert player.balance() == before - _ledger(db_url, open_round)[0][1] * -1
    assert player.get(f"/api/v1/rounds/{won['round_id']}").json()["status"] == "review"


def test_a_terminals_hand_pay_is_its_cabinets_and_is_refused(review_app, db_url, tmp_path) -> None:
    """The cabinet's attendant pays it: the server neither credits nor refunds a terminal's round (its
    round here is a copy of a player's hand pay, moved to the terminal's account)."""
    _, won = _hand_pay(review_app)
    generate_key_pair(tmp_path / "cab")
    db = open_database(db_url)
    try:
        terminal = add_terminal(db, f"CAB-{uuid.uuid4().hex[:6]}", (tmp_path / "cab.pub").read_text(), 1)
        with db.write() as conn:
            row = conn.execute(select(game_round).where(game_round.c.id == won["round_id"])).one()._asdict()
            cabinet_round = str(uuid.uuid4())
            conn.execute(insert(game_round).values({**row, "id": cabinet_round, "number": 1,
                                                    "account_id": terminal["account_id"],
                                                    "cabinet_game_number": 1}))
    finally:
        db.dispose()
    for action in (("pay",), ("void", "--reason", "test")):
        refused = _review(db_url, tmp_path, action[0], cabinet_round, "--by", "alice", *action[1:])
        assert refused.returncode == 2 and "its cabinet pays the hand pay" in refused.stderr
    assert cabinet_round not in _review(db_url, tmp_path, "list").stdout
    assert _ledger(db_url, cabinet_round) == []
    assert audit_of(db_url)["balanced"]


def test_the_audit_finds_a_hand_pay_credited_without_an_operator(review_app, db_url) -> None:
    _, won = _hand_pay(review_app)
    db = open_database(db_url)
    try:
        with db.write() as conn:  # resolved behind the operator's back: no record of who approved it
            conn.execute(update(game_round).where(game_round.c.id == won["round_id"]).values(status="voided"))
        found = audit_of(db_url)
        with db.write() as conn:
            conn.execute(update(game_round).where(game_round.c.id == won["round_id"]).values(status="review"))
    finally:
        db.dispose()
    assert not found["balanced"]
    assert any(won["round_id"] in p and "without an operator's record" in p for p in found["problems"])
    assert any(won["round_id"] in p and "refunded (expected" in p for p in found["problems"])
    assert audit_of(db_url)["balanced"]

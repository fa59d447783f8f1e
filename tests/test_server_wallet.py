"""The wallet over HTTP, on SQLite and PostgreSQL: integer cents, idempotent request ids, a balance that
never goes below zero, bad input refused with a sentence and no money moved, the books balanced."""

from __future__ import annotations

import pytest
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from egm.server.db import open_database
from egm.server.db.schema import account
from tests.server_support import Player, audit_of


def test_deposit_withdraw_and_the_ledger(app, db_url) -> None:
    player = Player(app).register()
    assert player.deposit(5_000) == 5_000
    out = player.post("/api/v1/wallet/withdraw", {"request_id": "w1", "amount_cents": 1_250})
    assert out.status_code == 200 and out.json()["balance_cents"] == 3_750
    ledger = player.get("/api/v1/wallet/transactions").json()
    assert ledger["balance_cents"] == 3_750
    assert [(t["kind"], t["amount_cents"], t["balance_after"]) for t in ledger["transactions"]] == [
        ("withdraw", -1_250, 3_750), ("deposit", 5_000, 5_000)]
    assert audit_of(db_url)["balanced"]


def test_a_retried_request_gets_the_stored_reply_byte_for_byte_and_moves_no_money(app, db_url) -> None:
    player = Player(app).register()
    body = {"request_id": "same-id", "amount_cents": 700}
    first = player.post("/api/v1/wallet/deposit", body)
    again = player.post("/api/v1/wallet/deposit", {"amount_cents": 700, "request_id": "same-id"})  # key order
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert player.balance() == 700
    other = player.post("/api/v1/wallet/deposit", {"request_id": "same-id", "amount_cents": 701})
    assert other.status_code == 409 and other.json()["code"] == "request_id_reused"
    as_withdraw = player.post("/api/v1/wallet/withdraw", body)  # the same id on another route
    assert as_withdraw.status_code == 409
    assert player.balance() == 700
    assert len(player.get("/api/v1/wallet/transactions").json()["transactions"]) == 1


def test_request_ids_belong_to_their_account(app) -> None:
    one, two = Player(app).register(), Player(app).register()
    assert one.post("/api/v1/wallet/deposit", {"request_id": "mine", "amount_cents": 100}).status_code == 200
    assert two.post("/api/v1/wallet/deposit", {"request_id": "mine", "amount_cents": 300}).status_code == 200
    assert (one.balance(), two.balance()) == (100, 300)


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"request_id": "a", "amount_cents": -5}, 400, "bad_amount"),
    ({"request_id": "a", "amount_cents": 0}, 400, "bad_amount"),
    ({"request_id": "a", "amount_cents": 10**15}, 400, "bad_amount"),
    ({"request_id": "a", "amount_cents": "500"}, 400, "malformed"),
    ({"request_id": "a", "amount_cents": 5.5}, 400, "malformed"),
    ({"request_id": "", "amount_cents": 5}, 400, "malformed"),
    ({"amount_cents": 5}, 400, "malformed"),
    ({"request_id": "a", "amount_cents": 5, "bonus": 1}, 400, "malformed"),
    ([1, 2], 400, "malformed"),
])
def test_bad_amounts_and_bodies_are_refused_with_a_sentence(app, db_url, body, status, code) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    for route in ("deposit", "withdraw"):
        answer = player.post(f"/api/v1/wallet/{route}", body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
        assert answer.json()["sentence"].endswith(".")
    assert player.balance() == 1_000
    assert audit_of(db_url)["balanced"]


def test_malformed_json_is_a_400_with_a_sentence(app) -> None:
    player = Player(app).register()
    answer = player.client.post("/api/v1/wallet/deposit", content=b'{"request_id": "x", "amount_cents": 5',
                                headers={"Origin": "https://testserver", "X-CSRF-Token": player.csrf,
                                         "Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"code": "malformed", "sentence": "The request body is not valid JSON."}
    assert player.balance() == 0


def test_a_withdrawal_past_the_balance_is_402_and_moves_nothing(app, db_url) -> None:
    player = Player(app).register()
    player.deposit(999)
    answer = player.post("/api/v1/wallet/withdraw", {"request_id": "too-much", "amount_cents": 1_000})
    assert answer.status_code == 402 and "more than the balance" in answer.json()["sentence"]
    assert player.balance() == 999
    retry = player.post("/api/v1/wallet/withdraw", {"request_id": "too-much", "amount_cents": 999})
    assert retry.status_code == 200 and retry.json()["balance_cents"] == 0  # a refusal leaves the id free
    assert audit_of(db_url)["balanced"]


def test_the_database_itself_refuses_a_negative_balance(app, db_url) -> None:
    Player(app).register()
    db = open_database(db_url)
    try:
        with pytest.raises(IntegrityError), db.write() as conn:
            conn.execute(update(account).values(balance_cents=-1))
    finally:
        db.dispose()


def test_money_routes_need_a_session_an_origin_and_the_csrf_token(app) -> None:
    player = Player(app).register()
    body = {"request_id": "guarded", "amount_cents": 100}
    foreign = player.post("/api/v1/wallet/deposit", body, Origin="https://evil.example")
    assert foreign.status_code == 403 and foreign.json()["code"] == "origin_refused"
    no_origin = player.client.post("/api/v1/wallet/deposit", json=body, headers={"X-CSRF-Token": player.csrf})
    assert no_origin.status_code == 403
    no_csrf = player.post("/api/v1/wallet/deposit", body, **{"X-CSRF-Token": None})
    assert no_csrf.status_code == 403 and no_csrf.json()["code"] == "csrf_refused"
    wrong_csrf = player.post("/api/v1/wallet/deposit", body, **{"X-CSRF-Token": "guess"})
    assert wrong_csrf.status_code == 403
    stranger = Player(app)  # no session at all
    assert stranger.post("/api/v1/wallet/deposit", body).status_code == 401
    assert player.balance() == 0


def test_a_huge_body_is_refused_before_it_is_read(app) -> None:
    player = Player(app).register()
    body = {"request_id": "big", "amount_cents": 5, "pad": "x" * 70_000}
    answer = player.post("/api/v1/wallet/deposit", body)
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"
    assert player.balance() == 0

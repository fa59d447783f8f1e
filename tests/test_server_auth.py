"""Accounts and sessions on SQLite and PostgreSQL: argon2id, the __Host- cookie and its flags, rotation
at login, idle and absolute expiry, logout, the lock after 3 failed logins, Origin and CSRF guards."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.schema import player as player_table
from egm.server.settings import SESSION_COOKIE
from tests.server_support import ORIGIN, PASSWORD, Player, settings_for, wait_ready


def _cookie_header(answer) -> str:
    return next(v for k, v in answer.headers.multi_items() if k == "set-cookie" and SESSION_COOKIE in v)


def test_register_sets_a_host_cookie_with_the_production_flags(app) -> None:
    player = Player(app)
    answer = player.post("/api/v1/auth/register", {"login": player.login, "password": PASSWORD})
    assert answer.status_code == 201
    body = answer.json()
    assert body["player"]["login"] == player.login and body["player"]["role"] == "player"
    assert len(body["csrf_token"]) >= 43  # 256 bits, URL-safe base64
    cookie = _cookie_header(answer)
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 43
    flags = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"secure", "httponly", "samesite=lax", "path=/"} <= flags
    assert not any(flag.startswith("domain") for flag in flags)


def test_passwords_are_argon2id_at_the_owasp_minimum(app, db_url) -> None:
    player = Player(app).register()
    db = open_database(db_url)
    with db.read() as conn:
        stored = conn.execute(select(player_table.c.password_hash)
                              .where(player_table.c.login == player.login)).scalar_one()
    db.dispose()
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PASSWORD not in stored and PasswordHasher().verify(stored, PASSWORD)


def test_login_rotates_the_session_and_ends_the_old_one(app) -> None:
    first = Player(app).register()
    second = Player(app, first.login)  # another browser, the same player
    answer = second.post("/api/v1/auth/login", {"login": first.login, "password": PASSWORD})
    assert answer.status_code == 200 and set(answer.json()) == {"player", "csrf_token"}
    second.csrf = answer.json()["csrf_token"]
    assert second.csrf != first.csrf
    assert second.get("/api/v1/session").status_code == 200
    assert first.get("/api/v1/session").status_code == 401  # one session per player


def test_a_stolen_session_is_dead_after_logout(app) -> None:
    player = Player(app).register()
    token = player.client.cookies.get(SESSION_COOKIE)
    thief = TestClient(app, base_url=ORIGIN)
    thief.cookies.set(SESSION_COOKIE, token)
    assert thief.get("/api/v1/session").status_code == 200
    assert player.post("/api/v1/auth/logout").status_code == 200
    for client in (thief, player.client):
        client.cookies.set(SESSION_COOKIE, token)
        assert client.get("/api/v1/session").status_code == 401
        answer = client.post("/api/v1/wallet/deposit", json={"request_id": "x", "amount_cents": 5},
                             headers={"Origin": ORIGIN, "X-CSRF-Token": player.csrf})
        assert answer.status_code == 401 and answer.json()["sentence"]


def test_three_failed_logins_lock_the_account(app) -> None:
    player = Player(app).register()
    other = Player(app, player.login)
    for _ in range(2):
        wrong = other.post("/api/v1/auth/login", {"login": player.login, "password": "not the password"})
        assert wrong.status_code == 401 and wrong.json()["sentence"] == "The login or the password is wrong."
    third = other.post("/api/v1/auth/login", {"login": player.login, "password": "not the password"})
    assert third.status_code == 403 and third.json()["code"] == "account_locked"
    right = other.post("/api/v1/auth/login", {"login": player.login, "password": PASSWORD})
    assert right.status_code == 403  # locked even with the right password


def test_an_unknown_login_gets_the_same_sentence_as_a_wrong_password(app) -> None:
    answer = Player(app).post("/api/v1/auth/login", {"login": "nobody-here", "password": "whatever123"})
    assert answer.status_code == 401 and answer.json()["sentence"] == "The login or the password is wrong."


def test_login_and_register_refuse_a_foreign_origin(app) -> None:
    player = Player(app)
    answer = player.post("/api/v1/auth/register", {"login": player.login, "password": PASSWORD},
                         Origin="https://evil.example")
    assert answer.status_code == 403 and "https://evil.example" in answer.json()["sentence"]
    assert SESSION_COOKIE not in answer.headers.get("set-cookie", "")


def test_a_taken_login_is_409(app) -> None:
    player = Player(app).register()
    again = Player(app, player.login).post("/api/v1/auth/register",
                                           {"login": player.login, "password": PASSWORD})
    assert again.status_code == 409 and again.json()["code"] == "login_taken"


def test_sessions_expire_when_idle_and_at_their_absolute_limit(db_url) -> None:
    now = [1_000_000.0]
    app = create_app(settings_for(db_url, clock=lambda: now[0], session_idle_s=600, session_absolute_s=3600))
    with TestClient(app, base_url=ORIGIN) as booted:
        wait_ready(booted)
        player = Player(app).register()
        for _ in range(8):  # active every 500 s: never idle, but past the absolute limit at 4000 s
            now[0] += 500
            expected = 200 if now[0] - 1_000_000 <= 3600 else 401
            assert player.get("/api/v1/session").status_code == expected
        idle = Player(app).register()
        now[0] += 601
        answer = idle.get("/api/v1/session")
        assert answer.status_code == 401 and answer.json()["code"] == "session_expired"


def test_user_add_creates_staff_accounts(tmp_path, db_url) -> None:
    secret = tmp_path / "password"
    secret.write_text("a staff password\n")
    login = f"dealer{tmp_path.name[-6:]}".replace("_", "")
    command = [sys.executable, "-m", "egm.cli", "server", "user", "add", "--login", login, "--role", "dealer",
               "--password-file", str(secret), "--db", db_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["role"] == "dealer"
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert again.returncode == 2 and "taken" in again.stderr


@pytest.mark.parametrize("login", ["x", "bob smith", "a" * 65])
def test_user_add_refuses_a_login_that_could_never_log_in(tmp_path, db_url, login) -> None:
    """The login rule is the API's (3 to 64 of A-Z a-z 0-9 . _ @ -): an account made with another
    login could never log in."""
    secret = tmp_path / "password"
    secret.write_text("a staff password\n")
    done = subprocess.run([sys.executable, "-m", "egm.cli", "server", "user", "add", "--login", login,
                           "--role", "operator", "--password-file", str(secret), "--db", db_url],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2 and "A login is 3 to 64" in done.stderr, (done.returncode, done.stderr)
    db = open_database(db_url)
    with db.read() as conn:
        assert conn.execute(select(player_table.c.id).where(player_table.c.login == login)).first() is None
    db.dispose()


def test_every_answer_carries_the_security_headers_and_api_answers_are_not_cached(app) -> None:
    player = Player(app).register()
    for answer in (player.get("/api/v1/session"), player.get("/healthz"),
                   player.post("/api/v1/wallet/deposit", {"request_id": "h", "amount_cents": -1})):
        assert answer.headers["content-security-policy"].startswith("default-src 'self'")
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
    assert player.get("/api/v1/session").headers["cache-control"] == "no-store"


def test_unknown_routes_and_methods_answer_in_the_error_shape(app) -> None:
    player = Player(app).register()
    missing = player.get("/api/v1/no-such-route")
    assert missing.status_code == 404
    assert missing.json() == {"code": "not_found", "sentence": "No such route."}
    wrong = player.client.put("/api/v1/session", headers={"Origin": ORIGIN})
    assert wrong.status_code == 405 and set(wrong.json()) == {"code", "sentence"}

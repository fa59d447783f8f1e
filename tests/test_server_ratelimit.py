"""The per-IP limit on the requests that need no session (register, login): 429 with Retry-After and
the API's error body once an address has made its limit in the window, nothing done for a refused
request, admitted again as the window slides, and one address's attempts never blocking another's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from egm.server.app import create_app
from egm.server.settings import SESSION_COOKIE
from tests.server_support import ORIGIN, PASSWORD, Clock, Player, settings_for, wait_ready

LIMIT, WINDOW_S = 3, 60


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def limited_app(tmp_path_factory: pytest.TempPathFactory, clock: Clock) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path_factory.mktemp('ratelimit')}/egm.db"
    application = create_app(settings_for(url, clock=clock, ip_limit=LIMIT, ip_window_s=WINDOW_S))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        yield application


def _from(app: Any, address: str, login: str | None = None) -> Player:
    """A browser at this client address."""
    player = Player(app, login)
    player.client = TestClient(app, base_url=ORIGIN, client=(address, 50000))
    return player


def _login(player: Player, password: str = PASSWORD) -> Any:
    return player.post("/api/v1/auth/login", {"login": player.login, "password": password})


def test_an_address_past_its_limit_gets_429_and_nothing_is_done(limited_app, clock) -> None:
    clock.move(10 * WINDOW_S)  # a fresh window for this test
    known = _from(limited_app, "10.0.0.1").register()  # one of the address's attempts
    known.client.cookies.clear()
    for _ in range(LIMIT - 1):
        assert _login(known, "wrong password").status_code == 401
    clock.move(20)
    refused = _login(known)  # the right password, but the address has had its attempts
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited" and "Too many attempts" in refused.json()["sentence"]
    assert int(refused.headers["Retry-After"]) == refused.json()["retry_after_s"] == WINDOW_S - 20
    assert SESSION_COOKIE not in refused.headers.get("set-cookie", "")
    newcomer = _from(limited_app, "10.0.0.1")
    assert newcomer.post("/api/v1/auth/register", {"login": newcomer.login, "password": PASSWORD}) \
        .status_code == 429
    clock.move(WINDOW_S)  # the window slid past: admitted again, and the refused registration never happened
    assert newcomer.register().csrf
    assert _login(known).status_code == 200


def test_one_addresss_failures_do_not_block_another(limited_app, clock) -> None:
    clock.move(10 * WINDOW_S)
    player = _from(limited_app, "10.0.0.2").register()
    guesser = _from(limited_app, "10.0.0.3", player.login)
    for n in range(LIMIT):
        guessed = guesser.post("/api/v1/auth/login", {"login": f"nobody-{n}", "password": "wrong password"})
        assert guessed.status_code == 401
    assert _login(guesser).status_code == 429
    same_account_elsewhere = _from(limited_app, "10.0.0.4", player.login)
    assert _login(same_account_elsewhere).status_code == 200


def test_requests_with_a_session_are_not_counted(limited_app, clock) -> None:
    clock.move(10 * WINDOW_S)
    player = _from(limited_app, "10.0.0.5").register()
    for _ in range(LIMIT + 2):
        assert player.deposit(100) > 0
    assert player.post("/api/v1/auth/logout").status_code == 200
    assert _login(player).status_code == 200

"""Websocket /ws on SQLite and PostgreSQL: the hello snapshot, balance and round pushes with the
account's sequence numbers (after commit only), resume by snapshot, another player's changes never
seen, and the handshake's guards (a session, an allowed Origin)."""

from __future__ import annotations

import uuid

import pytest
from starlette.websockets import WebSocketDisconnect

from egm.server.settings import SESSION_COOKIE
from tests.server_support import ORIGIN, Player


def socket_of(player: Player, origin: str = ORIGIN):
    """The player's socket, with its session cookie (the test client's jar keeps a Secure cookie for
    https only, and its websocket URL is ws://; a browser sends it to its own origin)."""
    token = player.client.cookies.get(SESSION_COOKIE)
    cookie = {"Cookie": f"{SESSION_COOKIE}={token}"} if token else {}
    return player.client.websocket_connect("/ws", headers={"Origin": origin, **cookie})


def test_hello_then_balance_and_round_pushes_in_sequence(app) -> None:
    player = Player(app).register()
    with socket_of(player) as socket:
        hello = socket.receive_json()
        assert hello["type"] == "hello" and hello["balance_cents"] == 0 and hello["open_round"] is None
        first = hello["seq"]
        player.deposit(1_000)
        pushed = socket.receive_json()
        assert (pushed["type"], pushed["balance_cents"], pushed["seq"]) == ("balance", 1_000, first + 1)
        game = player.get("/api/v1/games").json()[0]
        started = player.start(game)
        assert started.status_code == 200, started.text
        round_pushed = socket.receive_json()
        assert round_pushed.pop("at") > 0
        assert round_pushed == {"type": "round", "seq": first + 2, "round_id": started.json()["round_id"],
                                "step_no": 0, "balance_cents": started.json()["balance_cents"]}
        socket.send_json({"type": "resume", "last_seq": first})
        again = socket.receive_json()
        assert again["type"] == "snapshot" and again["seq"] == first + 2
        assert again["open_round"]["round_id"] == started.json()["round_id"]


def test_a_refused_request_pushes_nothing(app) -> None:
    player = Player(app).register()
    with socket_of(player) as socket:
        seq = socket.receive_json()["seq"]
        refused = player.post("/api/v1/wallet/withdraw", {"request_id": uuid.uuid4().hex, "amount_cents": 5})
        assert refused.status_code == 402
        player.deposit(7)  # the next push is this one: the refused withdrawal sent nothing
        pushed = socket.receive_json()
        assert (pushed["balance_cents"], pushed["seq"]) == (7, seq + 1)


def test_another_players_changes_are_not_pushed(app) -> None:
    watcher, other = Player(app).register(), Player(app).register()
    with socket_of(watcher) as socket:
        seq = socket.receive_json()["seq"]
        other.deposit(500)
        watcher.deposit(3)
        pushed = socket.receive_json()
        assert (pushed["balance_cents"], pushed["seq"]) == (3, seq + 1)


@pytest.mark.parametrize("case", ["no session", "foreign origin"])
def test_the_handshake_needs_a_session_and_an_allowed_origin(app, case) -> None:
    player = Player(app) if case == "no session" else Player(app).register()
    origin = ORIGIN if case == "no session" else "https://evil.example"
    with pytest.raises(WebSocketDisconnect) as closed, socket_of(player, origin) as socket:
        socket.receive_json()
    assert closed.value.code == (4401 if case == "no session" else 4403)


def test_a_resume_after_logout_ends_the_socket(app) -> None:
    player = Player(app).register()
    with socket_of(player) as socket:
        socket.receive_json()
        assert player.post("/api/v1/auth/logout", {}).status_code == 200
        socket.send_json({"type": "resume", "last_seq": 0})
        assert socket.receive_json() == {"type": "session_ended", "reason": "no_session"}

"""Cabinets on the server (issue 30, TERMINAL-CONTRACT.md), on SQLite and PostgreSQL: the signed
terminal routes, the refusals of unsigned, forged, stale and replayed requests (which move nothing),
the same round for a request re-sent after a power cut, one open round per terminal, the terminal's
meters as the sum of its rounds, an account that never holds money, `egm server terminal add`, and the
audit's reconciliation with a cabinet's `egm meters --json`."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from sqlalchemy import func, inspect, select, text

from egm.cli import main as cli_main
from egm.meters import Meters
from egm.rom.signing import generate_key_pair
from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.migrations import LATEST, MIGRATIONS, migrate
from egm.server.db.schema import (
    account,
    game_round,
    idempotency,
    pool,
    schema_version,
    terminal,
    terminal_nonce,
    wallet_tx,
)
from egm.server.terminals import REGISTRATION_KEPT_S, Registrations, add_terminal, catalogue
from egm.terminal_link.signing import (
    HEADER_NONCE,
    HEADER_TIMESTAMP,
    key_id,
    load_private_key,
    load_public_key,
    sign_request,
    verify_catalogue,
)
from tests.server_support import ORIGIN, Player, audit_of, egm_cli, settings_for, wait_ready

ROUNDS = "/api/v1/terminal/rounds"


class Terminal:
    """A cabinet's link: every request signed with its key (no cookie, CSRF or Origin)."""

    def __init__(self, app: Any, terminal_id: str, key: Ed25519PrivateKey) -> None:
        self.client = TestClient(app, base_url=ORIGIN)
        self.id, self.key = terminal_id, key
        self.memory_id, self.game_number = uuid.uuid4().hex[:8], 0  # a cabinet's memory: its own numbers

    def send(self, method: str, path: str, body: Any = None, *, key: Ed25519PrivateKey | None = None,
             now: float | None = None, headers: dict[str, str] | None = None,
             signed_body: bytes | None = None, signed_path: str | None = None) -> tuple[Any, dict[str, str]]:
        """(the answer, the headers sent). signed_body / signed_path: sign other bytes than those sent
        (a tampering on the way)."""
        raw = b"" if body is None else json.dumps(body).encode()
        if headers is None:
            headers = sign_request(key or self.key, self.id, method, signed_path or path,
                                   raw if signed_body is None else signed_body,
                                   time.time() if now is None else now)
        answer = self.client.request(method, path, content=raw or None,
                                     headers={**headers, "Content-Type": "application/json"})
        return answer, headers

    def get(self, path: str) -> Any:
        return self.send("GET", path)[0]

    def post(self, path: str, body: Any) -> Any:
        return self.send("POST", path, body)[0]

    def start_body(self, game_id: str = "dragon-poker", **wager: Any) -> dict[str, Any]:
        self.game_number += 1
        return {"request_id": f"{self.id}-{self.memory_id}-{self.game_number}-start",
                "game_number": self.game_number, "game_id": game_id, "denom_cents": 1, "bet_credits": 1,
                "side_bets": {}, **wager}

    def play_out(self, started: dict[str, Any]) -> dict[str, Any]:
        """AUTO until the round is complete (request ids as the cabinet makes them); the last reply."""
        last, step_no = started, started["step_no"]
        while not last["complete"]:
            answer = self.post(f"{ROUNDS}/{started['round_id']}/decisions",
                               {"request_id": f"{self.id}-{self.memory_id}-{self.game_number}-{step_no}",
                                "step_no": step_no, "decision": {"kind": "auto"}})
            assert answer.status_code == 200, answer.text
            last, step_no = answer.json(), answer.json()["step_no"]
        return last


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Key pairs: t1, t2 (terminals), intruder (registered nowhere), catalogue (the server's)."""
    folder = tmp_path_factory.mktemp("keys")
    for name in ("t1", "t2", "intruder", "catalogue"):
        generate_key_pair(folder / name)
    return folder


@pytest.fixture(scope="module")
def app(db_url: str, keys: Path) -> Iterator[Any]:
    application = create_app(settings_for(db_url, catalogue_key=str(keys / "catalogue.key")))
    with TestClient(application, base_url=ORIGIN) as booted:
        wait_ready(booted)
        db = application.state.server.db
        for name in ("t1", "t2"):
            add_terminal(db, f"T-{name}", (keys / f"{name}.pub").read_text(), int(time.time()))
        yield application


def _terminal(app: Any, keys: Path, name: str = "t1") -> Terminal:
    return Terminal(app, f"T-{name}", load_private_key(keys / f"{name}.key"))


def _rounds_of(app: Any, terminal_id: str) -> tuple[int, list[Any]]:
    """The terminal's account id and its rounds."""
    with app.state.server.db.read() as conn:
        account_id = conn.execute(select(terminal.c.account_id)
                                  .where(terminal.c.name == terminal_id)).scalar_one()
        return account_id, conn.execute(select(game_round).where(game_round.c.account_id == account_id)).all()


def _state(app: Any, terminal_id: str) -> dict[str, int]:
    """What a refused request must not change: the terminal's rounds, request keys, ledger, balance."""
    account_id, _ = _rounds_of(app, terminal_id)
    with app.state.server.db.read() as conn:

        def count(table: Any) -> int:
            return int(conn.execute(select(func.count()).select_from(table)
                                    .where(table.c.account_id == account_id)).scalar_one())

        return {"rounds": count(game_round), "keys": count(idempotency), "ledger": count(wallet_tx),
                "balance": int(conn.execute(select(account.c.balance_cents)
                                            .where(account.c.id == account_id)).scalar_one())}


def _finish_open_round(link: Terminal) -> None:
    """Leave the terminal with no open round (a test before may have left one)."""
    body = link.start_body()
    answer = link.post(ROUNDS, body)
    if answer.status_code == 409 and answer.json()["code"] == "round_open":
        link.play_out({"round_id": answer.json()["round_id"], "step_no": answer.json()["step_no"],
                       "complete": False})
        answer = link.post(ROUNDS, body)
    assert answer.status_code == 200, answer.text
    link.play_out(answer.json())


def test_signed_rounds_play_and_the_terminal_account_never_holds_money(app, keys, db_url) -> None:
    link = _terminal(app, keys)
    _finish_open_round(link)
    before = _state(app, link.id)
    body = link.start_body()
    started = link.post(ROUNDS, body)
    assert started.status_code == 200, started.text
    reply = started.json()
    assert {"round_id", "step_no", "view", "complete", "win_cents", "stake_cents"} <= set(reply)
    assert reply["stake_cents"] == reply["view"]["stake_credits"] and "record" not in reply
    shown = link.get(f"{ROUNDS}/{reply['round_id']}")
    assert shown.status_code == 200 and shown.json()["step_no"] == 0 and shown.json()["complete"] is False
    final = link.play_out(reply)
    assert final["status"] in ("complete", "review") and final["win_cents"] >= 0 and "record" in final
    shown = link.get(f"{ROUNDS}/{reply['round_id']}").json()
    assert shown["complete"] and shown["win_cents"] == final["win_cents"] and shown["stake_cents"] == 10
    after = _state(app, link.id)
    assert after["balance"] == before["balance"] == 0 and after["ledger"] == before["ledger"] == 0
    assert after["rounds"] == before["rounds"] + 1
    with app.state.server.db.read() as conn:
        row = conn.execute(select(game_round).where(game_round.c.id == reply["round_id"])).one()
        pools = conn.execute(select(pool.c.account_id).where(pool.c.game_id == "dragon-poker")).all()
    assert row.cabinet_game_number == body["game_number"]
    assert (row.account_id,) in pools, "the Dragon pool is kept per (terminal, game)"
    assert audit_of(db_url)["balanced"]


def test_a_terminal_sees_only_its_own_rounds(app, keys) -> None:
    mine, other = _terminal(app, keys), _terminal(app, keys, "t2")
    _finish_open_round(mine)
    started = mine.post(ROUNDS, mine.start_body()).json()
    assert other.get(f"{ROUNDS}/{started['round_id']}").status_code == 404
    refused = other.post(f"{ROUNDS}/{started['round_id']}/decisions",
                         {"request_id": "x-1", "step_no": 0, "decision": {"kind": "auto"}})
    assert refused.status_code == 404
    mine.play_out(started)


def test_refused_requests_move_nothing(app, keys) -> None:
    link = _terminal(app, keys)
    _finish_open_round(link)
    before = _state(app, link.id)
    body = link.start_body()
    unsigned = link.client.post(ROUNDS, json=body)
    assert unsigned.status_code == 401 and unsigned.json()["code"] == "unsigned"
    partly = sign_request(link.key, link.id, "POST", ROUNDS, json.dumps(body).encode(), time.time())
    del partly[HEADER_NONCE]
    assert link.send("POST", ROUNDS, body, headers=partly)[0].json()["code"] == "unsigned"
    intruder = load_private_key(keys / "intruder.key")
    forgeries = {
        "another key": link.send("POST", ROUNDS, body, key=intruder)[0],
        "a tampered body": link.send("POST", ROUNDS, body, signed_body=json.dumps(
            {**body, "bet_credits": 10}).encode())[0],
        "a tampered path": link.send("POST", ROUNDS, body, signed_path=f"{ROUNDS}?game=2")[0],
        "an unknown terminal": Terminal(app, "T-nobody", intruder).send("POST", ROUNDS, body)[0],
    }
    for what, answer in forgeries.items():
        assert (answer.status_code, answer.json()["code"]) == (401, "bad_signature"), what
    assert "T-nobody" in forgeries["an unknown terminal"].json()["sentence"]
    for skew in (-120, 120):  # well past the 60 s window: a loaded machine may take seconds to answer
        stale = link.send("POST", ROUNDS, body, now=time.time() + skew)[0]
        assert (stale.status_code, stale.json()["code"]) == (401, "stale_request"), skew
        assert "60 s" in stale.json()["sentence"]
    assert _state(app, link.id) == before
    first, sent = link.send("POST", ROUNDS, body)
    assert first.status_code == 200
    replayed = link.send("POST", ROUNDS, body, headers=sent)[0]  # the same signed bytes, captured
    assert (replayed.status_code, replayed.json()["code"]) == (401, "replayed")
    replayed_get = link.send("GET", "/api/v1/terminal/meters")[1]
    assert link.send("GET", "/api/v1/terminal/meters", headers=replayed_get)[0].json()["code"] == "replayed"
    assert _state(app, link.id)["rounds"] == before["rounds"] + 1
    link.play_out(first.json())


def test_a_refused_request_cannot_be_replayed_either(app, keys) -> None:
    """A refused request rolls back, its nonce with it, and the nonce is then burned in a transaction of
    its own: replayed after the open round ends, a start refused with round_open does not start a round,
    nor a start refused by the wager check, nor a decision refused as stale."""
    link = _terminal(app, keys)
    _finish_open_round(link)
    started = link.post(ROUNDS, link.start_body()).json()
    refused, sent = link.send("POST", ROUNDS, body := link.start_body())
    assert refused.status_code == 409 and refused.json()["code"] == "round_open"
    path = f"{ROUNDS}/{started['round_id']}/decisions"
    stale = {"request_id": f"{body['request_id']}-x", "step_no": 5, "decision": {"kind": "auto"}}
    refused_step, sent_step = link.send("POST", path, stale)
    assert refused_step.status_code == 409 and refused_step.json()["code"] == "stale_step"
    link.play_out(started)
    count = _state(app, link.id)["rounds"]
    assert link.send("POST", ROUNDS, body, headers=sent)[0].json()["code"] == "replayed"
    assert _state(app, link.id)["rounds"] == count
    assert link.send("POST", path, stale, headers=sent_step)[0].json()["code"] == "replayed"
    wager_refused, sent_wager = link.send("POST", ROUNDS, odd := link.start_body(denom_cents=3))
    assert wager_refused.status_code == 422
    assert link.send("POST", ROUNDS, odd, headers=sent_wager)[0].json()["code"] == "replayed"


def test_old_nonces_are_pruned(app, keys) -> None:
    link = _terminal(app, keys)
    old = link.send("GET", "/api/v1/terminal/meters", now=time.time() - 50)[1]
    db = app.state.server.db
    with db.read() as conn:
        kept = conn.execute(select(terminal_nonce.c.nonce)).scalars().all()
    assert old[HEADER_NONCE] in kept
    with db.write() as conn:  # as if it were signed more than the window ago
        conn.execute(terminal_nonce.update().where(terminal_nonce.c.nonce == old[HEADER_NONCE])
                     .values(signed_at=int(old[HEADER_TIMESTAMP]) - 3600))
    assert link.get("/api/v1/terminal/meters").status_code == 200
    with db.read() as conn:
        assert old[HEADER_NONCE] not in conn.execute(select(terminal_nonce.c.nonce)).scalars().all()


def test_a_resend_after_a_power_cut_gets_the_same_round_byte_for_byte(app, keys) -> None:
    link = _terminal(app, keys)
    _finish_open_round(link)
    body = link.start_body()
    first = link.post(ROUNDS, body)
    resent = link.post(ROUNDS, body)  # newly signed: a new nonce and time, the same request id and body
    assert first.status_code == resent.status_code == 200 and resent.content == first.content
    decision = {"request_id": f"{body['request_id']}-0", "step_no": 0, "decision": {"kind": "auto"}}
    path = f"{ROUNDS}/{first.json()['round_id']}/decisions"
    step, again = link.post(path, decision), link.post(path, decision)
    assert step.status_code == 200 and again.content == step.content
    reused = link.post(ROUNDS, {**body, "bet_credits": 2})
    assert reused.status_code == 409 and reused.json()["code"] == "request_id_reused"
    stale = link.post(path, {**decision, "request_id": "another"})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_step"
    assert stale.json()["step_no"] == 1 and stale.json()["view"] == step.json()["view"]
    link.play_out({**step.json(), "round_id": first.json()["round_id"]})


def test_one_open_round_per_terminal_and_the_open_round_comes_back(app, keys) -> None:
    link = _terminal(app, keys)
    _finish_open_round(link)
    started = link.post(ROUNDS, link.start_body()).json()
    again = link.post(ROUNDS, link.start_body())
    assert again.status_code == 409 and again.json()["code"] == "round_open"
    assert again.json()["round_id"] == started["round_id"] and again.json()["step_no"] == 0
    assert again.json()["view"] == started["view"]
    link.play_out(started)


def test_wager_refusals_and_malformed_bodies(app, keys) -> None:
    link = _terminal(app, keys)
    _finish_open_round(link)
    before = _state(app, link.id)
    refused = link.post(ROUNDS, link.start_body(denom_cents=3))
    assert refused.status_code == 422 and "not played in 3¢ credits" in refused.json()["sentence"]
    assert link.post(ROUNDS, {**link.start_body(), "game_number": "7"}).status_code == 400
    assert link.post(ROUNDS, {**link.start_body(), "game_number": 0}).status_code == 400
    assert link.post(ROUNDS, {**link.start_body(), "count": 5}).status_code == 400
    assert _state(app, link.id) == before


def test_the_signature_is_checked_before_the_body_is_read(app, keys) -> None:
    """A round request is authenticated first (401), then its body read (400 naming the field): a caller
    without the key learns nothing of the body's rules, and a malformed signed body moves nothing."""
    link = _terminal(app, keys)
    _finish_open_round(link)
    before = _state(app, link.id)
    malformed = {**link.start_body(), "game_number": "7"}
    unsigned = link.client.post(ROUNDS, json=malformed)
    assert unsigned.status_code == 401 and unsigned.json()["code"] == "unsigned"
    forged = link.send("POST", ROUNDS, malformed, key=load_private_key(keys / "intruder.key"))[0]
    assert forged.status_code == 401 and forged.json()["code"] == "bad_signature"
    signed = link.post(ROUNDS, malformed)
    assert signed.status_code == 400 and signed.json() == {
        "code": "malformed",
        "sentence": "The request body is malformed: game_number: Input should be a valid integer."}
    not_json = link.send("POST", ROUNDS, None, headers=None)[0]  # signed, but no body at all
    assert not_json.status_code == 400 and not_json.json()["code"] == "malformed"
    decision = link.post(f"{ROUNDS}/no-such-round/decisions", {"request_id": "x-1", "step_no": "0",
                                                                "decision": {"kind": "auto"}})
    assert decision.status_code == 400 and "step_no" in decision.json()["sentence"]
    assert _state(app, link.id) == before


def test_the_meters_are_the_sums_of_the_terminals_rounds(app, keys) -> None:
    link = _terminal(app, keys, "t2")
    _finish_open_round(link)
    for game_id in ("dragon-poker", "poker-grid"):
        listed = next(g for g in link.get("/api/v1/terminal/catalogue").json()["games"] if g["id"] == game_id)
        started = link.post(ROUNDS, link.start_body(game_id, denom_cents=listed["denominations_cents"][0],
                                                    bet_credits=listed["bets_credits"][0]))
        assert started.status_code == 200, started.text
        link.play_out(started.json())
    open_round = link.post(ROUNDS, link.start_body()).json()  # counted as played from its start
    meters = link.get("/api/v1/terminal/meters")
    assert meters.status_code == 200
    got = meters.json()
    _, rounds = _rounds_of(app, link.id)
    games: dict[str, dict[str, int]] = {}
    for r in rounds:
        row = games.setdefault(r.game_id, {"games_played": 0, "coin_in_cents": 0, "coin_out_cents": 0})
        row["games_played"] += 1
        row["coin_in_cents"] += r.stake_cents
        row["coin_out_cents"] += r.win_cents if r.status == "complete" else 0
    assert got == {"terminal_id": link.id, "games": games, "open_rounds": 1,
                   **{k: sum(g[k] for g in games.values())
                      for k in ("games_played", "coin_in_cents", "coin_out_cents")}}
    assert set(games) >= {"dragon-poker", "poker-grid"}
    link.play_out(open_round)


def test_the_catalogue_is_the_games_list_signed_by_the_server(app, keys) -> None:
    link = _terminal(app, keys)
    answer = link.get("/api/v1/terminal/catalogue")
    assert answer.status_code == 200
    got = answer.json()
    assert got["terminal_id"] == link.id
    assert got["games"] == Player(app).get("/api/v1/games").json()
    public = load_public_key(keys / "catalogue.pub")
    assert len(got["signed_by"]) == 16 and verify_catalogue(public, got["games"], got["signature"])
    tampered = [{**got["games"][0], "paytable_sha256": "0" * 64}, *got["games"][1:]]
    assert not verify_catalogue(public, tampered, got["signature"])
    unsigned = catalogue(app.state.server.lobby, link.id, None)
    assert unsigned["signed_by"] is None and unsigned["signature"] is None


def test_player_routes_do_not_take_a_terminal_and_terminal_routes_do_not_take_a_cookie(app, keys) -> None:
    player = Player(app).register()
    answer = player.post(ROUNDS, {"request_id": "p-1", "game_number": 1, "game_id": "dragon-poker",
                                  "denom_cents": 1, "bet_credits": 1, "side_bets": {}})
    assert answer.status_code == 401 and answer.json()["code"] == "unsigned"
    link = _terminal(app, keys)
    assert link.client.get("/api/v1/session").status_code == 401


def _cabinet_meters(app: Any, terminal_id: str) -> dict[str, Any]:
    """The `egm meters --json` a cabinet that played exactly this terminal's rounds would print: its
    meters advanced round by round as the cabinet advances them (coin in and played at the start,
    coin out for a credited win)."""
    meters = Meters()
    for r in _rounds_of(app, terminal_id)[1]:
        for name, amount in (("coin_in", r.stake_cents), ("games_played", 1),
                             ("coin_out", r.win_cents if r.status == "complete" else 0)):
            meters.add(name, amount)
            meters.add_game(r.game_id, r.paytable_id, name, amount)
    return {"meters": meters.to_record()}


def test_audit_reconciles_a_terminal_with_its_cabinets_meters(app, keys, db_url, tmp_path, capsys) -> None:
    """`egm server audit --terminal-meters` through the CLI's own entry point, in this process (whose
    game engines are compiled already: a new process would compile them again)."""
    link = _terminal(app, keys)
    _finish_open_round(link)
    matching = tmp_path / "t1-meters.json"
    matching.write_text(json.dumps(_cabinet_meters(app, link.id)))

    def audit(*args: str) -> tuple[int, str, str]:
        code = cli_main(["server", "audit", "--db", db_url, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = audit("--terminal-meters", f"{link.id}={matching}", "--json")
    assert code == 0, out + err
    result = json.loads(out)
    assert result["balanced"] and result["terminals"][link.id]["differences"] == []
    assert result["terminals"][link.id]["server"]["games_played"] >= 1
    off = _cabinet_meters(app, link.id)
    off["meters"]["per_game"]["dragon-poker"]["coin_in"] += 5  # a cabinet that metered 5 cents more
    off["meters"]["coin_in"] += 5
    mismatching = tmp_path / "t1-off.json"
    mismatching.write_text(json.dumps(off))
    code, out, _ = audit("--terminal-meters", f"{link.id}={mismatching}")
    assert code == 1 and f"terminal {link.id}: 2 differences" in out
    assert "dragon-poker: coin_in is" in out and "total: coin_in is" in out
    code, _, err = audit("--terminal-meters", f"T-nobody={matching}")
    assert code == 2 and "no terminal 'T-nobody'" in err
    (tmp_path / "junk.json").write_text('{"tilt": "ram_error"}')
    code, _, err = audit("--terminal-meters", f"{link.id}={tmp_path}/junk.json")
    assert code == 2 and "ram_error" in err
    code, _, err = audit("--terminal-meters", str(matching))
    assert code == 2 and "T=FILE" in err


def _fresh_terminal(app: Any, keys: Path) -> str:
    """A terminal registered now with t2's key: its game numbers start at 1 (seeded rounds repeat)."""
    name = f"T-{uuid.uuid4().hex[:8]}"
    add_terminal(app.state.server.db, name, (keys / "t2.pub").read_text(), int(time.time()))
    return name


def test_a_completed_reply_carries_the_result_code_and_side_bet_wins(app, keys, monkeypatch) -> None:
    """What the cabinet meters and shows of a finished round comes in the last reply: its status, the
    result code and each side bet's win, equal to the server's settled round and the game's outcome."""
    from egm.rng import seeded_rng

    rounds = app.state.server.rounds
    monkeypatch.setattr(rounds, "rng_for_game", seeded_rng(5))  # the side bet wins in games 2, 3 and 7
    link = Terminal(app, _fresh_terminal(app, keys), load_private_key(keys / "t2.key"))
    game = app.state.server.lobby.games["dragon-poker"]
    side_bet_won = 0
    for _ in range(12):
        started = link.post(ROUNDS, link.start_body(side_bets={"pair_bonus": 1}))
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "open" and "result_code" not in started.json()
        final = link.play_out(started.json())
        outcome = game.restore(final["record"]).outcome()
        with app.state.server.db.read() as conn:
            row = conn.execute(select(game_round).where(game_round.c.id == started.json()["round_id"])).one()
        assert final["status"] == row.status == "complete" and final["hand_pay_reason"] == ""
        assert final["result_code"] == row.result_code == outcome.result_code != ""
        assert final["side_bet_wins_credits"] == dict(outcome.side_bet_wins_credits)
        side_bet_won += sum(outcome.side_bet_wins_credits.values())
    assert side_bet_won > 0, "no side bet won: choose another seed"


SERVER_HAND_PAY_CENTS, CABINET_HAND_PAY_CENTS = 13, 11  # 10-cent stakes: each limit decides some wins


def _cabinet_on(app: Any, keys: Path, nvram: Path, terminal_id: str) -> Any:
    """A headless cabinet whose Dragon Poker is this server's (the link goes through the app in-process),
    with a lower hand-pay limit than the server's."""
    from egm.cabinet import Cabinet
    from egm.clock import FakeClock
    from egm.config import GameServerConfig
    from egm.host.game_server import GameServerLink
    from egm.host.remote_game import RemoteGame
    from hardware.factory import build_devices
    from tests.cabinet_support import spine_config, spine_jurisdiction

    config = spine_config(game_server=GameServerConfig.model_construct(
        url=ORIGIN, terminal_id=terminal_id, private_key="k.pem", offline_tilt_s=30,
        catalogue_public_key=None)).model_copy(update={"games": ["dragon-poker"]})
    lobby = app.state.server.lobby
    entry = next(g for g in lobby.listing() if g["id"] == "dragon-poker")
    clock = FakeClock()
    link = GameServerLink(ORIGIN, terminal_id, load_private_key(keys / "t2.key"),
                          transport=TestClient(app, base_url=ORIGIN)._transport, monotonic=clock.monotonic,
                          retry_s=0.01, heartbeat_s=0.05)
    return Cabinet(config, nvram, games={"dragon-poker": RemoteGame(entry, lobby.games["dragon-poker"])},
                   devices=build_devices(config), clock=clock, game_server=link,
                   jurisdiction=spine_jurisdiction(hand_pay_limit_cents=CABINET_HAND_PAY_CENTS))


def test_a_hand_pay_is_the_servers_and_the_cabinet_reconciles_after_the_attendant(
        app, keys, db_url, tmp_path, capsys, monkeypatch) -> None:
    """A terminal round whose win reaches the server's hand-pay limit is `review` on the server (not coin
    out) and locks the cabinet up for a hand pay; a win under it is credited on both sides although the
    cabinet's own limit is lower. After the attendant's resets the cabinet's meters keep the identity
    and `egm server audit --terminal-meters` finds no difference."""
    from egm.cabinet_cli import autoplay
    from egm.memory.recovery import read_memory
    from egm.rng import seeded_rng

    rounds = app.state.server.rounds
    monkeypatch.setattr(rounds, "lobby", replace(rounds.lobby, hand_pay_limit_cents=SERVER_HAND_PAY_CENTS))
    monkeypatch.setattr(rounds, "rng_for_game", seeded_rng(30))
    name = _fresh_terminal(app, keys)
    cabinet = _cabinet_on(app, keys, tmp_path / "nvram", name)
    report, code = autoplay(cabinet, "dragon-poker", 40, 10000)
    assert code == 0, report
    cabinet.game_server.close()
    _, played = _rounds_of(app, name)
    assert len(played) == 40 and all(r.status in ("complete", "review") for r in played)
    reviewed = [r for r in played if r.status == "review"]
    assert reviewed and all(r.win_cents >= SERVER_HAND_PAY_CENTS for r in reviewed)
    assert any(CABINET_HAND_PAY_CENTS <= r.win_cents < SERVER_HAND_PAY_CENTS for r in played
               if r.status == "complete"), "no win between the two limits: choose another seed"
    kept = read_memory(tmp_path / "nvram")
    meters = Meters.from_record(kept.records["meters"])
    assert meters["jackpot"] == sum(r.win_cents for r in reviewed)
    assert meters["coin_out"] == sum(r.win_cents for r in played if r.status == "complete")
    assert meters.balance_error() == 0
    paid = [e for e in kept.events if e["kind"] == "hand_pay_reset" and "(a win)" in e["message"]]
    locked = [e["message"] for e in kept.events
              if e["kind"] == "hand_pay" and e["message"].startswith("A win")]
    assert len(paid) == len(locked) == len(reviewed)
    assert all("reaches the hand-pay limit" in m for m in locked)  # the server's reason
    assert cli_main(["meters", "--nvram", str(tmp_path / "nvram"), "--json"]) == 0
    meters_file = tmp_path / "meters.json"
    meters_file.write_text(capsys.readouterr().out)
    code = cli_main(["server", "audit", "--db", db_url, "--terminal-meters", f"{name}={meters_file}",
                     "--json"])
    audited = json.loads(capsys.readouterr().out)
    assert code == 0 and audited["terminals"][name]["differences"] == [], audited["terminals"]


def test_a_registration_is_kept_a_while_and_a_change_by_hand_is_seen_after(db_url: str, keys: Path) -> None:
    """The server keeps a terminal's row REGISTRATION_KEPT_S after reading it (a request then costs no
    read transaction); a key changed in the database by hand is used from then on, and an unknown id is
    read again each time (a terminal registered a moment later is found at once)."""
    db = open_database(db_url)
    try:
        migrate(db)
        name = f"T-{uuid.uuid4().hex[:8]}"
        add_terminal(db, name, (keys / "t1.pub").read_text(), 1_000)
        registrations = Registrations(db)
        first = registrations.of(name, 1_000)
        assert first is not None and key_id(first.public_key) == key_id(load_private_key(keys / "t1.key")
                                                                          .public_key())
        with db.write() as conn:  # by hand: there is no command that changes a terminal's key
            conn.execute(terminal.update().where(terminal.c.name == name)
                         .values(public_key=(keys / "t2.pub").read_text()))
        assert registrations.of(name, 1_000 + REGISTRATION_KEPT_S - 1) is first  # kept: not read again
        again = registrations.of(name, 1_000 + REGISTRATION_KEPT_S)
        assert again is not None and key_id(again.public_key) == key_id(load_private_key(keys / "t2.key")
                                                                        .public_key())
        assert registrations.of(name, 999) is not again  # a clock set back reads it again
        later = f"T-{uuid.uuid4().hex[:8]}"
        assert registrations.of(later, 2_000) is None
        add_terminal(db, later, (keys / "t2.pub").read_text(), 2_000)
        assert registrations.of(later, 2_000) is not None
    finally:
        db.dispose()


def test_terminal_add_cli(tmp_path: Path, keys: Path) -> None:
    url = f"sqlite:///{tmp_path}/egm.db"
    added = egm_cli("server", "terminal", "add", "--db", url, "--id", "CAB-7", "--public-key",
                 str(keys / "t1.pub"), cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith("terminal CAB-7 added")
    taken = egm_cli("server", "terminal", "add", "--db", url, "--id", "CAB-7", "--public-key",
                 str(keys / "t2.pub"), cwd=tmp_path)
    assert taken.returncode == 2 and "'CAB-7' is taken" in taken.stderr
    missing = egm_cli("server", "terminal", "add", "--db", url, "--id", "CAB-8", "--public-key",
                   str(tmp_path / "absent.pub"), cwd=tmp_path)
    assert missing.returncode == 2 and "cannot read the public key" in missing.stderr
    (tmp_path / "junk.pub").write_text("not a key\n")
    junk = egm_cli("server", "terminal", "add", "--db", url, "--id", "CAB-8", "--public-key",
                str(tmp_path / "junk.pub"), cwd=tmp_path)
    assert junk.returncode == 2 and "not a PEM public key" in junk.stderr
    bad_id = egm_cli("server", "terminal", "add", "--db", url, "--id", "CAB 9", "--public-key",
                  str(keys / "t1.pub"), cwd=tmp_path)
    assert bad_id.returncode == 2 and "terminal id" in bad_id.stderr
    db = open_database(url)
    with db.read() as conn:
        rows = conn.execute(select(terminal.c.name, account.c.owner, account.c.balance_cents)
                            .join(account, account.c.id == terminal.c.account_id)).all()
    db.dispose()
    assert [tuple(r) for r in rows] == [("CAB-7", "terminal", 0)]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_5_upgrades_a_version_4_database(backend: str, tmp_path: Path, request) -> None:
    """A database made before the terminals (version 4, no cabinet_game_number, no nonce table)."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/old.db"
    else:
        cluster = request.getfixturevalue("pg_cluster")
        url = cluster.url(cluster.create_database(template="template1"))
    db = open_database(url)
    try:
        with db.write() as conn:
            schema_version.create(conn)
            for version, what, apply in MIGRATIONS[:4]:
                apply(conn)
                conn.execute(schema_version.insert().values(version=version, what=what, applied_at=0))
            conn.execute(text("ALTER TABLE game_round DROP COLUMN cabinet_game_number"))
        assert migrate(db) == 4
        with db.read() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("game_round")}
            assert "cabinet_game_number" in columns and inspect(conn).has_table("terminal_nonce")
        assert migrate(db) == LATEST == 6
    finally:
        db.dispose()

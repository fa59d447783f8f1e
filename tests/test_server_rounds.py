"""Rounds over HTTP on SQLite and PostgreSQL: every installed game played through its own Game plug-in,
the money of each round, the step-number check, the owner check, hidden information kept on the
server until the round is complete, rollback on a fault in game code, and the books after each."""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from egm.games.base import Wager, play_reference
from egm.games.dragon_poker.rules import info_pages as dragon_info_pages
from egm.rng import Rng, derive_seed
from egm.server.app import create_app
from egm.server.db import open_database
from egm.server.db.schema import game_round
from tests.server_support import ORIGIN, Player, audit_of, settings_for, wait_ready

SEED = 11


@pytest.fixture(scope="module")
def games(app) -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in Player(app).get("/api/v1/games").json()}


def _stake(game: dict[str, Any]) -> int:
    return game["stake_bets"] * game["bets_credits"][0] * game["denominations_cents"][0]


def _hidden(value: Any) -> list[str]:
    """The JSON of every long list (a deck, a bag order) and every big number (a seed) in a record."""
    found = []
    if isinstance(value, int) and value >= 2**31:
        found.append(str(value))
    elif isinstance(value, dict):
        for item in value.values():
            found += _hidden(item)
    elif isinstance(value, list):
        if len(value) >= 10 and all(isinstance(v, int | str) for v in value):
            found.append(json.dumps(value, separators=(",", ":")))
        for item in value:
            found += _hidden(item)
    return found


def test_the_games_list_has_the_contract_keys(app, games) -> None:
    assert {"dragon-poker", "poker-grid", "poker-tiles", "prism-words", "property"} <= set(games)
    for game in games.values():
        assert {"id", "title", "paytable_id", "paytable_sha256", "denominations_cents", "bets_credits",
                "side_bets"} <= set(game)
        assert len(game["paytable_sha256"]) == 64


def test_every_game_plays_out_as_its_reference_engine_with_the_same_draw(db_url) -> None:
    """The server's rounds are the Game plug-ins' rounds: with a test seed, round n draws the stream
    derive_seed(seed, "game", n), and the round played by AUTO ends with the record and the win that
    play_reference gives the same game on the same stream; the money follows."""
    app = create_app(settings_for(db_url, test_seed=SEED))
    with TestClient(app, base_url=ORIGIN) as booted:
        wait_ready(booted)
        lobby = app.state.server.lobby
        player = Player(app).register()
        balance = player.deposit(1_000_000)
        for number, (game_id, game) in enumerate(lobby.games.items(), start=1):
            listed = {g["id"]: g for g in player.get("/api/v1/games").json()}[game_id]
            started = player.start(listed)
            assert started.status_code == 200, started.text
            balance -= _stake(listed)
            assert started.json()["balance_cents"] == balance
            final = player.play_out(started.json()["round_id"], 0)
            reference = game.new_round(_wager(game, listed), Rng.from_seed(derive_seed(SEED, "game", number)),
                                       {})
            outcome = play_reference(reference)
            win = outcome.win_credits * listed["denominations_cents"][0]
            assert final["win_cents"] == win and final["complete"] is True
            balance += win
            assert final["balance_cents"] == balance
            replay = player.get(f"/api/v1/rounds/{started.json()['round_id']}/replay").json()
            assert replay["record"] == json.loads(json.dumps(reference.to_record()))
            assert game.restore(replay["record"]).outcome().win_credits == outcome.win_credits
    assert audit_of(db_url)["balanced"]


def _wager(game: Any, listed: dict[str, Any]) -> Wager:
    offer = game.wager_offer()
    bet = listed["bets_credits"][0]
    return Wager(bet_credits=bet, stake_credits=offer.stake_credits(bet, {}),
                 denom_cents=listed["denominations_cents"][0])


def test_no_hidden_information_leaves_before_the_round_is_complete(app, games) -> None:
    for game in games.values():
        player = Player(app).register()
        player.deposit(100_000)
        answers = [player.start(game)]
        round_id, step = answers[0].json()["round_id"], 0
        answers += [player.get(f"/api/v1/rounds/{round_id}"), player.get("/api/v1/session")]
        while True:
            answer = player.decide(round_id, step, {"kind": "auto"})
            if answer.json()["complete"]:
                break
            answers += [answer, player.get(f"/api/v1/rounds/{round_id}")]
            step = answer.json()["step_no"]
        record = player.get(f"/api/v1/rounds/{round_id}/replay").json()["record"]
        hidden = _hidden(record)
        assert hidden, f"{game['id']}: its record has no deal to hide"
        for earlier in answers:
            text = earlier.text.replace(" ", "")
            assert '"record"' not in text
            leaked = [h for h in hidden if h in text]
            assert not leaked, f"{game['id']}: {leaked[0][:60]} left the server before completion"


def test_the_dragon_poker_deal_stays_face_down(app, games) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    view = player.start(games["dragon-poker"]).json()["view"]
    assert all(hand["cards"] is None for hand in view["table"]["hands"].values())


def test_a_stale_step_is_409_with_the_current_view_and_a_retry_gets_the_same_bytes(app, db_url,
                                                                                  games) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    round_id = player.start(games["dragon-poker"]).json()["round_id"]
    first = player.decide(round_id, 0, {"kind": "auto"}, request_id="step-0")
    assert first.status_code == 200 and first.json()["step_no"] == 1
    retry = player.decide(round_id, 0, {"kind": "auto"}, request_id="step-0")
    assert retry.content == first.content
    replayed = player.decide(round_id, 0, {"kind": "auto"})  # the same decision with a new id
    assert replayed.status_code == 409 and replayed.json()["code"] == "stale_step"
    assert replayed.json()["step_no"] == 1 and replayed.json()["view"] == first.json()["view"]
    conflict = player.decide(round_id, 1, {"kind": "auto"}, request_id="step-0")
    assert conflict.status_code == 409 and conflict.json()["code"] == "request_id_reused"
    steps = player.play_out(round_id, 1)
    assert steps["complete"]
    assert audit_of(db_url)["balanced"]


def test_starting_is_idempotent(app, games) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    body = {"request_id": "start-once", "game_id": "dragon-poker", "denom_cents": 1, "bet_credits": 1,
            "side_bets": {}}
    first, again = player.post("/api/v1/rounds", body), player.post("/api/v1/rounds", body)
    assert first.status_code == 200 and again.content == first.content
    assert player.balance() == 1_000 - _stake(games["dragon-poker"])


@pytest.mark.parametrize(("change", "status", "code", "words"), [
    ({"game_id": "no-such-game"}, 404, "unknown_game", "no game 'no-such-game'"),
    ({"denom_cents": 3}, 422, "wager_refused", "Dragon Poker is not played in 3¢ credits; choose 1¢, 5¢"),
    ({"bet_credits": 7}, 422, "wager_refused", "a bet of 7 credits is not offered"),
    ({"bet_credits": -1}, 422, "wager_refused", "positive whole numbers"),
    ({"side_bets": {"lucky": 1}}, 422, "wager_refused", "side bet 'lucky' is not offered"),
    ({"side_bets": {"pair_bonus": 10_000}}, 422, "wager_refused", "takes 0 to"),
    ({"bet_credits": "1"}, 400, "malformed", "bet_credits"),
    ({"denom_cents": 1.0}, 400, "malformed", "denom_cents"),
    ({"request_id": None}, 400, "malformed", "request_id"),
])
def test_bad_starts_are_refused_with_a_sentence_and_move_no_money(app, db_url, change, status, code,
                                                                  words) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    body = {"request_id": uuid.uuid4().hex, "game_id": "dragon-poker", "denom_cents": 1, "bet_credits": 1,
            "side_bets": {}, **change}
    answer = player.post("/api/v1/rounds", body)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert words.lower() in answer.json()["sentence"].lower()
    assert player.balance() == 1_000
    assert player.get("/api/v1/session").json()["open_round"] is None
    assert audit_of(db_url)["balanced"]


def test_insufficient_funds_and_a_second_open_round(app, games) -> None:
    player = Player(app).register()
    poor = player.start(games["dragon-poker"])
    assert poor.status_code == 402 and "more than the balance" in poor.json()["sentence"]
    player.deposit(1_000)
    round_id = player.start(games["dragon-poker"]).json()["round_id"]
    second = player.start(games["poker-grid"])
    assert second.status_code == 409 and second.json()["round_id"] == round_id
    assert player.balance() == 1_000 - _stake(games["dragon-poker"])


def test_a_refused_decision_is_422_with_the_games_sentence(app, games) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    round_id = player.start(games["dragon-poker"]).json()["round_id"]
    refused = player.decide(round_id, 0, {"kind": "house_way"})
    assert refused.status_code == 422
    assert refused.json()["sentence"] == ("'house_way' is refused at step 'designate'; "
                                          "this step takes 'designate'.")
    malformed = player.decide(round_id, 0, ["designate"])
    assert malformed.status_code == 400
    assert player.decide(round_id, 0, {"kind": "auto"}).status_code == 200  # nothing was written


def test_nobody_reads_or_plays_another_players_round(app, games) -> None:
    owner, other = Player(app).register(), Player(app).register()
    owner.deposit(1_000)
    other.deposit(1_000)
    round_id = owner.start(games["dragon-poker"]).json()["round_id"]
    for answer in (other.get(f"/api/v1/rounds/{round_id}"), other.get(f"/api/v1/rounds/{round_id}/replay"),
                   other.decide(round_id, 0, {"kind": "auto"})):
        assert answer.status_code == 404 and answer.json()["code"] == "no_such_round"
    assert owner.get(f"/api/v1/rounds/{round_id}").json()["step_no"] == 0
    assert other.balance() == 1_000


def test_a_disconnected_player_resumes_at_the_same_step(app, games) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    round_id = player.start(games["poker-grid"]).json()["round_id"]
    step = player.decide(round_id, 0, {"kind": "auto"}).json()["step_no"]
    back = Player(app, player.login)  # a new browser: log in again
    answer = back.post("/api/v1/auth/login", {"login": player.login, "password": "correct horse battery"})
    back.csrf = answer.json()["csrf_token"]
    shown = back.get("/api/v1/session").json()["open_round"]
    assert (shown["round_id"], shown["step_no"]) == (round_id, step)
    assert back.get(f"/api/v1/rounds/{round_id}/replay").status_code == 409  # not complete yet
    assert back.play_out(round_id, step)["complete"]
    history = back.get("/api/v1/history").json()["rounds"]
    assert history[0]["round_id"] == round_id and history[0]["status"] == "complete"


def test_an_exception_in_game_code_rolls_back_and_the_round_stays_at_its_step(app, db_url, games,
                                                                              monkeypatch) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    round_id = player.start(games["dragon-poker"]).json()["round_id"]
    balance = player.balance()
    round_class = type(app.state.server.lobby.games["dragon-poker"].restore(
        _record_of(db_url, round_id)))

    def broken(self: Any, decision: Any) -> None:
        self.decisions.append(decision)  # half-done work, then a crash
        raise RuntimeError("a bug in the game")

    with monkeypatch.context() as patch:
        patch.setattr(round_class, "decide", broken)
        with pytest.raises(RuntimeError):
            player.decide(round_id, 0, {"kind": "auto"}, request_id="crash")
    shown = player.get(f"/api/v1/rounds/{round_id}").json()
    assert shown["step_no"] == 0 and player.balance() == balance
    db = open_database(db_url)
    with db.read() as conn:
        assert conn.execute(select(game_round.c.faults).where(game_round.c.id == round_id)).scalar_one() == 1
    db.dispose()
    again = player.decide(round_id, 0, {"kind": "auto"}, request_id="crash")  # the id was not used up
    assert again.status_code == 200 and again.json()["step_no"] == 1
    assert player.play_out(round_id, 1)["complete"]
    assert audit_of(db_url)["balanced"]


def _record_of(db_url: str, round_id: str) -> Any:
    db = open_database(db_url)
    with db.read() as conn:
        record = conn.execute(select(game_round.c.record).where(game_round.c.id == round_id)).scalar_one()
    db.dispose()
    return record


def test_the_jackpot_pool_is_kept_per_player_and_game(app, db_url, games) -> None:
    player, other = Player(app).register(), Player(app).register()
    player.deposit(10_000)
    other.deposit(10_000)
    first = player.start(games["dragon-poker"]).json()
    player.play_out(first["round_id"], 0)
    after_first = player.get(f"/api/v1/rounds/{first['round_id']}/replay").json()
    pool_after = app.state.server.lobby.games["dragon-poker"].restore(after_first["record"]) \
        .outcome().pools_cents["dragon_jackpot"]
    second = player.start(games["dragon-poker"]).json()
    assert second["view"]["pools_cents"]["dragon_jackpot"] == pool_after
    fresh = other.start(games["dragon-poker"]).json()  # another player's pool starts at the seed
    assert fresh["view"]["pools_cents"]["dragon_jackpot"] == first["view"]["pools_cents"]["dragon_jackpot"]


def test_a_win_at_the_hand_pay_limit_goes_to_review_and_is_not_credited(db_url) -> None:
    app = create_app(settings_for(db_url))
    with TestClient(app, base_url=ORIGIN) as booted:
        wait_ready(booted)
        server = app.state.server
        server.lobby = server.rounds.lobby = dataclasses.replace(server.lobby,
                                                                         hand_pay_limit_cents=1)
        player = Player(app).register()
        balance = player.deposit(10_000)
        game = {g["id"]: g for g in player.get("/api/v1/games").json()}["dragon-poker"]
        for _ in range(20):
            started = player.start(game).json()
            balance -= _stake(game)
            final = player.play_out(started["round_id"], 0)
            if final["win_cents"]:
                break
        assert final["win_cents"] > 0 and final["status"] == "review"
        assert final["balance_cents"] == balance == player.balance()  # an operator pays it by hand
        shown = player.get(f"/api/v1/rounds/{started['round_id']}/replay").json()
        assert shown["status"] == "review" and "hand-pay limit" in shown["hand_pay_reason"]
    assert audit_of(db_url)["balanced"]


def test_a_live_round_is_kept_between_decisions_not_restored(app, games, monkeypatch) -> None:
    player = Player(app).register()
    player.deposit(1_000)
    game = app.state.server.lobby.games["poker-grid"]
    restored = []
    monkeypatch.setattr(type(game), "restore", lambda self, record: restored.append(record))
    round_id = player.start(games["poker-grid"]).json()["round_id"]
    step = 0
    for _ in range(3):
        step = player.decide(round_id, step, {"kind": "auto"}).json()["step_no"]
    assert player.get(f"/api/v1/rounds/{round_id}").json()["step_no"] == step == 3
    assert restored == []


def test_history_pages_by_game_number(app, games) -> None:
    player = Player(app).register()
    player.deposit(10_000)
    for _ in range(3):
        started = player.start(games["dragon-poker"]).json()
        player.play_out(started["round_id"], 0)
    numbers = [r["number"] for r in player.get("/api/v1/history").json()["rounds"]]
    assert numbers == [3, 2, 1]
    assert [r["number"] for r in player.get("/api/v1/history?before=3").json()["rounds"]] == [2, 1]
    assert player.get("/api/v1/history?before=soon").status_code == 400


def test_each_game_serves_its_rules_pages_from_its_pay_table(app, games) -> None:
    player = Player(app)  # no session needed
    for game_id in games:
        pages = player.get(f"/api/v1/games/{game_id}/rules").json()
        assert pages and all(page["title"] and page["lines"] for page in pages), game_id
        shown = f"Pay table version {app.state.server.lobby.games[game_id].paytable.version}"
        assert any(shown in line for page in pages for line in page["lines"]), game_id
    unknown = player.get("/api/v1/games/no-such-game/rules")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_game"


# The cabinet's own controls, which a player in a browser does not have: the panel's buttons beside
# the game's auto-play button (HOUSE WAY, AUTO PLAY: the browser's table has it too) and the keys 1-9.
CABINET_CONTROLS = re.compile(r"BET ONE|MAX BET|SIDE BET|CASH OUT|DENOM|\bHELP\b|(?i:\bkeys?\b|\bpanel\b)")


def test_the_online_rules_name_what_a_browser_player_presses(app, games) -> None:
    player = Player(app)
    for game_id in games:
        pages = player.get(f"/api/v1/games/{game_id}/rules").json()
        assert [line for p in pages for line in p["lines"] if CABINET_CONTROLS.search(line)] == [], game_id
        page = player.get(f"/rules/{game_id}")
        assert page.status_code == 200 and not CABINET_CONTROLS.search(page.text.split("<main", 1)[-1])
    # Dragon Poker's say what the browser table and its wager form have; the cabinet's own keep its keys.
    online = " ".join(line for page in player.get("/api/v1/games/dragon-poker/rules").json()
                      for line in page["lines"])
    assert "tap each hand" in online and "the wager form's Bet" in online and "Pair Bonus" in online
    paytable = app.state.server.lobby.games["dragon-poker"].paytable
    cabinet = " ".join(line for page in dragon_info_pages(paytable) for line in page.lines)
    assert "(keys 1-4)" in cabinet and "(BET ONE, MAX BET)" in cabinet and "placed with SIDE BET" in cabinet

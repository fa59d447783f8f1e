"""Input the API must refuse with its error shape, on SQLite and PostgreSQL: an id or a game number in a
path or query beyond what the database can hold (a 400, never a 500), and a round id that is not a round
id (a 404, as for any round not yours). Nothing is changed by any of them."""

from __future__ import annotations

import pytest

from tests.server_support import Player, audit_of

HUGE = 2**70


@pytest.mark.parametrize("path", [
    f"/api/v1/wallet/transactions?before_id={HUGE}", f"/api/v1/history?before={HUGE}",
    f"/account/transactions?before_id={HUGE}", f"/history/rounds?before={HUGE}",
    f"/api/v1/wallet/transactions?before_id={-HUGE}",
])
def test_a_page_asked_from_beyond_any_row_is_malformed(app, path: str) -> None:
    player = Player(app).register()
    answer = player.get(path)
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "malformed"
    name = path.split("?")[1].split("=")[0]  # the sentence names the query parameter, not a body
    assert answer.json()["sentence"].startswith(f"The query parameter '{name}' is malformed: "), answer.text


def test_confirming_a_limit_beyond_any_row_is_malformed_and_changes_nothing(app, db_url) -> None:
    player = Player(app).register()
    before = player.get("/api/v1/limits").json()
    answer = player.post(f"/api/v1/limits/{HUGE}/confirm")
    assert answer.status_code == 400 and answer.json()["code"] == "malformed", answer.text
    assert answer.json()["sentence"].startswith("The path's 'limit_id' is malformed: "), answer.text
    assert player.get("/api/v1/limits").json() == before


@pytest.mark.parametrize("round_id", ["%00", "a%00b", "x" * 300, "1e588571"])
def test_a_round_id_that_is_no_round_id_is_not_found(app, db_url, round_id: str) -> None:
    player = Player(app).register()
    player.deposit(500)
    for answer in (player.get(f"/api/v1/rounds/{round_id}"), player.get(f"/api/v1/rounds/{round_id}/replay"),
                   player.get(f"/history/{round_id}/steps"),
                   player.post(f"/api/v1/rounds/{round_id}/decisions",
                               {"request_id": "d-0", "step_no": 0, "decision": {"kind": "auto"}})):
        assert answer.status_code == 404, answer.text
        assert answer.json()["code"] == "no_such_round"
    assert player.balance() == 500
    assert audit_of(db_url)["balanced"]

"""The live table on the game server (SQLite and PostgreSQL): the roles, the dealer's entries with the
code derived by the server, corrections with a supervisor's PIN, voids, new sessions, the display's
token and websocket, and every refusal with its sentence, changing nothing."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from egm.server.accounts import create_player
from egm.server.db import open_database
from tests.server_support import ORIGIN, PASSWORD, Player

FIG3, FIG6, FIG8 = ("P", "D", "D"), ("H", "P", "D"), ("P", "P", "D")
SUPERVISOR_PIN = "supervisor pin 7531"


class Staff(Player):
    def log_in(self) -> Staff:
        answer = self.post("/api/v1/auth/login", {"login": self.login, "password": self.password})
        assert answer.status_code == 200, answer.text
        self.csrf = answer.json()["csrf_token"]
        return self


def staff(app: Any, db_url: str, role: str, password: str = PASSWORD) -> Staff:
    member = Staff(app, f"{role[:3]}{uuid.uuid4().hex[:10]}")
    member.password = password
    db = open_database(db_url)
    try:
        create_player(db, member.login, password, role, 0)
    finally:
        db.dispose()
    return member.log_in()


@pytest.fixture(scope="module")
def crew(app: Any, db_url: str) -> dict[str, Staff]:
    return {"operator": staff(app, db_url, "operator"), "dealer": staff(app, db_url, "dealer"),
            "supervisor": staff(app, db_url, "supervisor", SUPERVISOR_PIN)}


@pytest.fixture
def table(crew: dict[str, Staff]) -> dict[str, Any]:
    answer = crew["operator"].post("/live/tables", {"name": f"Dragon {uuid.uuid4().hex[:6]}"})
    assert answer.status_code == 200, answer.text
    created = answer.json()
    assert set(created) == {"table_id", "display_token"}
    return created


def enter(dealer: Staff, table_id: int, winners: tuple[str, str, str], request_id: str | None = None) -> Any:
    front, middle, back = winners
    return dealer.post(f"/live/tables/{table_id}/hands", {"request_id": request_id or uuid.uuid4().hex,
                                                          "front": front, "middle": middle, "back": back})


def board(app: Any, table: dict[str, Any]) -> dict[str, Any]:
    answer = Player(app).get(f"/live/tables/{table['table_id']}/board?token={table['display_token']}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_the_patent_figures_through_the_keypad(app, crew, table) -> None:
    """Figs. 3, 6 and 8's hands entered give Figs. 5, 7 and 9's rows: D2, then S, then P2."""
    codes = []
    for winners in (FIG3, FIG6, FIG8):
        answer = enter(crew["dealer"], table["table_id"], winners)
        assert answer.status_code == 200, answer.text
        reply = answer.json()
        assert set(reply) == {"hand_id", "code", "row"}
        codes.append(reply["code"])
        shown = board(app, table)
        assert [row["code"] for row in shown["rows"]] == codes
    assert codes == ["D2", "S", "P2"]
    assert shown["totals"] == {"P": 1, "H": 0, "D": 1, "S": 1}
    assert [c["side"] for c in shown["big_road"]] == ["D", "P"] and shown["big_road"][0]["splits"] == 1


def test_a_retried_entry_is_saved_once_and_a_reused_id_is_refused(app, crew, table) -> None:
    first = enter(crew["dealer"], table["table_id"], FIG3, request_id="entry-1")
    again = enter(crew["dealer"], table["table_id"], FIG3, request_id="entry-1")
    assert again.status_code == 200 and again.content == first.content
    other = enter(crew["dealer"], table["table_id"], FIG8, request_id="entry-1")
    assert other.status_code == 409 and "already used" in other.json()["sentence"]
    assert [row["code"] for row in board(app, table)["rows"]] == ["D2"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"front": "P", "middle": "H"}, 400, "BACK is not set"),
    ({"front": "P", "middle": "X", "back": "D"}, 400, "MIDDLE is won by P (player), H (house) or D"),
    ({"front": "P", "middle": "H", "back": "D", "extra": 1}, 400, "malformed"),
])
def test_a_bad_entry_is_refused_with_a_sentence(app, crew, table, body, status, words) -> None:
    answer = crew["dealer"].post(f"/live/tables/{table['table_id']}/hands", {"request_id": "r", **body})
    assert answer.status_code == status and words in answer.json()["sentence"]
    assert board(app, table)["rows"] == []


def test_only_staff_in_their_roles_may_act(app, crew, table) -> None:
    assert crew["dealer"].post("/live/tables", {"name": "not mine"}).status_code == 403
    player = Player(app).register()
    refused = enter(player, table["table_id"], FIG3)
    assert refused.status_code == 403 and "Only a dealer or a supervisor" in refused.json()["sentence"]
    unknown = enter(crew["dealer"], 999_999, FIG3)
    assert unknown.status_code == 404 and "no live table 999999" in unknown.json()["sentence"]
    assert board(app, table)["rows"] == []


def test_the_display_token_reads_the_board_and_nothing_else(app, table) -> None:
    display = Player(app)
    posted = display.client.post(f"/live/tables/{table['table_id']}/hands?token={table['display_token']}",
                                 json={"request_id": "d", "front": "P", "middle": "P", "back": "P"},
                                 headers={"Origin": ORIGIN})
    assert posted.status_code == 401
    wrong = display.get(f"/live/tables/{table['table_id']}/board?token=not-the-token")
    assert wrong.status_code == 403 and "display token" in wrong.json()["sentence"]
    page = display.get(f"/live/tables/{table['table_id']}/display?token={table['display_token']}")
    assert page.status_code == 200 and 'id="bead"' in page.text
    assert board(app, table)["rows"] == []


def test_a_correction_needs_another_persons_supervisor_pin(app, crew, table, db_url) -> None:
    hand = enter(crew["dealer"], table["table_id"], FIG6).json()
    path = f"/live/tables/{table['table_id']}/hands/{hand['hand_id']}/corrections"
    body = {"request_id": uuid.uuid4().hex, "front": "H", "middle": "H", "back": "D",
            "reason": "front hand misread"}
    for pin in ("", "wrong pin 0000", PASSWORD):  # none; a wrong one; the dealer's own password
        refused = crew["dealer"].post(path, {**body, "supervisor_pin": pin})
        assert refused.status_code == 403 and "supervisor other than the dealer" in refused.json()["sentence"]
    assert board(app, table)["rows"][0]["code"] == "S"
    no_reason = crew["dealer"].post(path, {**body, "reason": "", "supervisor_pin": SUPERVISOR_PIN})
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["sentence"]
    fixed = crew["dealer"].post(path, {**body, "supervisor_pin": SUPERVISOR_PIN})
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["code"] == "H2"
    rows = board(app, table)["rows"]
    assert [(r["hand_id"], r["code"], r["corrected"]) for r in rows] == [(hand["hand_id"], "H2", True)]
    trail = crew["supervisor"].get(f"/live/tables/{table['table_id']}/audit").json()
    assert [(t["kind"], t["code"], t["entered_by"], t["approved_by"]) for t in trail] == [
        ("entry", "S", crew["dealer"].login, None),
        ("correction", "H2", crew["dealer"].login, crew["supervisor"].login)]
    assert trail[1]["reason"] == "front hand misread"


def test_a_void_takes_the_hand_off_the_board_and_it_cannot_be_corrected(app, crew, table) -> None:
    kept = enter(crew["dealer"], table["table_id"], FIG3).json()
    misdealt = enter(crew["dealer"], table["table_id"], FIG8).json()
    path = f"/live/tables/{table['table_id']}/hands/{misdealt['hand_id']}"
    assert crew["dealer"].post(f"{path}/void", {"request_id": uuid.uuid4().hex}).status_code == 200
    assert [r["hand_id"] for r in board(app, table)["rows"]] == [kept["hand_id"]]
    again = crew["dealer"].post(f"{path}/corrections", {
        "request_id": uuid.uuid4().hex, "front": "P", "middle": "P", "back": "P", "reason": "late fix",
        "supervisor_pin": SUPERVISOR_PIN})
    assert again.status_code == 409 and "voided" in again.json()["sentence"]
    assert crew["dealer"].post(f"{path}/void", {"request_id": uuid.uuid4().hex}).status_code == 409


def test_a_new_session_starts_an_empty_board(app, crew, table) -> None:
    enter(crew["dealer"], table["table_id"], FIG3)
    answer = crew["dealer"].post(f"/live/tables/{table['table_id']}/sessions",
                                 {"request_id": uuid.uuid4().hex})
    assert answer.status_code == 200
    shown = board(app, table)
    assert shown["rows"] == [] and shown["totals"] == {"P": 0, "H": 0, "D": 0, "S": 0}


def test_the_display_socket_pushes_the_whole_board_after_each_change(app, crew, table) -> None:
    display = Player(app)
    path = f"/live/tables/{table['table_id']}/ws?token={table['display_token']}"
    with display.client.websocket_connect(path, headers={"Origin": ORIGIN}) as socket:
        assert socket.receive_json() == {"type": "board", "board": board(app, table)}
        enter(crew["dealer"], table["table_id"], FIG3)
        pushed = socket.receive_json()
        assert pushed["type"] == "board" and [r["code"] for r in pushed["board"]["rows"]] == ["D2"]


@pytest.mark.parametrize("case", ["foreign origin", "wrong token"])
def test_the_display_socket_refuses_a_foreign_page_and_a_wrong_token(app, table, case) -> None:
    token = table["display_token"] if case == "foreign origin" else "nope"
    origin = "https://evil.example" if case == "foreign origin" else ORIGIN
    with pytest.raises(WebSocketDisconnect) as closed, Player(app).client.websocket_connect(
            f"/live/tables/{table['table_id']}/ws?token={token}", headers={"Origin": origin}) as socket:
        socket.receive_json()
    assert closed.value.code == 4403


def test_a_table_or_hand_id_beyond_any_row_is_malformed(app, crew, table) -> None:
    """An id no database row can have is a 400 in the API's error shape (it was a 500), and nothing is
    entered."""
    huge = 2**70
    before = board(app, table)
    answers = [
        Player(app).get(f"/live/tables/{huge}/board?token={table['display_token']}"),
        crew["supervisor"].get(f"/live/tables/{huge}/audit"),
        enter(crew["dealer"], huge, FIG3),
        crew["dealer"].post(f"/live/tables/{table['table_id']}/hands/{huge}/void",
                            {"request_id": uuid.uuid4().hex}),
    ]
    for answer in answers:
        assert answer.status_code == 400 and answer.json()["code"] == "malformed", answer.text
    assert board(app, table) == before

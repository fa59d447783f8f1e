"""The cabinet on a central game server (issue 30), against a fake server that speaks the wire contract
(tests/terminal_fake.py) with real game code: the money, the pending records, the faults."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from egm.cabinet import Cabinet
from egm.cabinet_cli import autoplay
from egm.clock import FakeClock
from egm.config import ConfigError, load_cabinet_config
from egm.events import CashOut, PlayerDecision, StartGame
from egm.host.exceptions import GENERAL_TILT, exceptions_for
from egm.host.game_server import OFFLINE
from egm.host.remote_game import RemoteRound, catalogue_vouched, offered_games
from egm.memory.recovery import read_memory
from egm.meters import Meters
from egm.rng import seeded_rng
from egm.terminal_link.signing import sign_catalogue
from tests.cabinet_support import GAME_ID, draw_games
from tests.terminal_fake import FakeGameServer, catalogue_entry, terminal_cabinet, terminal_key

TERMINAL = "cab-1"


@pytest.fixture
def key() -> Any:
    return terminal_key()


@pytest.fixture
def fake(key: Any) -> FakeGameServer:
    return FakeGameServer(draw_games(), TERMINAL, key.public_key())


def remote_cabinet(nvram: Path, fake: FakeGameServer, key: Any, clock: FakeClock | None = None,
                   offline_tilt_s: int = 30) -> Cabinet:
    return terminal_cabinet(nvram, fake.transport(), key, clock=clock, offline_tilt_s=offline_tilt_s,
                            heartbeat_s=0.05)


def wait_until(cabinet: Cabinet, done: Any, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "the cabinet did not get there in time"
        cabinet.game_server.wait(0.02)
        cabinet.poll_devices()


def kept_meters(nvram: Path) -> dict[str, Any]:
    return read_memory(nvram).records["meters"]


def assert_reconciled(nvram: Path, fake: FakeGameServer) -> None:
    """The cabinet's meters keep the identity, and the server's totals are the cabinet's game meters."""
    meters = kept_meters(nvram)
    served = fake.meters()
    assert served["open_rounds"] == 0
    assert meters["games_played"] == served["games_played"] == len(fake.rounds)
    assert meters["coin_in"] == served["coin_in_cents"]
    assert meters["coin_out"] == served["coin_out_cents"]
    assert Meters.from_record(meters).balance_error() == 0  # credits = money in + wins - wagers - money out


def test_autoplay_plays_the_servers_rounds_and_the_meters_reconcile(tmp_path: Path, fake: Any,
                                                                     key: Any) -> None:
    report, code = autoplay(remote_cabinet(tmp_path, fake, key), GAME_ID, 6, 10000)
    assert code == 0, report
    assert report["games_completed"] == 6
    assert report["meters"]["games_played"] == 6 and len(fake.rounds) == 6
    assert all(r["status"] == "complete" for r in fake.rounds.values())
    assert_reconciled(tmp_path, fake)
    kept = read_memory(tmp_path)
    assert [g["round"]["round_id"] for g in kept.recall][:6] == [f"r{n}" for n in range(6, 0, -1)]
    codes = [fake.rounds[f"r{n}"]["round"].outcome().result_code for n in range(6, 0, -1)]
    assert kept.records["scoreboard"][GAME_ID] == codes and all(codes)  # read from the server's record


def test_autoplay_says_why_the_server_offered_no_game(tmp_path: Path, key: Any) -> None:
    """A terminal the server does not know (registered in another database, or with another key): the
    boot finds the catalogue refused (egm/cabinet/build.py keeps the server's sentence as the reason
    no game is offered), and autoplay's error says so, not only that the menu is empty."""
    from egm.cabinet import Cabinet

    why = ("The game server's catalogue could not be read: There is no terminal 'cab-1' on this server; "
           "register it with 'egm server terminal add'.")
    built = remote_cabinet(tmp_path / "unused", FakeGameServer(draw_games(), TERMINAL, key.public_key()), key)
    cabinet = Cabinet(built.config, tmp_path, games={}, unavailable_games={"game-server": why},
                      devices=built.devices, jurisdiction=built.jurisdiction, clock=FakeClock(),
                      game_server=built.game_server)
    report, code = autoplay(cabinet, GAME_ID, 1, 10000)
    assert code != 0 and report["games_completed"] == 0
    assert report["error"] == f"game '{GAME_ID}' is not installed on this cabinet; choose one of []; {why}"


def test_the_result_code_and_side_bet_wins_come_from_the_servers_reply(tmp_path: Path, fake: Any,
                                                                        key: Any) -> None:
    """The cabinet reads neither from the server's record with its own code: what the last reply says
    is what the scoreboard, the recall and the side-bet meter take. A reply whose side-bet wins exceed
    the round's win is damaged: refused with a sentence, the round waits and nothing is paid."""
    fake.side_bet_wins_credits = {"lucky": 0}  # a side bet this cabinet's code for the game knows nothing of
    report, code = autoplay(remote_cabinet(tmp_path, fake, key), GAME_ID, 4, 10000)
    assert code == 0, report
    kept = read_memory(tmp_path)
    codes = [fake.rounds[f"r{n}"]["round"].outcome().result_code for n in range(4, 0, -1)]
    assert kept.records["scoreboard"][GAME_ID] == codes and all(codes)
    assert [g["round"]["side_bet_wins_credits"] for g in kept.recall[:4]] == [{"lucky": 0}] * 4

    winning = FakeGameServer(draw_games(), TERMINAL, key.public_key())
    winning.side_bet_wins_credits = {"lucky": 100}  # in the replies of rounds that win 100 credits or more
    report, code = autoplay(remote_cabinet(tmp_path / "won", winning, key), GAME_ID, 8, 10000)
    assert code == 0, report
    won = [r for r in winning.rounds.values() if r["round"].outcome().win_credits >= 100]
    assert won, "no win in 8 rounds: choose another seed"
    assert kept_meters(tmp_path / "won")["side_bet_out"] == 100 * len(won)  # 1-cent credits
    assert_reconciled(tmp_path / "won", winning)


def test_a_reply_with_side_bet_wins_beyond_the_win_is_damaged() -> None:
    local = draw_games()[GAME_ID]
    finished = local.new_round(local.default_wager(1), seeded_rng(3)(1), {})
    while not finished.finished:
        finished.decide(finished.reference_decision())
    body = {"round_id": "r1", "step_no": 2, "view": finished.view().to_json(), "status": "complete",
            "result_code": "W"}
    win = finished.outcome().win_credits
    with pytest.raises(ValueError, match="side-bet wins"):
        RemoteRound.from_answer({**body, "side_bet_wins_credits": {"lucky": win + 1}}, GAME_ID)
    with pytest.raises(ValueError, match="status 'open'"):
        RemoteRound.from_answer({**body, "status": "open"}, GAME_ID)
    round_ = RemoteRound.from_answer({**body, "status": "review", "side_bet_wins_credits": {"lucky": win}},
                                     GAME_ID)
    assert round_.outcome().side_bet_wins_credits == {"lucky": win}
    assert round_.hand_pay_why() == "the game server settled it for a hand pay"


def test_a_lost_reply_is_answered_again_and_applied_once(tmp_path: Path, fake: Any, key: Any) -> None:
    fake.lose_replies = 3  # the start and two decisions are applied, their replies lost on the way back
    report, code = autoplay(remote_cabinet(tmp_path, fake, key), GAME_ID, 2, 10000)
    assert code == 0 and report["games_completed"] == 2
    assert len(fake.applied) == len(set(fake.applied)) == 6  # 2 starts + 2 x 2 decisions, each once
    assert_reconciled(tmp_path, fake)


def test_a_pending_start_survives_a_power_cut_and_gets_the_same_round(tmp_path: Path, fake: Any,
                                                                       key: Any) -> None:
    cabinet = remote_cabinet(tmp_path, fake, key)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    fake.lose_replies = 1  # the server deals the round; the cabinet never hears it
    started = cabinet.handle(StartGame(GAME_ID))
    assert started.accepted, started.reason
    pending = cabinet.memory.get("game_server_start")
    assert pending["request_id"] == f"{TERMINAL}-{cabinet.memory.memory_id}-1-start"
    assert pending["terminal_id"] == TERMINAL and pending["game_number"] == 1
    assert pending["wager"]["stake_credits"] == 100
    while not fake.applied:  # the cabinet does not poll: it never takes the answer in
        time.sleep(0.01)
    cabinet.game_server.close()  # the power goes before the re-sent answer is taken in
    cabinet.memory.close()
    assert kept_meters(tmp_path)["coin_in"] == 0  # nothing was taken yet: the pending record waits

    again = remote_cabinet(tmp_path, fake, key)
    report, code = autoplay(again, GAME_ID, 0, 10000)
    assert code == 0, report
    assert "game server start: sent again" in report["recovered"]
    assert fake.applied.count(pending["request_id"]) == 1 and len(fake.rounds) == 1
    assert_reconciled(tmp_path, fake)


@pytest.mark.parametrize(("server_limit", "cabinet_limit"), [(150, 120000), (120000, 150)],
                         ids=["server-limit-lower", "cabinet-limit-lower"])
def test_a_hand_pay_follows_the_servers_settlement_and_reconciles(tmp_path: Path, key: Any, server_limit: int,
                                                                   cabinet_limit: int) -> None:
    """A win at or above the server's hand-pay limit is a hand pay on both sides (the server's status
    decides, whatever the cabinet's own limit); the attendant pays it, and the meters reconcile."""
    fake = FakeGameServer(draw_games(), TERMINAL, key.public_key(), hand_pay_limit_cents=server_limit)
    cabinet = terminal_cabinet(tmp_path, fake.transport(), key, heartbeat_s=0.05,
                               hand_pay_limit_cents=cabinet_limit)
    report, code = autoplay(cabinet, GAME_ID, 12, 10000)
    assert code == 0, report
    reviewed = [r for r in fake.rounds.values() if r["status"] == "review"]
    hand_paid_cents = sum(r["round"].outcome().win_credits * r["wager"].denom_cents for r in reviewed)
    if server_limit < cabinet_limit:
        assert reviewed and hand_paid_cents >= server_limit  # 100-cent stakes: every win of 150 cents or more
    else:
        assert not reviewed  # the cabinet's lower limit turns no credited win of the server into a hand pay
    meters = kept_meters(tmp_path)
    assert meters["jackpot"] == hand_paid_cents
    events = read_memory(tmp_path).events
    wins_hand_paid = [e for e in events if e["kind"] == "hand_pay_reset" and "(a win)" in e["message"]]
    assert len(wins_hand_paid) == len(reviewed)  # a cash-out past the cabinet's limit is its own hand pay
    assert report["state"] == "attract"
    assert_reconciled(tmp_path, fake)


def test_new_games_are_refused_while_the_server_is_unreachable(tmp_path: Path, fake: Any, key: Any) -> None:
    cabinet = remote_cabinet(tmp_path, fake, key)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    fake.down = True  # the idle link's heartbeat finds the server gone
    wait_until(cabinet, lambda: cabinet.game_server.offline)
    refused = cabinet.handle(StartGame(GAME_ID))
    assert not refused.accepted and refused.reason.startswith(OFFLINE)
    assert cabinet.memory.get("game_server_start") is None and cabinet.credits_cents == 500
    assert cabinet.snapshot()["game_server"]["offline"] is True
    cabinet.close()


def test_a_round_waits_for_the_server_and_tilts_after_offline_tilt_s(tmp_path: Path, fake: Any,
                                                                     key: Any) -> None:
    clock = FakeClock()
    cabinet = remote_cabinet(tmp_path, fake, key, clock=clock, offline_tilt_s=30)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame(GAME_ID)).accepted
    wait_until(cabinet, lambda: cabinet.round is not None)
    assert cabinet.credits_cents == 400 and cabinet.state == f"game.{GAME_ID}.choose"
    fake.down = True
    assert cabinet.handle(PlayerDecision(cabinet.round.reference_decision())).accepted
    wait_until(cabinet, lambda: cabinet.game_server.offline)
    assert cabinet.snapshot()["game_server"]["waiting"] == OFFLINE
    assert cabinet.tilt is None and cabinet.round.step == "choose"  # waiting, never settled here
    clock.advance(31)
    cabinet.poll_devices()
    assert cabinet.tilt == "game_server_offline" and cabinet.state == "tilt.gameserver"
    logged = [e for e in cabinet.event_log() if e["kind"] == "game_server_offline"]
    assert len(logged) == 1 and exceptions_for(logged[0]) == (GENERAL_TILT,)
    fake.down = False  # the server returns: the decision is answered, the round goes on
    wait_until(cabinet, lambda: cabinet.tilt is None and cabinet.round is not None
               and cabinet.round.step == "confirm")
    assert cabinet.state == f"game.{GAME_ID}.confirm"
    cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
    wait_until(cabinet, lambda: cabinet.round is None)
    cabinet.close()
    assert_reconciled(tmp_path, fake)


def test_a_pay_table_is_offered_only_from_the_rom_or_a_signed_catalogue() -> None:
    local = draw_games()[GAME_ID]
    entry = catalogue_entry(local)
    catalogue = {"games": [entry], "signature": None}
    games, refused = offered_games(catalogue, {}, vouched=False)
    assert games == {} and "is not in this cabinet's ROM" in refused[GAME_ID]
    games, refused = offered_games(catalogue, {entry["paytable_sha256"]: local}, vouched=False)
    assert list(games) == [GAME_ID] and games[GAME_ID].local is local and refused == {}
    server_key = terminal_key()
    _, signature = sign_catalogue(server_key, [entry])
    assert catalogue_vouched({"games": [entry], "signature": signature}, server_key.public_key())
    assert not catalogue_vouched({"games": [{**entry, "bets_credits": [1]}], "signature": signature},
                                 server_key.public_key())
    games, _ = offered_games(catalogue, {}, vouched=True)
    assert games[GAME_ID].local is None and games[GAME_ID].default_wager(1).bet_credits == 100


def test_the_game_server_table_is_checked_naming_the_file_and_key(tmp_path: Path) -> None:
    config = tmp_path / "cabinet.toml"
    config.write_text('[game_server]\nurl = "ftp://x"\nterminal_id = "cab 1"\nprivate_key = "/none.pem"\n'
                      "offline_tilt_s = 0\n")
    with pytest.raises(ConfigError) as caught:
        load_cabinet_config(config)
    text = str(caught.value)
    for key in ("url", "terminal_id", "private_key", "offline_tilt_s"):
        assert f"{config}: key 'game_server.{key}'" in text
    assert "the key file /none.pem is not found" in text
    assert load_cabinet_config().game_server is None  # no table: the cabinet plays locally


def test_the_screen_says_it_waits_for_the_game_server(tmp_path: Path, fake: Any, key: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from egm.audio.controller import AudioController
    from egm.audio.speaker import SilentSpeaker
    from egm.video.controller import VideoController

    pygame.init()
    clock = FakeClock()
    cabinet = remote_cabinet(tmp_path, fake, key, clock=clock)
    cabinet.boot()
    video = VideoController(cabinet, cabinet.devices, cabinet.config, clock,
                            AudioController(SilentSpeaker(), cabinet.config.audio))
    cabinet.devices.bill_acceptor.insert_bill(500)
    video.update()
    fake.gate.clear()  # the server is slow to answer
    assert cabinet.handle(StartGame(GAME_ID)).accepted
    for _ in range(3):  # the loop keeps drawing while it waits
        video.update()
        video.render()
        assert "WAITING FOR THE GAME SERVER" in video.res.kit.drawn
    assert cabinet.handle(CashOut()).reason == "Cashing out is not allowed now: WAITING FOR THE GAME SERVER."
    assert cabinet.credits_cents == 500
    fake.gate.set()
    wait_until(cabinet, lambda: cabinet.round is not None)
    video.update()
    video.render()
    assert "WAITING FOR THE GAME SERVER" not in video.res.kit.drawn
    # a game this cabinet has no code for is drawn by the generic table: step, stake, AUTO PLAY
    assert {"STEP: CHOOSE", "STAKE: 100 CREDITS", "Press AUTO PLAY to play."} <= set(video.res.kit.drawn)
    assert cabinet.credits_cents == 400
    cabinet.close()


def test_the_menu_is_the_servers_catalogue_checked_against_the_rom(tmp_path: Path) -> None:
    """build_cabinet's boot asks the catalogue: the shipped Dragon Poker table (its SHA-256 is in the
    ROM) is offered with the cabinet's own code; a table the ROM lacks is refused unless the server's
    catalogue key signs the catalogue; the menu is kept for a boot while the server is down."""
    import hashlib
    import json

    import httpx

    from egm.cabinet.build import connect_game_server
    from egm.config import PROJECT_ROOT, CabinetConfig
    from egm.rom.catalogue import load_games
    from egm.terminal_link.signing import generate_key_pair, load_private_key

    generate_key_pair(tmp_path / "terminal")
    generate_key_pair(tmp_path / "catalogue")
    digest = hashlib.sha256((PROJECT_ROOT / "paytables" / "dragon-poker.toml").read_bytes()).hexdigest()
    dragon = {"id": "dragon-poker", "title": "Dragon Poker", "paytable_id": "x", "paytable_sha256": digest,
              "denominations_cents": [1, 5], "bets_credits": [1, 2], "side_bets": {}, "stake_bets": 3,
              "steps": ["deal", "complete"]}
    mystery = {**dragon, "id": "mystery", "title": "Mystery", "paytable_sha256": "ab" * 32}
    served: dict[str, Any] = {"games": [dragon, mystery], "signature": None}
    up = True

    def answer(request: httpx.Request) -> httpx.Response:
        if not up:
            raise httpx.ConnectError("down", request=request)
        assert request.headers["X-Terminal-Id"] == "cab-9"
        assert request.url.path == "/api/v1/terminal/catalogue"
        return httpx.Response(200, json=served)

    def menu(**table: Any) -> tuple[dict[str, Any], dict[str, str]]:
        config = CabinetConfig.model_validate({"game_server": {
            "url": "http://server", "terminal_id": "cab-9", "private_key": str(tmp_path / "terminal.key"),
            **table}})
        link, games, refused = connect_game_server(config, tmp_path / "nvram", load_games(config),
                                                   None, transport=httpx.MockTransport(answer))
        link.close()
        return games, refused

    games, refused = menu()
    assert list(games) == ["dragon-poker"] and games["dragon-poker"].local is not None
    assert games["dragon-poker"].local.paytable.sha256 == digest
    assert "is not in this cabinet's ROM" in refused["mystery"]
    _, served["signature"] = sign_catalogue(load_private_key(tmp_path / "catalogue.key"), [dragon, mystery])
    games, refused = menu(catalogue_public_key=str(tmp_path / "catalogue.pub"))
    assert list(games) == ["dragon-poker", "mystery"] and games["mystery"].local is None and refused == {}
    up = False  # a boot while the server is down: the menu it gave last
    games, refused = menu(catalogue_public_key=str(tmp_path / "catalogue.pub"))
    assert list(games) == ["dragon-poker", "mystery"]
    assert "cannot be reached" in refused["game-server"]
    assert json.loads((tmp_path / "nvram" / "game-server-catalogue.json").read_text())["games"][1]["id"] == \
        "mystery"


def test_autoplay_needs_the_terminals_id_and_key_with_game_server(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "egm.cli", "autoplay", "--nvram", str(tmp_path), "--game",
                           "dragon-poker", "--games", "1", "--game-server", "http://127.0.0.1:9", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == ("--game-server needs the terminal's --terminal-id and "
                                                "--terminal-key (or the config's [game_server] table)")


# 10 kills here in CI: the 20 are made on a real server (tests/test_cabinet_on_server.py)
@pytest.mark.parametrize("kills", [pytest.param(10, id="10-kills"),
                                   pytest.param(200, id="200-kills",
                                                marks=[pytest.mark.soak, pytest.mark.timeout(7200)])])
def test_kill_9_of_the_cabinet_at_random_instants_pays_no_round_twice(tmp_path: Path, fake: Any, key: Any,
                                                                      kills: int) -> None:
    """The cabinet is a separate process on a real HTTP connection, killed at random instants; the
    server keeps its rounds. After the last boot: one cabinet game per server round, none open, and
    the server's totals are the cabinet's meters."""
    import random
    import signal
    import subprocess
    import sys

    from cryptography.hazmat.primitives import serialization

    from tests.terminal_fake import HttpFakeServer

    key_file = tmp_path / "terminal.key"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    served = HttpFakeServer(fake)
    nvram = tmp_path / "nvram"
    child = [sys.executable, "-m", "tests.terminal_fake", str(nvram), served.url, str(key_file)]
    pick = random.Random(30)
    try:
        # The first boot and game, timed. Half the kills strike within a boot (its recovery sends the
        # pending request again); half strike in play, 0 to 2 s after the process's first new round
        # reached the server. (Kills timed by the clock alone landed mostly in boots once the load
        # rose: 20 rounds in 200 kills at a load average of 13, 82 at 17.)
        began = time.monotonic()
        first = subprocess.run([*child, "1"], capture_output=True, text=True, timeout=600)
        assert first.returncode == 0, first.stderr[-2000:]
        boot_s = time.monotonic() - began
        for n in range(kills):
            process = subprocess.Popen([*child, "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if n % 2:
                time.sleep(pick.uniform(0.1, boot_s))
            else:
                seen, deadline = len(fake.rounds), time.monotonic() + 600
                while len(fake.rounds) == seen and process.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                time.sleep(pick.uniform(0.0, 2.0))
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            process.send_signal(signal.SIGKILL)
            process.wait()
        done = subprocess.run([*child, "1"], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    finally:
        served.stop()
    assert_reconciled(nvram, fake)  # the money first: it holds however the kills fell
    recall = read_memory(nvram).recall
    assert sorted({g["number"] for g in recall}) == [g["number"] for g in reversed(recall)]  # each once
    assert len(fake.rounds) > kills // 2  # the kills landed in play, not only in boots


def test_a_round_the_server_holds_open_for_another_memory_is_refused_with_a_sentence(
        tmp_path: Path, fake: Any, key: Any) -> None:
    fake.start({"request_id": "old-memory-1-start", "game_number": 1, "game_id": GAME_ID, "denom_cents": 1,
                "bet_credits": 100, "side_bets": {}})  # before a RAM clear, say
    cabinet = remote_cabinet(tmp_path, fake, key)
    cabinet.boot()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame(GAME_ID)).accepted
    wait_until(cabinet, lambda: not cabinet.waiting_for_server())
    assert cabinet.server_sentence.startswith("The game server holds an open round (r1) for this terminal")
    assert cabinet.round is None and cabinet.credits_cents == 500 and cabinet.memory.meters["coin_in"] == 0
    assert [e["kind"] for e in cabinet.event_log(3)][0] == "game_server_refused"
    cabinet.close()


class QuietHost:
    """A casino host link that never polls: the display's frame waits on it for nothing."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def wait(self, timeout_s: float) -> bool:
        self.waits.append(timeout_s)
        time.sleep(timeout_s)
        return False

    def poll(self) -> list[object]:
        return []


@pytest.mark.parametrize("host", [None, QuietHost], ids=["no-host", "sas-host"])
def test_the_game_servers_answer_ends_the_frames_wait(tmp_path: Path, fake: Any, key: Any, host: Any) -> None:
    """The display's loop spends each frame's spare time in serve_host_until; an answer from the game
    server ends it, so the screen shows it at once instead of a frame later."""
    from egm.host.serve import serve_host_until

    cabinet = remote_cabinet(tmp_path, fake, key)
    cabinet.boot()
    if host is not None:
        cabinet.devices.host_link = host()
    cabinet.devices.bill_acceptor.insert_bill(500)
    cabinet.poll_devices()
    assert cabinet.handle(StartGame(GAME_ID)).accepted and cabinet.waiting_for_server()
    frame_due = time.monotonic() + 30  # a frame far longer than the answer takes
    serve_host_until(cabinet, frame_due)
    assert time.monotonic() < frame_due, "the frame's wait did not end at the server's answer"
    cabinet.poll_devices()
    assert cabinet.round is not None and not cabinet.waiting_for_server()
    assert cabinet.credits_cents == 400
    cabinet.close()

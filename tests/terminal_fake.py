"""A fake game server for the cabinet's side of issue 30: an httpx transport that speaks the terminal wire
contract (TERMINAL-CONTRACT.md) with real game code, so the cabinet is tested without a server process.

It verifies every signature (egm.terminal_link.signing) and refuses a nonce used twice, deals rounds
with the game's own `new_round` from a seeded RNG, answers a request id again with the stored reply
byte for byte, holds one open round per terminal, and keeps the terminal's totals (GET /meters).

It settles as the real server does: a win at or above its own `hand_pay_limit_cents` is a hand pay
(status `review`, not counted as coin out), and a completed reply carries the round's `status`,
`result_code` and `side_bet_wins_credits`.

Faults: `down` (every request fails to connect, nothing is applied), `lose_replies` (the next N
requests are applied, then their reply is lost on the way back).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from egm.clock import FakeClock
from egm.config import GameServerConfig
from egm.games.base import Decision, DecisionRefused, Game, Round, Wager
from egm.host.game_server import GameServerLink
from egm.host.remote_game import RemoteGame
from egm.rng import seeded_rng
from egm.terminal_link.signing import SignatureRefused, verify_request
from hardware.factory import build_devices
from tests.cabinet_support import GAME_ID, draw_games, spine_config, spine_jurisdiction

PREFIX = "/api/v1/terminal"
TERMINAL = "cab-1"
JSON = {"Content-Type": "application/json"}


def catalogue_entry(game: Game) -> dict[str, Any]:
    offer = game.wager_offer()
    return {"id": game.game_id, "title": game.title, "paytable_id": game.paytable.id,
            "paytable_sha256": game.paytable.sha256, "denominations_cents": list(offer.denominations_cents),
            "bets_credits": list(offer.bets_credits), "side_bets": dict(offer.side_bet_limits),
            "stake_bets": offer.stake_bets, "steps": list(game.steps)}


class FakeGameServer:
    def __init__(self, games: Mapping[str, Game], terminal_id: str, key: Ed25519PublicKey,
                 seed: int = 7, hand_pay_limit_cents: int = 120000) -> None:
        self.games, self.terminal_id, self.key = dict(games), terminal_id, key
        self.hand_pay_limit_cents = hand_pay_limit_cents
        # added to what a completed reply says the side bets won, when the round's win covers them
        self.side_bet_wins_credits: dict[str, int] = {}
        self.rng_for_game = seeded_rng(seed)
        self.rounds: dict[str, dict[str, Any]] = {}
        self.replies: dict[str, tuple[bytes, int, bytes]] = {}
        self.nonces: set[str] = set()
        self.down = False
        self.lose_replies = 0
        self.gate = threading.Event()  # cleared: a request waits at the server's door (a slow server)
        self.gate.set()
        self.applied: list[str] = []  # request ids applied, in order (a re-send is not applied again)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.gate.wait(30)
        if self.down:
            raise httpx.ConnectError("the fake server is down", request=request)
        path = request.url.raw_path.decode()
        try:
            terminal, _, nonce = verify_request(self.key, request.headers, request.method, path,
                                                request.content, time.time())
        except SignatureRefused as exc:
            return self.json(401, {"code": exc.code,
                                   "sentence": str(exc)})
        if nonce in self.nonces:
            return self.json(401, {"code": "replayed", "sentence": "This nonce was used already."})
        self.nonces.add(nonce)
        route = path.removeprefix(PREFIX)
        if request.method == "GET" and route == "/catalogue":
            return self.json(200, {"terminal_id": terminal, "signed_by": None, "signature": None,
                                   "games": [catalogue_entry(g) for g in self.games.values()]})
        if request.method == "GET" and route == "/meters":
            return self.json(200, self.meters())
        body = json.loads(request.content)
        stored = self.replies.get(body["request_id"])
        if stored is not None:
            if stored[0] != request.content:
                return self.json(409, {"code": "request_id_reused", "sentence": "Another body."})
            response = httpx.Response(stored[1], content=stored[2], headers=JSON)
        else:
            if route == "/rounds":
                status, reply = self.start(body)
            else:
                status, reply = self.decide(route.split("/")[2], body)
            content = json.dumps(reply).encode()
            self.replies[body["request_id"]] = (request.content, status, content)
            self.applied.append(body["request_id"])
            response = httpx.Response(status, content=content, headers=JSON)
        if self.lose_replies:
            self.lose_replies -= 1
            raise httpx.ReadTimeout("the reply was lost", request=request)
        return response

    @staticmethod
    def json(status: int, body: Mapping[str, Any]) -> httpx.Response:
        return httpx.Response(status, json=dict(body))

    def start(self, body: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        if any(r["status"] == "open" for r in self.rounds.values()):
            open_id = next(i for i, r in self.rounds.items() if r["status"] == "open")
            return 409, {"code": "round_open", "sentence": "Finish the round in progress first.",
                         "round_id": open_id}
        game = self.games[body["game_id"]]
        offer = game.wager_offer()
        wager = Wager(body["bet_credits"], offer.stake_credits(body["bet_credits"], body["side_bets"]),
                      body["denom_cents"], body["side_bets"])
        if (refusal := game.refuse_wager(wager)) is not None:
            return 422, {"code": "wager_refused", "sentence": refusal}
        round_ = game.new_round(wager, self.rng_for_game(len(self.rounds) + 1), {})
        round_id = f"r{len(self.rounds) + 1}"
        self.rounds[round_id] = {"game": game, "round": round_, "wager": wager, "step_no": 0,
                                 "status": "open", "number": body["game_number"]}
        return 200, {**self.state(round_id), "stake_cents": wager.stake_credits * wager.denom_cents}

    def decide(self, round_id: str, body: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        kept = self.rounds[round_id]
        round_: Round = kept["round"]
        if body["step_no"] != kept["step_no"] or kept["status"] != "open":
            return 409, {"code": "stale_step", "sentence": "Stale.", **self.state(round_id)}
        asked = body["decision"]
        try:
            auto = asked["kind"] == "auto"
            round_.decide(round_.reference_decision() if auto else Decision.from_record(asked))
        except DecisionRefused as exc:
            return 422, {"code": "decision_refused", "sentence": str(exc)}
        kept["step_no"] += 1
        if round_.finished:
            win_cents = round_.outcome().win_credits * kept["wager"].denom_cents
            kept["status"] = "review" if win_cents >= self.hand_pay_limit_cents else "complete"
        return 200, self.state(round_id)

    def state(self, round_id: str) -> dict[str, Any]:
        kept = self.rounds[round_id]
        round_, wager = kept["round"], kept["wager"]
        reply = {"round_id": round_id, "step_no": kept["step_no"], "view": round_.view().to_json(),
                 "complete": round_.finished, "win_cents": None, "status": kept["status"]}
        if round_.finished:
            outcome = round_.outcome()
            reply.update(win_cents=outcome.win_credits * wager.denom_cents, record=round_.to_record(),
                         result_code=outcome.result_code,
                         side_bet_wins_credits={**outcome.side_bet_wins_credits, **(
                             self.side_bet_wins_credits
                             if sum(self.side_bet_wins_credits.values()) <= outcome.win_credits else {})})
        return reply

    def meters(self) -> dict[str, Any]:
        rounds = self.rounds.values()
        coin_in = sum(r["wager"].stake_credits * r["wager"].denom_cents for r in rounds)
        coin_out = sum(r["round"].outcome().win_credits * r["wager"].denom_cents for r in rounds
                       if r["status"] == "complete")
        return {"terminal_id": self.terminal_id, "games_played": len(self.rounds), "coin_in_cents": coin_in,
                "coin_out_cents": coin_out, "open_rounds": sum(r["status"] == "open" for r in rounds)}


def terminal_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def terminal_cabinet(nvram: Path, transport: httpx.BaseTransport | None, key: Ed25519PrivateKey, *,
                     url: str = "http://fake", clock: FakeClock | None = None, offline_tilt_s: int = 30,
                     heartbeat_s: float = 5.0, hand_pay_limit_cents: int = 120000) -> Any:
    """A cabinet (the test-draw game, tests/cabinet_support.py) whose game comes from the server at
    `url` (through `transport` when given, a real HTTP connection when None)."""
    from egm.cabinet import Cabinet

    config = spine_config(game_server=GameServerConfig.model_construct(
        url=url, terminal_id=TERMINAL, private_key="k.pem", offline_tilt_s=offline_tilt_s,
        catalogue_public_key=None))
    clock = clock or FakeClock()
    link = GameServerLink(url, TERMINAL, key, transport=transport, monotonic=clock.monotonic, retry_s=0.01,
                          heartbeat_s=heartbeat_s)
    local = draw_games()[GAME_ID]
    return Cabinet(config, nvram, games={GAME_ID: RemoteGame(catalogue_entry(local), local)},
                   devices=build_devices(config),
                   jurisdiction=spine_jurisdiction(hand_pay_limit_cents=hand_pay_limit_cents), clock=clock,
                   game_server=link)


class HttpFakeServer:
    """The fake served over real HTTP on 127.0.0.1 (a thread of the test process), so a cabinet in
    another process can be killed while the server keeps its rounds."""

    def __init__(self, fake: FakeGameServer) -> None:
        self.fake = fake
        self.lock = threading.Lock()
        self.httpd = make_server("127.0.0.1", 0, self.app, handler_class=QuietHandler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def app(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        headers = {k[5:].replace("_", "-"): v for k, v in environ.items() if k.startswith("HTTP_")}
        path = environ["PATH_INFO"] + (f"?{environ['QUERY_STRING']}" if environ.get("QUERY_STRING") else "")
        request = httpx.Request(environ["REQUEST_METHOD"], self.url + path, headers=headers,
                                content=environ["wsgi.input"].read(length))
        with self.lock:
            response = self.fake.handle(request)
        start_response(f"{response.status_code} {response.reason_phrase}", list(JSON.items()))
        return [response.content]

    def stop(self) -> None:
        self.httpd.shutdown()


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        return


def main(argv: list[str]) -> int:
    """The kill test's child: `python -m tests.terminal_fake NVRAM URL KEYFILE GAMES` plays GAMES games of
    the test-draw game on the fake server at URL, as `egm autoplay --game-server URL` does."""
    from egm.cabinet_cli import autoplay
    from egm.terminal_link.signing import load_private_key

    nvram, url, key_file, games = Path(argv[0]), argv[1], argv[2], int(argv[3])
    report, code = autoplay(terminal_cabinet(nvram, None, load_private_key(key_file), url=url), GAME_ID,
                            games, 10000)
    print(json.dumps(report, sort_keys=True))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

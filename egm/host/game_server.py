"""The link to the central game server (seed 004, [0021]), polled like a device.

The cabinet's event loop never waits on the network. It hands a request to the link (`submit`) and
takes the answers later (`poll`), as it takes a bill acceptor's reports. One background thread does
the HTTP: it signs each request with the terminal's Ed25519 key (egm.terminal_link.signing, the
wire contract the server checks), sends it, and queues the answer as a `GameServerAnswered` event.

A request the server did not answer (no connection, a timeout, a 5xx while its database is down) is
sent again, re-signed, until it is answered: the server answers the same request id with the same
reply, so a request is applied once however often it is sent. While requests fail, the link is
offline (`offline_since`); an idle link asks the catalogue every `heartbeat_s` to know whether the
server is there before the next game is offered.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from egm.events import GameServerAnswered
from egm.terminal_link.signing import sign_request

PREFIX = "/api/v1/terminal"
OFFLINE = "GAME SERVER OFFLINE"
WAITING = "WAITING FOR THE GAME SERVER"


@dataclass(frozen=True)
class ServerRequest:
    """One terminal request. key: what the answer is matched by (the request id, or "catalogue")."""

    key: str
    method: str
    path: str  # under /api/v1/terminal, e.g. "/rounds"
    body: Mapping[str, Any] | None = None

    def payload(self) -> bytes:
        """The body's exact bytes: the same request always sends the same bytes (the server's
        idempotency compares them)."""
        if self.body is None:
            return b""
        return json.dumps(self.body, sort_keys=True, separators=(",", ":")).encode()


def answer_body(response: httpx.Response) -> dict[str, Any]:
    """The JSON object of a reply; a reply that is not one becomes a refusal sentence."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return {"code": "bad_reply", "sentence": f"The game server answered {response.status_code} without "
                                                 "a JSON object; check the server's URL."}
    return body


class GameServerLink:
    """The background link. `transport`: an httpx transport (tests give a fake one); `monotonic`:
    the cabinet's clock; `wall`: unix time for the signatures' timestamps."""

    def __init__(
        self,
        url: str,
        terminal_id: str,
        private_key: Ed25519PrivateKey,
        *,
        transport: httpx.BaseTransport | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        timeout_s: float = 5.0,
        retry_s: float = 0.25,
        heartbeat_s: float = 5.0,
    ) -> None:
        self.url = url.rstrip("/")
        self.terminal_id = terminal_id
        self._key = private_key
        self._client = httpx.Client(base_url=self.url, transport=transport, timeout=timeout_s)
        self._monotonic, self._wall = monotonic, wall
        self._retry_s, self._heartbeat_s = retry_s, heartbeat_s
        self._requests: queue.Queue[ServerRequest | None] = queue.Queue()
        self._answers: queue.Queue[GameServerAnswered] = queue.Queue()
        self._answered = threading.Event()
        self._stop = threading.Event()
        self.offline_since: float | None = None  # set by the link's thread, read by the cabinet's loop
        self.last_problem = ""
        self._thread: threading.Thread | None = None

    # --- the cabinet's side: never blocks ---------------------------------------------------------
    def submit(self, request: ServerRequest) -> None:
        """Queue a request; its answer comes back through `poll`."""
        self._start()
        self._requests.put(request)

    def poll(self) -> list[GameServerAnswered]:
        """The answers that arrived since the last poll, in order."""
        self._start()  # from the first poll on, an idle link checks the server is there
        answers = []
        self._answered.clear()  # an answer queued after this sets it again
        while True:
            try:
                answers.append(self._answers.get_nowait())
            except queue.Empty:
                return answers

    def wait(self, timeout_s: float) -> bool:
        """Sleep until an answer arrives or `timeout_s` passes; True when one waits for `poll` (headless
        autoplay waits here; a display's loop waits here in the frame's spare time)."""
        return self._answered.wait(timeout_s)

    @property
    def offline(self) -> bool:
        return self.offline_since is not None

    def offline_for(self) -> float:
        """Seconds the server has been unreachable (0 while it answers)."""
        since = self.offline_since
        return 0.0 if since is None else max(0.0, self._monotonic() - since)

    def close(self) -> None:
        self._stop.set()
        self._requests.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._client.close()

    # --- blocking calls, for the boot only (before the event loop runs) ------------------------------
    def fetch(self, request: ServerRequest) -> GameServerAnswered:
        """Send once and wait for the answer; httpx.HTTPError when the server cannot be reached."""
        return self._send(request)

    # --- the link's thread ------------------------------------------------------------------------
    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="game-server-link", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                request = self._requests.get(timeout=self._heartbeat_s)
            except queue.Empty:
                request = ServerRequest("heartbeat", "GET", "/catalogue")
            if request is None:
                return
            answer = self._until_answered(request)
            if answer is not None and request.key != "heartbeat":
                self._answers.put(answer)
                self._answered.set()

    def _until_answered(self, request: ServerRequest) -> GameServerAnswered | None:
        while not self._stop.is_set():
            try:
                answer = self._send(request)
            except httpx.HTTPError as exc:
                self._went_offline(f"the game server at {self.url} cannot be reached ({type(exc).__name__})")
            except Exception as exc:  # noqa: BLE001  the thread never dies: the round waits, then tilts
                self._went_offline(f"the link to {self.url} failed ({type(exc).__name__}: {exc})")
            else:
                if answer.status < 500:
                    self.offline_since, self.last_problem = None, ""
                    return answer
                self._went_offline(str(answer.body.get("sentence") or f"the game server answered "
                                                                      f"{answer.status}"))
            self._stop.wait(self._retry_s)
        return None

    def _went_offline(self, problem: str) -> None:
        self.last_problem = problem
        if self.offline_since is None:
            self.offline_since = self._monotonic()

    def _send(self, request: ServerRequest) -> GameServerAnswered:
        path = PREFIX + request.path
        body = request.payload()
        headers = sign_request(self._key, self.terminal_id, request.method, path, body, int(self._wall()))
        if body:
            headers["Content-Type"] = "application/json"
        response = self._client.request(request.method, path, content=body, headers=headers)
        return GameServerAnswered(request.key, response.status_code, answer_body(response))

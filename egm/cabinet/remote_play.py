"""Remote play: rounds the central game server deals (seed 004, [0021]), with the cabinet's money.

The server owns the outcome; the cabinet's meters stay the money of record. Every request that can
move money is committed to wager memory before it is sent, and is sent again, with the same request
id, until the server answers (egm.host.game_server), so a round is never lost or paid twice:

* start: a pending record ("game_server_start": terminal id, game number, request id, wager) is
  committed, then the start is sent. The answer commits coin in and the round record together, and
  clears the pending record. A boot that finds the record sends the same request again; the server
  answers the same request id with the same round.
* decision: the decision is staged on the round and committed with the round record ("asked"), then
  sent. The answer commits the next step; the last step's answer commits the settlement (win, pools,
  scoreboard, recall) in the same transaction, as a local round's last step does. The settlement is the
  server's: its status says whether the win is a hand pay (its hand-pay limit rules, so that both sides
  meter the win alike), and its reply gives the result code and the side bets' wins.

While the server is unreachable, new games are refused ("GAME SERVER OFFLINE"). A round in progress
waits and is never settled here; when it has waited `offline_tilt_s`, the cabinet tilts
("game_server_offline", reported to the SAS host as a general tilt) until the server answers.
"""

from __future__ import annotations

from typing import Any

from egm.events import ACCEPTED, GameServerAnswered, Result, StartGame
from egm.games.base import Wager
from egm.host.game_server import OFFLINE, WAITING, GameServerLink, ServerRequest
from egm.host.remote_game import RemoteGame, RemoteRound
from egm.memory.store import Transaction
from egm.play import rounds

from .core import CabinetPart

PENDING_START = "game_server_start"  # record: the start sent and not yet answered


class RemotePlayPart(CabinetPart):
    """The cabinet's side of a game server's rounds (Cabinet.game_server None: every game is local)."""

    game_server: GameServerLink | None
    offline_tilt_s: int
    server_sentence: str  # the server's last refusal, for the player ("" when none)
    _server_tilt: bool

    # --- reading ------------------------------------------------------------------------------------
    def waiting_for_server(self) -> str:
        """Why the cabinet waits on the game server now (a start or a decision unanswered), or ""."""
        if self.game_server is None or self.memory is None:
            return ""
        asked = isinstance(self.round, RemoteRound) and self.round.asked is not None
        if self.memory.get(PENDING_START) is None and not asked:
            return ""
        return OFFLINE if self.game_server.offline else WAITING

    def _lockout(self) -> str:
        # no note, ticket or new game while a start is unanswered: the stake must still be on the meter
        return super()._lockout() or self.waiting_for_server()

    def game_server_status(self) -> dict[str, Any] | None:
        """What the display says of the game server: offline, waiting (the sentence), the last refusal."""
        if self.game_server is None:
            return None
        waiting, offline = self.waiting_for_server(), self.game_server.offline
        return {"offline": offline, "waiting": waiting, "banner": waiting or (OFFLINE if offline else ""),
                "sentence": self.server_sentence, "problem": self.game_server.last_problem}

    # --- the link, polled with the devices -----------------------------------------------------------
    def _poll_links(self) -> list[object]:
        if self.game_server is None:
            return []
        self._check_offline()
        return list(self.game_server.poll())

    def _check_offline(self) -> None:
        """Raise the tilt when something has waited on an unreachable server for offline_tilt_s; end it
        when the server answers again."""
        assert self.game_server is not None
        late = bool(self.waiting_for_server()) and self.game_server.offline_for() >= self.offline_tilt_s
        if late == self._server_tilt or self.memory is None:
            return
        self._server_tilt = late
        if late:
            self._commit(lambda tx: tx.log("game_server_offline", f"{OFFLINE}: no answer from "
                                           f"{self.game_server.url} for {self.offline_tilt_s} s; the round "
                                           "waits for it.", problem=self.game_server.last_problem))
        else:
            self._commit(lambda tx: tx.log("game_server_online", "The game server answers again."))
        self._settle()

    def _server_tilt_detail(self) -> str:
        problem = self.game_server.last_problem if self.game_server else ""
        return f"{OFFLINE}: the round waits for the game server ({problem})"

    # --- start ---------------------------------------------------------------------------------------
    def _start_remote(self, event: StartGame, game: RemoteGame, wager: Wager, number: int) -> Result:
        """Commit the pending start, then send it. The stake moves when the server answers."""
        assert self.game_server is not None and self.memory is not None
        if self.game_server.offline:
            self.server_sentence = f"{OFFLINE}: new games wait until the game server answers again."
            return self._refuse(event, self.server_sentence)
        terminal = self.game_server.terminal_id
        pending = {
            "terminal_id": terminal,
            "game_number": number,
            "request_id": f"{terminal}-{self.memory.memory_id}-{number}-start",
            "game_id": game.game_id,
            "paytable_id": rounds.paytable_id(game),
            "wager": wager.to_record(),
        }
        if not self._commit(lambda tx: tx.set(PENDING_START, pending)):
            return Result(False, self._tilt_detail())
        self.server_sentence = ""
        self.selected_game = game.game_id
        self._send_start(pending)
        self._drive_devices()  # the acceptor stops taking notes until the answer
        return Result(True, WAITING)

    def _send_start(self, pending: dict[str, Any]) -> None:
        assert self.game_server is not None
        wager = pending["wager"]
        body = {"request_id": pending["request_id"], "game_number": pending["game_number"],
                "game_id": pending["game_id"], "denom_cents": wager["denom_cents"],
                "bet_credits": wager["bet_credits"], "side_bets": wager["side_bets"]}
        self.game_server.submit(ServerRequest(pending["request_id"], "POST", "/rounds", body))

    def _start_answered(self, pending: dict[str, Any], answer: GameServerAnswered) -> Result:
        wager = Wager.from_record(pending["wager"])
        game = self.games.get(pending["game_id"])
        body = answer.body
        problem = ""
        if answer.status == 409 and body.get("code") == "round_open":  # not this memory's: a RAM clear?
            problem = (f"The game server holds an open round ({body.get('round_id')}) for this terminal that "
                       "this cabinet's memory has no record of; an operator must settle it on the server. "
                       "The stake was not taken.")
        elif answer.status != 200:
            problem = str(body.get("sentence") or f"The game server refused the game ({answer.status}).")
        elif game is None:
            problem = f"The game {pending['game_id']} is no longer offered; the stake was not taken."
        elif body.get("stake_cents") != wager.stake_credits * wager.denom_cents:
            problem = (f"The game server's round stakes {body.get('stake_cents')!r} cents, not the "
                       f"{wager.stake_credits * wager.denom_cents} bet; the stake was not taken.")
        round_ = None
        if not problem:
            try:
                round_ = RemoteRound.from_answer(body, pending["game_id"])
            except ValueError as exc:
                problem = f"{str(exc).capitalize()}; the stake was not taken."
        if problem or round_ is None or game is None:
            def refused(tx: Transaction) -> None:
                tx.set(PENDING_START, None)
                tx.log("game_server_refused", problem, request_id=pending["request_id"], status=answer.status)

            self._commit(refused)
            self.server_sentence = problem
            self._settle()
            return Result(False, problem)
        deltas = rounds.stake_deltas(game.game_id, pending["paytable_id"], wager)
        record = {"game_id": game.game_id, "paytable_id": pending["paytable_id"],
                  "number": pending["game_number"], "wager": pending["wager"], "round": round_.to_record()}

        def started(tx: Transaction) -> None:  # coin in and the round record, together
            deltas.apply(tx.meters)
            tx.set("game", record)
            tx.set(PENDING_START, None)

        if not self._commit(started):
            return Result(False, self._tilt_detail())
        self.round = round_
        if self.state == "attract":
            self.machine.trigger("start_game")
            self._follow_round()
        else:  # a door opened while it waited: the round shows when the tilt ends
            self._settle()
        return ACCEPTED

    # --- decisions -----------------------------------------------------------------------------------
    def _decision_request_id(self, round_: RemoteRound) -> str:
        assert self.game_server is not None and self.memory is not None
        number = self.memory.get("game")["number"]
        return f"{self.game_server.terminal_id}-{self.memory.memory_id}-{number}-{round_.step_no}"

    def _send_asked(self) -> None:
        """Send the decision staged on the remote round (it is committed already)."""
        round_ = self.round
        if self.game_server is None or not isinstance(round_, RemoteRound) or round_.asked is None:
            return
        request_id = self._decision_request_id(round_)
        body = {"request_id": request_id, "step_no": round_.step_no, "decision": round_.asked.to_record()}
        path = f"/rounds/{round_.round_id}/decisions"
        self.game_server.submit(ServerRequest(request_id, "POST", path, body))

    def _decision_answered(self, round_: RemoteRound, answer: GameServerAnswered) -> Result:
        problem = ""
        if answer.status == 200 or (answer.status == 409 and answer.body.get("code") == "stale_step"):
            try:
                round_.answered(answer.body)
            except ValueError as exc:
                problem = f"{str(exc).capitalize()}; the decision was not applied."
        else:
            problem = str(answer.body.get("sentence") or f"The game server refused the decision "
                                                         f"({answer.status}).")
        if problem:
            round_.asked = None
            self.server_sentence = problem
        if round_.finished:  # the answer and the settlement are one transaction
            self._finish_round()
            return ACCEPTED
        assert self.memory is not None
        record = {**self.memory.get("game"), "round": round_.to_record()}
        if not self._commit(lambda tx: tx.set("game", record)):
            return Result(False, self._tilt_detail())
        if self.state.startswith("game."):
            self._follow_round()
        else:
            self._settle()
        return Result(not problem, problem or "answered")

    # --- answers -------------------------------------------------------------------------------------
    def _server_answered(self, answer: GameServerAnswered) -> Result:
        memory = self.memory
        if memory is None or self._ram_error:
            return Result(False, "the wager memory is not available; the answer is taken again at boot")
        pending = memory.get(PENDING_START)
        if pending is not None and pending["request_id"] == answer.key:
            return self._start_answered(pending, answer)
        round_ = self.round
        if isinstance(round_, RemoteRound) and round_.asked is not None and \
                answer.key == self._decision_request_id(round_):
            return self._decision_answered(round_, answer)
        return Result(False, f"an answer to {answer.key}, which this cabinet no longer waits for; ignored")

    def _resend_pending(self) -> None:
        """At boot: send again whatever was sent and not answered before the power went."""
        if self.game_server is None or self.memory is None:
            return
        pending = self.memory.get(PENDING_START)
        if pending is not None:
            self._send_start(pending)
            self.recovered.append("game server start: sent again")
        if isinstance(self.round, RemoteRound) and self.round.asked is not None:
            self._send_asked()
            self.recovered.append("game server decision: sent again")

    handlers = {GameServerAnswered: _server_answered}

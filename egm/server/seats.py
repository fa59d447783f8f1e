"""The seat at a round: who plays it, whose money it moves, and what each step answers.

The round engine (egm/server/rounds.py) is the same for every seat: the account row locked, the request
id claimed, one open round per account, the wager checked, the draw, the steps, the settlement and the
pools per (account, game). A seat supplies only what differs:

* `PlayerSeat`: a remote player. The wallet pays the stake and receives the win (the ledger), the
  responsible-gaming checks refuse a start, each step is pushed to the player's websocket, and a reply
  carries the balance.
* `TerminalSeat`: a cabinet playing as a thin client ([0021]). The server holds no money for it: its
  account is never debited or credited; each round records its stake and win, and the cabinet's meters
  are the money of record. A reply carries the round's stake, win and status, and once complete its
  record (the cabinet keeps it for its recall).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection

from egm.games.base import Round
from egm.money import format_cents
from egm.server import nonces
from egm.server.db import Database
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.nonces import Nonce
from egm.server.rg import announce, refuse_start
from egm.server.sessions import Caller
from egm.server.wallet import balance_of, post


@dataclass(frozen=True)
class Settled:
    """What settling did: the win, the round's status (complete, or review: a hand pay, not credited)
    and why it is a hand pay ("" when not), its result code and side-bet wins (for a terminal's reply)."""

    win_cents: int
    status: str
    hand_pay_reason: str = ""
    result_code: str = ""
    side_bet_wins_credits: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Moved:
    """A start or a decision, committed with its reply: the round at its new step."""

    round_id: str
    step_no: int
    round: Round
    stake_cents: int
    settled: Settled | None


class Payee(Protocol):
    """Who a settlement pays: the account, its win, and what follows the settlement."""

    account_id: int

    def win(self, conn: Connection, round_id: str, win_cents: int, now: int) -> None: ...
    def settled(self, conn: Connection, now: int) -> None: ...


class Seat(Protocol):
    account_id: int

    def round_columns(self, body: dict[str, Any]) -> dict[str, Any]: ...
    def admit(self, db: Database, conn: Connection) -> None: ...
    def refuse(self, conn: Connection, balance_cents: int, stake_cents: int, now: int) -> None: ...
    def stake(self, conn: Connection, round_id: str, stake_cents: int, request_id: str, now: int) -> None: ...
    def win(self, conn: Connection, round_id: str, win_cents: int, now: int) -> None: ...
    def settled(self, conn: Connection, now: int) -> None: ...
    def start_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]: ...
    def decision_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]: ...


@dataclass(frozen=True)
class PlayerSeat:
    caller: Caller
    hub: Hub

    @property
    def account_id(self) -> int:
        return self.caller.account_id

    def round_columns(self, body: dict[str, Any]) -> dict[str, Any]:
        return {}

    def admit(self, db: Database, conn: Connection) -> None:
        """A player's request is admitted by its session and CSRF token, checked before."""

    def refuse(self, conn: Connection, balance_cents: int, stake_cents: int, now: int) -> None:
        if (refusal := refuse_start(conn, self.caller.player_id, stake_cents, now)) is not None:
            raise refusal
        if stake_cents > balance_cents:
            raise ApiError(402, "insufficient_funds", f"This round costs {format_cents(stake_cents)}, more "
                           f"than the balance of {format_cents(balance_cents)}; deposit or lower the bet.")

    def stake(self, conn: Connection, round_id: str, stake_cents: int, request_id: str, now: int) -> None:
        post(conn, self.account_id, "stake", -stake_cents, now, round_id=round_id, request_id=request_id)

    def win(self, conn: Connection, round_id: str, win_cents: int, now: int) -> None:
        post(conn, self.account_id, "win", win_cents, now, round_id=round_id)

    def settled(self, conn: Connection, now: int) -> None:
        announce(conn, self.hub, self.caller.player_id, self.account_id, now)  # a due check, pushed at once

    def start_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]:
        balance = self._pushed(conn, moved)
        return {"round_id": moved.round_id, "step_no": moved.step_no, "view": moved.round.view().to_json(),
                "balance_cents": balance}

    def decision_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]:
        balance, settled = self._pushed(conn, moved), moved.settled
        return {"step_no": moved.step_no, "view": moved.round.view().to_json(),
                "complete": moved.round.finished, "win_cents": settled.win_cents if settled else None,
                "balance_cents": balance,
                **({"status": settled.status} if settled else {})}

    def _pushed(self, conn: Connection, moved: Moved) -> int:
        balance = balance_of(conn, self.account_id)
        self.hub.publish(conn, self.account_id, "round", {"round_id": moved.round_id,
                                                          "step_no": moved.step_no, "balance_cents": balance})
        return balance


@dataclass(frozen=True)
class AbsentPlayer:
    """A player whose abandoned round the server completes (egm/server/abandon.py): the wallet receives
    the win; nothing is pushed for responsible gaming, the player being away."""

    account_id: int

    def win(self, conn: Connection, round_id: str, win_cents: int, now: int) -> None:
        post(conn, self.account_id, "win", win_cents, now, round_id=round_id)

    def settled(self, conn: Connection, now: int) -> None:
        """The round event (RoundService.abandon) tells any tab the player left open."""


@dataclass(frozen=True)
class TerminalSeat:
    """terminal_id: the terminal's name (X-Terminal-Id); account_id: its account (owner `terminal`);
    nonce: the request's verified nonce, claimed in the round's transaction (None: claimed already)."""

    terminal_id: str
    account_id: int
    nonce: Nonce | None = None

    def round_columns(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"cabinet_game_number": body["game_number"]}

    def admit(self, db: Database, conn: Connection) -> None:
        """Claim the request's nonce with what the request does (one commit); 401 replayed when used."""
        if self.nonce is not None:
            nonces.claim(db, conn, self.nonce)

    def refuse(self, conn: Connection, balance_cents: int, stake_cents: int, now: int) -> None:
        """The cabinet's credit meter, not the server, decides whether the player can pay."""

    def stake(self, conn: Connection, round_id: str, stake_cents: int, request_id: str, now: int) -> None:
        """Recorded on the round (stake_cents); the cabinet's coin_in meter takes it."""

    def win(self, conn: Connection, round_id: str, win_cents: int, now: int) -> None:
        """Recorded on the round (win_cents); the cabinet's coin_out meter (or hand pay) takes it."""

    def settled(self, conn: Connection, now: int) -> None:
        """No responsible-gaming push: the cabinet's venue rules apply."""

    def start_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]:
        return {"round_id": moved.round_id, "stake_cents": moved.stake_cents, **self._step(moved)}

    def decision_reply(self, conn: Connection, moved: Moved) -> dict[str, Any]:
        return self._step(moved)

    @staticmethod
    def _step(moved: Moved) -> dict[str, Any]:
        """The round at its new step; once settled, what the cabinet meters and records: the status
        (review: a hand pay, and why), the result code, the side-bet wins and the game's record."""
        reply = {"step_no": moved.step_no, "view": moved.round.view().to_json(),
                 "complete": moved.round.finished, "win_cents": None, "status": "open"}
        if (settled := moved.settled) is not None:
            reply.update(win_cents=settled.win_cents, status=settled.status,
                         hand_pay_reason=settled.hand_pay_reason, result_code=settled.result_code,
                         side_bet_wins_credits=settled.side_bet_wins_credits,
                         record=moved.round.to_record())
        return reply

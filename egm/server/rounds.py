"""The round lifecycle: start, decisions, settlement; each a single write transaction.

Start: lock the account, admit the seat (a terminal's nonce claimed), claim the request id, one open round per
account, the wager checked against the pay table (its sentence when refused), the seat's refusals (a player's
responsible-gaming check and balance), the draw (all the round's randomness, from the server's CTR_DRBG), the
stake (a player's debited), the round and its step 0 inserted; commit.

Decision: lock the account, admit the seat, claim the request id, lock the round (owner checked: anyone else's
round is "not found"), compare the step number the client saw (stale: 409 with the current view), apply the
decision through the game's own `decide` (DecisionRefused: 422 with the game's sentence, nothing written),
record the step; the last step settles the round in the same transaction. An exception in game code rolls
everything back: the round stays at its step, and its fault count goes up.

Players see `Round.view()` only; the record is served once the round is complete (`replay`).

The seat (egm/server/seats.py) is who plays: a player (the wallet pays, responsible gaming applies) or a
terminal (a cabinet: the server records stake and win, moves no money). Everything else is shared.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, and_, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from egm.games.base import Decision, DecisionRefused, Game, Round, Wager
from egm.play import rounds as engine
from egm.rng import Rng
from egm.server.db import Database
from egm.server.db.engine import per_dialect
from egm.server.db.schema import game_round, pool, round_step
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.idempotency import Key, Reply, reply, request_digest
from egm.server.live_rounds import LiveRounds
from egm.server.lobby import Lobby
from egm.server.seats import AbsentPlayer, Moved, Payee, PlayerSeat, Seat, Settled
from egm.server.sessions import Caller
from egm.server.wallet import balance_of, lock_account

ABANDON = "abandon"  # completed_by, and the request id of the steps the abandoned-round job takes

# The statements of every start and decision, built once (egm/server/db/engine.py, per_dialect)
THE_ROUND = game_round.c.id == bindparam("round_id")
OWN_ROUND = select(game_round).where(and_(THE_ROUND, game_round.c.account_id == bindparam("account_id")))
OWN_ROUND_LOCKED = OWN_ROUND.with_for_update()
OPEN_ROUND = select(game_round).where(and_(game_round.c.account_id == bindparam("account_id"),
                                           game_round.c.status == "open"))
LAST_NUMBER = select(func.max(game_round.c.number)).where(game_round.c.account_id == bindparam("account_id"))
NEW_ROUND, NEW_STEP = insert(game_round), insert(round_step)
ROUND_MOVED = update(game_round).where(THE_ROUND)  # SET: the columns its parameters name
POOLS = select(pool.c.name, pool.c.cents).where(and_(pool.c.account_id == bindparam("account_id"),
                                                     pool.c.game_id == bindparam("game_id")))


def _pool_upsert(insert_of: Any) -> Any:
    statement = insert_of(pool)
    return statement.on_conflict_do_update(index_elements=["account_id", "game_id", "name"],
                                           set_={"cents": statement.excluded.cents})


POOL_KEPT = per_dialect(_pool_upsert)


class HasAccount(Protocol):
    account_id: int


@dataclass
class RoundService:
    """rng_for_game: the stream game number n draws from (egm.rng.os_rng: the CTR_DRBG seeded from the
    OS, one per worker thread; seeded_rng only for tests)."""

    db: Database
    lobby: Lobby
    rng_for_game: Callable[[int], Rng]
    live: LiveRounds
    hub: Hub

    def player_seat(self, caller: Caller) -> PlayerSeat:
        return PlayerSeat(caller, self.hub)

    # --- start ---------------------------------------------------------------------------------------
    def start(self, seat: Seat, body: dict[str, Any], now: int) -> Reply:
        game = self._game(body["game_id"])
        wager = wager_of(game, body)
        stake_cents = wager.stake_credits * wager.denom_cents
        with self.db.write() as conn:
            balance = lock_account(conn, seat.account_id)
            seat.admit(self.db, conn)
            key = Key(self.db, conn, seat.account_id, body["request_id"])
            stored = key.claim(request_digest("start", body), now)
            if stored is not None:
                return stored
            if (open_row := self._open_round(conn, seat.account_id)) is not None:
                raise ApiError(409, "round_open", "Finish the round in progress before starting another.",
                               round_id=open_row.id, step_no=open_row.step_no,
                               view=self._round(open_row, self._game(open_row.game_id)).view().to_json())
            seat.refuse(conn, balance, stake_cents, now)
            pools = self._pools(conn, seat.account_id, game)
            number = 1 + (conn.execute(LAST_NUMBER, {"account_id": seat.account_id}).scalar() or 0)
            started = engine.start(game, wager, self.rng_for_game(number), number=number, pools_held=pools)
            round_, record = started.round, started.record["round"]
            round_id = str(uuid.uuid4())
            seat.stake(conn, round_id, stake_cents, body["request_id"], now)
            conn.execute(NEW_ROUND, dict(
                id=round_id, account_id=seat.account_id, number=number, game_id=game.game_id,
                paytable_id=started.record["paytable_id"], paytable_sha256=game.paytable.sha256,
                status="open", step_no=0, step=round_.step, wager=started.record["wager"],
                stake_cents=stake_cents, record=record, started_at=now, **seat.round_columns(body)))
            conn.execute(NEW_STEP, dict(round_id=round_id, step_no=0, request_id=body["request_id"],
                                        record=record, at=now))
            settled = self._settle_if_finished(conn, seat, round_id, game, round_, started.record, now)
            moved = Moved(round_id, 0, round_, stake_cents, settled)
            answer = key.store(reply(200, seat.start_reply(conn, moved)))
        if not round_.finished:
            self.live.keep(round_id, 0, round_)
        return answer

    # --- decisions -----------------------------------------------------------------------------------
    def decide(self, seat: Seat, round_id: str, body: dict[str, Any], now: int) -> Reply:
        try:
            return self._decide(seat, round_id, body, now)
        except (ApiError, DBAPIError):
            raise
        except Exception:  # game code failed: everything rolled back; the round stays at its step
            self._count_fault(seat, round_id)
            raise

    def _decide(self, seat: Seat, round_id: str, body: dict[str, Any], now: int) -> Reply:
        with self.db.write() as conn:
            lock_account(conn, seat.account_id)
            seat.admit(self.db, conn)
            key = Key(self.db, conn, seat.account_id, body["request_id"])
            stored = key.claim(request_digest(f"decide {round_id}", body), now)
            if stored is not None:
                return stored
            row = self._own_round(conn, seat, round_id, lock=True)
            game = self._game(row.game_id)
            if row.status != "open":
                raise ApiError(409, "round_complete", "This round is already over; start a new one.",
                               step_no=row.step_no)
            if body["step_no"] != row.step_no:
                view = self._round(row, game).view().to_json()
                raise ApiError(409, "stale_step", f"The round has moved on to step {row.step_no}; here it is "
                               "as it stands now.", step_no=row.step_no, view=view)
            asked = None if is_auto(body["decision"]) else decision_of(body["decision"])
            round_ = self.live.take(round_id, row.step_no) or game.restore(row.record)
            try:
                decision = asked or round_.reference_decision()
                round_.decide(decision)
            except DecisionRefused as exc:
                self.live.keep(round_id, row.step_no, round_)  # refused: the round did not change
                raise ApiError(422, "decision_refused", str(exc)) from None
            step_no = row.step_no + 1
            self._record_step(conn, round_id, step_no, body["request_id"], decision, round_, now)
            settled = self._settle_if_finished(conn, seat, round_id, game, round_, _header(row), now)
            moved = Moved(round_id, step_no, round_, row.stake_cents, settled)
            answer = key.store(reply(200, seat.decision_reply(conn, moved)))
        if not round_.finished:
            self.live.keep(round_id, step_no, round_)
        return answer

    # --- abandoned rounds (egm/server/abandon.py) ------------------------------------------------------
    def abandon(self, round_id: str, account_id: int, idle_since: int, now: int) -> dict[str, Any] | None:
        """Complete a player's abandoned round by the game's reference decisions and settle it, in one
        transaction; None when, under the locks, it is no longer open or was played after `idle_since`
        (another runner got there first, or the player came back). A fault in game code rolls it all
        back and is counted, as for a decision."""
        absent = AbsentPlayer(account_id)
        try:
            with self.db.write() as conn:
                lock_account(conn, account_id)
                row = conn.execute(select(game_round).where(game_round.c.id == round_id)
                                   .with_for_update()).first()
                last_step = conn.execute(select(func.max(round_step.c.at))
                                         .where(round_step.c.round_id == round_id)).scalar()
                if row is None or row.status != "open" or last_step > idle_since:
                    return None
                game = self._game(row.game_id)
                round_ = self.live.take(round_id, row.step_no) or game.restore(row.record)
                step_no = row.step_no
                while not round_.finished:
                    decision = round_.reference_decision()
                    round_.decide(decision)
                    step_no += 1
                    self._record_step(conn, round_id, step_no, ABANDON, decision, round_, now)
                settled = self._settle_if_finished(conn, absent, round_id, game, round_, _header(row), now,
                                                   completed_by=ABANDON)
                assert settled is not None  # the loop ran the round to its end
                self.hub.publish(conn, account_id, "round", {"round_id": round_id, "step_no": step_no,
                                                             "balance_cents": balance_of(conn, account_id)})
        except (ApiError, DBAPIError):
            raise
        except Exception:
            self._count_fault(absent, round_id)
            raise
        return {"round_id": round_id, "account_id": account_id, "game_id": row.game_id,
                "status": settled.status, "win_cents": settled.win_cents}

    @staticmethod
    def _record_step(conn: Connection, round_id: str, step_no: int, request_id: str, decision: Decision,
                     round_: Round, now: int) -> None:
        record = round_.to_record()
        conn.execute(NEW_STEP, dict(round_id=round_id, step_no=step_no, request_id=request_id,
                                    decision=decision.to_record(), record=record, at=now))
        conn.execute(ROUND_MOVED, dict(round_id=round_id, step_no=step_no, step=round_.step, record=record))

    def _count_fault(self, seat: HasAccount, round_id: str) -> None:
        with self.db.write() as conn:
            mine = and_(game_round.c.id == round_id, game_round.c.account_id == seat.account_id)
            conn.execute(update(game_round).where(mine).values(faults=game_round.c.faults + 1))

    def _settle_if_finished(self, conn: Connection, seat: Payee, round_id: str, game: Game,
                            round_: Round, header: dict[str, Any], now: int,
                            completed_by: str = "player") -> Settled | None:
        """Settle a finished round through the round engine (the cabinet's settlement): the win is
        credited to the seat unless the pay table's maximum win or the hand-pay limit sends it to
        review; the game's pools are kept per (account, game). `header`: the round's game_id,
        paytable_id, number and wager (the engine's start record without the round); completed_by:
        whose decisions completed it ("player", or ABANDON)."""
        if not round_.finished:
            return None
        settlement = engine.settle(
            game, round_, {**header, "round": round_.to_record()}, credits_cents=0,  # no credit limit
            hand_pay_limit_cents=self.lobby.hand_pay_limit_cents,
            pools_held=self._pools(conn, seat.account_id, game), pool_meters={}, scoreboard={})
        if settlement.win_cents and not settlement.hand_paid:
            seat.win(conn, round_id, settlement.win_cents, now)
        for name, cents in (settlement.pools_after or {}).items():
            conn.execute(POOL_KEPT(self.db), dict(account_id=seat.account_id, game_id=game.game_id, name=name,
                                                  cents=cents))
        status = "review" if settlement.hand_paid else "complete"
        outcome = settlement.recall_entry["outcome"]
        conn.execute(ROUND_MOVED, dict(
            round_id=round_id, status=status, win_cents=settlement.win_cents,
            result_code=outcome["result_code"], hand_pay_reason=settlement.why or None, outcome=outcome,
            completed_at=now, completed_by=completed_by))
        seat.settled(conn, now)
        return Settled(settlement.win_cents, status, settlement.why, outcome["result_code"],
                       settlement.side_bet_wins_credits)

    # --- reading -------------------------------------------------------------------------------------
    def show(self, caller: HasAccount, round_id: str) -> dict[str, Any]:
        """GET /api/v1/rounds/{id}: the round as its owner may see it now."""
        with self.db.read() as conn:
            row = self._own_round(conn, caller, round_id, lock=False)
        return self.summary(row, self._game(row.game_id))

    def summary(self, row: Any, game: Game) -> dict[str, Any]:
        return {"round_id": row.id, "game_id": row.game_id, "status": row.status, "step_no": row.step_no,
                "view": self._round(row, game).view().to_json(), "complete": row.status != "open",
                "stake_cents": row.stake_cents, "win_cents": row.win_cents}

    def replay(self, caller: HasAccount, round_id: str) -> dict[str, Any]:
        """GET /api/v1/rounds/{id}/replay: the full record and every step, for a completed round only."""
        with self.db.read() as conn:
            row = self._own_round(conn, caller, round_id, lock=False)
            if row.status == "open":
                raise ApiError(409, "round_open", "A replay is served only once the round is complete.")
            steps = conn.execute(select(round_step).where(round_step.c.round_id == round_id)
                                 .order_by(round_step.c.step_no)).all()
        return {"round_id": row.id, "number": row.number, "game_id": row.game_id,
                "paytable_id": row.paytable_id, "paytable_sha256": row.paytable_sha256, "status": row.status,
                "wager": row.wager,
                "stake_cents": row.stake_cents, "win_cents": row.win_cents, "result_code": row.result_code,
                "hand_pay_reason": row.hand_pay_reason, "completed_by": row.completed_by,
                "record": row.record, "outcome": row.outcome,
                "steps": [{"step_no": s.step_no, "request_id": s.request_id, "decision": s.decision}
                          for s in steps]}

    def open_round(self, conn: Connection, caller: HasAccount) -> dict[str, Any] | None:
        """The caller's open round as GET /api/v1/session shows it (a client resumes at its step)."""
        row = self._open_round(conn, caller.account_id)
        return None if row is None else self.summary(row, self._game(row.game_id))

    # --- helpers -------------------------------------------------------------------------------------
    def _game(self, game_id: str) -> Game:
        game = self.lobby.games.get(game_id)
        if game is None:
            raise ApiError(404, "unknown_game", f"There is no game '{game_id}' on this server; choose one of "
                           f"{', '.join(self.lobby.games)}.")
        return game

    def _round(self, row: Any, game: Game) -> Round:
        """The live round at the row's step: the cached one (taken and put back), or restored."""
        round_ = self.live.take(row.id, row.step_no) or game.restore(row.record)
        if row.status == "open":
            self.live.keep(row.id, row.step_no, round_)
        return round_

    @staticmethod
    def _own_round(conn: Connection, caller: HasAccount, round_id: str, *, lock: bool) -> Any:
        if not is_round_id(round_id):  # not even a round id (e.g. a NUL byte, which PostgreSQL refuses)
            raise ApiError(404, "no_such_round", "You have no such round.")
        row = conn.execute(OWN_ROUND_LOCKED if lock else OWN_ROUND,
                           {"round_id": round_id, "account_id": caller.account_id}).first()
        if row is None:  # another player's round is not found either: ids reveal nothing
            raise ApiError(404, "no_such_round", f"You have no round '{round_id}'.")
        return row

    @staticmethod
    def _open_round(conn: Connection, account_id: int) -> Any:
        return conn.execute(OPEN_ROUND, {"account_id": account_id}).first()

    @staticmethod
    def _pools(conn: Connection, account_id: int, game: Game) -> dict[str, int]:
        """The player's own pools for this game (a fresh player's start at the game's seed)."""
        rows = conn.execute(POOLS, {"account_id": account_id, "game_id": game.game_id}).all()
        return {r.name: int(r.cents) for r in rows if r.name in game.pool_names}


def _header(row: Any) -> dict[str, Any]:
    """The engine's start record of a round row, without the round (what settling needs)."""
    return {"game_id": row.game_id, "paytable_id": row.paytable_id, "number": row.number, "wager": row.wager}


def wager_of(game: Game, body: dict[str, Any]) -> Wager:
    """The wager a start request asks for, checked by the round engine against the pay table (every
    denomination and bet it offers is offered online), or 422 with the engine's sentence."""
    offer = game.wager_offer()
    try:
        wager = engine.requested_wager(game, body["denom_cents"], body["bet_credits"], body["side_bets"])
        return engine.check_wager(game, wager, denom_cents=wager.denom_cents,
                                  denominations_cents=offer.denominations_cents,
                                  bet_levels=offer.bets_credits)
    except engine.WagerRefused as exc:
        sentence = str(exc)
        raise ApiError(422, "wager_refused", f"{sentence[0].upper()}{sentence[1:].rstrip('.')}.") from None


def is_round_id(text: str) -> bool:
    """A round id as the server makes them: a UUID's canonical text."""
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def is_auto(data: Any) -> bool:
    """{"kind": "auto"}: the game's reference decision for this one step (never a whole round)."""
    return isinstance(data, dict) and data.get("kind") == "auto"


def decision_of(data: Any) -> Decision:
    """A decision as the game's own JSON: {"kind": ..., "args": {...}}."""
    if not (isinstance(data, dict) and isinstance(data.get("kind"), str)
            and isinstance(data.get("args", {}), dict) and set(data) <= {"kind", "args"}):
        raise ApiError(400, "malformed", 'A decision is {"kind": "...", "args": {...}} (the game\'s own '
                       'decision), or {"kind": "auto"} for the reference decision.')
    return Decision.from_record(data)

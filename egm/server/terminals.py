"""Terminals: cabinets that play on the server as thin clients (seed 004, [0021]; issue 30).

A terminal is registered with its Ed25519 public key (`egm server terminal add`) and gets an account
(owner `terminal`) that never holds money: its rounds record their stake and win, and the cabinet's
meters are the money of record. Every request it sends is signed (egm/terminal_link/signing.py); the
server checks the signature, the 60 s window, and that the nonce is new (the nonce table: claimed in
the request's own transaction, or burned in one of its own when the request is refused, so even a
refused request cannot be replayed; egm/server/nonces.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import Connection, bindparam, case, func, insert, select
from sqlalchemy.exc import IntegrityError

from egm.server import nonces
from egm.server.db import Database
from egm.server.db.schema import account, game_round, terminal
from egm.server.errors import ApiError
from egm.server.lobby import Lobby
from egm.server.nonces import Nonce
from egm.server.seats import TerminalSeat
from egm.terminal_link.signing import (
    TERMINAL_ID,
    SignatureRefused,
    key_id,
    load_public_key,
    read_headers,
    sign_catalogue,
    verify_request,
)

NAMED = select(terminal).where(terminal.c.name == bindparam("name"))
REGISTRATION_KEPT_S = 30  # a change made to a terminal's row by hand is seen within this


@dataclass(frozen=True)
class Registration:
    """A terminal's row as read, its public key parsed. read_at: the server's clock then."""

    row_id: int
    name: str
    account_id: int
    public_key: Ed25519PublicKey
    read_at: int


class Registrations:
    """The registered terminals as this server process last read them, one per process. A registration
    never changes through the server (a new key is a new terminal id), so a row read is kept for
    REGISTRATION_KEPT_S: a signed request then costs its verification, not a read transaction of its
    own (docs/cabinet-on-server.md, Figures). An unknown id is read each time and never kept."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._kept: dict[str, Registration] = {}

    def of(self, name: str, now: int) -> Registration | None:
        kept = self._kept.get(name)
        if kept is not None and 0 <= now - kept.read_at < REGISTRATION_KEPT_S:
            return kept
        with self._db.read() as conn:
            row = conn.execute(NAMED, {"name": name}).first()
        if row is None:
            self._kept.pop(name, None)
            return None
        kept = Registration(row.id, row.name, row.account_id, load_public_key(row.public_key.encode()), now)
        self._kept[name] = kept
        return kept


def add_terminal(db: Database, name: str, public_key_pem: str, now: int) -> dict[str, Any]:
    """Register a terminal with its own account; 400 for a bad name or key, 409 when the name is taken."""
    if not TERMINAL_ID.fullmatch(name):
        raise ApiError(400, "bad_terminal_id", f"A terminal id is 1 to 64 letters, digits, dots, dashes or "
                       f"underscores, not '{name}'.")
    key = load_public_key(public_key_pem.encode())  # RomError with a sentence: not an Ed25519 PEM key
    taken = ApiError(409, "terminal_taken", f"The terminal id '{name}' is taken; choose another.")
    try:
        with db.write() as conn:
            if conn.execute(select(terminal.c.id).where(terminal.c.name == name)).first() is not None:
                raise taken
            account_id = conn.execute(insert(account).values(owner="terminal")
                                      .returning(account.c.id)).scalar_one()
            conn.execute(insert(terminal).values(name=name, public_key=public_key_pem, account_id=account_id,
                                                 created_at=now))
    except IntegrityError:  # added by a concurrent command between the check and the insert
        raise taken from None
    return {"terminal_id": name, "account_id": account_id, "key_id": key_id(key)}


def authenticate(registrations: Registrations, db: Database, headers: Mapping[str, str], method: str,
                 path: str, body: bytes, now: int, *, claim_now: bool = True) -> TerminalSeat:
    """The terminal that signed this request, or 401 (unsigned, bad_signature, stale_request,
    replayed). claim_now: the nonce is claimed and committed here, before the request is served;
    otherwise the seat carries it, and the round engine claims it in the request's own transaction
    (egm/server/nonces.py: the route burns it when the request is refused)."""
    try:
        signed = read_headers(headers)
        known = registrations.of(signed.terminal_id, now)
        if known is None:
            raise SignatureRefused(f"There is no terminal '{signed.terminal_id}' on this server; register it "
                                   "with 'egm server terminal add'.")
        verify_request(known.public_key, signed, method, path, body, now)
    except SignatureRefused as exc:
        raise ApiError(401, exc.code, str(exc)) from None
    nonce = Nonce(known.row_id, known.name, signed.nonce, signed.timestamp, now)
    if claim_now:
        with db.write() as conn:
            nonces.claim(db, conn, nonce)
        return TerminalSeat(known.name, known.account_id)
    return TerminalSeat(known.name, known.account_id, nonce)


def catalogue(lobby: Lobby, terminal_id: str, key: Ed25519PrivateKey | None) -> dict[str, Any]:
    """GET /api/v1/terminal/catalogue: the games of GET /api/v1/games, signed by the server's catalogue
    key when one is configured (a cabinet then offers a pay table its ROM does not hold)."""
    games = lobby.listing()
    signed_by, signature = sign_catalogue(key, games) if key is not None else (None, None)
    return {"terminal_id": terminal_id, "games": games, "signed_by": signed_by, "signature": signature}


def terminal_meters(conn: Connection, seat: TerminalSeat) -> dict[str, Any]:
    """GET /api/v1/terminal/meters: sums over the terminal's rounds. A round counts as played, and its
    stake as coin in, from its start (as on the cabinet); coin out is the wins credited (a round in
    review is a hand pay, which the cabinet meters as jackpot, not coin out)."""
    credited = case((game_round.c.status == "complete", game_round.c.win_cents), else_=0)
    rows = conn.execute(
        select(game_round.c.game_id, func.count().label("played"),
               func.sum(game_round.c.stake_cents).label("coin_in"), func.sum(credited).label("coin_out"),
               func.sum(case((game_round.c.status == "open", 1), else_=0)).label("open"))
        .where(game_round.c.account_id == seat.account_id).group_by(game_round.c.game_id)
        .order_by(game_round.c.game_id)
    ).all()
    games = {r.game_id: {"games_played": int(r.played), "coin_in_cents": int(r.coin_in or 0),
                         "coin_out_cents": int(r.coin_out or 0)} for r in rows}
    return {"terminal_id": seat.terminal_id,
            **{name: sum(g[name] for g in games.values())
               for name in ("games_played", "coin_in_cents", "coin_out_cents")},
            "open_rounds": sum(int(r.open) for r in rows), "games": games}


def seat_of(db: Database, name: str) -> TerminalSeat | None:
    """A registered terminal by its id (for the audit's reconciliation), or None."""
    with db.read() as conn:
        row = conn.execute(select(terminal.c.name, terminal.c.account_id)
                           .where(terminal.c.name == name)).first()
    return None if row is None else TerminalSeat(row.name, row.account_id)

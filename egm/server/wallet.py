"""The wallet: integer cents in an append-only ledger (deposit, withdraw, stake, win, refund, adjust).

Every change of a balance is one `post`: the account row changes and one wallet_tx row records the
amount and the balance after, in the caller's transaction. A balance never goes below zero: the code
refuses first (402, with a sentence), and the database's CHECK constraint stands behind it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from egm.money import format_cents
from egm.server.db import Database
from egm.server.db.schema import account, wallet_tx
from egm.server.errors import ApiError
from egm.server.events import Hub
from egm.server.idempotency import Key, Reply, reply, request_digest
from egm.server.sessions import Caller

MAX_AMOUNT_CENTS = 100_000_000  # one deposit or withdrawal: at most 1,000,000.00
TX_PAGE = 100


THE_ACCOUNT = account.c.id == bindparam("account_id")
BALANCE = select(account.c.balance_cents).where(THE_ACCOUNT)
LOCK = BALANCE.with_for_update(key_share=True)
MOVE = (update(account).where(THE_ACCOUNT)
        .values(balance_cents=account.c.balance_cents + bindparam("amount_cents"),
                version=account.c.version + 1)
        .returning(account.c.balance_cents))
LEDGER = insert(wallet_tx)


def lock_account(conn: Connection, account_id: int) -> int:
    """Lock the account row for this transaction, first of all (lock order: account, then the request
    key, round and pool); its balance. FOR NO KEY UPDATE: the rows that reference the account (the
    key, the ledger) take KEY SHARE locks on it, which this lock lets through, so no deadlock."""
    return int(conn.execute(LOCK, {"account_id": account_id}).scalar_one())


def post(conn: Connection, account_id: int, kind: str, amount_cents: int, now: int, *,
         round_id: str | None = None, request_id: str | None = None) -> int:
    """Move `amount_cents` (+ credits the account) and record it; the balance after."""
    balance = conn.execute(MOVE, {"account_id": account_id, "amount_cents": amount_cents}).scalar_one()
    conn.execute(LEDGER, {"account_id": account_id, "kind": kind, "amount_cents": amount_cents,
                          "balance_after": balance, "round_id": round_id, "request_id": request_id,
                          "at": now})
    return int(balance)


def check_amount(amount_cents: int) -> None:
    if not 0 < amount_cents <= MAX_AMOUNT_CENTS:
        raise ApiError(400, "bad_amount", f"An amount is a whole number of cents from 1 to "
                       f"{MAX_AMOUNT_CENTS:,} ({format_cents(MAX_AMOUNT_CENTS)}), not {amount_cents}.")


def move(db: Database, hub: Hub, caller: Caller, kind: str, body: dict[str, Any], now: int,
         refuse: Any = None) -> Reply:
    """A deposit or a withdrawal, exactly once per request_id. `refuse(conn, amount)` may refuse it
    (the responsible-gaming deposit check), inside the transaction, after the account is locked."""
    amount = int(body["amount_cents"])
    check_amount(amount)
    with db.write() as conn:
        balance = lock_account(conn, caller.account_id)
        key = Key(db, conn, caller.account_id, body["request_id"])
        stored = key.claim(request_digest(kind, body), now)
        if stored is not None:
            return stored
        if refuse is not None and (refusal := refuse(conn, amount)) is not None:
            raise refusal
        if kind == "withdraw" and amount > balance:
            raise ApiError(402, "insufficient_funds", f"A withdrawal of {format_cents(amount)} is more than "
                           f"the balance of {format_cents(balance)}; nothing was withdrawn.")
        signed = amount if kind == "deposit" else -amount
        balance = post(conn, caller.account_id, kind, signed, now, request_id=body["request_id"])
        hub.publish(conn, caller.account_id, "balance", {"balance_cents": balance})
        return key.store(reply(200, {"request_id": body["request_id"], "kind": kind, "amount_cents": amount,
                                     "balance_cents": balance}))


def balance_of(conn: Connection, account_id: int) -> int:
    return int(conn.execute(BALANCE, {"account_id": account_id}).scalar_one())


def transactions(conn: Connection, account_id: int, before_id: int | None = None) -> list[dict[str, Any]]:
    """The account's ledger rows, newest first, a page at a time (before_id: the last row seen)."""
    query = select(wallet_tx).where(wallet_tx.c.account_id == account_id)
    if before_id is not None:
        query = query.where(wallet_tx.c.id < before_id)
    rows = conn.execute(query.order_by(wallet_tx.c.id.desc()).limit(TX_PAGE)).all()
    return [{"id": r.id, "kind": r.kind, "amount_cents": r.amount_cents, "balance_after": r.balance_after,
             "round_id": r.round_id, "request_id": r.request_id, "at": r.at} for r in rows]

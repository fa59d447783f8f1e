"""POST /api/v1/wallet/deposit and /withdraw ({request_id, amount_cents}); GET /api/v1/wallet/transactions."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from egm.server import rg, wallet
from egm.server.api.deps import GetCaller, PostCaller, server_of, stored
from egm.server.api.models import Money, RowId

router = APIRouter(prefix="/api/v1/wallet")


@router.post("/deposit")
def deposit(body: Money, request: Request, who: PostCaller) -> Response:
    server = server_of(request)
    db, _, _ = server.require_ready()
    now = server.settings.now()

    def refuse(conn: Any, amount: int) -> Any:
        return rg.refuse_deposit(conn, who.player_id, amount, now)

    return stored(wallet.move(db, server.hub, who, "deposit", body.model_dump(), now, refuse))


@router.post("/withdraw")
def withdraw(body: Money, request: Request, who: PostCaller) -> Response:
    server = server_of(request)
    db, _, _ = server.require_ready()
    return stored(wallet.move(db, server.hub, who, "withdraw", body.model_dump(), server.settings.now()))


@router.get("/transactions")
def transactions(request: Request, who: GetCaller, before_id: RowId | None = None) -> Any:
    db, _, _ = server_of(request).require_ready()
    with db.read() as conn:
        return {"balance_cents": wallet.balance_of(conn, who.account_id),
                "transactions": wallet.transactions(conn, who.account_id, before_id)}

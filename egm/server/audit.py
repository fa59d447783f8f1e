"""`egm server audit`: the books, recomputed from what is recorded.

* Every balance equals the sum of its account's ledger rows, and each row's balance_after is the
  running sum (the ledger is complete and in order).
* Every round's stake equals its wager's stake (credits x denomination) and its ledger stake row.
* Every settled round's win equals the win its own record gives when the game restores it, and a
  credited win appears once in the ledger (a round in review has none yet).
* A hand pay (a round settled to review) is resolved only by an operator's audit record: paid (the
  round complete, its win credited) or voided (its stake refunded, nothing else); a refund belongs to
  a voided round only (egm/server/hand_pays.py).
* A terminal's account holds no money: its balance is zero, and its rounds (stake and win recorded on
  the round, the cabinet's meters being the money of record) have no ledger rows.

The reconciliation of a terminal's totals with its cabinet's meters is egm/server/reconcile.py.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select

from egm.games.base import Wager
from egm.server.db import Database
from egm.server.db.schema import account, game_round, wallet_tx
from egm.server.hand_pays import PAID, VOIDED, decisions
from egm.server.lobby import Lobby


def audit_books(db: Database, lobby: Lobby) -> dict[str, Any]:
    problems: list[str] = []
    with db.read() as conn:
        accounts = conn.execute(select(account.c.id, account.c.owner, account.c.balance_cents)).all()
        balances = {r.id: r.balance_cents for r in accounts}
        terminals = {r.id for r in accounts if r.owner == "terminal"}
        running: dict[int, int] = defaultdict(int)
        by_round: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for tx in conn.execute(select(wallet_tx).order_by(wallet_tx.c.id)):
            running[tx.account_id] += tx.amount_cents
            if tx.balance_after != running[tx.account_id]:
                problems.append(f"ledger row {tx.id}: balance after {tx.balance_after} but the rows before "
                                f"sum to {running[tx.account_id]}")
            if tx.round_id:
                by_round[tx.round_id][tx.kind] += tx.amount_cents
        for account_id, balance in balances.items():
            if balance != running[account_id]:
                problems.append(f"account {account_id}: balance {balance} but its ledger sums to "
                                f"{running[account_id]}")
            if account_id in terminals and (balance or running[account_id]):
                problems.append(f"account {account_id}: a terminal's, which holds no money, but its balance "
                                f"is {balance} and its ledger sums to {running[account_id]}")
        rounds = conn.execute(select(game_round)).all()
        resolved = decisions(conn)
    for row in rounds:
        problems += _round_problems(row, by_round[row.id], lobby, in_wallet=row.account_id not in terminals)
        problems += _hand_pay_problems(row, by_round[row.id], resolved.get(row.id))
    return {"balanced": not problems, "accounts": len(balances), "rounds": len(rounds),
            "ledger_total_cents": sum(running.values()), "problems": problems}


def _round_problems(row: Any, ledger: dict[str, int], lobby: Lobby, *, in_wallet: bool) -> list[str]:
    """in_wallet: a player's round (stake and win in the ledger); else a terminal's (none there)."""
    found = []
    try:
        wager = Wager.from_record(row.wager)
    except ValueError as exc:
        return [f"round {row.id}: {exc}"]
    wagered = wager.stake_credits * wager.denom_cents
    if row.stake_cents != wagered or -ledger["stake"] != (row.stake_cents if in_wallet else 0):
        found.append(f"round {row.id}: stake {row.stake_cents}, wager {wagered}, ledger {-ledger['stake']}")
    credited = ledger["win"]
    if row.status == "open" or row.status == "voided":
        if credited:
            found.append(f"round {row.id}: {row.status} but {credited} was credited")
        return found
    game = lobby.games.get(row.game_id)
    if game is None:
        return [*found, f"round {row.id}: its game {row.game_id} is not installed, so its win is unchecked"]
    try:
        round_ = game.restore(row.record)
    except Exception as exc:  # a damaged record is a finding, not a crash of the auditor
        return [*found, f"round {row.id}: its record does not restore ({type(exc).__name__}: {exc})"]
    won = round_.outcome().win_credits * wager.denom_cents if round_.finished else None
    if won != row.win_cents:
        found.append(f"round {row.id}: win {row.win_cents} recorded but its record gives {won}")
    expected_credit = row.win_cents if row.status == "complete" and in_wallet else 0
    if credited != expected_credit:
        found.append(f"round {row.id}: {row.status} with win {row.win_cents} but {credited} credited")
    return found


def _hand_pay_problems(row: Any, ledger: dict[str, int], decision: dict[str, Any] | None) -> list[str]:
    """A refund only for a voided round (its stake), and an operator's record for every hand pay resolved."""
    found = []
    refund = row.stake_cents if row.status == "voided" else 0
    if ledger["refund"] != refund:
        found.append(f"round {row.id}: {row.status} with {ledger['refund']} refunded (expected {refund})")
    if decision is None:
        if row.status == "voided" or (row.status == "complete" and row.hand_pay_reason):
            found.append(f"round {row.id}: a hand pay {'voided' if row.status == 'voided' else 'credited'} "
                         "without an operator's record")
        return found
    expected = {PAID: "complete", VOIDED: "voided"}[decision["kind"]]
    if not row.hand_pay_reason or row.status != expected:
        found.append(f"round {row.id}: {row.status}, but an operator's record says {decision['kind']} "
                     f"by {decision['by']}")
    elif decision["kind"] == PAID and decision["win_cents"] != row.win_cents:
        found.append(f"round {row.id}: paid {decision['win_cents']} by {decision['by']} but its win is "
                     f"{row.win_cents}")
    return found

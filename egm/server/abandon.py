"""Abandoned rounds (design section 3; UKGC RTS 10): a player's round left open past their jurisdiction's
`[online] abandoned_round_days`, counted from its last step, is completed by the game's own reference
decisions (the HOUSE WAY / AUTO decision of each step) and settled as any round is: the win credited to
the player's wallet (or the round sent to review, a hand pay) in the same transaction, the round marked
`completed_by` "abandon". The rules pages say so (egm/server/lobby.py).

Each round is its own transaction, with the account and the round locked and the round checked open and
idle again under the lock, so several runners (every server process runs the job, and an operator may
run `egm server abandon` from cron) never complete a round twice.

A terminal's round is left alone: its cabinet holds the round in its wager memory and resumes it after a
power cut or an outage; the cabinet's meters are the money of record (egm/server/terminals.py).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import and_, func, select

from egm.server.db.schema import account, game_round, player, round_step
from egm.server.rg import rules_of
from egm.server.rounds import RoundService

log = logging.getLogger("egm.server")
DAY_S = 24 * 60 * 60


def abandon_rounds(rounds: RoundService, now: int) -> dict[str, Any]:
    """Complete every abandoned round: {"completed": [{round_id, account_id, game_id, status, win_cents}],
    "failed": [{round_id, error}]} (a round whose game code fails stays open, its fault counted)."""
    completed, failed = [], []
    for round_id, account_id, idle_since in _due(rounds, now):
        try:
            done = rounds.abandon(round_id, account_id, idle_since, now)
        except Exception as exc:  # one round's failure must not stop the others
            log.exception("abandoned round %s: not completed", round_id)
            failed.append({"round_id": round_id, "error": f"{type(exc).__name__}: {exc}"})
            continue
        if done is not None:
            completed.append(done)
    return {"completed": completed, "failed": failed}


def _due(rounds: RoundService, now: int) -> list[tuple[str, int, int]]:
    """(round id, account id, the latest last step that counts as abandoned) of each player's open round
    idle for longer than their jurisdiction allows."""
    last_step = func.max(round_step.c.at).label("last_step")
    query = (select(game_round.c.id, game_round.c.account_id, player.c.jurisdiction, last_step)
             .join(account, account.c.id == game_round.c.account_id)
             .join(player, player.c.id == account.c.player_id)
             .join(round_step, round_step.c.round_id == game_round.c.id)
             .where(and_(game_round.c.status == "open", account.c.owner == "player"))
             .group_by(game_round.c.id, game_round.c.account_id, player.c.jurisdiction))
    with rounds.db.read() as conn:
        rows = conn.execute(query).all()
    days = {name: rules_of(name).abandoned_round_days for name in {r.jurisdiction for r in rows}}
    due = []
    for row in rows:
        idle_since = now - days[row.jurisdiction] * DAY_S
        if row.last_step <= idle_since:
            due.append((row.id, row.account_id, idle_since))
    return due

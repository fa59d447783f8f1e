"""Which sounds a change of cabinet state calls for: the display plays them, the cabinet never does.

>>> cues({"state": "attract"}, {"state": "tilt.maindoor"})
['tilt']
>>> cues({"game": {"step": "designate"}}, {"game": {"step": "set"}})
['deal']
"""

from __future__ import annotations

from egm.video import snap

ALARM_STATES = ("tilt", "handpay")


def cues(before: snap.Snapshot, after: snap.Snapshot) -> list[str]:
    out: list[str] = []
    was, now = snap.state(before), snap.state(after)
    if now != was and now.startswith(ALARM_STATES):
        out.append("tilt")
    step = snap.table(after).get("step")
    if step and (step != snap.table(before).get("step") or snap.game_id(after) != snap.game_id(before)):
        out.append("deal")
    outcome = after.get("last_outcome") or {}
    if outcome and outcome != before.get("last_outcome") and outcome.get("win_cents", 0) > 0:
        view = snap.view(after)
        out.append("jackpot" if view is not None and view.pool_won else "win")
    return out

"""Property's turns played out on the board: the events since the customer's last decision (the view's
`recent`: the customer's own roll and move, then every machine turn) are shown one a tick
(egm/video/machine_move.py): the token walks along the board to its space, the space is ringed, and
what happened there (a purchase, a rent, a card) is said over the board. Part way through, the table is
the round's view with the events not yet shown taken back: their log lines, the cash after them
(`cash_after` of the last event shown), the titles they bought, the buildings, mortgages and
bankruptcies they made, the card they drew. One tick after the last, the table is the round's own.

>>> view = {"recent": [{"seat": 1, "kind": "move", "from": 3, "to": 8, "cash_after": [1500, 1500]},
...                    {"seat": 1, "kind": "buy", "space": 8, "cash_after": [1500, 1400]}],
...         "log": [{"seat": 0, "kind": "roll"}, {"seat": 1, "kind": "move"}, {"seat": 1, "kind": "buy"}],
...         "cash_before": [1500, 1500], "owner": [-1] * 8 + [1], "houses": [0] * 9, "mortgaged": [0] * 9,
...         "seats": [{"cash": 1500, "position": 3, "bankrupt": False},
...                   {"cash": 1400, "position": 8, "bankrupt": False}]}
>>> [(s["cash"], s["position"]) for s in staged(view, 0)["seats"]], staged(view, 0)["owner"][8]
([(1500, 3), (1500, 3)], -1)
>>> [(s["cash"], s["position"]) for s in staged(view, 2)["seats"]], len(staged(view, 1)["log"])
([(1500, 3), (1400, 8)], 2)
>>> walked(view["recent"][0], 0.25), walked(view["recent"][0], 0.7)
(5, 8)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from egm.video.machine_move import Piece

BOARD_SPACES = 40
WALK = 0.6  # the token reaches its space in the first 60% of its tick (then the space is ringed)


def event_space(event: Mapping[str, Any]) -> int | None:
    """The space an event happens on: where a move ends, the space bought or paid for; None for a
    roll or a payment off the board."""
    where = event.get("to") if event["kind"] in ("move", "jail") else event.get("space")
    return where if isinstance(where, int) and 0 <= where < BOARD_SPACES else None


def pieces(view: Mapping[str, Any]) -> list[Piece]:
    """One piece per event since the customer's last decision."""
    return [Piece(index, event_space(event)) for index, event in enumerate(view.get("recent") or [])]


def walked(event: Mapping[str, Any], progress: float) -> int:
    """Where a moving token stands `progress` of the way through its tick (a jail move jumps)."""
    if event["kind"] != "move":
        return int(event["to"])
    distance = (event["to"] - event["from"]) % BOARD_SPACES
    return (event["from"] + min(distance, round(distance * progress / WALK))) % BOARD_SPACES


def staged(view: Mapping[str, Any], shown: int, progress: float = 1.0) -> dict[str, Any]:
    """The table with only the first `shown` recent events made (the newest `progress` into its tick),
    while they play out: no decision is asked and no result shown yet."""
    recent = list(view.get("recent") or [])
    if not recent:
        return dict(view)
    done, hidden = recent[:shown], recent[shown:]
    log = list(view.get("log") or [])
    log = log[:len(log) - len(hidden)] if len(hidden) < len(log) else done
    cash = done[-1]["cash_after"] if done else view.get("cash_before")
    seats = [dict(seat) for seat in view["seats"]]
    for seat, info in enumerate(seats):
        moves = [e for e in recent if e["seat"] == seat and e["kind"] in ("move", "jail") and "to" in e]
        made = [e for e in done if e["seat"] == seat and e["kind"] in ("move", "jail") and "to" in e]
        if made:
            newest = made[-1] is done[-1]
            info["position"] = walked(made[-1], progress) if newest else made[-1]["to"]
        elif moves:
            info["position"] = moves[0]["from"]
        if cash is not None:
            info["cash"] = cash[seat]
    owner, houses = list(view["owner"]), list(view["houses"])
    mortgaged = list(view["mortgaged"])
    for event in reversed(hidden):  # taken back newest first
        kind, space = event["kind"], event.get("space")
        if kind == "buy" or (kind == "auction" and event.get("lot") == "property"
                             and event.get("winner") is not None):
            owner[space] = -1
        elif kind == "build":
            houses[space] -= 1
        elif kind == "sell_building":
            houses[space] += 1
        elif kind in ("mortgage", "unmortgage") and not event.get("interest"):
            mortgaged[space] = kind == "unmortgage"
        elif kind == "bankrupt":
            seats[event["seat"]]["bankrupt"] = False
    card = next((e for e in reversed(done) if e["kind"] == "card" and "text" in e), None)
    return {**view, "log": log, "seats": seats, "owner": owner, "houses": houses, "mortgaged": mortgaged,
            "last_card": [card["deck"], card["text"]] if card else None, "waiting": None, "decision": "",
            "result": None, "final": None}

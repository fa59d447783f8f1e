"""The cabinet's state machine as tables a reader can take in at a glance, and the diagram drawn from them.

`state_table` and `transition_table` are the single source: the Cabinet builds its `transitions`
machine from them (adding the conditions), and `state_diagram()` renders them as mermaid for
docs/state-diagram.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from transitions.extensions.nesting import HierarchicalMachine, NestedState

from egm.events import Door
from egm.games import game_class

# Tilts in priority order: the first standing one is the state shown.
TILTS = ("ramerror", "romerror", "accountingerror", "maindoor", "logicdoor", "cashboxdoor", "devicefault",
         "gameserver")
TILT_NAMES = {  # the names reported to the outside (autoplay JSON, snapshot)
    "ramerror": "ram_error",
    "romerror": "rom_error",
    "accountingerror": "accounting_error",
    "maindoor": "main_door_open",
    "logicdoor": "logic_door_open",
    "cashboxdoor": "cash_box_door_open",
    "devicefault": "device_fault",
    "gameserver": "game_server_offline",  # a round waited on the game server too long
}
DOOR_TILTS = {Door.MAIN: "maindoor", Door.LOGIC: "logicdoor", Door.CASH_BOX: "cashboxdoor"}
RESUMABLE_FROM = ["selftest", "tilt", "audit"]  # where `_settle` may move the machine from
TILTABLE_FROM = ["selftest", "attract", "game", "cashout", "handpay", "tilt", "audit"]


class CabinetState(NestedState):
    separator = "."  # game steps may contain underscores


class CabinetMachine(HierarchicalMachine):
    state_cls = CabinetState


def state_table(steps_by_game: Mapping[str, Sequence[str]]) -> list[Any]:
    """The cabinet's states; each game's steps are nested under game.<game id>."""
    return [
        "powerup",
        "selftest",
        "attract",
        {"name": "game", "children": [{"name": g, "children": list(s)} for g, s in steps_by_game.items()]},
        "cashout",
        "handpay",
        {"name": "tilt", "children": list(TILTS)},
        "audit",
        "ramclear",
    ]


def transition_table(steps_by_game: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """Every allowed move: trigger, source(s), destination (conditions are added by the Cabinet)."""
    table: list[dict[str, Any]] = [
        {"trigger": "power_on", "source": "powerup", "dest": "selftest"},
        {"trigger": "idle", "source": RESUMABLE_FROM, "dest": "attract"},
        {"trigger": "game_over", "source": "game", "dest": "attract"},
        {"trigger": "jackpot_lockup", "source": "game", "dest": "handpay"},
        # a device fault (a jammed bill acceptor) does not keep the player's credit: cash-out needs
        # only the printer (the cabinet checks it is ready) or an attendant's hand pay
        {"trigger": "cash_out", "source": ["attract", "tilt.devicefault"], "dest": "cashout"},
        {"trigger": "cash_out_handpay", "source": ["attract", "tilt.devicefault"], "dest": "handpay"},
        {"trigger": "ticket_done", "source": "cashout", "dest": "attract"},
        {"trigger": "attendant_reset", "source": "handpay", "dest": "attract"},
        {"trigger": "resume_cashout", "source": RESUMABLE_FROM, "dest": "cashout"},
        {"trigger": "resume_handpay", "source": RESUMABLE_FROM, "dest": "handpay"},
        {"trigger": "operator_key_on", "source": ["attract", "game", "handpay", "tilt"], "dest": "audit"},
        {"trigger": "ram_clear", "source": "audit", "dest": "ramclear"},
        {"trigger": "ram_cleared", "source": "ramclear", "dest": "selftest"},
    ]
    table += [{"trigger": f"tilt_{t}", "source": TILTABLE_FROM, "dest": f"tilt.{t}"} for t in TILTS]
    for game_id, steps in steps_by_game.items():
        states = [f"game.{game_id}.{s}" for s in steps]
        table.append({"trigger": "start_game", "source": "attract", "dest": states[0], "game": game_id})
        table += [{"trigger": "advance", "source": a, "dest": b} for a, b in pairwise(states)]
        table += [
            {"trigger": "resume_game", "source": RESUMABLE_FROM, "dest": s, "game": game_id, "step": step}
            for s, step in zip(states, steps, strict=True)
        ]
    return table


def state_diagram(steps_by_game: Mapping[str, Sequence[str]]) -> str:
    """The state machine as a mermaid stateDiagram-v2, generated from the same tables."""

    def node(path: str) -> str:
        return path.replace(".", "__").replace("-", "_")

    lines = ["stateDiagram-v2", "    [*] --> powerup"]

    def declare(entry: Any, prefix: str, indent: str) -> None:
        if isinstance(entry, str):
            lines.append(f'{indent}state "{entry}" as {node(prefix + entry)}')
            return
        path = prefix + entry["name"]
        lines.append(f"{indent}state {node(path)} {{")
        for child in entry["children"]:
            declare(child, path + ".", indent + "    ")
        lines.append(f"{indent}}}")

    for entry in state_table(steps_by_game):
        declare(entry, "", "    ")
    for row in transition_table(steps_by_game):
        sources = row["source"] if isinstance(row["source"], list) else [row["source"]]
        for source in sources:
            lines.append(f"    {node(source)} --> {node(row['dest'])}: {row['trigger']}")
    return "\n".join(lines) + "\n"


def diagram_document(game_ids: Sequence[str]) -> str:
    """docs/state-diagram.md for these games (their steps come from the game classes)."""
    steps = {game_id: game_class(game_id).steps for game_id in game_ids}
    return (
        "# Cabinet state diagram\n\n"
        "Generated from the state and transition tables in `egm/cabinet/machine.py` for the games in\n"
        "`config/cabinet.toml`; `tests/test_cabinet_diagram.py` fails when this copy is stale.\n"
        "Regenerate with `egm state-diagram --write docs/state-diagram.md`.\n\n"
        f"```mermaid\n{state_diagram(steps)}```\n"
    )

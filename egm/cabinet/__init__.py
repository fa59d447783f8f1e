"""The cabinet controller (the patent's CPU 205): one hierarchical state machine and its event handling.

Public API (see docs/cabinet.md):

    cabinet = Cabinet(config, nvram_dir, games=..., devices=..., jurisdiction=..., clock=..., ...)
    cabinet.boot()                   power-up, self-test (ROM + wager memory), recovery, then attract
    cabinet.handle(event) -> Result  every input, from egm.events; refused events change nothing
    cabinet.poll_devices()           turn device reports into events until the devices are quiet
    cabinet.snapshot() -> dict       what a display shows: state, credits, meters, round view, tilts...

The state machine is declared as tables (`state_table`, `transition_table`) so a reader can take it in
at a glance, and `state_diagram()` renders the same tables as mermaid for docs/state-diagram.md.

Money moves only inside a wager-memory transaction, and the transaction commits before the state
machine moves or a device is told anything (stack, print): so a power cut at any instant leaves
either the step done and recorded, or not done at all. Standing conditions (tilts, lock-ups, the
game in progress) are derived from memory and devices; `_settle()` moves the machine to whatever
they call for, which is also how a boot resumes whatever a power cut interrupted.

The package is split by concern. Each part is a class that contributes its event handlers (`handlers`,
a mapping from event type to handler; see `core.CabinetPart`), and the Cabinet is their union:

    machine.py    the state and transition tables, and the diagram drawn from them
    core.py       what every part shares: reading, event dispatch, commit, tilts, settling
    play.py       choosing and starting a game, player decisions, settling a round
    credit_in.py  bills and tickets inserted (escrow, stack, redemption)
    cash_out.py   cash-out tickets and hand pays
    service.py    keys, doors, device faults, the operator menu, RAM clear, the ROM check
    build.py      the Cabinet assembled from its parts, power-up and recovery, `build_cabinet`
"""

from .build import Cabinet, build_cabinet
from .core import CabinetPart, Handler
from .machine import (
    DOOR_TILTS,
    TILT_NAMES,
    TILTS,
    CabinetMachine,
    CabinetState,
    diagram_document,
    state_diagram,
    state_table,
    transition_table,
)

__all__ = [
    "DOOR_TILTS",
    "TILTS",
    "TILT_NAMES",
    "Cabinet",
    "CabinetMachine",
    "CabinetPart",
    "CabinetState",
    "Handler",
    "build_cabinet",
    "diagram_document",
    "state_diagram",
    "state_table",
    "transition_table",
]

"""The power-up's progress: the self-test steps as the boot screen shows them, and a stop requested
while they run (SIGTERM), which ends the boot at its next step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

ROM = "ROM files checked"
MEMORY = "wager memory checked"
DEVICES = "devices found"
GAMES = "games prepared"
STEPS = (ROM, MEMORY, DEVICES, GAMES)


@dataclass
class BootProgress:
    """Each step's state ("waiting", "running", "done") and a line of detail; `shown` is called after
    every change (the boot screen redraws). Not thread-safe: the boot and its signal handler share the
    main thread."""

    shown: Callable[[BootProgress], None] = lambda progress: None
    state: dict[str, str] = field(default_factory=lambda: dict.fromkeys(STEPS, "waiting"))
    detail: dict[str, str] = field(default_factory=lambda: dict.fromkeys(STEPS, ""))
    rom_id: str = ""  # the signed ROM's id, once checked
    compiling: bool = False  # the games' code is being compiled (no verified build for this CPU): slow
    stop_reason: str = ""
    finished: bool = False  # the boot is over: a stop no longer waits for a step

    def running(self, step: str, detail: str = "") -> None:
        """`step` starts (or moves on to `detail`). A stop requested since the last step ends the boot
        here, as a clean shutdown (SystemExit)."""
        if self.stop_reason:
            raise SystemExit(self.stop_reason)
        self.state[step], self.detail[step] = "running", detail
        self.shown(self)

    def done(self, step: str, detail: str = "") -> None:
        self.state[step], self.detail[step] = "done", detail
        self.shown(self)

    def finish(self) -> None:
        """The boot is over; a stop requested during its last step ends it now."""
        self.finished = True
        if self.stop_reason:
            raise SystemExit(self.stop_reason)

    def request_stop(self, reason: str) -> None:
        """Asked from a signal handler: the boot stops at its next step, not in the middle of one."""
        self.stop_reason = reason

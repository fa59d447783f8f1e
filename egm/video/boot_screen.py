"""The boot screen: shown from the first frame of `egm emulate` and `egm kiosk` until the cabinet's own
scenes take over, so a booting cabinet never looks like a dead one.

It shows the self-test steps with their progress (egm.boot_progress), the software version and
the signed ROM's id. The steps that take long (the ROM check, the games' preparation: minutes when the
compiled code must be compiled for this CPU) run in a worker thread while the main thread keeps drawing
and answers a stop request at once; the rest of the boot (wager memory, devices) runs on the main thread,
which owns the wager memory's database connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import pygame

import egm
from egm.boot_progress import STEPS, BootProgress
from egm.video.layout import LOGICAL_SIZE
from egm.video.theme import CABINET, GOLD, GREEN, LIGHT_GREY, WHITE, Kit

T = TypeVar("T")
BAR_RECT = pygame.Rect(260, 900, 1400, 36)  # the progress bar: one quarter per step
BAR_TRACK = (44, 40, 72)  # its unfilled part (tests/test_boot_screen_xvfb.py looks for the bar)
RUNNING = (255, 170, 0)
FRAME_S = 0.1  # the boot screen's frame time while a step runs in the background


class BootScreen:
    """Draws a BootProgress on the window (scaled from the logical 1920x1080)."""

    def __init__(self, window: pygame.Surface) -> None:
        self.window = window
        self.kit = Kit()
        self.logical = pygame.Surface(LOGICAL_SIZE)
        self._main = threading.current_thread()

    def show(self, progress: BootProgress) -> None:
        """Draw and present a frame; only from the thread that owns the window (a step reporting from
        the worker thread is drawn by the main thread's next frame)."""
        if threading.current_thread() is not self._main:
            return
        pygame.event.pump()  # the window system sees a live window
        self.draw(progress, pygame.time.get_ticks() / 1000)
        size = self.window.get_size()
        scale = min(size[0] / LOGICAL_SIZE[0], size[1] / LOGICAL_SIZE[1])
        scaled = pygame.transform.scale(self.logical, (round(LOGICAL_SIZE[0] * scale),
                                                       round(LOGICAL_SIZE[1] * scale)))
        self.window.fill(CABINET)
        self.window.blit(scaled, scaled.get_rect(center=(size[0] // 2, size[1] // 2)))
        pygame.display.flip()

    def draw(self, progress: BootProgress, now: float) -> None:
        surface, kit = self.logical, self.kit
        surface.fill(CABINET)
        kit.text(surface, "EGM", (960, 90), 120, GOLD, bold=True, anchor="midtop")
        kit.text(surface, "POWER UP: SELF-TEST", (960, 250), 56, WHITE, bold=True, anchor="midtop")
        dots = "." * (int(now * 3) % 4)
        for n, step in enumerate(STEPS):
            state, y = progress.state[step], 380 + n * 110
            colour = {"done": GREEN, "running": RUNNING}.get(state, LIGHT_GREY)
            mark = {"done": "OK", "running": dots or "."}.get(state, "")
            kit.text(surface, step, (300, y), 44, colour, bold=state == "running")
            kit.text(surface, mark, (1620, y), 44, colour, bold=True, anchor="topright")
            if progress.detail[step]:
                for k, line in enumerate(kit.wrap(progress.detail[step], 1300, 28)[:2]):
                    kit.text(surface, line, (340, y + 54 + 32 * k), 28, LIGHT_GREY)
        pygame.draw.rect(surface, BAR_TRACK, BAR_RECT)
        done = sum(state == "done" for state in progress.state.values())
        running = any(state == "running" for state in progress.state.values())
        filled = BAR_RECT.width * (done + 0.5 * running) / len(STEPS)
        pygame.draw.rect(surface, GOLD, (BAR_RECT.x, BAR_RECT.y, round(filled), BAR_RECT.height))
        rom = f"ROM {progress.rom_id}" if progress.rom_id else "ROM: being checked"
        kit.text(surface, f"Software {egm.__version__}   {rom}", (960, 980), 30, LIGHT_GREY, anchor="midtop")

    def run(self, progress: BootProgress, step: Callable[[], T]) -> T:
        """Run `step` (e.g. building the cabinet) in a worker thread, drawing a frame every FRAME_S until
        it ends. A stop requested meanwhile (SIGTERM) ends the boot at the next frame (SystemExit): the
        worker is a daemon thread doing nothing that must finish (checking files, compiling)."""
        outcome: dict[str, object] = {}

        def work() -> None:
            try:
                outcome["value"] = step()
            except BaseException as exc:  # handed to the main thread, which raises it
                outcome["error"] = exc

        worker = threading.Thread(target=work, name="boot", daemon=True)
        worker.start()
        while worker.is_alive():
            if progress.stop_reason:
                raise SystemExit(progress.stop_reason)
            self.show(progress)
            worker.join(FRAME_S)
        if "error" in outcome:
            raise outcome["error"]  # type: ignore[misc]
        return outcome["value"]  # type: ignore[return-value]

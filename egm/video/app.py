"""`egm emulate` and `egm kiosk`: the cabinet with its display, in a window or full screen.

Both run the same controller, wager memory and games as `egm autoplay` (`egm.cabinet.build_cabinet`).
The emulator opens a resizable window and offers the emulated device controls; the kiosk opens full
screen at the panel's size, hides the cursor, ignores the window-close request and ESC, and stops only
from the operator menu's SHUT DOWN.
"""

from __future__ import annotations

import functools
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from egm.audio.speaker import open_speaker, quiet_stderr
from egm.boot_progress import BootProgress
from egm.config import CabinetConfig
from egm.video.boot_screen import BootScreen
from egm.video.script import SHOT, Script


@dataclass(frozen=True)
class RunOptions:
    config: CabinetConfig
    nvram: Path
    kiosk: bool
    seed: int | None = None
    script: Script | None = None


def open_display(config: CabinetConfig, kiosk: bool) -> pygame.Surface:
    pygame.display.init()
    pygame.display.set_caption(window_title(config))
    if kiosk:
        screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)  # the panel's own resolution
        pygame.mouse.set_visible(False)
        return screen
    return pygame.display.set_mode(window_size(config, pygame.display.get_desktop_sizes()), pygame.RESIZABLE)


def window_title(config: CabinetConfig) -> str:
    """The window's title names the cabinet, not a game.

    >>> from egm.config import CabinetConfig
    >>> window_title(CabinetConfig(site_name="EGM Test Casino", machine_number="0001"))
    'EGM - EGM Test Casino, machine 0001'
    """
    return f"EGM - {config.site_name}, machine {config.machine_number}"


def window_size(config: CabinetConfig, desktops: list[tuple[int, int]]) -> tuple[int, int]:
    """The configured display size, shrunk (aspect kept) to fit 90% of the desktop if it is smaller.

    >>> from egm.config import CabinetConfig
    >>> window_size(CabinetConfig(), [(1366, 768)]), window_size(CabinetConfig(), [(2560, 1440)])
    ((1229, 691), (1920, 1080))
    """
    width, height = config.display.width, config.display.height
    if not desktops:
        return width, height
    scale = min(1.0, 0.9 * desktops[0][0] / width, 0.9 * desktops[0][1] / height)
    return round(width * scale), round(height * scale)


def run(options: RunOptions) -> int:
    """Show the boot screen, boot the cabinet, and run the display loop until quit (emulator) or
    shutdown (kiosk). SIGTERM ends the boot at its next step, or the loop, as a clean shutdown."""
    pygame.display.init()  # the window first: the boot screen is its first frame
    window = open_display(options.config, options.kiosk)
    boot_screen = BootScreen(window)
    progress = BootProgress(shown=boot_screen.show)
    progress.shown(progress)
    with quiet_stderr():  # the audio library's search for a sound device is noisy when there is none
        pygame.init()
    default_sigterm = signal.signal(signal.SIGTERM, functools.partial(_stop_requested, progress))
    try:
        return _run(options, window.get_size(), boot_screen, progress)
    finally:
        signal.signal(signal.SIGTERM, default_sigterm)
        pygame.quit()


def _run(options: RunOptions, size: tuple[int, int], boot_screen: BootScreen, progress: BootProgress) -> int:
    # Imported once the boot screen is up: the cabinet, its games and the shell take seconds to load.
    from egm.audio.controller import AudioController
    from egm.cabinet import build_cabinet
    from egm.clock import SystemClock
    from egm.host.serve import serve_host_until
    from egm.video.controller import VideoController

    clock = SystemClock()
    cabinet = boot_screen.run(progress, lambda: build_cabinet(
        options.config, options.nvram, seed=options.seed, clock=clock, progress=progress))
    with cabinet.running():  # a quit is a clean shutdown, an exception a software fault
        cabinet.boot(progress)
        progress.finish()  # from now on a stop ends the loop at once
        audio = AudioController(open_speaker(), options.config.audio)
        video = VideoController(
            cabinet, cabinet.devices, options.config, clock, audio, kiosk=options.kiosk, size=size
        )
        frame_s = 1 / options.config.display.fps
        script = options.script
        while video.running:
            frame_due = time.monotonic() + frame_s
            if script is not None:
                for event in script.due(clock.monotonic(), video.viewport):
                    pygame.event.post(event)
                if script.done and not pygame.event.peek():
                    video.running = False
            for event in pygame.event.get():
                if event.type == SHOT:  # the window as the input before it left it, before what follows
                    video.update()
                    video.present(pygame.display.get_surface())
                    pygame.display.flip()
                    save_shot(Path(event.path), pygame.display.get_surface(), video.res.kit.drawn)
                else:
                    video.process(event)
            video.update()
            video.present(pygame.display.get_surface())
            pygame.display.flip()
            serve_host_until(cabinet, frame_due)  # the frame's spare time answers the casino host
    return 0


def save_shot(path: Path, window: pygame.Surface, words: list[str]) -> None:
    """The window as shown, and the words drawn on it (FILE.txt beside it), for a scripted session."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(window, str(path))
    path.with_name(path.name + ".txt").write_text("\n".join(words) + "\n", encoding="utf-8")


def _stop_requested(progress: BootProgress, signum: int, frame: object) -> None:
    """SIGTERM (the OS shutting down, a service stop) ends the boot at its next step, or the loop at
    once, as a clean shutdown."""
    reason = f"stopped by {signal.Signals(signum).name}"
    if progress.finished:
        raise SystemExit(reason)
    progress.request_stop(reason)

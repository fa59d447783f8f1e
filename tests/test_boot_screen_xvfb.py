"""`egm emulate` in a real X window (Xvfb): the screen is grabbed as the cabinet powers up, and the boot
screen (its progress bar) is the first thing the window shows, from before the first self-test step
ends, and stays up, never black, until the cabinet's own scenes take over."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from egm.video.boot_screen import BAR_TRACK
from egm.video.theme import GOLD
from tests.xvfb_support import ScreenGrabber, xvfb

SCREEN = (1920, 1080)


def bar_filled(frame: np.ndarray) -> float | None:
    """The boot screen's progress bar's filled fraction, or None when no boot screen is shown: the row
    with the longest run of the bar's two colours."""
    track = np.all(frame == BAR_TRACK, axis=2)
    gold = np.all(frame == GOLD, axis=2)
    row = int(np.argmax(track.sum(axis=1) + gold.sum(axis=1)))
    length = int(track[row].sum() + gold[row].sum())
    if track[row].sum() == 0 or length < SCREEN[0] // 4:
        return None
    return float(gold[row].sum()) / length


def test_the_boot_screen_is_the_first_frame_and_never_goes_black(signed_tree, tmp_path: Path) -> None:
    with xvfb(f"{SCREEN[0]}x{SCREEN[1]}x24") as display:
        grabber = ScreenGrabber(display)
        script = tmp_path / "session.txt"
        script.write_text("wait 1.0\nquit\n", encoding="utf-8")
        env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "egm.cli", "emulate", "--config", str(signed_tree.config_path),
             "--nvram", str(tmp_path / "nvram"), "--seed", "1", "--script", str(script)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        frames: list[tuple[float, bool, float | None]] = []  # (seconds since start, black, bar filled)
        try:
            while process.poll() is None and time.monotonic() - started < 300:
                frame = grabber.grab(*SCREEN)
                frames.append((time.monotonic() - started, not frame.any(), bar_filled(frame)))
        finally:
            grabber.close()
            out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    shown = [n for n, (_, black, _) in enumerate(frames) if not black]
    assert shown, "the window never showed anything"
    first = shown[0]
    assert frames[first][2] is not None, "the first frame the window showed is not the boot screen"
    assert frames[first][2] <= 0.25, "the boot screen came up only after the first self-test step"
    boot = [n for n in shown if frames[n][2] is not None]
    assert boot == list(range(first, boot[-1] + 1)), "the boot screen went black or away mid-boot"
    assert any(frames[n][2] is None for n in shown[len(boot):]), "the cabinet's scenes never took over"
    print(f"boot screen first seen {frames[first][0]:.2f} s after start ({len(frames)} frames grabbed, "
          f"boot screen on {len(boot)} of them, {frames[boot[-1]][0] - frames[first][0]:.2f} s)")

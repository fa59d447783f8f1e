"""A private X server (Xvfb) for the tests that drive a real window (no tests here)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


@contextmanager
def xvfb(screen: str = "1920x1080x24") -> Iterator[str]:
    """Start Xvfb with one screen of `screen` (WIDTHxHEIGHTxDEPTH); yield its display name (":N").
    Skips the test when Xvfb is not installed (.ci/run installs it)."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (.ci/run installs it)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        pytest.fail("Xvfb did not report a display number")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)

"""Answering the casino host between the cabinet's other work: a frame of the display, or nothing.

SAS hosts allow a few milliseconds for a reply. The cabinet is one thread, so instead of sleeping
away the rest of a frame it waits on the host link and handles each poll the moment it arrives.
"""

from __future__ import annotations

import threading
import time
from typing import Any

HEADLESS_WAIT_S = 0.05  # without a display: the devices are polled at least this often


def serve_host_until(cabinet: Any, deadline: float) -> None:
    """Until `deadline` (time.monotonic seconds), answer the host's polls as they arrive; without a
    host link, just sleep until then."""
    link = cabinet.devices.host_link
    while (remaining := deadline - time.monotonic()) > 0:
        if link is None:
            time.sleep(remaining)
            return
        if link.wait(remaining):
            cabinet.poll_devices()


def serve_headless(cabinet: Any, stop: threading.Event) -> None:
    """The main loop of a cabinet without a display (`egm sim sas-egm`), until `stop` is set."""
    while not stop.is_set():
        serve_host_until(cabinet, time.monotonic() + HEADLESS_WAIT_S)
        cabinet.poll_devices()

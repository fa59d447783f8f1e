"""Answering the casino host between the cabinet's other work: a frame of the display, or nothing.

SAS hosts allow a few milliseconds for a reply. The cabinet is one thread, so instead of sleeping
away the rest of a frame it waits on the host link and handles each poll the moment it arrives. While
a start or a decision waits on the game server, its answer also ends the wait, so the display draws it
at once rather than a frame later (up to 16.7 ms a request at 60 fps).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from egm.host.game_server import WAITING

HEADLESS_WAIT_S = 0.05  # without a display: the devices are polled at least this often
SERVER_CHECK_S = 0.001  # with a host link too, the game server's answer is looked for this often


def serve_host_until(cabinet: Any, deadline: float) -> None:
    """Until `deadline` (time.monotonic seconds), answer the host's polls as they arrive; without a
    host link, just sleep until then. Returns early when the game server answers what the cabinet
    waits on (the caller's next frame handles it)."""
    link = cabinet.devices.host_link
    server = cabinet.game_server if cabinet.waiting_for_server() == WAITING else None
    while (remaining := deadline - time.monotonic()) > 0:
        if server is not None:
            if link is None:
                server.wait(remaining)
                return
            if server.wait(0):
                return
            remaining = min(remaining, SERVER_CHECK_S)  # the host link's wait cannot see the server
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

"""Serve a simulated device over a pty pair or a TCP port, in a background thread.

`PtyTransport` opens a pty: the driver opens `transport.port` (the slave's path) like any serial
device. `TcpTransport` listens on a TCP port: the driver opens `socket://host:port` with pyserial.
Unplugging a TCP device drops the connection and refuses new ones until it is plugged back in.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import socket
import threading
import tty
from urllib.parse import urlsplit

from hardware.sim.device import SimDevice

log = logging.getLogger(__name__)

TICK_S = 0.01


class Transport:
    """A served device; use as a context manager or call `start()`/`stop()`."""

    port: str

    def __init__(self, device: SimDevice) -> None:
        self.device = device
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"sim-{device.name}", daemon=True)

    def start(self) -> Transport:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._close()

    def __enter__(self) -> Transport:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _serve(self, data: bytes | None) -> bytes:
        """The device's output for the host's bytes (None: nothing arrived). A simulator bug is
        logged and the simulator keeps serving, as a device with a firmware glitch would."""
        try:
            out = self.device.unsolicited()
            return out + self.device.receive(data) if data is not None else out
        except Exception:
            log.exception("%s simulator failed on %r", self.device.name, data)
            return b""

    def _run(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError


class PtyTransport(Transport):
    """The device on the master side of a pty; `port` is the slave path for the driver."""

    def __init__(self, device: SimDevice) -> None:
        super().__init__(device)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        self.port = os.ttyname(self.slave)

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], TICK_S)
            data = None
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    continue
            out = self._serve(data)
            if out:
                os.write(self.master, out)

    def _close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class TcpTransport(Transport):
    """The device behind a TCP port, one client at a time; `port` is the `socket://` URL."""

    def __init__(self, device: SimDevice, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(device)
        self.server = socket.create_server((host, port))
        self.server.settimeout(TICK_S)
        self.address = self.server.getsockname()
        self.port = f"socket://{self.address[0]}:{self.address[1]}"
        self.client: socket.socket | None = None

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.client is None:
                self._accept()
                continue
            if not self.device.plugged:
                log.info("%s: dropping the connection (unplugged)", self.device.name)
                self._drop()
                continue
            self._serve_once(self.client)

    def _accept(self) -> None:
        try:
            client, peer = self.server.accept()
        except (TimeoutError, OSError):
            return
        if not self.device.plugged:
            client.close()
            return
        log.info("%s: driver connected from %s", self.device.name, peer)
        client.setblocking(False)
        self.client = client

    def _serve_once(self, client: socket.socket) -> None:
        ready, _, _ = select.select([client], [], [], TICK_S)
        data = None
        if ready:
            try:
                data = client.recv(4096)
            except OSError:
                data = b""
            if not data:
                self._drop()
                return
        out = self._serve(data)
        if out:
            try:
                client.sendall(out)
            except OSError:
                self._drop()

    def _drop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(OSError):
                self.client.close()
            self.client = None

    def _close(self) -> None:
        self._drop()
        with contextlib.suppress(OSError):
            self.server.close()


def serve(device: SimDevice, port: str | None) -> Transport:
    """Serve `device` on a TCP address (`socket://host:port` or `host:port`) or, if None or "pty",
    on a new pty; the transport is started."""
    if port is None or port == "pty":
        return PtyTransport(device).start()
    address = urlsplit(port if "://" in port else f"socket://{port}")
    if address.scheme != "socket" or address.hostname is None or address.port is None:
        raise ValueError(f"simulator port {port!r} must look like socket://127.0.0.1:7001 or pty")
    return TcpTransport(device, address.hostname, address.port).start()

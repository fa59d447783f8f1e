"""A private X server (Xvfb) for the tests that drive a real window, and a grabber of its screen (no
tests here)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
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


class _XImage(ctypes.Structure):  # the leading fields of Xlib's XImage (X11/Xlib.h)
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


class ScreenGrabber:
    """Reads the whole screen of an X display (what a camera on the cabinet would see), through Xlib."""

    def __init__(self, display: str) -> None:
        name = ctypes.util.find_library("X11")
        if name is None:
            pytest.skip("libX11 is not installed (Xvfb brings it)")
        self.x = ctypes.CDLL(name)
        self.x.XOpenDisplay.restype = ctypes.c_void_p
        self.x.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x.XGetImage.restype = ctypes.POINTER(_XImage)
        self.x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.x.XDestroyImage.argtypes = [ctypes.POINTER(_XImage)]
        self.x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.display = self.x.XOpenDisplay(display.encode())
        if not self.display:
            pytest.fail(f"cannot open X display {display}")
        self.root = self.x.XDefaultRootWindow(self.display)

    def grab(self, width: int, height: int) -> np.ndarray:
        """The screen's top-left `width` x `height` pixels as an (height, width, 3) RGB array."""
        image = self.x.XGetImage(self.display, self.root, 0, 0, width, height, 0xFFFFFFFF, 2)  # ZPixmap
        try:
            info = image.contents
            raw = np.ctypeslib.as_array(info.data, shape=(info.height * info.bytes_per_line,)).copy()
            pixels = raw.reshape(info.height, info.bytes_per_line)[:, : info.width * 4]
            return pixels.reshape(info.height, info.width, 4)[:, :, 2::-1]  # BGRX -> RGB
        finally:
            self.x.XDestroyImage(image)

    def close(self) -> None:
        self.x.XCloseDisplay(self.display)

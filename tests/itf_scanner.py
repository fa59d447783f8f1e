"""A scanner's view of a drawn Interleaved 2 of 5 barcode, for the tests (no tests here).

It reads one pixel row into bars and spaces and decodes them with the ITF table written out here
from the symbology (each digit: five elements, two of them wide), independently of python-barcode,
which draws the ticket's bars: a drawing that scans back to the digits is a standard ITF code.
"""

from __future__ import annotations

import pygame

# N = narrow, W = wide, for digits 0..9
PATTERNS = ("NNWWN", "WNNNW", "NWNNW", "WWNNN", "NNWNW", "WNWNN", "NWWNN", "NNNWW", "WNNWN", "NWNWN")
START = "NNNN"  # bar, space, bar, space, all narrow
STOP = "WNN"  # wide bar, narrow space, narrow bar


def read_row(surface: pygame.Surface, y: int, x0: int, x1: int) -> list[tuple[bool, str]]:
    """Scan one pixel row into (is_bar, "N" or "W") elements, quiet zones dropped."""
    runs: list[tuple[bool, int]] = []
    for x in range(x0, x1):
        dark = sum(surface.get_at((x, y))[:3]) < 384
        if runs and runs[-1][0] == dark:
            runs[-1] = (dark, runs[-1][1] + 1)
        else:
            runs.append((dark, 1))
    while runs and not runs[0][0]:
        runs.pop(0)
    while runs and not runs[-1][0]:
        runs.pop()
    if not runs:
        return []
    narrow = min(w for _, w in runs)
    return [(bar, "W" if w > narrow * 1.8 else "N") for bar, w in runs]


def decode(elements: list[tuple[bool, str]]) -> str:
    """The digits of a scanned ITF code; ValueError when it is not one."""
    widths = "".join(w for _, w in elements)
    if not elements[0][0] or widths[:4] != START or widths[-3:] != STOP:
        raise ValueError("no ITF start/stop pattern")
    body = widths[4:-3]
    if len(body) % 10:
        raise ValueError("ITF body is not whole digit pairs")
    digits = []
    for i in range(0, len(body), 10):
        pair = body[i : i + 10]
        digits += [str(PATTERNS.index(pair[0::2])), str(PATTERNS.index(pair[1::2]))]
    return "".join(digits)

"""Interleaved 2 of 5 (ITF), the barcode on a TITO ticket, encoded and drawn in code.

ITF encodes digit pairs: the first digit of a pair in the widths of five bars, the second in the
widths of the five spaces between them. Each digit has exactly two wide elements. A start pattern
(narrow bar, space, bar, space) and a stop pattern (wide bar, narrow space, narrow bar) frame it.

>>> elements("12")[:4]
[(True, 1), (False, 1), (True, 1), (False, 1)]
>>> decode(elements("001234567890123456"))
'001234567890123456'
"""

from __future__ import annotations

import pygame

# N = narrow, W = wide, for digits 0..9 (the ITF / 2-of-5 table)
PATTERNS = ("NNWWN", "WNNNW", "NWNNW", "WWNNN", "NNWNW", "WNWNN", "NWWNN", "NNNWW", "WNNWN", "NWNWN")
WIDE = 3  # wide:narrow ratio (ITF allows 2.25..3)
START = [(True, 1), (False, 1), (True, 1), (False, 1)]
STOP = [(True, WIDE), (False, 1), (True, 1)]


def elements(digits: str) -> list[tuple[bool, int]]:
    """The barcode as (is_bar, width in narrow units), start and stop patterns included."""
    if not digits.isdigit() or len(digits) % 2:
        raise ValueError(f"ITF encodes an even number of digits; got {digits!r}")
    out = list(START)
    for i in range(0, len(digits), 2):
        bars, spaces = PATTERNS[int(digits[i])], PATTERNS[int(digits[i + 1])]
        for b, s in zip(bars, spaces, strict=True):
            out.append((True, WIDE if b == "W" else 1))
            out.append((False, WIDE if s == "W" else 1))
    return out + STOP


def decode(elems: list[tuple[bool, int]]) -> str:
    """Read digits back from `elements` output (used to check a drawn barcode)."""
    if elems[:4] != START or elems[-3:] != STOP:
        raise ValueError("no ITF start/stop pattern")
    body = elems[4:-3]
    if len(body) % 10:
        raise ValueError("ITF body is not whole digit pairs")
    digits = []
    for i in range(0, len(body), 10):
        chunk = body[i : i + 10]
        bars = "".join("W" if w > 1 else "N" for _, w in chunk[0::2])
        spaces = "".join("W" if w > 1 else "N" for _, w in chunk[1::2])
        digits.append(str(PATTERNS.index(bars)))
        digits.append(str(PATTERNS.index(spaces)))
    return "".join(digits)


def read_row(surface: pygame.Surface, y: int, x0: int, x1: int) -> list[tuple[bool, int]]:
    """Scan one pixel row of a drawn barcode into runs of (is_bar, pixels): a scanner's view."""
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
    return [(bar, WIDE if w > narrow * 1.8 else 1) for bar, w in runs]


def draw(surface: pygame.Surface, digits: str, rect: pygame.Rect) -> None:
    """Draw the ITF barcode of `digits` centred in `rect` (white quiet zone, black bars)."""
    elems = elements(digits)
    units = sum(w for _, w in elems)
    module = max(1, (rect.width - 20) // units)
    x = rect.centerx - units * module // 2
    pygame.draw.rect(surface, (255, 255, 255), rect)
    for is_bar, w in elems:
        if is_bar:
            pygame.draw.rect(surface, (0, 0, 0), (x, rect.y + 4, w * module, rect.height - 8))
        x += w * module

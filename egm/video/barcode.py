"""Interleaved 2 of 5 (ITF), the barcode on a TITO ticket: python-barcode encodes it, pygame draws it.

`barcode.itf.ITF` (python-barcode) gives the modules of the code, "1" dark and "0" light: the start
pattern, each digit pair (the first digit in the widths of five bars, the second in the five spaces
between them; two wide elements per digit) and the stop pattern. We ask for wide elements of
`WIDE` modules and narrow ones of 1 (ITF allows a ratio of 2.25 to 3) and draw each dark run as a bar.

>>> modules("12")
'101011101000101011100011101'
"""

from __future__ import annotations

import re

import pygame
from barcode.itf import ITF

WIDE = 3  # wide:narrow ratio


def modules(digits: str) -> str:
    """The ITF modules of `digits`, start and stop patterns included."""
    if not digits.isdigit() or len(digits) % 2:
        raise ValueError(f"ITF encodes an even number of digits; got {digits!r}")
    return ITF(digits, narrow=1, wide=WIDE).build()[0]


def draw(surface: pygame.Surface, digits: str, rect: pygame.Rect) -> None:
    """Draw the ITF barcode of `digits` centred in `rect` (white quiet zone, black bars)."""
    code = modules(digits)
    module = max(1, (rect.width - 20) // len(code))
    left = rect.centerx - len(code) * module // 2
    pygame.draw.rect(surface, (255, 255, 255), rect)
    for bar in re.finditer("1+", code):
        x, width = left + bar.start() * module, (bar.end() - bar.start()) * module
        pygame.draw.rect(surface, (0, 0, 0), (x, rect.y + 4, width, rect.height - 8))

"""Where the Property table draws each space: its square on the board edge, its colour band, its label
(name and price, wrapped to the space at a size read at 1080p, never clipped) and the seats' tokens,
which stand on the band's strip so they never cover a name or a price.

>>> space_rect(0), band_rect(1), text_box(1)
(Rect(798, 798, 116, 116), Rect(724, 798, 74, 22), Rect(726, 822, 70, 90))
>>> token_centre(1, 0, 2), token_centre(1, 1, 2)
((742, 809), (780, 809))
"""

from __future__ import annotations

from typing import Any

import pygame

BOARD = pygame.Rect(16, 16, 898, 898)
CORNER = 116
SIDE_CELL = (BOARD.width - 2 * CORNER) // 9  # 74
BAND = 22  # the colour band's depth: the tokens' strip on every side space
PAD = 2
LABEL_SIZE = 18  # the board's text, in pixels of the 1080-line screen
LINE_H = 21
TOKEN_R = 9
# Long words break where a printed board breaks them (a word wider than its space needs one here).
BREAKS = {"Mediterranean": "Mediter-ranean", "Connecticut": "Con-necticut", "Community": "Commu-nity",
          "Kentucky": "Ken-tucky", "Pennsylvania": "Pennsyl-vania", "Tennessee": "Tennes-see"}
CORNER_KINDS = ("go", "jail", "free_parking", "go_to_jail")


def space_rect(index: int) -> pygame.Rect:
    """Space 0 (Go) is the bottom-right corner; play runs left along the bottom, up the left side,
    right along the top and down the right side."""
    side, step = divmod(index, 10)
    if step == 0:  # a corner
        x = (BOARD.right - CORNER, BOARD.x, BOARD.x, BOARD.right - CORNER)[side]
        y = (BOARD.bottom - CORNER, BOARD.bottom - CORNER, BOARD.y, BOARD.y)[side]
        return pygame.Rect(x, y, CORNER, CORNER)
    offset = CORNER + (step - 1) * SIDE_CELL
    if side == 0:
        return pygame.Rect(BOARD.right - offset - SIDE_CELL, BOARD.bottom - CORNER, SIDE_CELL, CORNER)
    if side == 1:
        return pygame.Rect(BOARD.x, BOARD.bottom - offset - SIDE_CELL, CORNER, SIDE_CELL)
    if side == 2:
        return pygame.Rect(BOARD.x + offset, BOARD.y, SIDE_CELL, CORNER)
    return pygame.Rect(BOARD.right - CORNER, BOARD.y + offset, CORNER, SIDE_CELL)


def band_rect(index: int) -> pygame.Rect:
    """The strip on the inner edge of a space (a side space's colour band; a corner's foot): the tokens
    stand there."""
    rect = space_rect(index)
    side, step = divmod(index, 10)
    if step == 0:
        return pygame.Rect(rect.x, rect.bottom - BAND, rect.width, BAND)
    if side == 0:
        return pygame.Rect(rect.x, rect.y, rect.width, BAND)
    if side == 1:
        return pygame.Rect(rect.right - BAND, rect.y, BAND, rect.height)
    if side == 2:
        return pygame.Rect(rect.x, rect.bottom - BAND, rect.width, BAND)
    return pygame.Rect(rect.x, rect.y, BAND, rect.height)


def text_box(index: int) -> pygame.Rect:
    """Where a space's label goes: the space less its band strip and a margin."""
    rect, band = space_rect(index), band_rect(index)
    side, step = divmod(index, 10)
    if step == 0 or side == 2:
        box = pygame.Rect(rect.x, rect.y, rect.width, rect.height - BAND)
    elif side == 0:
        box = pygame.Rect(rect.x, band.bottom, rect.width, rect.height - BAND)
    elif side == 1:
        box = pygame.Rect(rect.x, rect.y, rect.width - BAND, rect.height)
    else:
        box = pygame.Rect(band.right, rect.y, rect.width - BAND, rect.height)
    return box.inflate(-2 * PAD, -2 * PAD)


def token_centre(index: int, seat: int, seats: int) -> tuple[int, int]:
    """Where seat `seat`'s token stands on space `index`: in a row along the band strip."""
    band = band_rect(index)
    along = max(band.width, band.height)
    step = along / seats
    offset = round(step * seat + step / 2)
    if band.width >= band.height:
        return band.x + offset, band.centery
    return band.centerx, band.y + offset


def label(space: dict[str, Any]) -> str:
    """A space's name as the board prints it (corners in capitals, long words shortened)."""
    name = str(space["name"])
    if space["kind"] in CORNER_KINDS:
        return name.upper()
    return name.replace("Avenue", "Ave.").replace("Railroad", "R.R.").replace("North Carolina", "N. Carolina")


def label_lines(space: dict[str, Any], fits: Any) -> list[str]:
    """The label's lines: words filled greedily into lines `fits(text)` accepts, a word too long broken
    at its printed break (`BREAKS`); the price last."""
    words: list[str] = []
    for word in label(space).split():
        if fits(word) or word not in BREAKS:
            words.append(word)
        else:
            head, tail = BREAKS[word].split("-")
            words += [f"{head}-", tail]
    lines: list[str] = []
    for word in words:
        joined = f"{lines[-1]} {word}" if lines and not lines[-1].endswith("-") else None
        if joined is not None and fits(joined):
            lines[-1] = joined
        else:
            lines.append(word)
    return [*lines, f"${space['price']}"] if space.get("price") else lines

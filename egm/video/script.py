"""Scripted input for the emulator (`egm emulate --script FILE`): a session a test or a demo replays
through the real event queue, exactly as a person at the keyboard and screen would.

One command per line; `#` starts a comment. Positions are logical (1920x1080) pixels.

    wait 0.5          let 0.5 s pass (on the cabinet's clock)
    key space         press and release a key (pygame key names: space, return, f2, 1, b, ...)
    click 960 540     mouse press and release at a logical position
    touch 960 540     finger press and release at a logical position
    shot FILE.png     save the window as it is shown once the input before has been handled, and the
                      words drawn on it, one per line, in FILE.png.txt (a test reads them)
    quit              end the session (the window closes as with ESC)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from egm.video.layout import Viewport

COMMANDS = ("wait", "key", "click", "touch", "shot", "quit")
SHOT = pygame.event.custom_type()  # posted in order with the input: the loop saves the window then


class ScriptError(ValueError):
    """A script line that cannot be run; the message names the line."""


@dataclass
class Script:
    lines: deque[tuple[int, str, list[str]]]
    resume_at: float = 0.0
    done: bool = False
    _touch_id: int = field(default=0)

    @classmethod
    def parse(cls, text: str, source: str = "script") -> Script:
        lines: deque[tuple[int, str, list[str]]] = deque()
        for number, raw in enumerate(text.splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            command, args = words[0].lower(), words[1:]
            if command not in COMMANDS:
                raise ScriptError(
                    f"{source} line {number}: unknown command '{command}'; use one of {COMMANDS}"
                )
            try:
                if command == "wait":
                    float(args[0])
                elif command == "key":
                    pygame.key.key_code(args[0])
                elif command in ("click", "touch"):
                    int(args[0]), int(args[1])
                elif command == "shot":
                    Path(args[0])
            except (IndexError, ValueError) as exc:
                raise ScriptError(
                    f"{source} line {number}: bad arguments for '{command}': {raw.strip()}"
                ) from exc
            lines.append((number, command, args))
        return cls(lines)

    @classmethod
    def load(cls, path: Path) -> Script:
        try:
            return cls.parse(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            raise ScriptError(f"{path}: cannot read the script ({exc.strerror})") from exc

    def due(self, now: float, viewport: Viewport) -> list[pygame.event.Event]:
        """The events to post now; stops at a `wait` until its time has come."""
        events: list[pygame.event.Event] = []
        while self.lines and now >= self.resume_at and not self.done:
            _, command, args = self.lines.popleft()
            if command == "wait":
                self.resume_at = now + float(args[0])
            elif command == "key":
                code = pygame.key.key_code(args[0])
                events += [
                    pygame.event.Event(t, key=code, mod=0, unicode="", scancode=0)
                    for t in (pygame.KEYDOWN, pygame.KEYUP)
                ]
            elif command == "click":
                pos = physical(viewport, int(args[0]), int(args[1]))
                events += [
                    pygame.event.Event(t, pos=pos, button=1, touch=False)
                    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
                ]
            elif command == "touch":
                x, y = physical(viewport, int(args[0]), int(args[1]))
                w, h = viewport.size
                self._touch_id += 1
                attrs = {
                    "x": x / w,
                    "y": y / h,
                    "dx": 0.0,
                    "dy": 0.0,
                    "finger_id": self._touch_id,
                    "touch_id": 0,
                    "pressure": 1.0,
                }
                events += [pygame.event.Event(t, attrs) for t in (pygame.FINGERDOWN, pygame.FINGERUP)]
            elif command == "shot":
                events.append(pygame.event.Event(SHOT, path=args[0]))
            else:
                self.done = True
        if not self.lines and now >= self.resume_at:
            self.done = True
        return events


def physical(viewport: Viewport, x: int, y: int) -> tuple[int, int]:
    """A logical position on the physical window."""
    ox, oy = viewport.offset
    return ox + round(x * viewport.scale), oy + round(y * viewport.scale)

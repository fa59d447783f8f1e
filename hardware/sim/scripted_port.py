"""A fake serial port that answers each write with the next scripted reply (for fuzzing drivers)."""

from __future__ import annotations


class ScriptedPort:
    """Implements the `Port` protocol without any device: replies are whatever bytes it was given."""

    def __init__(self, replies: list[bytes]) -> None:
        self.replies = list(replies)
        self.timeout: float | None = 0.0
        self.buffer = b""
        self.written: list[bytes] = []

    @property
    def in_waiting(self) -> int:
        return len(self.buffer)

    def write(self, data: bytes, /) -> int:
        self.written.append(data)
        self.buffer += self.replies.pop(0) if self.replies else b""
        return len(data)

    def read(self, size: int = 1, /) -> bytes:
        out, self.buffer = self.buffer[:size], self.buffer[size:]
        return out

    def reset_input_buffer(self) -> None:
        self.buffer = b""

    def close(self) -> None:
        """Nothing to release."""

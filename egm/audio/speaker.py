"""Speakers (the patent's 235, `hardware.interfaces.Speaker`): pygame's mixer, or silence.

A speaker plays a mono 16-bit PCM buffer at a volume. `MixerSpeaker` uses pygame's mixer; when no
audio device can be opened (a headless test, a cabinet without sound) it falls back to `SilentSpeaker`,
which records what it was asked to play, so sound never stops the cabinet.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import numpy as np

from egm.audio.synth import SAMPLE_RATE
from hardware.interfaces import Speaker


class SilentSpeaker:
    """A speaker with no sound device: it keeps the names it was asked to play (tests read them)."""

    def __init__(self) -> None:
        self.played: list[tuple[str, float]] = []

    def play(self, name: str, pcm: np.ndarray, volume: float) -> None:
        self.played.append((name, volume))


class MixerSpeaker:
    """pygame's mixer: each buffer becomes a Sound once and is replayed from the cache."""

    def __init__(self) -> None:
        import pygame

        self._pygame = pygame
        if not pygame.mixer.get_init():
            with quiet_stderr():
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        freq, _, channels = pygame.mixer.get_init()
        self._channels = channels
        self._rate = freq

    def play(self, name: str, pcm: np.ndarray, volume: float) -> None:
        sound = self._sounds.get(name)
        if sound is None:
            data = pcm
            if self._rate != SAMPLE_RATE:
                idx = (np.arange(int(len(pcm) * self._rate / SAMPLE_RATE)) * SAMPLE_RATE / self._rate).astype(
                    int
                )
                data = pcm[idx]
            if self._channels > 1:
                data = np.repeat(data[:, None], self._channels, axis=1)
            sound = self._pygame.sndarray.make_sound(np.ascontiguousarray(data))
            self._sounds[name] = sound
        sound.set_volume(volume)
        sound.play()


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """The process's stderr (file descriptor 2) sent to /dev/null while the audio library looks for a
    device: ALSA writes a dozen lines straight to it when there is none, and SDL's fallback is
    silence anyway (SilentSpeaker)."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def open_speaker() -> Speaker:
    """The mixer if an audio device opens, otherwise a silent speaker."""
    try:
        return MixerSpeaker()
    except Exception:  # noqa: BLE001 - any audio failure must leave the cabinet running silently
        return SilentSpeaker()

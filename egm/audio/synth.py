"""Cabinet sounds generated in code: each cue is a short mono 16-bit PCM buffer built with numpy.

>>> pcm = CUES["deal"](SAMPLE_RATE)
>>> pcm.dtype.name, 0 < len(pcm) < SAMPLE_RATE, int(abs(pcm).max()) <= 32767
('int16', True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

SAMPLE_RATE = 22050
PEAK = 0.8 * 32767


def _t(rate: int, seconds: float) -> np.ndarray:
    return np.arange(int(rate * seconds)) / rate


def _envelope(n: int, attack: float = 0.01, rate: int = SAMPLE_RATE) -> np.ndarray:
    a = max(1, int(attack * rate))
    env = np.exp(-np.linspace(0.0, 5.0, n))
    env[:a] *= np.linspace(0.0, 1.0, a)
    return env


def _pcm(wave: np.ndarray) -> np.ndarray:
    wave = wave / max(1e-9, float(np.abs(wave).max()))
    return (wave * PEAK).astype(np.int16)


def _notes(rate: int, freqs: list[float], note_s: float) -> np.ndarray:
    parts = []
    for f in freqs:
        t = _t(rate, note_s)
        tone = np.sin(2 * np.pi * f * t) + 0.3 * np.sin(4 * np.pi * f * t)
        parts.append(tone * _envelope(len(t), rate=rate))
    return np.concatenate(parts)


def deal(rate: int) -> np.ndarray:
    """A card snapping onto felt: a short burst of filtered noise."""
    n = int(rate * 0.07)
    noise = np.random.default_rng(7).standard_normal(n)  # fixed seed: the same sound every time
    smooth = np.convolve(noise, np.ones(6) / 6, mode="same")
    return _pcm(smooth * _envelope(n, 0.002, rate))


def button(rate: int) -> np.ndarray:
    """A short click-beep."""
    t = _t(rate, 0.06)
    return _pcm(np.sin(2 * np.pi * 1200 * t) * _envelope(len(t), 0.002, rate))


def win(rate: int) -> np.ndarray:
    """A rising major arpeggio."""
    return _pcm(_notes(rate, [523.25, 659.25, 783.99, 1046.5], 0.12))


def jackpot(rate: int) -> np.ndarray:
    """A longer fanfare, arpeggio repeated an octave up."""
    return _pcm(_notes(rate, [523.25, 659.25, 783.99, 1046.5, 1318.5, 1568.0, 2093.0, 2093.0], 0.14))


def tilt(rate: int) -> np.ndarray:
    """An alarm: two alternating square-ish tones."""
    t = _t(rate, 0.8)
    f = np.where((t * 4).astype(int) % 2 == 0, 880.0, 660.0)
    return _pcm(np.tanh(4 * np.sin(2 * np.pi * np.cumsum(f) / rate)))


CUES: dict[str, Callable[[int], np.ndarray]] = {
    "deal": deal,
    "button": button,
    "win": win,
    "jackpot": jackpot,
    "tilt": tilt,
}

"""The audio controller (the patent's 230): turns cue names into sounds on a speaker, with volume
and mute from the cabinet configuration (`config.audio`)."""

from __future__ import annotations

from egm.audio.speaker import Speaker
from egm.audio.synth import CUES, SAMPLE_RATE
from egm.config import AudioConfig


class AudioController:
    def __init__(self, speaker: Speaker, config: AudioConfig) -> None:
        self.speaker = speaker
        self.volume = config.volume
        self.muted = config.mute
        self._pcm = {name: make(SAMPLE_RATE) for name, make in CUES.items()}

    def play(self, cue: str) -> None:
        """Play one of `synth.CUES` ("deal", "button", "win", "jackpot", "tilt") unless muted."""
        if cue not in self._pcm:
            raise ValueError(f"unknown sound cue '{cue}'; choose one of {sorted(self._pcm)}")
        if not self.muted and self.volume > 0:
            self.speaker.play(cue, self._pcm[cue], self.volume)

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted

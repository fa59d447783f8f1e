"""Sounds generated in code, played through the speaker with volume and mute; silent without a device."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from egm.audio.controller import AudioController
from egm.audio.speaker import MixerSpeaker, SilentSpeaker, open_speaker
from egm.audio.synth import CUES, SAMPLE_RATE
from egm.config import AudioConfig
from egm.games.base import RoundView
from egm.video.sound_cues import cues


@pytest.mark.parametrize("name", sorted(CUES))
def test_each_cue_is_audible_16_bit_pcm(name: str) -> None:
    pcm = CUES[name](SAMPLE_RATE)
    assert pcm.dtype == np.int16 and pcm.ndim == 1
    assert 0.02 * SAMPLE_RATE < len(pcm) < 3 * SAMPLE_RATE
    assert np.abs(pcm).max() > 10000  # not silence


def test_volume_and_mute_reach_the_speaker() -> None:
    speaker = SilentSpeaker()
    audio = AudioController(speaker, AudioConfig(volume=0.25, mute=False))
    audio.play("win")
    assert speaker.played == [("win", 0.25)]
    assert audio.toggle_mute() is True
    audio.play("tilt")
    assert speaker.played == [("win", 0.25)]
    muted = AudioController(speaker, AudioConfig(volume=0.7, mute=True))
    muted.play("deal")
    assert speaker.played == [("win", 0.25)]


def test_unknown_cue_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown sound cue 'boom'"):
        AudioController(SilentSpeaker(), AudioConfig()).play("boom")


def test_mixer_plays_under_the_dummy_audio_driver() -> None:
    speaker = open_speaker()  # SDL_AUDIODRIVER=dummy (tests/conftest.py): a mixer that plays nowhere
    assert isinstance(speaker, MixerSpeaker | SilentSpeaker)
    audio = AudioController(speaker, AudioConfig())
    for name in CUES:
        audio.play(name)


def test_state_changes_call_for_sounds() -> None:
    assert cues({"state": "attract"}, {"state": "tilt.maindoor"}) == ["tilt"]
    assert cues({"state": "attract"}, {"state": "handpay"}) == ["tilt"]
    dealt = {"state": "game.dragon-poker.designate", "game": {"game_id": "dragon-poker", "step": "designate"}}
    assert cues({"state": "attract"}, dealt) == ["deal"]
    view = RoundView(game_id="dragon-poker", step="complete", bet_credits=1, stake_credits=10,
                     decision_awaited=False, auto_decision=False, win_credits=50,
                     pools_won_cents={"dragon_jackpot": 8000})
    won = {
        "state": "attract",
        "last_outcome": {"number": 1, "win_cents": 50},
        "game": {"game_id": "dragon-poker", "step": "complete", "view": view},
    }
    assert cues(dealt, won) == ["deal", "jackpot"]
    # a win without a pool won (the dealer took the jackpot) is a plain win
    plain = {**won, "game": {**won["game"], "view": dataclasses.replace(view, pools_won_cents={})}}
    assert cues(dealt, plain) == ["deal", "win"]

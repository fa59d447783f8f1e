"""What the terminal says while the cabinet powers up: the first `egm autoplay` says what it prepares
when the code must be compiled; `egm emulate` without a display says so in one sentence; the audio
library's noise is kept off the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from egm.cli import main
from tests.rom_support import SignedTree, with_rom_section


def test_autoplay_names_each_game_it_prepares_while_there_is_no_build_for_this_cpu(
    signed_tree: SignedTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "no-build.toml"
    text = signed_tree.config_path.read_text(encoding="utf-8")
    config.write_text(with_rom_section(text, signed_tree.manifest_path, signed_tree.trusted_keys,
                                       compiled=tmp_path / "no-builds-here"), encoding="utf-8")
    code = main(["autoplay", "--config", str(config), "--nvram", str(tmp_path / "nvram"),
                 "--game", "poker-tiles", "--games", "1", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["games_completed"] == 1
    lines = err.splitlines()
    assert any(line.startswith("egm autoplay: preparing Poker Tiles (") for line in lines), err
    assert all("no compiled code built for this CPU" in line and "egm rom build" in line for line in lines)


def test_autoplay_with_a_verified_build_prints_nothing_but_its_report(
    signed_tree: SignedTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["autoplay", "--config", str(signed_tree.config_path), "--nvram", str(tmp_path / "nvram"),
                 "--game", "prism-words", "--games", "1", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["games_completed"] == 1 and err == ""


def test_emulate_without_a_display_says_so_in_one_sentence(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, "-m", "egm.cli", "emulate", "--nvram", str(tmp_path / "nvram")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "there is no display" in done.stderr
    assert "SDL_VIDEODRIVER=dummy" in done.stderr
    assert not (tmp_path / "nvram").exists()  # nothing was booted


def test_the_audio_librarys_search_for_a_device_stays_off_the_terminal() -> None:
    child = ("import os\nfrom egm.audio.speaker import quiet_stderr\n"
             "with quiet_stderr():\n    os.write(2, b'ALSA lib pcm.c: Unknown PCM default\\n')\n"
             "os.write(2, b'after\\n')\n")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "after\n"

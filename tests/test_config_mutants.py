"""Issue 27, defect 6: a configuration that would boot-loop is refused with one sentence.

`egm config check` and the boot read a file through the same schema, so whatever the check passes
the cabinet boots, and whatever it refuses is refused at boot with the same sentence. The
hypothesis test mutates every key of every shipped configuration (wrong types, signs, sizes,
missing keys): the check answers valid or one sentence naming the file, never a traceback, and a
configuration it passes boots.
"""

from __future__ import annotations

import contextlib
import copy
import io
import math
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from egm.cli import main
from egm.clock import FakeClock
from egm.config import CONFIG_DIR, load_cabinet_config
from tests.cabinet_support import GAME_ID, make_cabinet

SHIPPED = {path.name: tomllib.loads(path.read_text()) for path in sorted(CONFIG_DIR.glob("*.toml"))}
MISSING = object()
MUTATIONS: dict[str, Any] = {
    "missing": MISSING, "text": "x", "empty text": "", "negative": -1, "zero": 0, "huge": 2**70,
    "huge negative": -(2**70), "fraction": 0.5, "infinite": math.inf, "true": True, "list": [1],
    "empty list": [], "table": {"x": 1}, "list of huge": [2**70],
}


def key_paths(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key of a configuration, tables and their keys alike."""
    paths = []
    for key, value in data.items():
        paths.append((*prefix, key))
        if isinstance(value, dict):
            paths += key_paths(value, (*prefix, key))
    return paths


KEYS = [(name, path) for name, data in SHIPPED.items() for path in key_paths(data)]


def mutated(name: str, path: tuple[str, ...], mutation: str) -> dict[str, Any]:
    data = copy.deepcopy(SHIPPED[name])
    table = data
    for key in path[:-1]:
        table = table[key]
    if MUTATIONS[mutation] is MISSING:
        del table[path[-1]]
    else:
        table[path[-1]] = copy.deepcopy(MUTATIONS[mutation])
    return data


def check(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["config", "check", str(path)])
    return code, out.getvalue(), err.getvalue()


def assert_one_sentence(path: Path, code: int, err: str) -> None:
    assert code == 2
    assert "Traceback" not in err
    [line] = err.strip().splitlines()
    assert line.startswith(f"{path}: ")


def boots(config_path: Path, nvram: Path) -> None:
    """The cabinet boots on what the check passed (its games replaced by the test game: the keys
    are the point here, and the spine cabinet boots in milliseconds)."""
    config = load_cabinet_config(config_path)
    config = config.model_copy(update={"games": [GAME_ID], "player_denominations_cents": []})
    cabinet = make_cabinet(nvram, config=config, clock=FakeClock())
    try:
        cabinet.boot()
        assert cabinet.state in ("attract", "tilt.devicefault") or cabinet.state.startswith("tilt")
    finally:
        cabinet.close()


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ("event_log_size = 1180591620717411303424\n", "event_log_size"),
        ('[devices.printer]\nbackend = "serial"\nprotocol = "tcl"\n', "devices.printer"),
    ],
)
def test_a_configuration_that_boot_looped_is_refused_by_the_check_and_at_boot(
    tmp_path: Path, toml: str, said: str
) -> None:
    path = tmp_path / "cabinet.toml"
    path.write_text(toml)
    code, _, err = check(path)
    assert_one_sentence(path, code, err)
    assert said in err
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["autoplay", "--config", str(path), "--nvram", str(tmp_path / "nvram"),
                     "--game", "dragon-poker", "--games", "0", "--json"])
    assert code == 2 and "Traceback" not in err.getvalue()
    assert said in out.getvalue() and not (tmp_path / "nvram").exists()  # refused before memory opens


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KEYS), st.sampled_from(sorted(MUTATIONS)))
@example(("cabinet.toml", ("event_log_size",)), "huge")
@example(("cabinet-serial.toml", ("devices", "printer", "port")), "missing")
@example(("cabinet-serial.toml", ("devices", "bill_acceptor", "protocol")), "text")
@example(("cabinet-serial.toml", ("devices", "doors", "protocol")), "text")
def test_every_key_of_every_shipped_config_mutated_is_valid_or_one_sentence(
    key: tuple[str, tuple[str, ...]], mutation: str
) -> None:
    name, path = key
    with tempfile.TemporaryDirectory() as directory:
        config_path = Path(directory) / name
        config_path.write_text(tomli_w.dumps(mutated(name, path, mutation)))
        code, _, err = check(config_path)
        if code != 0:
            assert_one_sentence(config_path, code, err)
        elif name == "cabinet.toml":  # its devices are emulated: it boots here
            boots(config_path, Path(directory) / "nvram")


@pytest.mark.soak
def test_every_mutant_exhaustively(tmp_path: Path) -> None:
    """All of them, not a draw (python -m pytest --soak tests/test_config_mutants.py -k exhaustively):
    1,372 mutants; before issue 27's fix 5 failed, after it none."""
    for index, (key, mutation) in enumerate((k, m) for k in KEYS for m in sorted(MUTATIONS)):
        name, path = key
        config_path = tmp_path / str(index) / name
        config_path.parent.mkdir()
        config_path.write_text(tomli_w.dumps(mutated(name, path, mutation)))
        code, _, err = check(config_path)
        if code != 0:
            assert_one_sentence(config_path, code, err)
        elif name == "cabinet.toml":
            boots(config_path, config_path.parent / "nvram")

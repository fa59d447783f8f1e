"""The command-line contracts: egm autoplay / meters / recall, on the real games and the real ROM check."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from egm.cabinet_cli import EXIT_MEMORY_BUSY
from egm.cli import main
from egm.clock import FakeClock
from egm.memory.errors import CommitFailed
from egm.memory.store import WagerMemory
from egm.meters import METER_NAMES
from tests.test_memory import flip_byte_in


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def autoplay(capsys, signed_tree, nvram: Path, *extra: str, game: str = "dragon-poker", games: int = 12):
    return run(
        capsys, "autoplay", "--nvram", str(nvram), "--game", game, "--games", str(games),
        "--config", str(signed_tree.config_path), "--json", *extra,
    )  # fmt: skip


def test_autoplay_plays_cashes_out_and_balances(tmp_path, capsys, signed_tree) -> None:
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "7")
    assert code == 0 and report["state"] == "attract" and report["games_completed"] == 12
    meters = report["meters"]
    assert set(METER_NAMES) <= set(meters)
    assert meters["games_played"] == 12 and meters["current_credits"] == 0
    assert meters["bills_in"] == 10000 and meters["bills_by_denomination"] == {"10000": 1}
    (ticket,) = report["tickets"]
    assert len(ticket["validation_number"]) == 18 and ticket["amount_cents"] == meters["tickets_out"]
    assert meters["bills_in"] + meters["coin_out"] - meters["coin_in"] - meters["tickets_out"] == 0
    _, again = autoplay(capsys, signed_tree, tmp_path / "nv2", "--seed", "7")
    assert again["meters"] == meters  # same seed, fresh DIR: same meters
    code, more = autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "7", games=3)
    assert code == 0 and more["meters"]["games_played"] == 15 and more["meters"]["power_resets"] == 2


def test_autoplay_poker_grid(tmp_path, capsys, signed_tree) -> None:
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "1", game="poker-grid", games=2)
    assert code == 0 and report["meters"]["per_game"]["poker-grid"]["games_played"] == 2


def test_meters_and_recall_read_the_memory(tmp_path, capsys, signed_tree) -> None:
    autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "3", games=12)
    code, meters = run(capsys, "meters", "--nvram", str(tmp_path / "nv"), "--json")
    assert code == 0 and meters["meters"]["games_played"] == 12
    code, recall = run(capsys, "recall", "--nvram", str(tmp_path / "nv"), "--json")
    assert code == 0 and [g["number"] for g in recall] == list(range(12, 2, -1))  # newest first, depth 10
    assert recall[0]["game_id"] == "dragon-poker" and recall[0]["round"]


def test_a_note_not_enabled_is_refused_and_moves_no_money(tmp_path, capsys, signed_tree) -> None:
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--bill-cents", "300")
    assert code == 2 and "not enabled" in report["error"]
    assert report["meters"]["bills_in"] == 0 and report["games_completed"] == 0


def test_corrupt_memory_is_a_ram_error_tilt(tmp_path, capsys, signed_tree) -> None:
    nvram = tmp_path / "nv"
    autoplay(capsys, signed_tree, nvram, games=1)
    for name in ("copy-a.db", "copy-b.db"):
        path = nvram / name
        path.write_bytes(path.read_bytes()[:2048])
    code, report = run(capsys, "meters", "--nvram", str(nvram), "--json")
    assert code == 3 and report["tilt"] == "ram_error"
    code, report = autoplay(capsys, signed_tree, nvram, games=1)
    assert code == 3 and report["tilt"] == "ram_error" and report["games_completed"] == 0


def test_meters_in_ram_error_show_what_they_can_read_unverified(tmp_path, capsys, signed_tree) -> None:
    """Issue 27 (defect 1): `egm meters` showed only the tilt."""
    nvram = tmp_path / "nv"
    _, played = autoplay(capsys, signed_tree, nvram, "--seed", "3", games=3)
    (nvram / "copy-b.db").write_bytes(b"\0" * 4096)
    flip_byte_in(nvram / "copy-a.db", b"Power up")  # one event damaged
    code, report = run(capsys, "meters", "--nvram", str(nvram), "--json")
    assert code == 3 and report["tilt"] == "ram_error" and "meters" not in report
    unverified = report["unverified"]
    assert unverified["verified"] is False
    assert unverified["source"].startswith("copy-a.db (integrity code wrong")
    assert unverified["meters"]["games_played"] == 3 == played["meters"]["games_played"]
    assert unverified["credit_cents"] == 0 and unverified["game_in_progress"] is None


def test_autoplay_counts_only_committed_settlements(tmp_path, capsys, signed_tree, monkeypatch) -> None:
    """Issue 27 (defect 9): games_completed counted a game whose settlement never committed."""
    real = WagerMemory._commit
    settlements = itertools.count()

    def commit(self: WagerMemory, tx: Any) -> None:
        if tx.recall and next(settlements) == 1:  # the second game's settlement: the disk fails
            raise CommitFailed("wager memory write failed before the commit (disk full); not committed")
        real(self, tx)

    monkeypatch.setattr(WagerMemory, "_commit", commit)
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "7", games=3)
    assert code == 3 and report["tilt"] == "ram_error"
    assert report["games_completed"] == 1 and report["meters"]["games_played"] == 2


def test_autoplay_on_a_memory_another_process_holds_says_memory_busy(tmp_path, capsys, signed_tree) -> None:
    """Issue 27 (defect 9): reported as "ram_error" with exit 3."""
    holder = WagerMemory.open(tmp_path / "nv", clock=FakeClock(), event_log_size=100, recall_depth=10)
    try:
        code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--seed", "7", games=1)
    finally:
        holder.close()
    assert code == EXIT_MEMORY_BUSY == 4
    assert report["tilt"] == "memory_busy" and "in use by another process" in report["tilt_detail"]
    assert report["games_completed"] == 0 and {"state", "meters", "tickets", "recovered"} <= set(report)


def test_a_flipped_byte_in_one_copy_is_repaired(tmp_path, capsys, signed_tree) -> None:
    nvram = tmp_path / "nv"
    autoplay(capsys, signed_tree, nvram, "--seed", "2", games=2)
    path = nvram / "copy-a.db"
    data = bytearray(path.read_bytes())
    at = data.find(b'"games_played":2')
    assert at > 0
    data[at] ^= 0x20
    path.write_bytes(bytes(data))
    code, report = run(capsys, "meters", "--nvram", str(nvram), "--json")
    assert code == 0 and report["meters"]["games_played"] == 2


def test_rom_failure_stops_autoplay(tmp_path, capsys, signed_tree) -> None:
    config = tmp_path / "cabinet.toml"
    text = signed_tree.config_path.read_text(encoding="utf-8")
    config.write_text(text.replace(str(signed_tree.manifest_path), str(tmp_path / "missing.json")))
    code, report = run(
        capsys, "autoplay", "--nvram", str(tmp_path / "nv"), "--game", "dragon-poker", "--games", "1",
        "--config", str(config), "--json",
    )  # fmt: skip
    assert code == 3 and report["tilt"] == "rom_error" and report["games_completed"] == 0


def test_a_config_with_a_wrong_value_is_refused(tmp_path, capsys, signed_tree) -> None:
    config = tmp_path / "cabinet.toml"
    text = signed_tree.config_path.read_text(encoding="utf-8")
    config.write_text(text.replace("denomination_cents = 1\n", 'denomination_cents = "one"\n'))
    code, report = run(
        capsys, "autoplay", "--nvram", str(tmp_path / "nv"), "--game", "dragon-poker", "--games", "1",
        "--config", str(config), "--json",
    )  # fmt: skip
    assert code == 2 and "denomination_cents" in report["error"] and str(config) in report["error"]
    assert not (tmp_path / "nv").exists()


def test_unknown_game_is_bad_input(tmp_path, capsys, signed_tree) -> None:
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", game="no-such-game")
    assert code == 2 and "no-such-game" in report["error"]


def test_meters_on_a_directory_without_memory_is_bad_input(tmp_path, capsys) -> None:
    code, report = run(capsys, "meters", "--nvram", str(tmp_path / "nowhere"), "--json")
    assert code == 2 and "holds no wager memory" in report["error"]
    assert not (tmp_path / "nowhere").exists()


def test_a_negative_game_count_is_named_not_the_bill(tmp_path, capsys, signed_tree) -> None:
    """`egm autoplay --games -5` blamed --bill-cents, which was not given."""
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", games=-5)
    assert code == 2 and report["error"] == "--games -5 is negative; give 0 (a boot only) or more"
    assert not (tmp_path / "nv").exists()  # refused before the memory is opened
    code, report = autoplay(capsys, signed_tree, tmp_path / "nv", "--bill-cents", "0")
    assert code == 2 and report["error"] == "--bill-cents 0 is not a positive amount"


def test_zero_games_says_it_played_none(tmp_path, capsys, signed_tree) -> None:
    code = main(["autoplay", "--nvram", str(tmp_path / "nv"), "--game", "dragon-poker", "--games", "0",
                 "--config", str(signed_tree.config_path), "--json"])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)["games_completed"] == 0
    assert "--games 0 played no game" in captured.err

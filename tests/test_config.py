"""Bad configuration is refused when it is loaded, with a sentence naming the file and key, before any
money can move (issue 13, item 11): `egm autoplay` exits 2 and creates no wager memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from egm.cli import main
from egm.config import ConfigError, load_cabinet_config, load_jurisdiction


def autoplay_with(tmp_path: Path, capsys: pytest.CaptureFixture[str], config: Path) -> tuple[int, str]:
    nvram = tmp_path / "nv"
    code = main(
        ["autoplay", "--nvram", str(nvram), "--game", "dragon-poker", "--games", "1",
         "--config", str(config), "--json"]
    )  # fmt: skip
    assert not nvram.exists()  # refused before the wager memory was touched
    return code, json.loads(capsys.readouterr().out)["error"]


def edited(signed_tree, tmp_path: Path, old: str, new: str) -> Path:
    text = signed_tree.config_path.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cabinet.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('jurisdiction = "generic"', 'jurisdiction = "mars"', "unknown jurisdiction 'mars'"),
        ('jurisdiction = "generic"', 'jurisdiction = "../cabinet"', "unknown jurisdiction '../cabinet'"),
        ("ticket_expiry_days = 30", "ticket_expiry_days = 1000000000", "ticket_expiry_days"),
        ("denomination_cents = 1\n", "denomination_cents = 1000000000000\n", "denomination_cents"),
        ("bill_denominations_cents = [", "bill_denominations_cents = [-500, ", "bill_denominations_cents.0"),
        ("bill_denominations_cents = [", "bill_denominations_cents = [0, ", "bill_denominations_cents.0"),
        (
            "bill_denominations_cents = [",
            "bill_denominations_cents = [10000000000, ",
            "bill_denominations_cents.0",
        ),
        ("bill_denominations_cents = [", "bill_denominations_cents = [100, ", "a note is listed twice"),
        # the credit limit must fit the 10-digit meters like every amount, and be a known win route
        ("ticket_expiry_days = 30", "ticket_expiry_days = 30\ncredit_limit_cents = 10000000000",
         "credit_limit_cents"),
        ("ticket_expiry_days = 30", "ticket_expiry_days = 30\ncredit_limit_cents = -1", "credit_limit_cents"),
        ("ticket_expiry_days = 30", 'ticket_expiry_days = 30\ncredit_limit_win = "bank"', "credit_limit_win"),
    ],
)
def test_a_bad_value_is_refused_at_load_time(tmp_path, capsys, signed_tree, old, new, key) -> None:
    code, error = autoplay_with(tmp_path, capsys, edited(signed_tree, tmp_path, old, new))
    assert code == 2 and key in error and str(tmp_path / "cabinet.toml") in error


def test_a_missing_unreadable_or_garbage_config_is_refused(tmp_path, capsys) -> None:
    code, error = autoplay_with(tmp_path, capsys, tmp_path / "absent.toml")
    assert code == 2 and "file not found" in error
    code, error = autoplay_with(tmp_path, capsys, tmp_path)  # a directory
    assert code == 2 and "cannot be read" in error
    garbage = tmp_path / "garbage.toml"
    garbage.write_bytes(bytes(range(256)))
    code, error = autoplay_with(tmp_path, capsys, garbage)
    assert code == 2 and "not valid TOML" in error


@pytest.mark.parametrize("name", ["mars", "../cabinet", "generic/../generic", ""])
def test_a_jurisdiction_is_a_plain_name_of_a_shipped_file(name: str) -> None:
    with pytest.raises(ConfigError, match="unknown jurisdiction"):
        load_jurisdiction(name)
    assert load_jurisdiction("nevada").name


def test_the_shipped_config_loads() -> None:
    config = load_cabinet_config()
    assert config.jurisdiction == "generic" and 1 <= config.denomination_cents


def test_a_denomination_no_pay_table_offers_is_refused(tmp_path, capsys, signed_tree) -> None:
    single = "denomination_cents = 1\nplayer_denominations_cents = [1, 5, 25, 100]\n"
    config = edited(signed_tree, tmp_path, single, "denomination_cents = 2\n")
    code, error = autoplay_with(tmp_path, capsys, config)
    assert code == 2 and "denomination_cents 2 is not offered by the dragon-poker pay table" in error


@pytest.mark.parametrize(
    ("listed", "problem"),
    [("[1, 5, 5]", "listed twice"), ("[1, 5, 0]", "player_denominations_cents.2"),
     ("[2, 5]", "not whole multiples of denomination_cents 2")],
)
def test_player_denominations_are_checked(tmp_path, signed_tree, listed: str, problem: str) -> None:
    old = "denomination_cents = 1\nplayer_denominations_cents = [1, 5, 25, 100]\n"
    accounting = 2 if listed == "[2, 5]" else 1
    path = edited(signed_tree, tmp_path, old,
                  f"denomination_cents = {accounting}\nplayer_denominations_cents = {listed}\n")
    with pytest.raises(ConfigError, match=problem):
        load_cabinet_config(path)


def test_an_nvram_path_that_is_a_file_or_a_copy_that_is_a_directory_is_refused(tmp_path, capsys, signed_tree):
    a_file = tmp_path / "nvram-file"
    a_file.write_text("not a directory")
    argv = ["--game", "dragon-poker", "--games", "1", "--config", str(signed_tree.config_path), "--json"]
    code = main(["autoplay", "--nvram", str(a_file), *argv])
    report = json.loads(capsys.readouterr().out)
    assert (
        code == 3 and report["tilt"] == "ram_error" and "is a file, not a directory" in report["tilt_detail"]
    )
    assert report["meters"] == {} and a_file.read_text() == "not a directory"
    nvram = tmp_path / "nv"
    (nvram / "copy-b.db").mkdir(parents=True)
    code = main(["autoplay", "--nvram", str(nvram), *argv])
    report = json.loads(capsys.readouterr().out)
    assert code == 3 and "copy-b.db is not a file" in report["tilt_detail"]
    assert main(["meters", "--nvram", str(a_file), "--json"]) == 2
    assert "is a file, not a directory" in json.loads(capsys.readouterr().out)["error"]


def test_config_check_refuses_a_player_denomination_no_game_offers(tmp_path, capsys, signed_tree) -> None:
    assert main(["config", "check", str(signed_tree.config_path)]) == 0
    assert "player denominations (cents): [1, 5, 25, 100]" in capsys.readouterr().out
    old = "player_denominations_cents = [1, 5, 25, 100]\n"
    path = edited(signed_tree, tmp_path, old, "player_denominations_cents = [1, 5, 10]\n")
    assert main(["config", "check", str(path)]) == 2
    error = capsys.readouterr().err
    assert "player_denominations_cents" in error and "[10]" in error
    assert "offered by no installed game" in error


def test_every_jurisdiction_has_online_rules_for_the_game_server() -> None:
    from egm.config import all_jurisdictions

    for name in all_jurisdictions():
        online = load_jurisdiction(name).online
        assert online.autoplay is False and online.limit_increase_cooling_off_h == 24
        assert online.login_failures_lock == 3 and online.limit_periods == ["day", "week", "month"]
        assert online.reality_check_minutes and online.abandoned_round_days >= 1


@pytest.mark.parametrize(("line", "key"), [
    ("limit_increase_cooling_off_h = 1", "online.limit_increase_cooling_off_h"),
    ("login_failures_lock = 0", "online.login_failures_lock"),
    ('limit_periods = ["day", "year"]', "online.limit_periods.1"),
    ("reality_check_minutes = [30, 30]", "online.reality_check_minutes"),
    ("reality_check_minutes = [1]", "online.reality_check_minutes.0"),
    ('autoplay = "no"', "online.autoplay"),
    ("abandoned_round_days = 1000", "online.abandoned_round_days"),
    ("self_exclusion_days = [30]", "online.self_exclusion_days.0"),
    ("jackpot = 1", "online.jackpot"),
])
def test_bad_online_rules_are_refused_naming_the_key(tmp_path, line: str, key: str) -> None:
    from egm.config import JurisdictionConfig, jurisdiction_path, load_model

    name = line.split(" = ")[0]
    text = jurisdiction_path("generic").read_text(encoding="utf-8")
    kept = [row for row in text.splitlines() if not row.startswith(f"{name} =")]
    path = tmp_path / "j.toml"
    path.write_text("\n".join(kept).replace("[online]", f"[online]\n{line}") + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_model(path, JurisdictionConfig)
    assert f"'{key}'" in str(refused.value) and str(refused.value).count("\n") == 0


def test_a_jurisdiction_without_an_online_table_gets_the_strict_defaults(tmp_path) -> None:
    from egm.config import JurisdictionConfig, load_model

    path = tmp_path / "j.toml"
    path.write_text('name = "X"\nmin_rtp = 0.8\nmax_rtp = 1.0\n', encoding="utf-8")
    online = load_model(path, JurisdictionConfig).online
    assert (online.autoplay, online.limit_increase_cooling_off_h) == (False, 24)
    assert online.login_failures_lock == 3

"""Production keys and the ROM as the technician handles them (issue 21): an encrypted production
key, `egm rom verify --config` with the cabinet's own trusted keys, and ROM messages that say each
thing once."""

from __future__ import annotations

from pathlib import Path

import pytest

from egm.cabinet import build_cabinet
from egm.cli import main
from egm.config import PROJECT_ROOT, RomConfig, load_cabinet_config
from egm.rom.manifest import verify_rom
from tests.rom_support import DEV_PUBLIC_KEY, SignedTree, with_rom_section

PASSPHRASE = "correct horse battery staple"


def production_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EGM_TEST_PASSPHRASE", PASSPHRASE)
    prefix = tmp_path / "prod"
    assert main(["rom", "keygen", "--out", str(prefix), "--passphrase-env", "EGM_TEST_PASSPHRASE"]) == 0
    return prefix


def test_keygen_with_a_passphrase_writes_an_encrypted_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    prefix = production_key(tmp_path, monkeypatch)
    pem = Path(f"{prefix}.key").read_text()
    assert pem.startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert "encrypted" in capsys.readouterr().out
    file = tmp_path / "passphrase.txt"
    file.write_text(PASSPHRASE + "\n")
    target = tmp_path / "table.toml"
    target.write_text("[paytable]\n")
    sign = ["rom", "sign", "--key", f"{prefix}.key", "--detached", str(target)]
    assert main([*sign, "--passphrase-file", str(file)]) == 0
    file.write_text("wrong\n")
    assert main([*sign, "--passphrase-file", str(file)]) == 1
    assert "wrong passphrase" in capsys.readouterr().err


def test_keygen_refuses_an_empty_passphrase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("EMPTY", "")
    assert main(["rom", "keygen", "--out", str(tmp_path / "k"), "--passphrase-env", "EMPTY"]) == 1
    assert "passphrase" in capsys.readouterr().err
    assert not (tmp_path / "k.key").exists()


def test_verify_uses_the_cabinet_configuration(signed_tree: SignedTree, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    prefix = production_key(tmp_path, monkeypatch)
    other = tmp_path / "other.toml"
    text = signed_tree.config_path.read_text()
    other.write_text(with_rom_section(text, signed_tree.manifest_path, [Path(f"{prefix}.pub")]))
    assert main(["rom", "verify", "--config", str(signed_tree.config_path)]) == 0
    assert "ROM OK" in capsys.readouterr().out
    assert main(["rom", "verify", "--config", str(other)]) == 1  # signed with the dev key, not trusted
    assert "unknown_key" in capsys.readouterr().out
    kiosk = tmp_path / "kiosk.toml"
    kiosk.write_text(text.replace("kiosk = false", "kiosk = true"))
    assert main(["rom", "verify", "--config", str(kiosk)]) == 1  # a kiosk refuses the development key
    assert "development" in capsys.readouterr().out.lower()


def test_unknown_key_names_the_manifest_once(signed_tree: SignedTree, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = production_key(tmp_path, monkeypatch)
    check = verify_rom(signed_tree.root, [Path(f"{prefix}.pub")], signed_tree.manifest_path)
    (problem,) = check.problems
    assert str(problem).count(str(signed_tree.manifest_path)) == 1


def test_a_failed_rom_does_not_say_a_pay_table_changed(signed_tree: SignedTree, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = production_key(tmp_path, monkeypatch)
    config = load_cabinet_config(signed_tree.config_path)
    rom = RomConfig(manifest=str(signed_tree.manifest_path), trusted_keys=[f"{prefix}.pub"])
    cabinet = build_cabinet(config.model_copy(update={"rom": rom}), tmp_path / "nvram", root=PROJECT_ROOT)
    cabinet.boot()
    problems = cabinet.snapshot()["tilt_detail"]
    assert cabinet.tilt == "rom_error" and not cabinet.games
    assert "paytables" not in problems and "no game was loaded" in problems
    assert DEV_PUBLIC_KEY.exists()
    cabinet.close()

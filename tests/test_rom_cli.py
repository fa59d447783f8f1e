"""`egm rom` on a copy of the current tree: the contracts of verify, hmac, sign and keygen."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from egm.cli import main
from egm.config import PROJECT_ROOT
from egm.rom.manifest import FIRMWARE_DIRS, read_manifest
from tests.rom_support import DEV_PRIVATE_KEY, DEV_PUBLIC_KEY, SignedTree, sign_tree

SEED = "00112233"


@pytest.fixture
def tree(tmp_path: Path) -> SignedTree:
    root = tmp_path / "tree"
    for top in FIRMWARE_DIRS:
        shutil.copytree(PROJECT_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return sign_tree(root, tmp_path / "out")


def paths(tree: SignedTree) -> list[str]:
    return ["--root", str(tree.root), "--manifest", str(tree.manifest_path)]


def verify(tree: SignedTree) -> int:
    return main(["rom", "verify", *paths(tree), "--trusted-key", str(DEV_PUBLIC_KEY)])


def hmac_line(tree: SignedTree, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["rom", "hmac", "--seed", SEED, *paths(tree)]) == 0
    return capsys.readouterr().out


def test_verify_passes_on_a_signed_tree(tree: SignedTree, capsys: pytest.CaptureFixture[str]) -> None:
    assert verify(tree) == 0
    assert "ROM OK" in capsys.readouterr().out


@pytest.mark.parametrize("index", [0, -1])
def test_verify_fails_on_one_changed_byte(tree: SignedTree, capsys: pytest.CaptureFixture[str],
                                          index: int) -> None:
    files = read_manifest(tree.manifest_path).files
    target = files[index].path
    data = bytearray((tree.root / target).read_bytes() or b"\x00")
    data[len(data) // 2] ^= 0x80
    (tree.root / target).write_bytes(bytes(data))
    assert verify(tree) == 1
    assert f"changed: {target}" in capsys.readouterr().out


def test_verify_fails_on_a_removed_file(tree: SignedTree, capsys: pytest.CaptureFixture[str]) -> None:
    (tree.root / "egm/rom/gat.py").unlink()
    assert verify(tree) == 1
    assert "missing: egm/rom/gat.py" in capsys.readouterr().out


@pytest.mark.parametrize("new_file", ["egm/backdoor.py", "hardware/extra_driver.py",
                                      "jurisdictions/lenient.toml"])  # an unapproved rule set
def test_verify_fails_on_an_added_file(tree: SignedTree, capsys: pytest.CaptureFixture[str],
                                       new_file: str) -> None:
    (tree.root / new_file).write_text("print('hello')\n")
    assert verify(tree) == 1
    assert f"extra: {new_file}" in capsys.readouterr().out


def test_hmac_is_40_hex_stable_and_sensitive(tree: SignedTree, capsys: pytest.CaptureFixture[str]) -> None:
    first = hmac_line(tree, capsys)
    assert re.fullmatch(r"[0-9a-f]{40}\n", first)
    assert hmac_line(tree, capsys) == first
    target = tree.root / "egm/rom/gat.py"
    data = bytearray(target.read_bytes())
    data[0] ^= 0x01
    target.write_bytes(bytes(data))
    assert hmac_line(tree, capsys) != first


def test_hmac_byte_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The documented layout, computed independently as a lab would."""
    import hashlib
    import hmac

    root = tmp_path / "tree"
    (root / "egm").mkdir(parents=True)
    (root / "egm/a.py").write_bytes(b"A = 1\n")
    (root / "egm/b.py").write_bytes(b"")
    tree = sign_tree(root, tmp_path / "out")
    image = b"".join(len(p).to_bytes(4, "big") + p + len(c).to_bytes(8, "big") + c
                     for p, c in [(b"egm/a.py", b"A = 1\n"), (b"egm/b.py", b"")])
    assert hmac_line(tree, capsys).strip() == hmac.new(bytes.fromhex(SEED), image, hashlib.sha1).hexdigest()


def test_hmac_rejects_a_bad_seed(tree: SignedTree, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rom", "hmac", "--seed", "xyz", *paths(tree)]) == 1
    assert "not hexadecimal" in capsys.readouterr().err


def test_build_sign_verify_with_a_new_key(tree: SignedTree, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    prefix = tmp_path / "prod"
    assert main(["rom", "keygen", "--out", str(prefix)]) == 0
    assert (prefix.parent / "prod.key").stat().st_mode & 0o077 == 0
    assert main(["rom", "keygen", "--out", str(prefix)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert main(["rom", "build", "--no-compile", *paths(tree)]) == 0  # tests/test_rom_compiled.py compiles
    assert main(["rom", "verify", *paths(tree), "--trusted-key", str(prefix) + ".pub"]) == 1  # unsigned
    assert main(["rom", "sign", "--key", str(prefix) + ".key", *paths(tree)]) == 0
    capsys.readouterr()
    assert main(["rom", "verify", *paths(tree), "--trusted-key", str(prefix) + ".pub"]) == 0
    assert "DEVELOPMENT" not in capsys.readouterr().out
    assert verify(tree) == 1  # the development key is not this manifest's key
    assert "unknown_key" in capsys.readouterr().out


def test_sign_detached(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "candidate.toml"
    table.write_text("[paytable]\n")
    assert main(["rom", "sign", "--key", str(DEV_PRIVATE_KEY), "--detached", str(table)]) == 0
    assert re.fullmatch(r"[0-9a-f]{128}\n", (tmp_path / "candidate.toml.sig").read_text())


def test_sign_with_a_missing_key_is_a_clear_error(tree: SignedTree, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rom", "sign", "--key", str(tmp_path / "nope.key"), *paths(tree)]) == 1
    assert "nope.key: cannot read the private key" in capsys.readouterr().err


def test_console_script(tree: SignedTree) -> None:
    egm = Path(sys.executable).parent / "egm"  # the console script installed beside this Python
    result = subprocess.run([str(egm), "rom", "verify", *paths(tree), "--trusted-key", str(DEV_PUBLIC_KEY)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr

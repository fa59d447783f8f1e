"""Program ROM: the manifest, its signature, and the boot self-test (verify_rom)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from egm.rom import DEVELOPMENT_KEY_ID, RomCheck, RomError, verify_rom
from egm.rom.manifest import build_manifest, manifest_bytes, read_manifest, sign_manifest, signature_path
from egm.rom.signing import generate_key_pair, key_id, load_private_key, load_public_key, write_signature
from tests.rom_support import DEV_PUBLIC_KEY, SignedTree, sign_tree


@pytest.fixture(scope="module")
def lab_key(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A non-development key pair (private, public)."""
    prefix = tmp_path_factory.mktemp("keys") / "lab"
    generate_key_pair(prefix)
    return prefix.with_suffix(".key"), prefix.with_suffix(".pub")


@pytest.fixture
def tree(tmp_path: Path, lab_key: tuple[Path, Path]) -> SignedTree:
    """A small firmware tree signed with the lab key."""
    root = tmp_path / "tree"
    files = {
        "egm/__init__.py": "",
        "egm/core.py": "CREDITS = 0\n",
        "hardware/doors.py": "OPEN = False\n",
        "paytables/demo.toml": "[paytable]\nid = 'x'\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return sign_tree(root, tmp_path / "out", *lab_key)


def check(tree: SignedTree) -> RomCheck:
    return verify_rom(tree.root, tree.trusted_keys, tree.manifest_path)


def kinds(result: RomCheck) -> set[tuple[str, str]]:
    return {(p.kind, p.path) for p in result.problems}


def test_signed_tree_verifies(tree: SignedTree, lab_key: tuple[Path, Path]) -> None:
    result = check(tree)
    assert result.ok and result.problems == []
    assert result.key_id == key_id(load_public_key(lab_key[1]))
    assert not result.is_development_key
    assert result.file_count == 4


def test_development_key_is_flagged(tree: SignedTree, tmp_path: Path) -> None:
    dev = sign_tree(tree.root, tmp_path / "dev")
    result = check(dev)
    assert result.ok and result.is_development_key and result.key_id == DEVELOPMENT_KEY_ID


def test_development_key_id_matches_the_shipped_key() -> None:
    assert key_id(load_public_key(DEV_PUBLIC_KEY)) == DEVELOPMENT_KEY_ID


def test_changed_missing_and_extra_files_are_named(tree: SignedTree) -> None:
    (tree.root / "egm/core.py").write_text("CREDITS = 1\n")
    (tree.root / "hardware/doors.py").unlink()
    (tree.root / "hardware/backdoor.py").write_text("")
    (tree.root / "egm/sub").mkdir()
    (tree.root / "egm/sub/new.py").write_text("")
    result = check(tree)
    assert not result.ok
    assert kinds(result) == {("changed", "egm/core.py"), ("missing", "hardware/doors.py"),
                             ("extra", "hardware/backdoor.py"), ("extra", "egm/sub/new.py")}


def test_byte_code_caches_are_not_firmware(tree: SignedTree) -> None:
    (tree.root / "egm/__pycache__").mkdir()
    (tree.root / "egm/__pycache__/core.cpython-311.pyc").write_bytes(b"\x00")
    (tree.root / "hardware/stray.pyc").write_bytes(b"\x00")
    assert check(tree).ok
    assert all("__pycache__" not in e.path for e in read_manifest(tree.manifest_path).files)


def test_a_linked_directory_cannot_hide_code(tree: SignedTree, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.py").write_text("")
    (tree.root / "egm/plugins").symlink_to(outside, target_is_directory=True)
    assert kinds(check(tree)) == {("extra", "egm/plugins")}
    with pytest.raises(RomError, match="egm/plugins: cannot be hashed"):
        build_manifest(tree.root)


def test_every_byte_flip_of_a_signed_file_is_caught(tree: SignedTree) -> None:
    target = tree.root / "egm/core.py"
    original = target.read_bytes()
    for i in range(len(original)):
        flipped = bytearray(original)
        flipped[i] ^= 0x01
        target.write_bytes(bytes(flipped))
        assert kinds(check(tree)) == {("changed", "egm/core.py")}, f"flip at byte {i} not caught"
    target.write_bytes(original)
    assert check(tree).ok


@pytest.mark.parametrize("which", ["manifest", "signature"])
def test_every_byte_flip_of_the_manifest_or_signature_is_caught(tree: SignedTree, which: str) -> None:
    target = tree.manifest_path if which == "manifest" else signature_path(tree.manifest_path)
    original = target.read_bytes()
    for i in range(len(original)):
        flipped = bytearray(original)
        flipped[i] ^= 0x01
        target.write_bytes(bytes(flipped))
        result = check(tree)
        assert not result.ok, f"flip at byte {i} of {target.name} not caught"
        assert result.problems[0].kind in {"bad_signature", "bad_manifest", "unknown_key"}
    target.write_bytes(original)
    assert check(tree).ok


def test_truncated_signature(tree: SignedTree) -> None:
    sig = signature_path(tree.manifest_path)
    sig.write_text(sig.read_text()[:100] + "\n")
    [problem] = check(tree).problems
    assert problem.kind == "bad_signature"
    assert "50 bytes (100 hex digits), expected 64" in problem.detail and "truncated" in problem.detail


def test_missing_signature(tree: SignedTree) -> None:
    signature_path(tree.manifest_path).unlink()
    [problem] = check(tree).problems
    assert problem.kind == "bad_signature" and "missing" in problem.detail


def test_manifest_altered_after_signing(tree: SignedTree) -> None:
    """A manifest re-hashed to match a changed file, but not re-signed, is caught by the signature."""
    (tree.root / "egm/core.py").write_text("CREDITS = 10**9\n")
    signature = signature_path(tree.manifest_path).read_bytes()
    sign_tree(tree.root, tree.manifest_path.parent.parent, *_lab_key_of(tree))
    signature_path(tree.manifest_path).write_bytes(signature)
    [problem] = check(tree).problems
    assert problem.kind == "bad_signature" and "does not match" in problem.detail


def _lab_key_of(tree: SignedTree) -> tuple[Path, Path]:
    pub = tree.trusted_keys[0]
    return pub.with_suffix(".key"), pub


def test_unknown_key_id(tree: SignedTree, tmp_path: Path) -> None:
    other = tmp_path / "other"
    generate_key_pair(other)
    sign_manifest(tree.manifest_path, other.with_suffix(".key"))
    [problem] = check(tree).problems
    assert problem.kind == "unknown_key"
    assert read_manifest(tree.manifest_path).key_id in problem.detail
    assert "trusted_keys" in problem.detail


def test_unsigned_manifest(tree: SignedTree) -> None:
    manifest = read_manifest(tree.manifest_path).model_copy(update={"key_id": None})
    tree.manifest_path.write_bytes(manifest_bytes(manifest))
    [problem] = check(tree).problems
    assert problem.kind == "bad_signature" and "never signed" in problem.detail


def test_unreadable_trusted_key(tree: SignedTree, tmp_path: Path) -> None:
    result = verify_rom(tree.root, [tmp_path / "absent.pub"], tree.manifest_path)
    assert not result.ok and "absent.pub" in result.problems[0].detail


def _rewrite_paths(tree: SignedTree, edit: dict[int, str] | None = None, append: str | None = None) -> None:
    """Replace or add manifest paths, then sign properly: only the path checks can object."""
    data = json.loads(tree.manifest_path.read_bytes())
    for index, path in (edit or {}).items():
        data["files"][index]["path"] = path
    if append is not None:
        data["files"].append(dict(data["files"][0], path=append))
    raw = json.dumps(data).encode()
    tree.manifest_path.write_bytes(raw)
    write_signature(signature_path(tree.manifest_path), load_private_key(_lab_key_of(tree)[0]).sign(raw))


@pytest.mark.parametrize(("edit", "append", "message"), [
    (None, "egm/core.py", "listed twice"),
    ({0: "/etc/passwd"}, None, "absolute path"),
    ({0: "C:/egm/core.py"}, None, "absolute path"),
    ({0: "egm/../../secret.py"}, None, "escapes"),
    ({0: "egm/./core.py"}, None, "escapes"),
    ({0: "keys/dev-ed25519.key"}, None, "outside the firmware directories"),
], ids=["duplicate", "absolute", "drive-letter", "dot-dot", "dot", "outside-firmware"])
def test_bad_manifest_paths(tree: SignedTree, edit: dict[int, str] | None, append: str | None,
                            message: str) -> None:
    _rewrite_paths(tree, edit, append)
    result = check(tree)
    assert [p.kind for p in result.problems] == ["bad_manifest"]
    assert message in result.problems[0].detail and str(tree.manifest_path) in result.problems[0].detail


def test_manifest_schema_errors_name_the_key(tree: SignedTree) -> None:
    tree.manifest_path.write_text('{"format": "egm-rom-manifest/1", "key_id": null, "files": [{"path": 1}]}')
    [problem] = check(tree).problems
    assert problem.kind == "bad_manifest" and "files.0.path" in problem.detail


def test_missing_manifest(tree: SignedTree) -> None:
    tree.manifest_path.unlink()
    [problem] = check(tree).problems
    assert problem.kind == "bad_manifest" and "rom_refresh" in problem.detail


def test_defaults_come_from_the_cabinet_config() -> None:
    """Without explicit paths verify_rom uses config/cabinet.toml's [rom]; it always answers."""
    result = verify_rom()
    assert result.key_id == DEVELOPMENT_KEY_ID and result.is_development_key

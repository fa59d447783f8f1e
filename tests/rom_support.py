"""The `signed_tree` fixture: a freshly built and signed manifest of the current tree.

Tests that boot the cabinet or load pay tables use it so they do not depend on the shipped
rom/manifest.json being current. Registered for every test in tests/conftest.py.
"""

from __future__ import annotations

import fcntl
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from egm.config import DEFAULT_CABINET_CONFIG, PROJECT_ROOT, load_cabinet_config
from egm.rom.compiled import (
    CompiledCheck,
    build_compiled_code,
    check_compiled,
    install_compiled_code,
    sign_compiled,
)
from egm.rom.manifest import firmware_files, sha256_file, sign_manifest, write_manifest

DEV_PUBLIC_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.pub"
DEV_PRIVATE_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"
COMPILED_ROOT = PROJECT_ROOT / "rom" / "compiled"  # this checkout's compiled-code builds (not committed)


@dataclass(frozen=True)
class SignedTree:
    """Pass `manifest_path` and `trusted_keys` to verify_rom/load_paytable, or boot from `config_path`."""

    root: Path
    manifest_path: Path
    trusted_keys: list[Path]
    config_path: Path


def with_rom_section(config_text: str, manifest_path: Path, trusted_keys: list[Path],
                     compiled: Path = COMPILED_ROOT) -> str:
    """The cabinet config text with its [rom] table replaced by one naming these absolute paths (the
    compiled code: this checkout's build, which serves any copy of the tree with the same game code)."""
    keys = ", ".join(f'"{key.as_posix()}"' for key in trusted_keys)
    rom = (f'[rom]\nmanifest = "{manifest_path.as_posix()}"\ntrusted_keys = [{keys}]\n'
           f'compiled = "{compiled.as_posix()}"\n\n')
    text, count = re.subn(r"^\[rom\]\n(?:(?!\[).*\n)*", rom, config_text, flags=re.MULTILINE)
    return text if count else config_text + "\n" + rom


def sign_tree(root: Path, out_dir: Path, private_key: Path = DEV_PRIVATE_KEY,
              public_key: Path = DEV_PUBLIC_KEY) -> SignedTree:
    """Build and sign a manifest of `root` into `out_dir`, with a cabinet config that points at it. A
    copy of the tree signed in place (`out_dir` is `root`) gets this checkout's compiled code linked in,
    so its cabinets load it instead of compiling every game."""
    if out_dir == root != PROJECT_ROOT and not (root / "rom" / "compiled").exists():
        ensure_compiled_build()
        (root / "rom").mkdir(exist_ok=True)
        (root / "rom" / "compiled").symlink_to(COMPILED_ROOT, target_is_directory=True)
    manifest_path = out_dir / "rom" / "manifest.json"
    write_manifest(manifest_path, root)
    sign_manifest(manifest_path, private_key)
    config_path = out_dir / "cabinet.toml"
    config_path.write_text(with_rom_section(DEFAULT_CABINET_CONFIG.read_text(encoding="utf-8"),
                                            manifest_path, [public_key]), encoding="utf-8")
    load_cabinet_config(config_path)  # the copy must still be a valid cabinet config
    return SignedTree(root, manifest_path, [public_key], config_path)


def compiled_build_check() -> CompiledCheck:
    """This checkout's compiled-code build for this CPU, checked against its current sources."""
    firmware = [(p, sha256_file(PROJECT_ROOT / p)) for p in firmware_files(PROJECT_ROOT)]
    return check_compiled(PROJECT_ROOT, COMPILED_ROOT, [DEV_PUBLIC_KEY], firmware)


def ensure_compiled_build() -> None:
    """Build and sign (development key) this checkout's compiled code unless it is current: once per
    change of the games' compiled code (minutes), then every cabinet a test boots loads it. The pytest
    workers of one run (pytest-xdist) take turns: one builds, the others then find it current."""
    COMPILED_ROOT.mkdir(parents=True, exist_ok=True)
    with open(COMPILED_ROOT / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if compiled_build_check().state != "verified":
            build_compiled_code(PROJECT_ROOT, COMPILED_ROOT)
            sign_compiled(COMPILED_ROOT, DEV_PRIVATE_KEY)


@pytest.fixture(scope="session", autouse=True)
def compiled_code_loaded() -> None:
    """The test process's own engines load this checkout's build (as a cabinet does), made first when it
    is not current: one compile serves every pytest worker and every cabinet the tests boot."""
    ensure_compiled_build()
    install_compiled_code(compiled_build_check())


@pytest.fixture(scope="session")
def compiled_build() -> Path:
    """This checkout's current compiled-code build (made if needed), for cabinets booted by tests."""
    ensure_compiled_build()
    return COMPILED_ROOT


@pytest.fixture
def signed_tree(tmp_path: Path, compiled_build: Path) -> SignedTree:
    """A signed manifest of the current project tree, with the development key."""
    return sign_tree(PROJECT_ROOT, tmp_path)

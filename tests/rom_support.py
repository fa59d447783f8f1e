"""The `signed_tree` fixture: a freshly built and signed manifest of the current tree.

Tests that boot the cabinet or load pay tables use it so they do not depend on the shipped
rom/manifest.json being current. Registered for every test in tests/conftest.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from egm.config import DEFAULT_CABINET_CONFIG, PROJECT_ROOT, load_cabinet_config
from egm.rom.manifest import sign_manifest, write_manifest

DEV_PUBLIC_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.pub"
DEV_PRIVATE_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"


@dataclass(frozen=True)
class SignedTree:
    """Pass `manifest_path` and `trusted_keys` to verify_rom/load_paytable, or boot from `config_path`."""

    root: Path
    manifest_path: Path
    trusted_keys: list[Path]
    config_path: Path


def with_rom_section(config_text: str, manifest_path: Path, trusted_keys: list[Path]) -> str:
    """The cabinet config text with its [rom] table replaced by one naming these absolute paths."""
    keys = ", ".join(f'"{key.as_posix()}"' for key in trusted_keys)
    rom = f'[rom]\nmanifest = "{manifest_path.as_posix()}"\ntrusted_keys = [{keys}]\n\n'
    text, count = re.subn(r"^\[rom\]\n(?:(?!\[).*\n)*", rom, config_text, flags=re.MULTILINE)
    return text if count else config_text + "\n" + rom


def sign_tree(root: Path, out_dir: Path, private_key: Path = DEV_PRIVATE_KEY,
              public_key: Path = DEV_PUBLIC_KEY) -> SignedTree:
    """Build and sign a manifest of `root` into `out_dir`, with a cabinet config that points at it."""
    manifest_path = out_dir / "rom" / "manifest.json"
    write_manifest(manifest_path, root)
    sign_manifest(manifest_path, private_key)
    config_path = out_dir / "cabinet.toml"
    config_path.write_text(with_rom_section(DEFAULT_CABINET_CONFIG.read_text(encoding="utf-8"),
                                            manifest_path, [public_key]), encoding="utf-8")
    load_cabinet_config(config_path)  # the copy must still be a valid cabinet config
    return SignedTree(root, manifest_path, [public_key], config_path)


@pytest.fixture
def signed_tree(tmp_path: Path) -> SignedTree:
    """A signed manifest of the current project tree, with the development key."""
    return sign_tree(PROJECT_ROOT, tmp_path)

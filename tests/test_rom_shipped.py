"""The shipped tree is signed: rom/manifest.json must match the current firmware files exactly."""

from __future__ import annotations

from egm.config import all_jurisdictions
from egm.rom import DEVELOPMENT_KEY_ID, configured_paths, verify_rom
from egm.rom.manifest import read_manifest


def test_shipped_manifest_is_current() -> None:
    result = verify_rom()  # the manifest and trusted keys config/cabinet.toml names
    problems = "; ".join(f"{p.kind} {p.path}" for p in result.problems)
    assert result.ok, f"the shipped ROM manifest is stale: run python tools/rom_refresh.py ({problems})"
    assert result.key_id == DEVELOPMENT_KEY_ID


def test_every_jurisdiction_is_in_the_signed_rom() -> None:
    """The jurisdiction rules (hand-pay limit, RTP bounds, ...) are regulatory: signed like the pay
    tables, never left as editable configuration (docs/rom.md)."""
    manifest_path, _ = configured_paths()
    listed = {entry.path for entry in read_manifest(manifest_path).files}
    names = all_jurisdictions()
    assert {"generic", "nevada"} <= set(names)
    assert {f"jurisdictions/{name}.toml" for name in names} <= listed

"""The shipped tree is signed: rom/manifest.json must match the current firmware files exactly."""

from __future__ import annotations

from egm.rom import DEVELOPMENT_KEY_ID, verify_rom


def test_shipped_manifest_is_current() -> None:
    result = verify_rom()  # the manifest and trusted keys config/cabinet.toml names
    problems = "; ".join(f"{p.kind} {p.path}" for p in result.problems)
    assert result.ok, f"the shipped ROM manifest is stale: run python tools/rom_refresh.py ({problems})"
    assert result.key_id == DEVELOPMENT_KEY_ID

"""Rebuild the program-ROM manifest of this tree and sign it with the DEVELOPMENT key.

Run it after changing any file under egm/, hardware/ or paytables/, before running the cabinet
(`egm autoplay`) on the tree:  python tools/rom_refresh.py
"""

from __future__ import annotations

import sys

from egm.config import PROJECT_ROOT
from egm.rom.manifest import configured_paths, sign_manifest, write_manifest

DEV_PRIVATE_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"


def main() -> int:
    manifest_path, _ = configured_paths()
    manifest = write_manifest(manifest_path, PROJECT_ROOT)
    key_id = sign_manifest(manifest_path, DEV_PRIVATE_KEY)
    print(f"{manifest_path.relative_to(PROJECT_ROOT)}: {len(manifest.files)} files, signed with development "
          f"key {key_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

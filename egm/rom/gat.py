"""The GAT-style on-demand check: HMAC-SHA1 over the ROM image, keyed by a seed the lab chooses.

The ROM image is, for each file in the manifest's order, the concatenation of
    len(path) as 4 bytes big-endian || path in UTF-8 || len(content) as 8 bytes big-endian || content
so that moving bytes from one file to the next, or renaming a file, changes the result.
The manifest itself is not part of the image. The SAS ROM signature (long poll 0x21) is the CRC-16
of the same image.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from pathlib import Path

from egm.rom.manifest import Manifest
from egm.rom.signing import RomError


def parse_seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError as exc:
        raise RomError(f"--seed {text!r}: not hexadecimal; give an even number of hex digits, "
                       "e.g. 00112233") from exc
    if not seed:
        raise RomError("--seed: empty; give at least one byte as hex digits, e.g. 00112233")
    return seed


def rom_image(manifest: Manifest, root: Path) -> Iterator[bytes]:
    """The ROM image as it is on disk under `root`, file by file in manifest order (see the module
    doc). Raises RomError for a listed file that cannot be read."""
    for entry in manifest.files:
        try:
            content = (root / entry.path).read_bytes()  # firmware files are small
        except OSError as exc:
            raise RomError(f"{entry.path}: listed in the manifest but unreadable ({exc.strerror}); "
                           "the ROM image is incomplete") from exc
        name = entry.path.encode("utf-8")
        yield len(name).to_bytes(4, "big") + name + len(content).to_bytes(8, "big") + content


def rom_hmac(manifest: Manifest, root: Path, seed: bytes) -> str:
    """The 40-hex-digit HMAC-SHA1 of the ROM image as it is on disk under `root`."""
    mac = hmac.new(seed, digestmod=hashlib.sha1)
    for part in rom_image(manifest, root):
        mac.update(part)
    return mac.hexdigest()

"""The program ROM: a signed manifest of every firmware file, and the boot self-test that checks it.

Firmware files are every file under FIRMWARE_DIRS except byte-code caches and the lab's code
(NOT_FIRMWARE: the lab certifies pay tables off the cabinet; docs/rom.md says why). The manifest
(rom/manifest.json) lists each one's POSIX path relative to the project root and its SHA-256, sorted
by path, and names the key id that signs it. The signature (rom/manifest.sig, next to it) is Ed25519
over the manifest's exact bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import Field, ValidationError

from egm.config import PROJECT_ROOT, CabinetConfig, Strict, format_validation_error, load_cabinet_config
from egm.rom.signing import (
    DEVELOPMENT_KEY_ID,
    RomError,
    key_id,
    load_private_key,
    load_trusted_keys,
    read_signature,
    signature_valid,
    write_signature,
)

# The code, the hardware layer, the pay tables and the jurisdiction rules (hand-pay limit, RTP bounds...):
# what a regulator approves. The rules are regulatory, not the operator's configuration (docs/rom.md).
FIRMWARE_DIRS = ("egm", "hardware", "paytables", "jurisdictions")
# Under a firmware directory but not firmware: the lab, and each game's lab adapter (its `lab.py` or
# `lab/` package). The cabinet never runs them (tests/test_rom_lab.py), so they are not in the ROM.
NOT_FIRMWARE = ("egm/lab", "egm/games/*/lab.py", "egm/games/*/lab")
_NOT_FIRMWARE_PARTS = tuple(tuple(pattern.split("/")) for pattern in NOT_FIRMWARE)
MANIFEST_FORMAT = "egm-rom-manifest/1"
SHA256_HEX = r"^[0-9a-f]{64}$"

ProblemKind = Literal[
    "changed", "missing", "extra", "bad_signature", "bad_manifest", "unknown_key", "not_loaded"
]


class ManifestEntry(Strict):
    path: str
    sha256: str = Field(pattern=SHA256_HEX)


class Manifest(Strict):
    format: Literal["egm-rom-manifest/1"]
    key_id: str | None = Field(pattern=r"^[0-9a-f]{16}$")  # None until signed
    files: list[ManifestEntry]


@dataclass(frozen=True)
class RomProblem:
    path: str
    kind: ProblemKind
    detail: str

    def __str__(self) -> str:
        detail = self.detail if self.detail.startswith(f"{self.path}:") else f"{self.path}: {self.detail}"
        return f"{self.kind}: {detail}"  # a detail that names its file already is not prefixed twice


@dataclass(frozen=True)
class RomCheck:
    """The result of a ROM self-test. `ok` only when there is no problem at all."""

    problems: list[RomProblem] = field(default_factory=list)
    key_id: str = ""
    is_development_key: bool = False
    file_count: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def signature_path(manifest_path: Path) -> Path:
    return manifest_path.with_suffix(".sig")


def configured_paths(
    config: CabinetConfig | None = None, root: Path = PROJECT_ROOT
) -> tuple[Path, list[Path]]:
    """The manifest path and trusted public keys the cabinet config names (relative to `root`)."""
    config = config or load_cabinet_config()
    return root / config.rom.manifest, [root / key for key in config.rom.trusted_keys]


def resolve_paths(
    root: Path, trusted_keys: Sequence[Path] | None, manifest_path: Path | None
) -> tuple[Path, Sequence[Path]]:
    """Fill in the manifest path and trusted keys the caller did not give from the cabinet config."""
    if trusted_keys is not None and manifest_path is not None:
        return manifest_path, trusted_keys
    default_manifest, default_keys = configured_paths(root=root)
    return manifest_path or default_manifest, default_keys if trusted_keys is None else trusted_keys


def _is_cache(name: str) -> bool:
    return name.endswith(".pyc")  # byte-code caches are not firmware


def is_firmware(path: str) -> bool:
    """Whether a POSIX path relative to the project root lies outside NOT_FIRMWARE (segment by segment:
    a pattern names a file or a whole directory).

    >>> [is_firmware(p) for p in ("egm/cabinet/core.py", "egm/lab/cli.py", "egm/games/poker_grid/lab.py")]
    [True, False, False]
    """
    parts = path.split("/")
    return not any(
        len(parts) >= len(pattern) and all(map(fnmatchcase, parts, pattern))
        for pattern in _NOT_FIRMWARE_PARTS
    )


def firmware_files(root: Path) -> list[str]:
    """Every firmware file under `root`, as sorted POSIX paths relative to it."""
    found = []
    for top in FIRMWARE_DIRS:
        for dirpath, dirnames, filenames in os.walk(root / top):
            rel = Path(dirpath).relative_to(root).as_posix()
            # A linked directory is not walked (it could loop) but is still listed, so it cannot hide
            # code from the check: it shows as an extra file, and a manifest is never built over it.
            linked = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
            dirnames[:] = [
                d for d in dirnames if d != "__pycache__" and d not in linked and is_firmware(f"{rel}/{d}")
            ]
            found.extend(
                f"{rel}/{name}"
                for name in filenames + linked
                if not _is_cache(name) and is_firmware(f"{rel}/{name}")
            )
    return sorted(found)


def sha256_file(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def build_manifest(root: Path = PROJECT_ROOT) -> Manifest:
    entries = []
    for path in firmware_files(root):
        try:
            entries.append(ManifestEntry(path=path, sha256=sha256_file(root / path)))
        except OSError as exc:
            raise RomError(f"{root / path}: cannot be hashed ({exc.strerror}); firmware directories must "
                           "hold only regular files") from exc
    return Manifest(format=MANIFEST_FORMAT, key_id=None, files=entries)


def manifest_bytes(manifest: Manifest) -> bytes:
    """The canonical serialisation, one file per line for readable diffs: the exact bytes signed."""
    lines = [f' {json.dumps(entry.model_dump())}' for entry in manifest.files]
    head = f'{{"format": {json.dumps(manifest.format)}, "key_id": {json.dumps(manifest.key_id)}, "files": ['
    return (head + "\n" + ",\n".join(lines) + "\n]}\n").encode("utf-8")


def write_manifest(manifest_path: Path, root: Path = PROJECT_ROOT) -> Manifest:
    """Build the manifest of `root` and write it unsigned; the old signature is removed (now stale)."""
    manifest = build_manifest(root)
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    manifest_path.write_bytes(manifest_bytes(manifest))
    signature_path(manifest_path).unlink(missing_ok=True)
    return manifest


def sign_manifest(manifest_path: Path, key_path: Path, passphrase: bytes | None = None) -> str:
    """Name the key's id in the manifest, then sign its exact bytes; return the key id."""
    private = load_private_key(key_path, passphrase)
    manifest = read_manifest(manifest_path)
    signed = manifest.model_copy(update={"key_id": key_id(private.public_key())})
    data = manifest_bytes(signed)
    manifest_path.write_bytes(data)
    write_signature(signature_path(manifest_path), private.sign(data))
    return signed.key_id or ""


def _read(manifest_path: Path) -> bytes:
    try:
        return manifest_path.read_bytes()
    except OSError as exc:
        raise RomError(f"{manifest_path}: manifest unreadable ({exc.strerror}); run "
                       "'python tools/rom_refresh.py' or 'egm rom build'") from exc


def read_manifest(manifest_path: Path) -> Manifest:
    """The manifest's file list, structure checked but signature not (see load_verified_manifest)."""
    return parse_manifest(manifest_path, _read(manifest_path))


def check_path(path: str) -> str | None:
    """Why a manifest path is unsafe, or None: it must be relative, inside a firmware dir, no '..'."""
    pure = PurePosixPath(path)
    if "\\" in path or pure.is_absolute() or (len(path) > 1 and path[1] == ":"):
        return "absolute path; manifest paths are relative to the project root"
    if any(part in ("..", ".", "") for part in path.split("/")):
        return "path escapes or is not normalised ('..', '.' or '//'); rebuild the manifest"
    if pure.parts[0] not in FIRMWARE_DIRS or len(pure.parts) < 2:
        return f"path is outside the firmware directories {list(FIRMWARE_DIRS)}"
    if not is_firmware(path):
        return f"path is not firmware (the lab is not in the program ROM: {list(NOT_FIRMWARE)})"
    return None


def parse_manifest(manifest_path: Path, data: bytes) -> Manifest:
    """Check the manifest's structure and paths; RomError naming the first problem."""
    try:
        manifest = Manifest.model_validate_json(data)
    except ValidationError as exc:
        raise RomError(format_validation_error(manifest_path, exc)) from exc
    seen: set[str] = set()
    for entry in manifest.files:
        if (why := check_path(entry.path)) is not None:
            raise RomError(f"{manifest_path}: '{entry.path}': {why}")
        if entry.path in seen:
            raise RomError(f"{manifest_path}: '{entry.path}' is listed twice; rebuild the manifest")
        seen.add(entry.path)
    return manifest


def load_verified_manifest(manifest_path: Path, trusted_keys: Sequence[Path]) -> Manifest:
    """The manifest, only if it is well formed and signed by a trusted key; otherwise RomError."""
    manifest, problem = _check_manifest(manifest_path, trusted_keys)
    if problem is not None:
        raise RomError(problem.detail)
    assert manifest is not None  # no problem means a verified manifest
    return manifest


def _check_manifest(
    manifest_path: Path, trusted_keys: Sequence[Path]
) -> tuple[Manifest | None, RomProblem | None]:
    """The parsed manifest (None if unreadable) and the problem with it or its signature, if any."""
    shown = str(manifest_path)
    try:
        data = _read(manifest_path)
        manifest = parse_manifest(manifest_path, data)
    except RomError as exc:
        return None, RomProblem(shown, "bad_manifest", str(exc))
    sig_path = signature_path(manifest_path)
    try:
        signature = read_signature(sig_path)
        keys = load_trusted_keys(list(trusted_keys))
    except RomError as exc:
        return manifest, RomProblem(str(sig_path), "bad_signature", str(exc))
    if manifest.key_id is None:
        return manifest, RomProblem(shown, "bad_signature", f"{manifest_path}: the manifest names no key "
                                    "id (built but never signed); sign it with 'egm rom sign --key PATH'")
    if manifest.key_id not in keys:
        return manifest, RomProblem(shown, "unknown_key", f"{manifest_path}: signed with key id "
                                    f"{manifest.key_id}, which is not a trusted key {sorted(keys)}; add its "
                                    ".pub to [rom] trusted_keys or re-sign with a trusted key")
    if not signature_valid(keys[manifest.key_id], signature, data):
        return manifest, RomProblem(str(sig_path), "bad_signature", f"{sig_path}: the signature does not "
                                    f"match the manifest bytes for key {manifest.key_id}; the manifest was "
                                    "altered after signing, or sign it again")
    return manifest, None


def check_files(manifest: Manifest, root: Path) -> list[RomProblem]:
    """Every listed file present and matching; no unlisted firmware file."""
    problems = []
    listed = {entry.path for entry in manifest.files}
    for entry in manifest.files:
        path = root / entry.path
        try:
            actual = sha256_file(path)
        except FileNotFoundError:
            problems.append(RomProblem(entry.path, "missing", "listed in the manifest but not present"))
            continue
        except OSError as exc:
            problems.append(RomProblem(entry.path, "missing", f"unreadable ({exc.strerror})"))
            continue
        if actual != entry.sha256:
            problems.append(RomProblem(entry.path, "changed",
                                       f"SHA-256 {actual} differs from the manifest's {entry.sha256}"))
    problems.extend(RomProblem(p, "extra", "firmware file not listed in the manifest")
                    for p in firmware_files(root) if p not in listed)
    return problems


def verify_rom(
    root: Path = PROJECT_ROOT,
    trusted_keys: Sequence[Path] | None = None,
    manifest_path: Path | None = None,
) -> RomCheck:
    """The ROM self-test: signature by a trusted key, every listed file matching, no extra file.

    Paths not given come from the cabinet config (config/cabinet.toml [rom]), relative to `root`.
    Never raises for a bad ROM: every failure is a RomProblem, so the cabinet can tilt and name it.
    """
    manifest_path, trusted_keys = resolve_paths(root, trusted_keys, manifest_path)
    manifest, problem = _check_manifest(manifest_path, trusted_keys)
    problems = [] if problem is None else [problem]
    if manifest is None:
        return RomCheck(problems=problems)
    # Files are compared even under a bad signature: it tells the technician what changed.
    problems.extend(check_files(manifest, root))
    return RomCheck(problems=problems, key_id=manifest.key_id or "",
                    is_development_key=manifest.key_id == DEVELOPMENT_KEY_ID, file_count=len(manifest.files))

"""The compiled code built with the ROM: numba's machine code for the games' engines, signed and verified
like any firmware file, loaded only from bytes the boot has just checked. docs/rom.md says why.

`egm rom build` compiles every game's engine (a practice round of each game, `Game.prepare`) in a fresh
process and keeps what numba wrote as a **build for this CPU type**: `<[rom] compiled>/<target>/` holds
`cache/` (numba's index and data files, by source folder) and `manifest.json`, which names the target
(CPU, its features, numba, Python), the firmware sources compiled from (path, SHA-256) and every artefact
(path, SHA-256); `manifest.sig` is its Ed25519 signature (`egm rom sign`). Builds are products of a
machine, not sources: they are not committed, and each CPU type a cabinet image serves has its own.

At power-up (`install_catalogue_code` then `prepare_games`: the boot screen's "ROM files checked" and
"games prepared", and what a game server's warm-up runs) `prepare_compiled_code` checks this CPU's
build: signature by a trusted key, each artefact's SHA-256, none missing or added (any of these is a ROM
problem naming the file, and no game is loaded). It reads each artefact once, checks those bytes and
writes them into the process's private runtime cache (egm.jit), the only place numba loads from. A build
absent for this CPU, or built from other sources (stale), installs nothing: the games compile into the
runtime cache, which no later boot trusts, and the boot screen says so while it happens.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Literal

from pydantic import Field, ValidationError

from egm.boot_progress import GAMES, BootProgress
from egm.config import PROJECT_ROOT, CabinetConfig, Strict, format_validation_error
from egm.rom.manifest import (
    SHA256_HEX,
    Manifest,
    RomCheck,
    RomProblem,
    firmware_files,
    read_manifest,
    sha256_file,
)
from egm.rom.signing import (
    RomError,
    key_id,
    load_private_key,
    load_trusted_keys,
    read_signature,
    signature_valid,
    write_signature,
)

if TYPE_CHECKING:
    from egm.games.base import Game
    from egm.rom.catalogue import Catalogue

COMPILED_FORMAT = "egm-compiled-code/1"
CACHE = "cache"  # numba's files, inside a build
MANIFEST = "manifest.json"
JIT_SOURCE = "egm/jit.py"
BUILD_TIMEOUT_S = 3600  # a first compile of every engine on a busy 2-core machine takes minutes


class CompiledFile(Strict):
    path: str
    sha256: str = Field(pattern=SHA256_HEX)


class CompiledManifest(Strict):
    format: Literal["egm-compiled-code/1"]
    key_id: str | None = Field(pattern=r"^[0-9a-f]{16}$")  # None until signed
    target: dict[str, str]
    sources: list[CompiledFile]
    files: list[CompiledFile]


State = Literal["verified", "absent", "stale", "bad"]


@dataclass(frozen=True)
class CompiledCheck:
    """This CPU's build: `verified` (its artefacts' checked bytes in `artefacts`), `absent`, `stale` (built
    from other sources) or `bad` (`problems`: ROM problems, each naming its file)."""

    state: State
    directory: Path
    problems: list[RomProblem] = field(default_factory=list)
    artefacts: dict[str, bytes] = field(default_factory=dict, repr=False)

    def sentence(self) -> str:
        """What the boot screen and the logs say about it."""
        return {
            "verified": f"compiled code verified ({len(self.artefacts)} files, {self.directory.name})",
            "absent": f"no compiled code built for this CPU ({self.directory.name}): compiling now; "
                      "'egm rom build' builds it",
            "stale": "the compiled code was built from other sources: compiling now; 'egm rom build' "
                     "rebuilds it",
            "bad": "the compiled code failed its check: " + "; ".join(map(str, self.problems)),
        }[self.state]


def target() -> dict[str, str]:
    """What numba's machine code is valid for: this CPU (name and features), numba and Python."""
    import numba
    from numba.core.registry import cpu_target

    triple, cpu, features = cpu_target.target_context.codegen().magic_tuple()
    return {"cpu": cpu, "triple": triple, "features": features, "numba": numba.__version__,
            "python": f"{sys.version_info.major}.{sys.version_info.minor}"}


def target_id(described: dict[str, str]) -> str:
    """The build directory's name: the CPU's name and a digest of the whole target."""
    digest = hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()[:12]
    return f"{described['cpu']}-{digest}"


def compiled_sources(firmware: Sequence[tuple[str, str]], folders: set[str]) -> list[CompiledFile]:
    """Of the ROM's (path, SHA-256) firmware files, the sources its compiled code comes from: every
    module in a folder holding compiled code (compiled code inlines only the modules of its own folder
    and `egm.jit`, so a change anywhere else leaves the build current), and `egm/jit.py`."""
    return [CompiledFile(path=p, sha256=s) for p, s in sorted(firmware)
            if p == JIT_SOURCE or (p.endswith(".py") and str(PurePosixPath(p).parent) in folders)]


def firmware_of(manifest: Manifest) -> list[tuple[str, str]]:
    return [(entry.path, entry.sha256) for entry in manifest.files]


def configured_compiled_root(config: CabinetConfig, root: Path = PROJECT_ROOT) -> Path:
    """Where the cabinet config's builds live (`[rom] compiled`, relative to `root` or absolute)."""
    return root / config.rom.compiled


def build_dir(compiled_root: Path) -> Path:
    """This CPU's build directory."""
    return compiled_root / target_id(target())


def compiled_bytes(manifest: CompiledManifest) -> bytes:
    """The canonical serialisation: the exact bytes signed."""
    return (json.dumps(manifest.model_dump(), indent=1, sort_keys=True) + "\n").encode("utf-8")


def _shown(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def _unsafe(path: str) -> bool:
    pure = PurePosixPath(path)
    return pure.is_absolute() or "\\" in path or any(part in ("", ".", "..") for part in path.split("/"))


def _listed(cache: Path) -> list[str]:
    """Every file under `cache` (a linked directory counts as a file and is not followed)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(cache):
        linked = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        dirnames[:] = [d for d in dirnames if d not in linked]
        rel = Path(dirpath).relative_to(cache)
        found.extend((rel / name).as_posix() for name in filenames + linked)
    return sorted(found)


def check_compiled(root: Path, compiled_root: Path, trusted_keys: Sequence[Path],
                   firmware: Sequence[tuple[str, str]]) -> CompiledCheck:
    """Check this CPU's build against its signed manifest, and whether it was built from the ROM's
    `firmware` files (see the module doc). Never raises for a bad build: each failure is a RomProblem
    naming the file."""
    directory = build_dir(compiled_root)
    manifest_path = directory / MANIFEST
    shown = _shown(manifest_path, root)
    if not manifest_path.exists():
        return CompiledCheck("absent", directory)
    try:
        data = manifest_path.read_bytes()
        manifest = CompiledManifest.model_validate_json(data)
    except OSError as exc:
        return CompiledCheck("bad", directory, [RomProblem(shown, "bad_manifest", f"unreadable ({exc})")])
    except ValidationError as exc:
        problem = RomProblem(shown, "bad_manifest", format_validation_error(manifest_path, exc))
        return CompiledCheck("bad", directory, [problem])
    problems = _signature_problems(manifest_path, data, manifest, trusted_keys, root)
    artefacts: dict[str, bytes] = {}
    cache = directory / CACHE
    for entry in manifest.files:
        where = _shown(cache / entry.path, root)
        if _unsafe(entry.path):
            problems.append(RomProblem(where, "bad_manifest", "path escapes the build; rebuild it"))
            continue
        try:
            content = (cache / entry.path).read_bytes()
        except OSError as exc:
            problems.append(RomProblem(where, "missing", f"listed in the compiled-code manifest but not "
                                       f"readable ({exc.strerror}); rebuild with 'egm rom build'"))
            continue
        actual = hashlib.sha256(content).hexdigest()
        if actual != entry.sha256:
            problems.append(RomProblem(where, "changed", f"SHA-256 {actual} differs from the compiled-code "
                                       f"manifest's {entry.sha256}"))
        artefacts[entry.path] = content
    listed = {entry.path for entry in manifest.files}
    problems.extend(RomProblem(_shown(cache / path, root), "extra", "compiled-code file not listed in "
                               "its manifest") for path in _listed(cache) if path not in listed)
    if problems:
        return CompiledCheck("bad", directory, problems)
    folders = {str(PurePosixPath(source.path).parent) for source in manifest.sources
               if source.path != JIT_SOURCE}
    if manifest.sources != compiled_sources(firmware, folders):
        return CompiledCheck("stale", directory)
    return CompiledCheck("verified", directory, artefacts=artefacts)


def _signature_problems(manifest_path: Path, data: bytes, manifest: CompiledManifest,
                        trusted_keys: Sequence[Path], root: Path) -> list[RomProblem]:
    shown, sig_path = _shown(manifest_path, root), manifest_path.with_suffix(".sig")
    try:
        signature = read_signature(sig_path)
        keys = load_trusted_keys(list(trusted_keys))
    except RomError as exc:
        return [RomProblem(_shown(sig_path, root), "bad_signature", str(exc))]
    if manifest.key_id not in keys:
        return [RomProblem(shown, "unknown_key", f"signed with key id {manifest.key_id}, which is not a "
                           f"trusted key {sorted(keys)}; sign the build with 'egm rom sign --key PATH'")]
    if not signature_valid(keys[manifest.key_id], signature, data):
        return [RomProblem(shown, "bad_signature", "the signature does not match the compiled-code "
                           "manifest's bytes; it was altered after signing")]
    return []


def install_compiled_code(check: CompiledCheck) -> None:
    """Write a verified build's checked bytes into this process's runtime cache, before any compiled
    function runs (numba reads its index when a function is first called)."""
    from egm.jit import runtime_cache_dir

    if check.state != "verified":
        return
    cache = runtime_cache_dir()
    for path, content in check.artefacts.items():
        target_path = cache / path
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target_path.write_bytes(content)


def prepare_compiled_code(root: Path, compiled_root: Path, trusted_keys: Sequence[Path],
                          manifest: Manifest) -> CompiledCheck:
    """The boot's (and `egm server warm`'s) first half of "games prepared": check this CPU's build for
    the verified ROM `manifest` and install it. The second half is each game's `prepare()`."""
    check = check_compiled(root, compiled_root, trusted_keys, firmware_of(manifest))
    install_compiled_code(check)
    return check


def install_catalogue_code(catalogue: Catalogue,
                           compiled_root: Path) -> tuple[Catalogue, CompiledCheck | None]:
    """For the games `egm.rom.catalogue.load_games` loaded: check this CPU's build against that ROM and
    install it (`prepare_compiled_code`). A build that fails its check leaves no game loaded (its problems
    stand as ROM problems, like a refused pay table). The check is None when no game was loaded (the ROM
    failed). The cabinet's boot and `egm server warm` call this, then `prepare_games`."""
    if not catalogue.games:
        return catalogue, None
    check = prepare_compiled_code(catalogue.root, compiled_root, catalogue.trusted_keys,
                                  read_manifest(catalogue.manifest_path))
    if not check.problems:
        return catalogue, check
    not_loaded = RomProblem("games", "not_loaded", "the compiled code failed its check, so no game was "
                            "loaded; restore the ROM's compiled code (or build and sign it) and power-cycle")
    refused = (*catalogue.refused, *check.problems, not_loaded)
    return dataclasses.replace(catalogue, games={}, refused=refused), None


def recheck(catalogue: Catalogue, compiled_root: Path) -> RomCheck:
    """The ROM self-test at a door close or from the operator menu: the catalogue's (program ROM, pay
    tables), and this CPU's compiled code again, as every firmware file."""
    check = catalogue.rom_check()
    if not check.ok:
        return check
    compiled = check_compiled(catalogue.root, compiled_root, catalogue.trusted_keys,
                              firmware_of(read_manifest(catalogue.manifest_path)))
    return dataclasses.replace(check, problems=[*check.problems, *compiled.problems])


def prepare_games(games: Mapping[str, Game], check: CompiledCheck,
                  progress: BootProgress | None = None) -> None:
    """The second half of "games prepared" (after `prepare_compiled_code` and loading the games): each
    game's engine made ready (`Game.prepare`) before anything offers it, shown on `progress` with what
    the compiled code is (verified, or being compiled now)."""
    progress = progress or BootProgress()
    progress.compiling = check.state != "verified"
    for n, game in enumerate(games.values(), 1):
        progress.running(GAMES, f"{game.title} ({n} of {len(games)}): {check.sentence()}")
        game.prepare()
    progress.done(GAMES, f"{len(games)} games ready; {check.sentence()}")


def install_configured_build(config: CabinetConfig | None = None, root: Path = PROJECT_ROOT) -> None:
    """Outside the cabinet (the lab): install the configured ROM's compiled code for this CPU when the
    ROM and the build verify, once per process (nothing is installed over code already loaded or
    compiled here); otherwise the compiled code compiles in this process."""
    from egm.config import load_cabinet_config
    from egm.jit import runtime_cache_dir
    from egm.rom.manifest import configured_paths, verify_rom

    if any(path.is_file() for path in runtime_cache_dir().rglob("*")):
        return
    config = config or load_cabinet_config()
    manifest_path, trusted_keys = configured_paths(config, root)
    if verify_rom(root, trusted_keys, manifest_path).ok:
        prepare_compiled_code(root, configured_compiled_root(config, root), trusted_keys,
                              read_manifest(manifest_path))


# --- building (egm rom build) and signing (egm rom sign) ---------------------------------------------
def build_compiled_code(root: Path, compiled_root: Path, config_path: Path | None = None) -> Path:
    """Compile every game the cabinet config names (default: `root`'s config/cabinet.toml) in a fresh
    process of `root`'s tree, and keep what it compiled as this CPU's build (unsigned), replacing the old
    one. Returns the build's directory."""
    config_path = config_path or root / "config" / "cabinet.toml"
    compiled_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=compiled_root))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    try:
        command = [sys.executable, "-m", "egm.rom.compiled", str(staging), str(config_path)]
        run = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                             timeout=BUILD_TIMEOUT_S)
        if run.returncode != 0:
            raise RomError(f"{root}: compiling the games' code failed: {run.stderr.strip()[-2000:]}")
        directory = compiled_root / run.stdout.strip().splitlines()[-1]
        shutil.rmtree(directory, ignore_errors=True)
        staging.rename(directory)
        directory.chmod(0o755)  # mkdtemp made it private to the builder; the cabinet's user reads it
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


def _compile_here(out: Path, config_path: Path) -> str:
    """In the build process (this tree's code): play a practice round of every game the config names,
    then copy what numba wrote into `out`/cache and describe it in `out`/manifest.json. Returns the
    target id."""
    from egm.config import load_cabinet_config
    from egm.games import game_class
    from egm.jit import runtime_cache_dir
    from egm.rom.paytable import practice_paytable

    config = load_cabinet_config(config_path)
    for game_id in config.games:
        paytable = practice_paytable(PROJECT_ROOT / "paytables" / config.paytables.get(game_id,
                                                                                       f"{game_id}.toml"))
        game_class(game_id)(paytable).prepare()
    shutil.copytree(runtime_cache_dir(), out / CACHE)
    files = [CompiledFile(path=p, sha256=sha256_file(out / CACHE / p)) for p in _listed(out / CACHE)]
    folders = {str(PurePosixPath(file.path).parent) for file in files}
    sources = compiled_sources([(p, sha256_file(PROJECT_ROOT / p)) for p in firmware_files(PROJECT_ROOT)],
                               folders)
    described = target()
    manifest = CompiledManifest(format=COMPILED_FORMAT, key_id=None, target=described, sources=sources,
                                files=files)
    (out / MANIFEST).write_bytes(compiled_bytes(manifest))
    return target_id(described)


def sign_compiled(compiled_root: Path, key_path: Path, passphrase: bytes | None = None) -> list[Path]:
    """Sign every build under `compiled_root` (each CPU type's) with the key; the manifests signed."""
    private = load_private_key(key_path, passphrase)
    signed = []
    for manifest_path in sorted(compiled_root.glob(f"*/{MANIFEST}")):
        try:
            manifest = CompiledManifest.model_validate_json(manifest_path.read_bytes())
        except ValidationError as exc:
            raise RomError(format_validation_error(manifest_path, exc)) from exc
        data = compiled_bytes(manifest.model_copy(update={"key_id": key_id(private.public_key())}))
        manifest_path.write_bytes(data)
        write_signature(manifest_path.with_suffix(".sig"), private.sign(data))
        signed.append(manifest_path)
    return signed


if __name__ == "__main__":
    print(_compile_here(Path(sys.argv[1]), Path(sys.argv[2])))

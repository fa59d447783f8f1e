"""The pay-table ROM: a game obtains its pay table only through `load_paytable`.

A pay table is a TOML file (layout in docs/rom.md): a common `[paytable]` header and a game-specific
`[game]` table checked by the model `egm.games.paytable_model(game)` returns. It is loaded only when it
is signed: listed with a matching hash in the verified program-ROM manifest, or (for a table from
outside the tree, e.g. one a lab is certifying) with a detached `<file>.sig` by a trusted key.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    Field,
    PositiveInt,
    ValidationError,
    ValidationInfo,
    create_model,
    field_validator,
)

from egm import games
from egm.config import PROJECT_ROOT, Strict, format_validation_error
from egm.games.bounds import MAX_BET_CREDITS
from egm.meters import METER_DIGITS, ROLLOVER
from egm.rom.manifest import load_verified_manifest, resolve_paths
from egm.rom.signing import (
    RomError,
    detached_signature_path,
    load_trusted_keys,
    read_signature,
    signature_valid,
)


class PaytableError(RomError):
    """A pay table is unsigned, tampered with, or breaks its schema. The message names file and key."""


class PaytableInvalid(PaytableError):
    """A pay table as signed, but its schema refuses it: only its own game is out of service."""


class PaytableHeader(Strict):
    """The `[paytable]` table every pay table has."""

    id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    game: str
    strategy: str | None = Field(default=None, min_length=1)  # house-way / machine-strategy version
    denominations_cents: list[Annotated[int, Field(ge=1, lt=ROLLOVER)]] = Field(min_length=1, max_length=100)
    bets_credits: list[Annotated[int, Field(ge=1, le=MAX_BET_CREDITS)]] = Field(min_length=1, max_length=100)
    default_bet_credits: int = Field(ge=1, le=MAX_BET_CREDITS)
    max_win_cents: PositiveInt = Field(lt=ROLLOVER)  # fits the meters
    description: str = ""

    @field_validator("game")
    @classmethod
    def _registered(cls, game: str) -> str:
        known = games.descriptors()
        if game not in known:
            raise ValueError(f"'{game}' is not a registered game id; use one of {sorted(known)}")
        return game

    @field_validator("denominations_cents", "bets_credits")
    @classmethod
    def _each_once(cls, values: list[int]) -> list[int]:
        if len(set(values)) != len(values):
            raise ValueError("a value is listed twice; list each once")
        return values

    @field_validator("default_bet_credits")
    @classmethod
    def _allowed_bet(cls, bet: int, info: ValidationInfo) -> int:
        bets = info.data.get("bets_credits")
        if bets is not None and bet not in bets:
            raise ValueError(f"{bet} is not one of bets_credits {bets}; make it one of them")
        return bet


class _HeaderDocument(Strict):
    """The whole file with only the header checked: the header names the game whose schema applies."""

    paytable: PaytableHeader
    game: dict[str, Any]


@dataclass(frozen=True)
class PayTable:
    """A verified, validated pay table. `sha256` is the hex SHA-256 of the file's exact bytes."""

    id: str
    version: str
    game: str
    sha256: str
    path: Path
    header: PaytableHeader
    rules: BaseModel


def _check_signed(path: Path, data: bytes, root: Path, trusted_keys: Sequence[Path],
                  manifest_path: Path) -> None:
    digest = hashlib.sha256(data).hexdigest()
    try:
        relative = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        relative = None
    if relative is not None:
        try:
            manifest = load_verified_manifest(manifest_path, trusted_keys)
        except RomError as exc:
            raise PaytableError(f"{path}: refused, the program ROM manifest is not valid: {exc}") from exc
        listed = {entry.path: entry.sha256 for entry in manifest.files}
        if relative in listed:
            if listed[relative] != digest:
                raise PaytableError(f"{path}: refused, its SHA-256 {digest} differs from the signed "
                                    f"manifest's {listed[relative]}; restore the approved file or run "
                                    "'python tools/rom_refresh.py' (development only)")
            return
    sig_path = detached_signature_path(path)
    if not sig_path.exists():
        raise PaytableError(f"{path}: refused, it is unsigned (not in the signed manifest and no "
                            f"{sig_path.name}); sign it with 'egm rom sign --key PATH --detached {path}'")
    try:
        signature = read_signature(sig_path)
        keys = load_trusted_keys(list(trusted_keys))
    except RomError as exc:
        raise PaytableError(f"{path}: refused: {exc}") from exc
    if not any(signature_valid(key, signature, data) for key in keys.values()):
        raise PaytableError(f"{path}: refused, {sig_path.name} is not a valid signature of this file by a "
                            f"trusted key {sorted(keys)}; the file was altered or signed with another key")


def parse_paytable(path: Path, data: bytes) -> tuple[PaytableHeader, BaseModel]:
    """Check a pay table's bytes against the common header and its game's schema."""
    try:
        document: dict[str, Any] = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PaytableInvalid(f"{path}: not valid TOML ({exc}); fix the syntax") from exc
    try:
        header = _HeaderDocument.model_validate(document).paytable
        try:
            rules_model = games.paytable_model(header.game)
        except ImportError as exc:
            raise PaytableInvalid(f"{path}: key 'paytable.game': the pay-table schema of game "
                                f"'{header.game}' is not installed ({exc})") from exc
        full = create_model("PaytableDocument", __base__=Strict, paytable=(PaytableHeader, ...),
                            game=(rules_model, ...))
        rules = full.model_validate(document).game  # type: ignore[attr-defined]
    except ValidationError as exc:
        problems = format_validation_error(path, exc).splitlines()  # one sentence: the first, counted
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise PaytableInvalid(problems[0] + more) from exc
    allowed = games.strategies(header.game)
    if allowed is not None and header.strategy not in allowed:
        raise PaytableInvalid(f"{path}: key 'paytable.strategy': '{header.strategy}' is not a {header.game} "
                            f"strategy; use one of {sorted(allowed)}")
    _check_fits_the_meters(path, header, rules)
    return header, rules


def _check_fits_the_meters(path: Path, header: PaytableHeader, rules: BaseModel) -> None:
    """Refuse a pay table whose largest stake or win (at its largest bet and denomination) the meters
    cannot count: it would be metered modulo the rollover. A game declares the bound as
    `largest_win_credits(bet_credits)` on its rules."""
    stake = max(header.bets_credits) * getattr(rules, "stake_bets", 1) * max(header.denominations_cents)
    if stake >= ROLLOVER:
        raise PaytableInvalid(f"{path}: refused, its largest stake ({stake} cents at the largest bet and "
                            f"denomination) does not fit the {METER_DIGITS}-digit meters; lower it")
    largest = getattr(rules, "largest_win_credits", None)
    if largest is None:
        return
    cents = largest(max(header.bets_credits)) * max(header.denominations_cents)
    if cents >= ROLLOVER:
        raise PaytableInvalid(f"{path}: refused, its largest win ({cents} cents at the largest bet and "
                            f"denomination) does not fit the {METER_DIGITS}-digit meters; lower its pays")


def load_paytable(
    path: Path | str,
    *,
    root: Path = PROJECT_ROOT,
    trusted_keys: Sequence[Path] | None = None,
    manifest_path: Path | None = None,
) -> PayTable:
    """Load a pay table only if it is signed and valid; raise PaytableError naming file and key.

    The file is read once: the bytes that are hashed and checked are the bytes that are parsed.
    Paths not given come from the cabinet config, as for `verify_rom`.
    """
    path = Path(path)
    manifest_path, trusted_keys = resolve_paths(root, trusted_keys, manifest_path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PaytableError(f"{path}: cannot read the pay table ({exc.strerror}); check the path") from exc
    _check_signed(path, data, root, trusted_keys, manifest_path)
    return _paytable(path, data)


def practice_paytable(path: Path) -> PayTable:
    """A pay table read WITHOUT its signature check: only for `egm rom build`, which plays practice
    rounds with it to compile the games' code before the ROM is signed (no money, no cabinet)."""
    return _paytable(path, path.read_bytes())


def _paytable(path: Path, data: bytes) -> PayTable:
    header, rules = parse_paytable(path, data)
    return PayTable(id=header.id, version=header.version, game=header.game,
                    sha256=hashlib.sha256(data).hexdigest(), path=path, header=header, rules=rules)

"""Cabinet, device and jurisdiction configuration: TOML files in `config/`, checked against a schema.

An unknown key, a missing key or a wrong type is a `ConfigError` that names the file and the key.
The schema is declared with pydantic models (strict types, extra keys forbidden).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from hardware.core.config import ConfigError, DevicesConfig, Strict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = PROJECT_ROOT / "config"
DEFAULT_CABINET_CONFIG = CONFIG_DIR / "cabinet.toml"


class RomConfig(Strict):
    # Paths are relative to the project root, or absolute (tests point them at a temporary manifest).
    manifest: str = "rom/manifest.json"  # its Ed25519 signature is the .sig beside it
    trusted_keys: list[str] = ["keys/dev-ed25519.pub"]  # public keys the cabinet trusts


class DisplayConfig(Strict):
    width: int = Field(default=1920, ge=320)
    height: int = Field(default=1080, ge=240)
    fps: int = Field(default=60, ge=1, le=240)


class AudioConfig(Strict):
    volume: float = Field(default=0.7, ge=0.0, le=1.0, strict=False)
    mute: bool = False


class CabinetConfig(Strict):
    site_name: str = "EGM Test Casino"
    site_address: str = "1 Test Way"
    machine_number: str = Field(default="0001", pattern=r"^[0-9]{1,8}$")
    denomination_cents: int = Field(default=1, ge=1)
    bill_denominations_cents: list[int] = [100, 500, 1000, 2000, 5000, 10000]
    jurisdiction: str = "generic"
    games: list[str] = ["dragon-poker", "poker-grid"]
    # Game packages outside egm/games (importable from the Python path), each with a descriptor.py;
    # games inside egm/games are found by scanning and need no entry here (docs/games.md).
    game_packages: list[str] = []
    ticket_expiry_days: int = Field(default=30, ge=1)
    # The cabinet's own credit limit (0: the jurisdiction's), and where a win past it goes.
    credit_limit_cents: int = Field(default=0, ge=0)
    credit_limit_win: Literal["handpay", "ticket"] = "handpay"
    event_log_size: int = Field(default=500, ge=100)
    kiosk: bool = False
    rom: RomConfig = RomConfig()
    devices: DevicesConfig = DevicesConfig()
    display: DisplayConfig = DisplayConfig()
    audio: AudioConfig = AudioConfig()


class JurisdictionConfig(Strict):
    """A regulator's rules: RTP range, hand-pay limit, recall depth, RNG confidence, award odds."""

    name: str
    min_rtp: float = Field(ge=0.0, le=1.0, strict=False)
    max_rtp: float = Field(ge=0.0, le=2.0, strict=False)
    hand_pay_limit_cents: int = Field(default=120000, ge=1)
    credit_limit_cents: int = Field(default=0, ge=0)  # the most credit a player may hold; 0: no limit
    recall_depth: int = Field(default=10, ge=10)
    rng_confidence: float = Field(default=0.99, gt=0.0, lt=1.0, strict=False)
    award_odds_limit: int = Field(default=100_000_000, ge=1)  # every award at least once in N games


M = TypeVar("M", bound=BaseModel)


def format_validation_error(path: Path | str, exc: ValidationError) -> str:
    """One sentence per problem, each naming the file and the dotted key."""
    problems = []
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        if err["type"] == "extra_forbidden":
            problems.append(f"{path}: unknown key '{key}'; remove it or check its spelling")
        elif err["type"] == "missing":
            problems.append(f"{path}: missing key '{key}'; add it")
        else:
            problems.append(f"{path}: key '{key}': {err['msg']} (got {err.get('input')!r})")
    return "\n".join(problems)


def load_model(path: Path | str, model: type[M]) -> M:
    """Read a TOML file and check it against `model`; raise ConfigError naming file and key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: file not found; check the path") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the syntax") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(path, exc)) from exc


def load_cabinet_config(path: Path | str | None = None) -> CabinetConfig:
    return load_model(path or DEFAULT_CABINET_CONFIG, CabinetConfig)


def load_jurisdiction(name: str) -> JurisdictionConfig:
    path = CONFIG_DIR / "jurisdictions" / f"{name}.toml"
    if not path.exists():
        known = sorted(p.stem for p in (CONFIG_DIR / "jurisdictions").glob("*.toml"))
        raise ConfigError(f"unknown jurisdiction '{name}'; choose one of {known}")
    return load_model(path, JurisdictionConfig)

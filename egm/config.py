"""Cabinet, device and jurisdiction configuration: TOML files in `config/`, checked against a schema.

An unknown key, a missing key, a wrong type or a value out of range is a `ConfigError` that names
the file and the key, raised when the file is loaded, before any money can move. The schema is
declared with pydantic models (strict types, extra keys forbidden). Amounts must fit the meters
(`egm.meters`); the jurisdiction must be one of `jurisdictions/*.toml`, by plain name. The jurisdiction
rules are regulatory, so they are firmware (in the signed ROM, docs/rom.md), not configuration.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator, model_validator

from egm.meters import ROLLOVER
from hardware.core.config import ConfigError, DevicesConfig, Strict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = PROJECT_ROOT / "config"
DEFAULT_CABINET_CONFIG = CONFIG_DIR / "cabinet.toml"
JURISDICTIONS_DIR = PROJECT_ROOT / "jurisdictions"  # a firmware directory: the ROM signs every rule file
JURISDICTION_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # a file name in jurisdictions/, no path
MAX_TICKET_EXPIRY_DAYS = 3650  # ten years: longer than any jurisdiction keeps a ticket redeemable
MAX_EVENT_LOG_SIZE = 1_000_000  # entries: a ring wager memory keeps in both copies (SQLite integer keys)
MAX_DISPLAY_PIXELS = 16384  # the widest or tallest display a graphics card drives
Cents = Annotated[int, Field(ge=1, lt=ROLLOVER)]  # a positive amount the 10-digit meters can count


class RomConfig(Strict):
    # Paths are relative to the project root, or absolute (tests point them at a temporary manifest).
    manifest: str = "rom/manifest.json"  # its Ed25519 signature is the .sig beside it
    trusted_keys: list[str] = ["keys/dev-ed25519.pub"]  # public keys the cabinet trusts
    # The compiled code built with the ROM: one signed build per CPU type (egm.rom.compiled).
    compiled: str = "rom/compiled"


class DisplayConfig(Strict):
    width: int = Field(default=1920, ge=320, le=MAX_DISPLAY_PIXELS)
    height: int = Field(default=1080, ge=240, le=MAX_DISPLAY_PIXELS)
    fps: int = Field(default=60, ge=1, le=240)


class AudioConfig(Strict):
    volume: float = Field(default=0.7, ge=0.0, le=1.0, strict=False)
    mute: bool = False


class GameServerConfig(Strict):
    """The central game server this cabinet takes its games from (seed 004, [0021]; docs/cabinet-on-
    server.md). Paths are relative to the project root, or absolute."""

    url: str = Field(pattern=r"^https?://[^\s/]+(/[^\s]*)?$")  # e.g. http://127.0.0.1:8000
    terminal_id: str = Field(pattern=r"^[A-Za-z0-9._-]{1,64}$")  # as `egm server terminal add --id`
    private_key: str = Field(min_length=1)  # the terminal's Ed25519 private key (PEM) that signs requests
    offline_tilt_s: int = Field(default=30, ge=1, le=24 * 3600)  # a round waiting this long tilts
    # The server's catalogue key (PEM): a catalogue it signs vouches for pay tables the ROM lacks.
    catalogue_public_key: str | None = None

    @field_validator("private_key", "catalogue_public_key")
    @classmethod
    def _readable(cls, path: str | None, info: ValidationInfo) -> str | None:
        if path is not None and not resolve_path(path).is_file():
            raise ValueError(f"the key file {path} is not found; give the path of a PEM file")
        return path


class CabinetConfig(Strict):
    site_name: str = "EGM Test Casino"
    site_address: str = "1 Test Way"
    machine_number: str = Field(default="0001", pattern=r"^[0-9]{1,8}$")
    # The accounting denomination: SAS reports its meters in credits of it, and it is the denomination
    # shown until the operator sets another default or the player chooses one (docs/screens.md).
    denomination_cents: Cents = 1
    # The denominations the player may choose between games (each game offers those its pay table
    # lists); each a whole multiple of the accounting denomination. Empty: the default one only.
    player_denominations_cents: list[Cents] = []
    bill_denominations_cents: list[Cents] = [100, 500, 1000, 2000, 5000, 10000]
    jurisdiction: str = "generic"
    games: list[str] = ["dragon-poker", "poker-grid"]
    # Game packages outside egm/games (importable from the Python path), each with a descriptor.py;
    # games inside egm/games are found by scanning and need no entry here (docs/games.md).
    game_packages: list[str] = []
    # The pay table each game plays, by game id: a file under paytables/ (default "<game id>.toml").
    # Poker Grid's opponent count is its pay table's: e.g. poker-grid = "poker-grid-3.toml".
    paytables: dict[str, Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+\.toml$")]] = {}
    ticket_expiry_days: int = Field(default=30, ge=1, le=MAX_TICKET_EXPIRY_DAYS)
    # The cabinet's own credit limit (0: the jurisdiction's), and where a win past it goes; the limit
    # must fit the meters like every amount.
    credit_limit_cents: int = Field(default=0, ge=0, lt=ROLLOVER)
    credit_limit_win: Literal["handpay", "ticket"] = "handpay"
    event_log_size: int = Field(default=500, ge=100, le=MAX_EVENT_LOG_SIZE)
    kiosk: bool = False
    rom: RomConfig = RomConfig()
    devices: DevicesConfig = DevicesConfig()
    display: DisplayConfig = DisplayConfig()
    audio: AudioConfig = AudioConfig()
    # With this table the games come from the central game server; without it they play here.
    game_server: GameServerConfig | None = None

    @field_validator("bill_denominations_cents", "player_denominations_cents")
    @classmethod
    def _each_once(cls, amounts: list[int], info: ValidationInfo) -> list[int]:
        if len(set(amounts)) != len(amounts):
            what = "a note" if info.field_name == "bill_denominations_cents" else "a denomination"
            raise ValueError(f"{what} is listed twice; list each denomination once")
        return amounts

    @model_validator(mode="after")
    def _whole_accounting_credits(self) -> CabinetConfig:
        odd = [d for d in self.player_denominations_cents if d % self.denomination_cents]
        if odd:
            raise ValueError(f"player_denominations_cents {odd} are not whole multiples of "
                             f"denomination_cents {self.denomination_cents}, the accounting denomination")
        return self

    @field_validator("jurisdiction")
    @classmethod
    def _known_jurisdiction(cls, name: str) -> str:
        # Only the name is the operator's: the rules in the file are firmware, checked by the ROM
        # self-test, so a damaged rule file never stops `egm rom verify` from naming it.
        try:
            jurisdiction_path(name)
        except ConfigError as exc:
            raise ValueError(str(exc)) from exc
        return name


LIMIT_PERIODS = {"day": 24 * 3600, "week": 7 * 24 * 3600, "month": 30 * 24 * 3600}  # rolling windows


class OnlineRules(Strict):
    """The rules for remote play on the game server (UKGC RTS 8A, 12, 13, 14 style); the cabinet
    ignores them. Defaults are the strictest common practice, so a file without the table is safe."""

    autoplay: bool = False  # whether the regulator allows auto-play; the server never offers it anyway
    limit_increase_cooling_off_h: int = Field(default=24, ge=24, le=24 * 31)
    abandoned_round_days: int = Field(default=30, ge=1, le=365)
    login_failures_lock: int = Field(default=3, ge=1, le=10)
    reality_check_minutes: list[Annotated[int, Field(ge=5, le=24 * 60)]] = Field(
        default=[15, 30, 60, 120], min_length=1, max_length=12)
    limit_periods: list[Literal["day", "week", "month"]] = Field(
        default=["day", "week", "month"], min_length=1, max_length=3)
    timeout_days: list[Annotated[int, Field(ge=1, le=182)]] = Field(default=[1, 7, 30, 42], max_length=12)
    self_exclusion_days: list[Annotated[int, Field(ge=183, le=3650)]] = Field(
        default=[183, 365, 1825], max_length=12)

    @field_validator("reality_check_minutes", "limit_periods", "timeout_days", "self_exclusion_days")
    @classmethod
    def _each_once(cls, values: list, info: ValidationInfo) -> list:
        if len(set(values)) != len(values):
            raise ValueError(f"{info.field_name} lists a value twice; list each once")
        return sorted(values, key=lambda v: LIMIT_PERIODS.get(v, v))


class JurisdictionConfig(Strict):
    """A regulator's rules: RTP range, hand-pay limit, recall depth, RNG confidence, award odds, and
    the [online] table for the game server."""

    name: str
    min_rtp: float = Field(ge=0.0, le=1.0, strict=False)
    max_rtp: float = Field(ge=0.0, le=2.0, strict=False)
    hand_pay_limit_cents: int = Field(default=120000, ge=1)
    credit_limit_cents: int = Field(default=0, ge=0, lt=ROLLOVER)  # the most a player may hold; 0: none
    recall_depth: int = Field(default=10, ge=10)
    rng_confidence: float = Field(default=0.99, gt=0.0, lt=1.0, strict=False)
    award_odds_limit: int = Field(default=100_000_000, ge=1)  # every award at least once in N games
    online: OnlineRules = OnlineRules()


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
        elif isinstance(err.get("input"), dict):  # a table: the message says what is wrong in it
            problems.append(f"{path}: key '{key}': {err['msg'].removeprefix('Value error, ')}")
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
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}); give a readable TOML file") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the syntax") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(path, exc)) from exc


def resolve_path(path: str) -> Path:
    """A configured path: absolute, or relative to the project root."""
    return Path(path) if Path(path).is_absolute() else PROJECT_ROOT / path


def load_cabinet_config(path: Path | str | None = None) -> CabinetConfig:
    return load_model(path or DEFAULT_CABINET_CONFIG, CabinetConfig)


def all_jurisdictions() -> list[str]:
    """The jurisdictions known, by file name in jurisdictions/."""
    return sorted(p.stem for p in JURISDICTIONS_DIR.glob("*.toml"))


def jurisdiction_path(name: str) -> Path:
    """The rule file of a jurisdiction named by its plain file name; ConfigError for any other name."""
    path = JURISDICTIONS_DIR / f"{name}.toml"
    if not JURISDICTION_NAME.fullmatch(name) or not path.is_file():
        raise ConfigError(f"unknown jurisdiction '{name}'; choose one of {all_jurisdictions()}")
    return path


def load_jurisdiction(name: str) -> JurisdictionConfig:
    return load_model(jurisdiction_path(name), JurisdictionConfig)

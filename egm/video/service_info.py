"""What the service pages show, read from the cabinet's snapshot, its configuration and the ROM:
device status, settings (with the next value each CHANGE offers), pool meters and ROM details.
The display only reads here; a setting changes through the cabinet (`ChangeSetting`, `SetBetLevels`,
`SetJurisdiction`, `SetDateTime`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from egm import __version__
from egm.cabinet.settings import BET_LEVELS, JURISDICTION, LABELS, SETTINGS, date_time_text, setting_text
from egm.config import PROJECT_ROOT, CabinetConfig, all_jurisdictions
from egm.events import ChangeSetting, RamClear, SetBetLevels, SetJurisdiction
from egm.games.base import Game
from egm.money import format_cents, format_denomination
from egm.rom import configured_paths
from egm.rom.manifest import read_manifest

DEVICES = (  # (device, its name on the page)
    ("bill_acceptor", "Bill acceptor"),
    ("printer", "Printer"),
    ("button_panel", "Panel link"),
)
HAND_PAY_STEPS = (25000, 50000, 100000, 120000)
CREDIT_LIMIT_STEPS = (0, 50000, 100000, 300000, 1000000)
# What a settings row's button offers: the next value CHANGE sets (a number, or a jurisdiction's file
# name), each bet level with whether it is enabled (a toggle each), or nothing.
Offer = int | str | tuple[tuple[int, bool], ...] | None


def log_time(at: object) -> str:
    """A logged time as the service pages write it: to the second, "YYYY-MM-DD HH:MM:SS".

    >>> log_time("2026-01-01T09:05:07.123456+00:00")
    '2026-01-01 09:05:07'
    """
    return str(at)[:19].replace("T", " ")


def when_what(event: Mapping[str, Any] | None) -> str:
    """An event as "YYYY-MM-DD HH:MM:SS message", or "none"."""
    return f"{log_time(event['at'])} {event['message']}" if event else "none"


def device_rows(
    snapshot: Mapping[str, Any], config: CabinetConfig, speaker: str, events: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str, str, str]]:
    """(device, link, status now, its last fault with time) for each device and the speaker."""
    faults = snapshot.get("faults") or {}
    warnings = " ".join(snapshot.get("warnings") or [])
    rows = []
    for device, title in DEVICES:
        cfg = getattr(config.devices, device)
        link = f"{cfg.backend} {getattr(cfg, 'protocol', '') or ''}".strip()
        last = next((e for e in events if e.get("kind") == "device_fault"
                     and (e.get("detail") or {}).get("device") == device), None)
        rows.append((title, link, faults.get(device, "OK"), when_what(last)))
    paper = "OK"
    if "paper" in str(faults.get("printer", "")).lower():
        paper = "OUT"
    elif "paper" in warnings.lower():
        paper = "LOW"
    paper_last = next((e for e in events if "paper" in str(e.get("message", "")).lower()), None)
    rows.insert(2, ("Paper level", "printer", paper, when_what(paper_last)))
    rows.append(("Speaker", speaker, "OK", "none"))
    return rows


def setting_rows(snapshot: Mapping[str, Any], games: Mapping[str, Game]) -> list[tuple[str, str, str, Offer]]:
    """(setting, label, value, what its buttons offer) for the settings page: a CHANGE to the next
    value, a toggle per bet level of each game (row "bet_levels:<game id>"), the jurisdiction's CHANGE
    to the next known one; the date and time (the cabinet's clock, as set) is the row "date_time", set
    with its own fields."""
    values = snapshot.get("settings") or {}
    offers = [set(g.wager_offer().denominations_cents) for g in games.values()]
    accounting_cents = int(snapshot.get("accounting_denomination_cents") or 1)
    offered = set.intersection(*offers) if offers else set()
    denominations = sorted(d for d in offered if d % accounting_cents == 0)  # as the cabinet takes them
    choices: dict[str, Sequence[int]] = {
        "denomination_cents": denominations,
        "hand_pay_limit_cents": sorted(set(HAND_PAY_STEPS)),
        "credit_limit_cents": CREDIT_LIMIT_STEPS,
        "volume_percent": tuple(range(0, 101, 10)),
    }
    player = " ".join(format_denomination(int(d)) for d in snapshot.get("denominations_cents") or [])
    accounting = format_denomination(accounting_cents)
    extra = {"denomination_cents": f"  default (player: {player}; SAS: {accounting})"}
    rows: list[tuple[str, str, str, Offer]] = []
    for name in SETTINGS:
        if name not in values:
            continue
        current, steps = int(values[name]), list(choices[name])
        later = [v for v in steps if v > current]
        nxt = later[0] if later else (steps[0] if steps else None)
        rows.append((name, LABELS[name], setting_text(name, current) + extra.get(name, ""), nxt))
    enabled = snapshot.get(BET_LEVELS) or {}
    for gid, game in games.items():
        levels = tuple((b, b in enabled.get(gid, ())) for b in game.bets_offered())
        rows.append((f"{BET_LEVELS}:{gid}", f"Bet levels, {game.title}", "credits", levels))
    if snapshot.get(JURISDICTION):
        current, known = snapshot[JURISDICTION], all_jurisdictions()
        later = [j for j in known if j > current]
        rows.append((JURISDICTION, "Jurisdiction", f"{snapshot.get('jurisdiction_name')} ({current})",
                     later[0] if later else known[0]))
    if snapshot.get("date_time"):
        now = datetime.fromisoformat(snapshot["date_time"])
        rows.append(("date_time", "Date and time (UTC)", date_time_text(now), None))
    return rows


def refusals(rows: Sequence[tuple[str, str, str, Offer]], refusal: Callable[[object], str | None]
             ) -> dict[str, str]:
    """Why each settings row's change, and a RAM clear ("ram_clear"), would be refused now, in the
    cabinet's words (`Cabinet.refusal`): those buttons stay dark, and a press says why."""
    out: dict[str, str] = {}
    for name, _, _, offer in rows:
        if name == JURISDICTION:
            event: object = SetJurisdiction(str(offer))
        elif isinstance(offer, tuple):  # a game's bet levels: any change now, and turning off the last
            game_id = name.split(":", 1)[1]
            last = refusal(SetBetLevels(game_id, ()))
            if last:
                out[f"{name}:last"] = last
            event = SetBetLevels(game_id, tuple(b for b, _ in offer))
        elif isinstance(offer, int):
            event = ChangeSetting(name, offer)
        else:
            continue
        why = refusal(event)
        if why:
            out[name] = why
    why = refusal(RamClear())
    if why:
        out["ram_clear"] = why
    return out


def pool_rows(snapshot: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The pool meters: each pool's value now, paid in by side, won by side, and the house's seed."""
    rows = []
    meters = snapshot.get("pool_meters") or {}
    for pool, cents in (snapshot.get("pools_cents") or {}).items():
        name = pool.replace("_", " ").title()
        row = meters.get(pool, {})
        rows.append((f"{name}: current value", format_cents(int(cents))))
        paid = row.get("paid_in_cents", {})
        rows.append((f"{name}: total contributed", format_cents(sum(paid.values()))))
        rows += [(f"   contributed by the {side}", format_cents(v)) for side, v in sorted(paid.items())]
        won = row.get("won_cents", {})
        rows.append((f"{name}: total won", format_cents(sum(won.values()))))
        rows += [(f"   won by the {side}", format_cents(v)) for side, v in sorted(won.items())]
        rows.append((f"{name}: seeded by the house", format_cents(int(row.get("seed_cents", 0)))))
    return rows


def rom_details(config: CabinetConfig, games: Mapping[str, Game]) -> dict[str, Any]:
    """Every program file with its hash, the pay tables with their ids and hashes, the version."""
    manifest_path, _ = configured_paths(config, PROJECT_ROOT)
    manifest = read_manifest(manifest_path)
    return {
        "version": f"egm {__version__}, manifest key {manifest.key_id or 'unsigned'}",
        "paytables": [(g.paytable.id, g.paytable.version, g.paytable.sha256) for g in games.values()],
        "files": [(entry.path, entry.sha256) for entry in manifest.files],
    }


def paytable_names(games: Mapping[str, Game]) -> dict[str, str]:
    """Each installed pay table's name for the meters: its game's title and version, "Dragon Poker v2.0.0"."""
    return {g.paytable.id: f"{g.title} v{g.paytable.version}" for g in games.values()}


def last_rom_check(events: Sequence[Mapping[str, Any]]) -> str:
    """The time and result of the last ROM check (power-up, door close, operator), newest first log."""
    for e in events:  # the power-up entry carries the boot's check
        detail = e.get("detail") or {}
        message = e.get("message") if e.get("kind") == "rom_check" else detail.get("rom_check")
        if message:
            return f"{log_time(e['at'])}  {message}"
    return "no ROM check in the log"


def unavailable_lines(snapshot: Mapping[str, Any]) -> list[str]:
    """The games out of service, each in its sentence (their pay tables cannot be played)."""
    return list((snapshot.get("games_unavailable") or {}).values())

"""The technician's commands: `egm config check`, `egm devices probe`, `egm events`.

    egm config check config/cabinet-serial.toml      # valid? and what every key resolved to
    egm devices probe --config config/cabinet-serial.toml [--json]
    egm events --nvram /var/lib/egm/nvram [--since 2026-11-26T08:00] [--json]

Exit codes: 0 all well; 1 a device did not answer (probe); 2 a bad file, path or argument (the
reason is printed as a sentence naming it); 3 the wager memory is in a tilt (as `egm meters`).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_NO_ANSWER = 1
EXIT_BAD_INPUT = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    config = subparsers.add_parser("config", help="check a cabinet configuration file")
    config_commands = config.add_subparsers(dest="config_command", required=True, metavar="CONFIG_COMMAND")
    check = config_commands.add_parser("check", help="validate FILE and print what it resolved to")
    check.add_argument("file", type=Path, metavar="FILE")
    check.set_defaults(handler=_config_check)

    devices = subparsers.add_parser("devices", help="the cabinet's serial devices")
    device_commands = devices.add_subparsers(dest="devices_command", required=True, metavar="DEVICES_COMMAND")
    probe = device_commands.add_parser(
        "probe", help="open each configured port, speak its protocol, print model, firmware and state"
    )
    probe.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
    probe.add_argument("--json", action="store_true")
    probe.set_defaults(handler=_probe)

    events = subparsers.add_parser("events", help="read the event log from wager memory (read-only)")
    events.add_argument("--nvram", type=Path, required=True)
    events.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
    events.add_argument("--since", metavar="T",
                        help="only events at or after T (ISO time, e.g. 2026-11-26T08:00)")
    events.add_argument("--json", action="store_true")
    events.set_defaults(handler=_events)


def _config_check(args: argparse.Namespace) -> int:
    from egm.config import ConfigError, load_cabinet_config, load_jurisdiction

    try:
        config = load_cabinet_config(args.file)
        jurisdiction = load_jurisdiction(config.jurisdiction)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = denomination_problem(config)
    if problem:
        print(f"{args.file}: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.file}: valid")
    for line in resolved_lines(config, jurisdiction.name):
        print(line)
    return EXIT_OK


def denomination_problem(config: Any) -> str:
    """Why a player denomination cannot be played (no installed game's pay table offers it), or ""."""
    from egm.config import PROJECT_ROOT
    from egm.rom import PaytableError
    from egm.rom.paytable import parse_paytable

    offered: set[int] = set()
    for game_id in config.games:
        path = PROJECT_ROOT / "paytables" / config.paytables.get(game_id, f"{game_id}.toml")
        try:
            header, _ = parse_paytable(path, path.read_bytes())
        except (OSError, PaytableError) as exc:
            return f"the pay table of {game_id} cannot be read ({exc})"
        offered.update(header.denominations_cents)
    unplayable = [d for d in config.player_denominations_cents if d not in offered]
    if unplayable:
        return (f"key 'player_denominations_cents': {unplayable} cents are offered by no installed game's "
                f"pay table (they offer {sorted(offered)}); remove them")
    return ""


def resolved_lines(config: Any, jurisdiction: str) -> list[str]:
    """What a configuration resolves to, one line per setting a technician checks, with warnings
    for ports and key files that do not exist on this machine."""
    from egm.config import PROJECT_ROOT
    from hardware.core.config import PANEL_FUNCTIONS, ButtonPanelConfig, PrinterConfig
    from hardware.serial.backend import protocol_of
    from hardware.serial.ports import describe_line, line_settings

    lines = [
        f"machine {config.machine_number} at {config.site_name}, {config.site_address}",
        f"games {', '.join(config.games)}; denomination {config.denomination_cents} cents; jurisdiction "
        f"{jurisdiction}; kiosk {'on' if config.kiosk else 'off'}",
        f"notes accepted (cents): {config.bill_denominations_cents}",
        f"player denominations (cents): {config.player_denominations_cents or [config.denomination_cents]}; "
        f"SAS reports credits of {config.denomination_cents} cents (the accounting denomination)",
    ]
    warnings = []
    devices = config.devices
    for kind in ("bill_acceptor", "printer", "button_panel", "doors"):
        device = getattr(devices, kind)
        if device.backend == "emulated":
            lines.append(f"{kind}: emulated (in-process, no port)")
            continue
        protocol = protocol_of(kind, device)
        port = device.port or ("a new pty" if device.backend == "sim" else "NO PORT")
        line = f"{kind}: {device.backend} {protocol} on {port}"
        if protocol in ("id003", "tcl", "egm-panel", "escpos"):
            line += f", {describe_line(line_settings(protocol, device))}"
        line += f", reply timeout {device.timeout_s:g} s, fault after {device.fault_after_s:g} s of silence"
        if isinstance(device, PrinterConfig) and protocol == "tcl":
            line += f", ticket template {device.template}"
        lines.append(line)
        if isinstance(device, ButtonPanelConfig):
            mapped = ", ".join(f"{b}={f}" for b, f in device.buttons.items()) or "none"
            lines.append(f"button_panel buttons: {mapped}; a button named after its function ("
                         f"{', '.join(PANEL_FUNCTIONS[:9])}, game_1..game_9, game_back) works as itself")
        if device.backend == "serial" and device.port and device.port.startswith("/") \
                and not Path(device.port).exists():
            warnings.append(f"WARNING: {kind}: {device.port} does not exist on this machine now")
        if kind == "doors" and (device.backend, device.port) == (devices.button_panel.backend,
                                                                  devices.button_panel.port):
            lines[-1] += " (the panel board's switches)"
    sas = devices.sas
    lines.append(f"sas: {'on ' + str(sas.port) + ', address ' + str(sas.address) if sas.enabled else 'off'}")
    lines.append(f"rom: manifest {config.rom.manifest}; trusted keys {', '.join(config.rom.trusted_keys)}")
    for key in config.rom.trusted_keys:
        if not (PROJECT_ROOT / key).exists():
            warnings.append(f"WARNING: trusted key {key} does not exist")
    if config.kiosk and any("dev-ed25519" in key for key in config.rom.trusted_keys):
        warnings.append("WARNING: a kiosk trusting the development key refuses to play; use a production key")
    return lines + warnings


def _probe(args: argparse.Namespace) -> int:
    from egm.config import ConfigError, load_cabinet_config
    from hardware.probe import probe_devices

    try:
        config = load_cabinet_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    probes = probe_devices(config.devices)
    if args.json:
        print(json.dumps([probe.to_record() for probe in probes], sort_keys=True))
    else:
        for probe in probes:
            print(probe.line_text())
        if not probes:
            print("no device is configured on a serial port (backend = \"serial\"); nothing to probe")
    return EXIT_OK if all(probe.answered for probe in probes) else EXIT_NO_ANSWER


def _events(args: argparse.Namespace) -> int:
    from egm.cabinet_cli import _emit, _open_memory  # the same read-only open as `egm meters`

    since = None
    if args.since is not None:
        try:
            since = datetime.fromisoformat(args.since)
        except ValueError:
            print(f"--since {args.since!r} is not an ISO time; write e.g. 2026-11-26T08:00", file=sys.stderr)
            return EXIT_BAD_INPUT
    content, report, code = _open_memory(args)
    if content is None:
        _emit(report, args.json)
        return code
    entries = list(reversed(content.events))  # oldest first, as a log is read
    if since is not None:
        entries = [e for e in entries if _at(e) >= _comparable(since, _at(e))]
    if args.json:
        print(json.dumps(entries, sort_keys=True))
    else:
        for entry in entries:
            print(f"{entry.get('at', '')}  {entry.get('kind', '')}: {entry.get('message', '')}")
    return EXIT_OK


def _at(entry: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(entry.get("at")))


def _comparable(since: datetime, at: datetime) -> datetime:
    """`since` with the log's time zone when it was given without one (a technician types local)."""
    return since.replace(tzinfo=at.tzinfo) if since.tzinfo is None else since

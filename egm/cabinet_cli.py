"""`egm autoplay`, `egm meters`, `egm recall`: the cabinet headless, and its memory read out.

Exit codes: 0 done; 2 bad input (a config error, an unknown game, a bill the cabinet refuses);
3 the cabinet stands in a tilt (the JSON names it under `tilt`); 4 the wager memory is held by
another process (`"tilt": "memory_busy"`: stop the other cabinet, nothing was touched).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_TILT = 3
EXIT_MEMORY_BUSY = 4


def register(subparsers: argparse._SubParsersAction) -> None:
    play = subparsers.add_parser(
        "autoplay",
        help="run the cabinet headless: recover, play N games with the reference strategy, cash out",
    )
    play.add_argument("--nvram", type=Path, required=True, help="wager memory directory (created if new)")
    play.add_argument("--game", required=True, help="game id, e.g. dragon-poker")
    play.add_argument("--games", type=int, required=True,
                      help="number of new games to play (0: boot only: finish a game in progress, cash out)")
    play.add_argument("--seed", type=int, help="deterministic RNG seed (replay, tests); default: OS entropy")
    play.add_argument("--bill-cents", type=int, default=10000, help="note inserted when credits run short")
    play.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--game-server", metavar="URL",
                      help="play the central game server's rounds (docs/cabinet-on-server.md); the terminal "
                           "id and key come from the config's [game_server] table or the next two flags")
    play.add_argument("--terminal-id", help="the terminal's id on the game server (with --game-server)")
    play.add_argument("--terminal-key", type=Path,
                      help="the terminal's Ed25519 private key, PEM (with --game-server)")
    play.set_defaults(handler=_autoplay_command)

    meters = subparsers.add_parser("meters", help="read the meters from wager memory (no play)")
    meters.add_argument("--nvram", type=Path, required=True)
    meters.add_argument("--config", type=Path)
    meters.add_argument("--json", action="store_true")
    meters.set_defaults(handler=_meters_command)

    recall = subparsers.add_parser("recall", help="list the last games from wager memory, newest first")
    recall.add_argument("--nvram", type=Path, required=True)
    recall.add_argument("--config", type=Path)
    recall.add_argument("--json", action="store_true")
    recall.set_defaults(handler=_recall_command)

    diagram = subparsers.add_parser(
        "state-diagram", help="print the cabinet state diagram (mermaid markdown)"
    )
    diagram.add_argument("--config", type=Path)
    diagram.add_argument("--write", type=Path, help="write it to this file instead of printing it")
    diagram.set_defaults(handler=_diagram_command)


def _emit(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, sort_keys=True))
        return
    for key, value in report.items():
        shown = json.dumps(value, sort_keys=True, indent=2) if isinstance(value, dict | list) else value
        print(f"{key}: {shown}")


def _tilt_report(cabinet: Any) -> dict[str, Any]:
    tilt = "memory_busy" if cabinet.memory_busy else cabinet.tilt
    return {"tilt": tilt, "tilt_detail": cabinet.snapshot()["tilt_detail"]}


def _games_settled(cabinet: Any) -> int:
    """Games whose settlement committed (each is metered won or lost once, in that transaction)."""
    meters = cabinet.memory.meters if cabinet.memory else None
    return meters["games_won"] + meters["games_lost"] if meters else 0


def autoplay(cabinet: Any, game_id: str, games: int, bill_cents: int) -> tuple[dict[str, Any], int]:
    """Boot, finish whatever was in progress, play `games` new games, cash out. (report, exit code)."""
    from egm.events import (
        CashOut,
        ChooseDenomination,
        Key,
        KeyTurned,
        PlayerDecision,
        ReconcileBill,
        StartGame,
    )

    acceptor, doors = cabinet.devices.bill_acceptor, cabinet.devices.doors
    if not hasattr(acceptor, "insert_bill") or not hasattr(doors, "turn_key"):
        return {"error": "autoplay drives the emulated devices; set every device backend to 'emulated'"}, 2
    cabinet.boot()
    completed = 0
    problem = ""

    def settle_lockups() -> None:
        cabinet.poll_devices()
        while cabinet.state == "handpay":  # headless, the attendant pays at once
            doors.turn_key(Key.ATTENDANT)
            cabinet.poll_devices()
        pending = cabinet.memory.get("bill") if cabinet.memory else None
        if pending and pending.get("unreconciled"):  # ... and counts the cash box for a lost item
            found = acceptor.in_cash_box(pending["amount_cents"], pending["barcode"])
            cabinet.handle(KeyTurned(Key.ATTENDANT, True))
            cabinet.handle(ReconcileBill(in_cash_box=found))
            cabinet.handle(KeyTurned(Key.ATTENDANT, False))

    def wait_for_server() -> None:
        """Headless, the loop has nothing to draw: it sleeps until the game server answers."""
        while cabinet.waiting_for_server() and not cabinet.tilt:
            cabinet.game_server.wait(0.05)
            cabinet.poll_devices()

    def play_round() -> None:
        wait_for_server()
        while cabinet.round is not None and cabinet.state.startswith("game."):
            cabinet.handle(PlayerDecision(cabinet.round.reference_decision()))
            wait_for_server()
        settle_lockups()

    play_round()  # a game a power cut interrupted
    settled_before = _games_settled(cabinet)
    denom = cabinet.config.denomination_cents
    if cabinet.denomination_cents != denom:  # autoplay plays the configured denomination, whatever was chosen
        chosen = cabinet.handle(ChooseDenomination(denom))
        problem = "" if chosen.accepted else chosen.reason
    while not cabinet.tilt and not problem and completed < games:
        if game_id not in cabinet.games:
            # why the menu lacks it: e.g. the server refused the catalogue (an unknown terminal, a wrong key)
            why = "".join(f"; {sentence}" for sentence in cabinet.unavailable_games.values())
            problem = (
                f"game '{game_id}' is not installed on this cabinet; choose one of {list(cabinet.games)}{why}"
            )
            break
        game = cabinet.games[game_id]
        stake = game.default_wager(denom).stake_credits
        while not cabinet.tilt and cabinet.credits_cents < stake * denom:
            acceptor.insert_bill(bill_cents)
            refused = [r for r in cabinet.poll_devices() if not r.accepted]
            if refused:
                problem = refused[0].reason
                break
        if cabinet.tilt or problem:
            break
        started = cabinet.handle(StartGame(game_id))
        if not started.accepted:
            problem = started.reason
            break
        play_round()
        if cabinet.server_sentence and not cabinet.tilt:  # the game server refused the game
            problem = cabinet.server_sentence
            break
        completed = _games_settled(cabinet) - settled_before  # a settlement that failed is no game
    if not cabinet.tilt and not problem and cabinet.credits_cents > 0:
        cabinet.handle(CashOut())
        settle_lockups()
    report: dict[str, Any] = {
        "state": cabinet.state,
        "meters": cabinet.memory.meters.to_record() if cabinet.memory else {},
        "games_completed": completed,
        "tickets": [
            {"validation_number": t["validation_number"], "amount_cents": t["amount_cents"]}
            for t in cabinet.session_tickets
        ],
        "recovered": cabinet.recovered,
    }
    tilt = _tilt_report(cabinet) if cabinet.tilt else None
    cabinet.close()
    if tilt:
        return {**report, **tilt}, EXIT_MEMORY_BUSY if tilt["tilt"] == "memory_busy" else EXIT_TILT
    if problem:
        return {**report, "error": problem}, EXIT_BAD_INPUT
    return report, EXIT_OK


def _load_config(path: Path | None) -> Any:
    from egm.config import load_cabinet_config

    return load_cabinet_config(path)


def _with_game_server(config: Any, args: argparse.Namespace) -> Any:
    """The config with --game-server (and --terminal-id, --terminal-key) over its [game_server] table;
    ConfigError with a sentence when the terminal's id or key is given nowhere."""
    from egm.config import ConfigError, GameServerConfig

    if args.game_server is None:
        if args.terminal_id or args.terminal_key:
            raise ConfigError("--terminal-id and --terminal-key go with --game-server URL; give it too")
        return config
    table = config.game_server.model_dump() if config.game_server else {}
    table["url"] = args.game_server
    if args.terminal_id:
        table["terminal_id"] = args.terminal_id
    if args.terminal_key:
        table["private_key"] = str(args.terminal_key.resolve())
    missing = [flag for key, flag in (("terminal_id", "--terminal-id"), ("private_key", "--terminal-key"))
               if key not in table]
    if missing:
        raise ConfigError(f"--game-server needs the terminal's {' and '.join(missing)} (or the config's "
                          "[game_server] table)")
    try:
        return config.model_copy(update={"game_server": GameServerConfig.model_validate(table)})
    except ValueError as exc:
        raise ConfigError(f"--game-server: {exc}") from exc


def _say_preparing(progress: Any) -> None:
    """On stderr, each game being prepared while its code compiles (minutes without a ROM build)."""
    from egm.boot_progress import GAMES

    if progress.compiling and progress.state[GAMES] == "running":
        print(f"egm autoplay: preparing {progress.detail[GAMES]}", file=sys.stderr, flush=True)


def _autoplay_command(args: argparse.Namespace) -> int:
    from egm.boot_progress import BootProgress
    from egm.cabinet import build_cabinet
    from egm.config import ConfigError

    wrong = (f"--games {args.games} is negative; give 0 (a boot only) or more" if args.games < 0 else
             f"--bill-cents {args.bill_cents} is not a positive amount" if args.bill_cents <= 0 else None)
    if wrong:
        _emit({"error": wrong}, args.json)
        return EXIT_BAD_INPUT
    try:
        config = _with_game_server(_load_config(args.config), args)
    except ConfigError as exc:
        _emit({"error": str(exc)}, args.json)
        return EXIT_BAD_INPUT
    if config.game_server is None and args.game not in config.games:
        _emit(
            {"error": f"game '{args.game}' is not installed on this cabinet; choose one of {config.games}"},
            args.json,
        )
        return EXIT_BAD_INPUT
    # every game: one may be in progress
    cabinet = build_cabinet(config, args.nvram, seed=args.seed, progress=BootProgress(shown=_say_preparing))
    denom = config.denomination_cents
    for game_id, game in cabinet.games.items():  # refused before the memory is opened or a note goes in
        if denom not in game.paytable.header.denominations_cents:
            message = f"denomination_cents {denom} is not offered by the {game_id} pay table; choose one"
            _emit({"error": message}, args.json)
            return EXIT_BAD_INPUT
    report, code = autoplay(cabinet, args.game, args.games, args.bill_cents)
    _emit(report, args.json)
    if args.games == 0:
        print("egm autoplay: --games 0 played no game: the cabinet booted (finishing any game in progress) "
              "and cashed out any credits", file=sys.stderr)
    return code


def _open_memory(args: argparse.Namespace) -> tuple[Any, dict[str, Any], int]:
    """The committed wager memory, read-only (never repaired: see egm.memory.recovery.read_memory);
    or (None, report, exit code)."""
    from egm.memory.errors import MemoryUnavailable, RamError
    from egm.memory.evidence import best_evidence
    from egm.memory.recovery import read_memory
    from egm.meters import Meters

    try:
        content = read_memory(args.nvram)
    except MemoryUnavailable as exc:
        return None, {"error": str(exc)}, EXIT_BAD_INPUT
    except RamError as exc:  # what can still be read is shown apart, marked unverified
        evidence = best_evidence(args.nvram)
        report = {"tilt": "ram_error", "tilt_detail": str(exc)}
        if evidence is not None:
            report["unverified"] = evidence.describe()
        return None, report, EXIT_TILT
    meters = Meters.from_record(content.records["meters"])
    if content.records.get("accounting_error") or meters.balance_error():
        detail = content.records.get("accounting_error") or "meters off the accounting identity"
        report = {"tilt": "accounting_error", "tilt_detail": detail, "meters": meters.to_record()}
        return None, report, EXIT_TILT
    return content, {}, EXIT_OK


def _meters_command(args: argparse.Namespace) -> int:
    content, report, code = _open_memory(args)
    if content is not None:
        report = {"meters": content.records["meters"]}
    _emit(report, args.json)
    return code


def _recall_command(args: argparse.Namespace) -> int:
    content, report, code = _open_memory(args)
    if content is None:
        _emit(report, args.json)
        return code
    games = content.recall
    if args.json:
        print(json.dumps(games, sort_keys=True))
    else:
        for game in games:
            outcome = game["outcome"]
            print(f"#{game['number']} {game['game_id']} {game['at']} win {outcome['win_cents']} cents")
    return EXIT_OK


def _diagram_command(args: argparse.Namespace) -> int:
    from egm.cabinet import diagram_document

    text = diagram_document(_load_config(args.config).games)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return EXIT_OK

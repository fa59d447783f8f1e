"""Build: the Cabinet assembled from its parts, its power-up (self-test and recovery) and power-down,
and `build_cabinet`, which makes one as configured (devices from config, games from the ROM)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from egm.boot_progress import DEVICES, MEMORY, ROM, BootProgress
from egm.clock import Clock, SetClock, SystemClock
from egm.config import PROJECT_ROOT, CabinetConfig, ConfigError, JurisdictionConfig, load_jurisdiction
from egm.events import ACCEPTED, ButtonChanged, CashOut, Door, Result, StartGame
from egm.games.base import Game
from egm.host.game_server import GameServerLink, ServerRequest
from egm.memory.errors import MemoryBusy, RamError
from egm.memory.store import Transaction, WagerMemory
from egm.money import format_cents
from egm.rng import Rng, os_rng, seeded_rng
from hardware.factory import Devices, build_devices

from .cash_out import CashOutPart
from .core import log
from .credit_in import CreditInPart
from .machine import CabinetMachine, state_table, transition_table
from .play import PlayPart
from .remote_play import RemotePlayPart
from .sas import HostPart
from .service import ServicePart, rom_check_message
from .settings import SettingsPart

# How the last run ended, read from the last event it logged: anything else is an unannounced stop.
PREVIOUS_STOP = {
    "power_down": "clean_shutdown",
    "software_fault": "software_fault",
    "memory_initialised": "none",
}
POWER_UP_MESSAGES = {
    "none": "Power up.",
    "clean_shutdown": "Power up after a clean shutdown.",
    "software_fault": "Power up after a software fault (see the software_fault event).",
    "power_loss": "Power up after a power loss.",
}
TRACEBACK_KEPT = 8000  # characters of a software fault's traceback in the event log (its innermost end)


class Cabinet(PlayPart, RemotePlayPart, CreditInPart, CashOutPart, ServicePart, SettingsPart, HostPart):
    """The controller. Construct, `boot()`, then feed it events (see the package doc)."""

    def __init__(
        self,
        config: CabinetConfig,
        nvram_dir: Path | str,
        *,
        games: Mapping[str, Game],
        devices: Devices,
        jurisdiction: JurisdictionConfig,
        clock: Clock | None = None,
        rng_for_game: Callable[[int], Rng] | None = None,
        rom_check: Callable[[], Any] | None = None,
        unavailable_games: Mapping[str, str] | None = None,
        game_server: GameServerLink | None = None,
    ) -> None:
        self.config = config
        self.game_server = game_server  # None: every game plays here (remote_play)
        self.offline_tilt_s = config.game_server.offline_tilt_s if config.game_server else 0
        self.server_sentence = ""
        self._server_tilt = False
        self.unavailable_games = dict(unavailable_games or {})  # game id -> why it is out of service
        self.nvram_dir = Path(nvram_dir)
        self.games = dict(games)
        self.devices = devices
        self.jurisdiction = jurisdiction
        self.clock = SetClock(clock or SystemClock())  # the technician may set it (settings.py)
        self.rng_for_game = rng_for_game or os_rng()
        self.rom_check = rom_check
        self.memory = None
        self.round = None
        self.selected_game = next(iter(self.games), "")
        self.last_outcome = None
        self.session_tickets = []  # tickets issued since this boot
        self.recovered = []  # what the boot found interrupted and finished
        self._ram_error = ""
        self.memory_busy = False  # the RAM error is another process holding the memory
        self._evidence = None
        self._rom_problems = []
        self._rom_files = 0
        self._open_doors = set()
        self._faults = {}
        self._attendant_key_on = False
        self._warnings = {}
        self.display_attached = False  # a display takes the panel's presses (take_panel_presses)
        self._panel_presses = []
        steps = {g: game.steps for g, game in self.games.items()}
        self.machine = CabinetMachine(
            states=state_table(steps),
            initial="powerup",
            auto_transitions=False,
            ignore_invalid_triggers=False,
            after_state_change=self._drive_devices,
        )
        for row in transition_table(steps):
            conditions = []
            if row["trigger"] == "start_game":
                conditions = [functools.partial(self._playing, row["game"], None)]
            elif row["trigger"] == "resume_game":
                conditions = [functools.partial(self._playing, row["game"], row["step"])]
            self.machine.add_transition(row["trigger"], row["source"], row["dest"], conditions=conditions)

    # --- stopping: each way is recorded for what it is -------------------------------------------------
    def close(self, reason: str = "") -> None:
        """Shut down cleanly: record it, then close wager memory (its WAL is checkpointed into each
        copy). The next boot reads it as a clean shutdown."""
        if self.memory is not None:
            message = f"Clean shutdown ({reason})." if reason else "Clean shutdown."
            self._commit(lambda tx: tx.log("power_down", message))
            self.memory.close()
        if self.game_server is not None:
            self.game_server.close()

    def software_fault(self, exc: BaseException) -> None:
        """Record an unexpected exception with its traceback, then close wager memory; the process is
        about to exit. The next boot reads it as a software fault, not as a power loss."""
        trace = "".join(traceback.format_exception(exc))
        log.critical("software fault, the cabinet stops:\n%s", trace)
        if self.memory is not None:
            message = f"Software fault: {type(exc).__name__}: {exc}."
            self._commit(lambda tx: tx.log("software_fault", message, traceback=trace[-TRACEBACK_KEPT:]))
            self.memory.close()

    @contextlib.contextmanager
    def running(self) -> Iterator[Cabinet]:
        """The main loop's frame. Leaving it normally, or on an interrupt or exit request, is a clean
        shutdown; any other exception is a software fault, recorded before it propagates."""
        try:
            yield self
        except Exception as exc:
            self.software_fault(exc)
            raise
        except (KeyboardInterrupt, SystemExit) as exc:  # the program was told to stop
            self.close(str(exc) or type(exc).__name__)
            raise
        self.close()

    # --- boot --------------------------------------------------------------------------------------
    def boot(self, progress: BootProgress | None = None) -> Result:
        """Power-up: self-test (ROM, wager memory), recover what a power cut interrupted, settle.
        `progress` shows the steps on the boot screen (build_cabinet showed the ROM and the games)."""
        progress = progress or BootProgress()
        self.machine.trigger("power_on")
        self._open_doors = {d for d in Door if self.devices.doors.is_open(d)}
        self._run_rom_check("at power-up")
        progress.running(MEMORY, "both copies, meters and the game in progress")
        try:
            self.memory = WagerMemory.open(
                self.nvram_dir,
                clock=self.clock,
                event_log_size=self.config.event_log_size,
                recall_depth=self.jurisdiction.recall_depth,
            )
        except RamError as exc:
            self._ram_error = str(exc)
            self.memory_busy = isinstance(exc, MemoryBusy)
            log.error("RAM error at power-up: %s", exc)
        if self.memory is not None:
            self._apply_settings()
            self._power_up_records()
        progress.done(MEMORY, "RAM ERROR: see the tilt" if self._ram_error else "both copies good")
        progress.running(DEVICES)
        self._settle()
        self.poll_devices()  # the devices report in (the bill acceptor: what is in its path)
        progress.done(DEVICES, f"{len(self.devices.all())} devices")
        return Result(True, f"booted into {self.state}")

    def _power_up_records(self) -> None:
        memory = self.memory
        assert memory is not None
        last = memory.events(limit=1)
        previous = PREVIOUS_STOP.get(last[0]["kind"], "power_loss") if last else "none"

        def powered_up(tx: Transaction) -> None:
            if previous == "power_loss":
                tx.log("power_loss", f"Power was lost after {last[0]['at']} without a clean power down.")
            tx.meters.add("power_resets", 1)
            tx.log(
                "power_up",
                POWER_UP_MESSAGES[previous],
                previous_stop=previous,
                doors_open=sorted(d.value for d in self._open_doors),
                games_played=tx.meters["games_played"],
                rom_check=rom_check_message("at power-up", self._rom_problems, self._rom_files)
                if self.rom_check is not None
                else None,
            )
            for problem in self._rom_problems:
                tx.log("rom_error", f"ROM self-test failed: {problem}")
            for game_id, sentence in self.unavailable_games.items():  # each power-up says it again
                tx.log("game_unavailable", sentence, game_id=game_id)

        if not self._commit(powered_up):  # the memory failed under us: a RAM-error tilt
            return
        error = memory.meters.balance_error()
        if error and not memory.get("accounting_error"):
            off = format_cents(error)
            self._record_accounting_error(f"meters found {off} off the accounting identity at boot")
        self._recover()

    def _recover(self) -> None:
        """Finish what a power cut interrupted: each pending record is settled exactly once."""
        memory = self.memory
        assert memory is not None
        if memory.get("bill") is not None:  # settled by what the acceptor reports (see credit_in)
            self.recovered.append("bill pending: settled by the acceptor's report")
        if memory.get("cashout") is not None:
            # The validation number was committed before printing; whether or not the paper came out,
            # that ticket stands as issued, and no second ticket is printed.
            self._ticket_issued(memory.get("cashout"), after_power_loss=True)
            self.recovered.append("cashout")
        record = memory.get("game")
        if record is not None and record["game_id"] not in self.games:
            problem = f"the game in progress, '{record['game_id']}', is not installed; install it to finish"
            self._rom_problems.append(problem)
        elif record is not None:
            self.round = self.games[record["game_id"]].restore(record["round"])
            self.recovered.append(f"game at step {self.round.step}")
            if self.round.finished:
                self._finish_round()
        self._resend_pending()
        if memory.get("handpay") is not None:
            self.recovered.append("hand pay")
        if self.round is None and self.last_outcome is None:
            # the last game's outcome is shown again after power returns (it may have been cut mid-reveal)
            for last in memory.recall()[:1]:
                self.last_outcome = {k: v for k, v in last["outcome"].items() if k != "summary"}

    # --- the button panel: its buttons are the player's actions of the other parts --------------------
    def _button(self, event: ButtonChanged) -> Result:
        """A panel button, through the configured mapping ([devices.button_panel] buttons). With a
        display attached, every press goes to it (BET, HELP, the game's own buttons... and DEAL with
        the bet chosen there); without one, CASH OUT and DEAL act here and the rest need a display."""
        if not event.pressed:
            return ACCEPTED
        function = self.config.devices.button_panel.function_of(event.button)
        if function is None:
            return self._refuse(event, f"The panel button '{event.button}' has no function; map it in "
                                       "[devices.button_panel] buttons.")
        if self.display_attached:
            self._panel_presses.append(function)
            return ACCEPTED
        if function == "cash_out":
            return self._cash_out(CashOut())
        if function == "deal":
            return self._start_game(StartGame())
        return self._refuse(event, f"The {function} button works only with the display.")

    def take_panel_presses(self) -> list[str]:
        """The panel functions pressed since the display last asked, in order."""
        presses, self._panel_presses = self._panel_presses, []
        return presses

    handlers = {ButtonChanged: _button}


def rom_id(manifest_path: Path) -> str:
    """The signed ROM's id on the boot screen: the manifest's SHA-256 (its first 16 hex digits) and the
    key id it names."""
    from egm.rom import RomError
    from egm.rom.manifest import read_manifest

    try:
        key = read_manifest(manifest_path).key_id
        return f"{hashlib.sha256(manifest_path.read_bytes()).hexdigest()[:16]} / key {key}"
    except (OSError, RomError):
        return "unreadable"


def build_cabinet(
    config: CabinetConfig,
    nvram_dir: Path | str,
    *,
    game_ids: Sequence[str] | None = None,
    seed: int | None = None,
    clock: Clock | None = None,
    devices: Devices | None = None,
    root: Path = PROJECT_ROOT,
    progress: BootProgress | None = None,
) -> Cabinet:
    """A cabinet as configured: devices from config, each game with its pay table from the ROM and its
    compiled code from the ROM's verified build (egm.rom.compiled), prepared before it is offered.

    A pay table the ROM refuses leaves its game out and stands as a ROM problem (a rom_error tilt);
    one as signed that its game cannot play leaves only that game out (`unavailable_games`).
    Jurisdiction rules that do not load are a RomError: the cabinet does not start without its rules.
    `seed` gives deterministic replay (tests, lab); without it the RNG is seeded from the OS.
    `progress` shows the ROM check and the games' preparation on the boot screen.
    """
    from egm.rom import RomError
    from egm.rom.catalogue import load_games
    from egm.rom.compiled import configured_compiled_root, install_catalogue_code, prepare_games, recheck

    progress = progress or BootProgress()
    progress.running(ROM, "program ROM, pay tables and compiled code")
    compiled_root = configured_compiled_root(config, root)
    catalogue, compiled = install_catalogue_code(load_games(config, root=root, game_ids=game_ids),
                                                 compiled_root)
    progress.rom_id = rom_id(catalogue.manifest_path)
    progress.done(ROM, "FAILED: see the ROM error" if catalogue.refused else "program ROM, pay tables and "
                  "compiled code verified")
    if compiled is not None:
        prepare_games(catalogue.games, compiled, progress)

    def rom_check() -> Any:
        return recheck(catalogue, compiled_root)

    games, unavailable, link = dict(catalogue.games), dict(catalogue.unavailable), None
    if config.game_server is not None and not catalogue.refused:
        link, games, unavailable = connect_game_server(config, Path(nvram_dir), catalogue, clock)
    try:
        jurisdiction = load_jurisdiction(config.jurisdiction)
    except ConfigError as exc:  # the rules are firmware: without them the cabinet cannot start at all
        raise RomError(f"{exc}; the jurisdiction rules are firmware (signed ROM): restore the approved "
                       "file, check with `egm rom verify`, then power-cycle") from exc
    return Cabinet(
        config,
        nvram_dir,
        games=games,
        devices=devices or build_devices(config, clock=clock),
        jurisdiction=jurisdiction,
        clock=clock,
        rng_for_game=seeded_rng(seed) if seed is not None else None,
        rom_check=rom_check,
        unavailable_games=unavailable,
        game_server=link,
    )


CATALOGUE_KEPT = "game-server-catalogue.json"  # beside the wager memory: the last menu the server gave


def connect_game_server(
    config: CabinetConfig, nvram_dir: Path, catalogue: Any, clock: Clock | None,
    transport: Any = None,
) -> tuple[GameServerLink, dict[str, Game], dict[str, str]]:
    """The link to the configured game server and the games its catalogue offers (the menu), with a
    sentence for each game refused. The boot asks the catalogue once, before the event loop runs;
    a server that does not answer leaves the menu it gave last (kept beside the wager memory), so a
    round a power cut interrupted finishes when the server returns. RomError for an unreadable key."""
    import json

    from egm.config import resolve_path
    from egm.games import UnknownGame
    from egm.host.remote_game import catalogue_vouched, offered_games
    from egm.rom.catalogue import GAME_REFUSES_ITS_TABLE, load_game
    from egm.rom.manifest import read_manifest
    from egm.rom.paytable import PaytableError
    from egm.terminal_link.signing import load_private_key, load_public_key

    settings = config.game_server
    assert settings is not None
    private_key = load_private_key(resolve_path(settings.private_key))
    link = GameServerLink(settings.url, settings.terminal_id, private_key, transport=transport,
                          monotonic=(clock or SystemClock()).monotonic)
    kept = nvram_dir / CATALOGUE_KEPT
    try:
        answer = link.fetch(ServerRequest("catalogue", "GET", "/catalogue"))
        served = dict(answer.body) if answer.status == 200 else None
        problem = "" if served else str(answer.body.get("sentence", answer.status))
    except httpx.HTTPError as exc:
        served, problem = None, f"the game server at {settings.url} cannot be reached ({type(exc).__name__})"
    if served is not None:
        nvram_dir.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(served, sort_keys=True), encoding="utf-8")
    elif kept.is_file():
        served = json.loads(kept.read_text(encoding="utf-8"))
    unavailable = {"game-server": f"The game server's catalogue could not be read: {problem}."} if problem \
        else {}
    vouching = settings.catalogue_public_key
    key = load_public_key(resolve_path(vouching)) if vouching else None
    served = served or {"games": []}
    digests = {e.sha256: e.path for e in read_manifest(catalogue.manifest_path).files
               if e.path.startswith("paytables/") and e.path.endswith(".toml")}
    wanted = {str(g.get("paytable_sha256")): str(g.get("id")) for g in served.get("games") or []
              if isinstance(g, dict)}
    rom_paytables: dict[str, Game | None] = {}
    for digest, game_id in wanted.items():
        if digest in digests:
            try:  # the same pay table, built here by this cabinet's own code for the game, if it has it
                rom_paytables[digest] = load_game(game_id, digests[digest].removeprefix("paytables/"),
                                                  root=catalogue.root, manifest_path=catalogue.manifest_path,
                                                  trusted_keys=catalogue.trusted_keys)
            except (PaytableError, UnknownGame, *GAME_REFUSES_ITS_TABLE):  # no code for it here: generic
                rom_paytables[digest] = None
    games, refused = offered_games(served, rom_paytables, catalogue_vouched(served, key))
    return link, dict(games), {**unavailable, **refused}

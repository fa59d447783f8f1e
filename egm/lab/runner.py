"""Chunked simulation: plan, run on a process pool or a Dask cluster, merge, show progress, stop cleanly.

A run of N games with seed S is cut into chunks of the adapter's fixed size; chunk k plays its games
from `Rng.from_seed(derive_seed(S, "chunk", k))` with every pool starting at its seed value. The plan
depends only on N, S and the chunk size, never on the workers, and chunk tallies are merged in chunk
order, so the result is bit-identical with 1 worker, K workers or a Dask cluster.

Ctrl-C stops a run cleanly: pending chunks are cancelled and the chunks already finished are merged
and reported, marked partial.
"""

from __future__ import annotations

import os
import queue
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass
from multiprocessing.managers import SyncManager
from typing import Any

from egm.lab.adapters import LabError, adapter_for
from egm.lab.stats import Tally, merge_in_order, summarize
from egm.rng import derive_seed


@dataclass(frozen=True)
class Chunk:
    index: int
    seed: int
    games: int


def plan_chunks(run_seed: int, games: int, chunk_games: int) -> list[Chunk]:
    """The chunks of a run: fixed size, the last one shorter, each with its derived seed.

    >>> [(c.index, c.games) for c in plan_chunks(7, 25, 10)]
    [(0, 10), (1, 10), (2, 5)]
    """
    if games <= 0:
        raise LabError("the number of games must be a positive whole number")
    return [
        Chunk(k, derive_seed(run_seed, "chunk", k), min(chunk_games, games - start))
        for k, start in enumerate(range(0, games, chunk_games))
    ]


REPORT_SECONDS = 0.25  # how often a chunk tells the progress bar its games, at most


class ChunkProgress:
    """A chunk's games played so far, put on a queue (the parent's progress bar) at most every
    REPORT_SECONDS; it pickles with a multiprocessing manager's queue, so pool workers can use it."""

    def __init__(self, queue: Any, index: int) -> None:
        self.queue = queue
        self.index = index
        self.last = 0.0

    def __call__(self, games: int) -> None:
        now = time.monotonic()
        if now - self.last >= REPORT_SECONDS:
            self.last = now
            self.queue.put((self.index, games))


def run_chunk(game_id: str, paytable: Any, strategy: str, chunk: Chunk,
              progress: ChunkProgress | None = None) -> Tally:
    """One chunk, in whatever process runs it (a top-level function so it pickles)."""
    return adapter_for(game_id).run_chunk(paytable, strategy, chunk.seed, chunk.games, progress=progress)


@dataclass
class RunResult:
    tally: Tally
    chunks_done: int
    chunks_planned: int
    elapsed_s: float
    partial: bool

    @property
    def games_per_second(self) -> float:
        return self.tally.games / self.elapsed_s if self.elapsed_s > 0 else 0.0


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which cancels the run and reports what was done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Submit = Callable[[Chunk], Future[Tally]]


class _Progress:
    """A tqdm bar on stderr (hidden when not a terminal), shown at once and moved in games: by the
    games the running chunks report (`ChunkProgress`, drained from `queue` by a thread) and by each
    chunk finished, with games/s and the live RTP and its interval."""

    def __init__(self, total: int, label: str, enabled: bool) -> None:
        from tqdm import tqdm

        # Scaled units (1.00M) only for large runs: a small one reads "60/300", not "60.0/300".
        self._bar = tqdm(total=total, unit="game", unit_scale=total >= 10_000, desc=label,
                         disable=None if enabled else True, dynamic_ncols=True, leave=False)
        self._played: dict[int, int] = {}  # chunk index -> games played in it so far
        self._lock = threading.Lock()
        self._queue: Any = None
        self._drainer: threading.Thread | None = None

    @property
    def shown(self) -> bool:
        return not self._bar.disable

    def listen(self, queue: Any) -> None:
        """Drain (chunk index, games) reports from `queue` until `close` (a None ends the thread)."""
        self._queue = queue

        def drain() -> None:
            while (item := queue.get()) is not None:
                self._played_in(*item)

        self._drainer = threading.Thread(target=drain, name="progress", daemon=True)
        self._drainer.start()

    def _played_in(self, index: int, games: int) -> None:
        with self._lock:
            before = self._played.get(index, 0)
            if games > before:
                self._played[index] = games
                self._bar.update(games - before)

    def update(self, tally: Tally, chunk: Chunk) -> None:
        self._played_in(chunk.index, chunk.games)
        if tally.games and self.shown:
            s = summarize(tally)
            self._bar.set_postfix_str(f"RTP {float(s.rtp):.4%} [{s.ci95[0]:.4%}, {s.ci95[1]:.4%}]")

    def close(self) -> None:
        if self._drainer is not None:
            self._queue.put(None)
            self._drainer.join()
            self._drainer = None
        self._bar.close()


def _drive(chunks: list[Chunk], submit: Submit, window: int, progress: _Progress,
           cancel: Callable[[], None]) -> tuple[dict[int, Tally], bool]:
    """Keep `window` chunks in flight; return the finished tallies by chunk index, and whether the run
    was interrupted."""
    done: dict[int, Tally] = {}
    running: dict[Future[Tally], Chunk] = {}
    pending: Iterator[Chunk] = iter(chunks)
    live = Tally()
    try:
        for chunk in pending:
            running[submit(chunk)] = chunk
            if len(running) >= window:
                break
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                chunk = running.pop(future)
                tally = future.result()
                done[chunk.index] = tally
                live.merge(tally)
                progress.update(live, chunk)
                following = next(pending, None)
                if following is not None:
                    running[submit(following)] = following
    except KeyboardInterrupt:
        for future in running:
            future.cancel()
        cancel()
        return done, True
    return done, False


def run(game_id: str, paytable: Any, strategy: str, chunks: list[Chunk], *, workers: int = 0,
        scheduler: str | None = None, progress: bool = False, label: str = "") -> RunResult:
    """Run the chunks (all cores by default; 1 worker runs in this process) and merge them in order.
    The game's compiled firmware code comes from the ROM's verified build when there is one for this CPU
    (forked workers inherit it); otherwise it compiles here."""
    from egm.rom.compiled import install_configured_build

    install_configured_build()
    workers = workers or os.cpu_count() or 1
    bar = _Progress(sum(c.games for c in chunks), label, progress)
    start = time.perf_counter()
    try:
        if scheduler:
            done, interrupted = _run_dask(game_id, paytable, strategy, chunks, scheduler, bar)
        elif workers == 1:
            reports: Any = queue.SimpleQueue() if bar.shown else None
            if reports is not None:
                bar.listen(reports)

            def submit_here(chunk: Chunk) -> Future[Tally]:
                future: Future[Tally] = Future()
                told = ChunkProgress(reports, chunk.index) if reports is not None else None
                future.set_result(run_chunk(game_id, paytable, strategy, chunk, told))
                return future

            done, interrupted = _drive(chunks, submit_here, 1, bar, lambda: None)
        else:
            with ExitStack() as stack:
                # Pool workers report their games through a manager's queue, only when the bar shows.
                reports = None
                if bar.shown:
                    manager = SyncManager()
                    manager.start(_ignore_sigint)  # Ctrl-C stops the run, not the bar's queue
                    stack.callback(manager.shutdown)
                    reports = manager.Queue()
                    bar.listen(reports)
                pool = stack.enter_context(ProcessPoolExecutor(max_workers=workers,
                                                               initializer=_ignore_sigint))

                def submit(chunk: Chunk) -> Future[Tally]:
                    told = ChunkProgress(reports, chunk.index) if reports is not None else None
                    return pool.submit(run_chunk, game_id, paytable, strategy, chunk, told)

                done, interrupted = _drive(chunks, submit, 2 * workers, bar,
                                           lambda: pool.shutdown(wait=False, cancel_futures=True))
                bar.close()  # before the manager's queue goes
    finally:
        bar.close()
    elapsed = time.perf_counter() - start
    ordered = [done[c.index] for c in chunks if c.index in done]
    return RunResult(merge_in_order(ordered), len(ordered), len(chunks), elapsed, interrupted)


def _run_dask(game_id: str, paytable: Any, strategy: str, chunks: list[Chunk], address: str,
              bar: _Progress) -> tuple[dict[int, Tally], bool]:
    try:
        from distributed import Client
    except ImportError as exc:
        raise LabError("--scheduler needs Dask distributed; install it: pip install 'egm[dask]'") from exc
    try:
        client = Client(address, timeout="5s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise LabError(f"cannot reach the Dask scheduler at {address} ({exc}); check the address and "
                       "that the scheduler is running") from exc
    run_id = uuid.uuid4().hex  # task keys unique to this run, even on a cluster shared by many runs
    with client:
        workers = max(1, sum(client.nthreads().values()))

        def submit(chunk: Chunk) -> Future[Tally]:
            # distributed futures are not concurrent.futures futures; wrap each in one.
            future: Future[Tally] = Future()
            remote = client.submit(run_chunk, game_id, paytable, strategy, chunk, pure=False,
                                   key=f"egm-{run_id}-{strategy}-{chunk.index}")

            def relay(remote_future: Any) -> None:
                if future.cancelled():
                    return
                try:
                    future.set_result(remote_future.result())
                except BaseException as exc:  # noqa: BLE001 - relayed to the waiting side
                    future.set_exception(exc)

            remote.add_done_callback(relay)
            future.add_done_callback(lambda f: remote.cancel() if f.cancelled() else None)
            return future

        return _drive(chunks, submit, 2 * workers, bar, lambda: None)

"""The server's random numbers: the project's CTR_DRBG (egm.rng), seeded from the OS.

`Rng` is not thread-safe and requests run in worker threads, so one DRBG per process serves every new
round behind a lock, held while the game draws its round (all its randomness is drawn in new_round).
A test seed (Settings.test_seed, never set by the CLI) gives each round its own seeded stream instead.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Iterator

from egm.rng import Rng, derive_seed


class RoundRng:
    def __init__(self, test_seed: int | None = None) -> None:
        self._lock = threading.Lock()
        self._test_seed = test_seed
        self._numbers = itertools.count(1)
        self._rng = Rng.from_os() if test_seed is None else None

    @contextlib.contextmanager
    def drawing(self) -> Iterator[Rng]:
        """The stream one new round draws from, held exclusively while it draws."""
        with self._lock:
            if self._rng is not None:
                yield self._rng
            else:
                assert self._test_seed is not None
                yield Rng.from_seed(derive_seed(self._test_seed, "game", next(self._numbers)))

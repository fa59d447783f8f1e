"""Test support for the cabinet spine: a tiny real card game and a cabinet built around it.

"High Card Draw" (game id `test-draw`) has three steps: the player is dealt two cards face up and the
dealer one face down; the player *chooses* one card, then *confirms*; the chosen card beats the
dealer's by rank (a joker beats everything and wins the pool). Win: 2 x stake, a push returns the
stake, a joker pays 50 x stake plus the pool. A pool grows by one cent a game. All randomness is
drawn at `new_round`, so a record rebuilds the same cards at the same step.

Run as a module, it is the crash-injection child: `python -m tests.cabinet_support NVRAM SEED GAMES`
runs the same autoplay as `egm autoplay`, but on this game, so the crash test does not depend on the
real games or the shipped ROM manifest.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from egm.cards import DECK, Card
from egm.clock import FakeClock
from egm.config import CabinetConfig, JurisdictionConfig
from egm.games.base import Decision, DecisionRefused, Game, Outcome, Round, RoundView, Wager
from egm.rng import Rng
from hardware.factory import Devices, build_devices

GAME_ID = "test-draw"
POOL = "test_pool"
STEPS = ("choose", "confirm", "complete")


class DrawRound(Round):
    def __init__(self, record: Mapping[str, Any]) -> None:
        self.record = json.loads(json.dumps(record))

    @property
    def step(self) -> str:
        return str(self.record["step"])

    def decide(self, decision: Decision) -> None:
        if decision.kind != self.step:
            raise DecisionRefused(f"'{decision.kind}' is not possible now; the round waits for '{self.step}'")
        if self.step == "choose":
            card = decision.args.get("card")
            if card not in (0, 1):
                raise DecisionRefused("choose card 0 or card 1")
            self.record["chosen"] = card
            self.record["step"] = "confirm"
        else:
            self.record["step"] = "complete"

    def reference_decision(self) -> Decision:
        if self.step == "choose":
            cards = self.record["player"]
            return Decision("choose", {"card": 0 if _strength(cards[0]) >= _strength(cards[1]) else 1})
        return Decision("confirm")

    def outcome(self) -> Outcome:
        if not self.finished:
            raise ValueError("the round is not finished")
        stake = self.record["wager"]["stake_credits"]
        chosen = _strength(self.record["player"][self.record["chosen"]])
        dealer = _strength(self.record["dealer"])
        pool = self.record["pool"] + 1
        if chosen == 99:
            win, code, pool_after = 50 * stake + pool // self.record["wager"]["denom_cents"], "JK", 0
        elif chosen > dealer:
            win, code, pool_after = 2 * stake, "W", pool
        elif chosen == dealer:
            win, code, pool_after = stake, "P", pool
        else:
            win, code, pool_after = 0, "L", pool
        return Outcome(
            win_credits=win, pools_cents={POOL: pool_after}, result_code=code, summary={"code": code}
        )

    def to_record(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.record))

    def view(self) -> RoundView:
        shown = {"player": [str(Card(c)) for c in self.record["player"]]}
        if self.finished:
            shown["dealer"] = str(Card(self.record["dealer"]))
        stake = self.record["wager"]["stake_credits"]
        return RoundView(game_id=GAME_ID, step=self.step, bet_credits=stake, stake_credits=stake,
                         decision_awaited=not self.finished, auto_decision=not self.finished,
                         win_credits=self.outcome().win_credits if self.finished else None, table=shown)


def _strength(index: int) -> int:
    card = Card(index)
    return 99 if card.is_joker else card.rank


class DrawGame(Game):
    game_id = GAME_ID
    title = "High Card Draw"
    steps = STEPS
    pool_names = (POOL,)

    def default_wager(self, denom_cents: int) -> Wager:
        return Wager(bet_credits=100, stake_credits=100, denom_cents=denom_cents)

    def new_round(self, wager: Wager, rng: Rng, pools_cents: Mapping[str, int]) -> Round:
        deck = [c.index for c in DECK]
        rng.shuffle(deck)
        return DrawRound(
            {
                "step": "choose",
                "player": deck[:2],
                "dealer": deck[2],
                "chosen": None,
                "pool": pools_cents.get(POOL, 0),
                "wager": {"stake_credits": wager.stake_credits, "denom_cents": wager.denom_cents},
            }
        )

    def restore(self, record: Mapping[str, Any]) -> Round:
        return DrawRound(record)


def draw_games() -> dict[str, Game]:
    header = SimpleNamespace(denominations_cents=[1], bets_credits=[100, 200], max_win_cents=10**9)
    rules = SimpleNamespace(stake_bets=1, side_bet_limits={})
    paytable = SimpleNamespace(id="test-draw-v1", sha256="0" * 64, header=header, rules=rules)
    return {GAME_ID: DrawGame(paytable)}


def spine_config(**changes: Any) -> CabinetConfig:
    base = CabinetConfig().model_dump()
    base.update(games=[GAME_ID], **changes)
    return CabinetConfig.model_validate(base)


def spine_jurisdiction(**changes: Any) -> JurisdictionConfig:
    values: dict[str, Any] = {"name": "Test", "min_rtp": 0.8, "max_rtp": 1.0, **changes}
    return JurisdictionConfig.model_validate(values)


class PassingRom:
    """A ROM check that finds nothing wrong (the real ROM is tested with the signed_tree fixture)."""

    is_development_key = False
    file_count = 0
    problems: list[object] = []

    def __call__(self) -> PassingRom:
        return self


def make_cabinet(
    nvram: Path,
    *,
    seed: int = 1,
    config: CabinetConfig | None = None,
    jurisdiction: JurisdictionConfig | None = None,
    devices: Devices | None = None,
    clock: FakeClock | None = None,
    rom_check: Any = None,
    games: dict[str, Game] | None = None,
) -> Any:
    from egm.cabinet import Cabinet
    from egm.rng import seeded_rng

    config = config or spine_config()
    return Cabinet(
        config,
        nvram,
        games=draw_games() if games is None else games,
        devices=devices or build_devices(config),
        jurisdiction=jurisdiction or spine_jurisdiction(),
        clock=clock or FakeClock(),
        rng_for_game=seeded_rng(seed),
        rom_check=rom_check or PassingRom(),
    )


class CrashingConnection:
    """A wager-memory connection that kills its own process right after the Nth COMMIT (of either copy)."""

    def __init__(self, conn: Any, commits: Iterator[int], crash_at: int) -> None:
        self._conn, self._commits, self._crash_at = conn, commits, crash_at

    def execute(self, sql: str, *args: Any) -> Any:
        result = self._conn.execute(sql, *args)
        if sql == "COMMIT" and next(self._commits) == self._crash_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def crash_at_commit(crash_at: int) -> None:
    """Make this process die by SIGKILL right after its Nth wager-memory commit."""
    from egm.memory import copies

    commits = itertools.count(1)
    connect = copies.connect
    copies.connect = lambda path: CrashingConnection(connect(path), commits, crash_at)  # type: ignore


def main(argv: list[str]) -> int:
    """The crash-injection child: autoplay on the test game, then print the report.

    With EGM_CRASH_AT_COMMIT=N in the environment it kills itself right after its Nth commit.
    """
    from egm.cabinet_cli import autoplay

    nvram, seed, games = Path(argv[0]), int(argv[1]), int(argv[2])
    if os.environ.get("EGM_CRASH_AT_COMMIT"):
        crash_at_commit(int(os.environ["EGM_CRASH_AT_COMMIT"]))
    report, code = autoplay(make_cabinet(nvram, seed=seed, clock=None), GAME_ID, games, 500)
    print(json.dumps(report))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

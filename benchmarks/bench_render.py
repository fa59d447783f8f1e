"""Frame render time at 1920x1080 in the Dragon Poker scenes, and input-to-state latency.

    SDL_VIDEODRIVER=dummy python benchmarks/bench_render.py [--frames 600]

A frame is what the display loop does each tick: poll the devices, snapshot the cabinet, update the
scene, draw the logical 1920x1080 frame and copy it to the display surface. The busiest scene is the
reveal (three seats of 13 cards, row marks, ledger, scoreboard, animated lamps). Latency is the time
from a pygame input event entering `VideoController.process` until the cabinet's state shows its
effect (the wager-memory transaction committed), e.g. DEAL -> a game in progress.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from egm.games.dragon_poker.scene import PHASE_S  # noqa: E402
from egm.games.dragon_poker.screenshots import designate, pool_card_centre, set_step  # noqa: E402
from egm.video.screenshot import credit  # noqa: E402
from egm.video.session import Session, dev_signed_config  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


Times = list[tuple[float, float]]  # (wall ms, CPU ms of this thread) per frame


def frame_times(session: Session, screen: pygame.Surface, frames: int, animate: bool) -> Times:
    times: Times = []
    for i in range(frames):
        if animate:
            session.clock.advance(1 / 60)
        wall, cpu = time.perf_counter(), time.thread_time()
        session.video.update()
        session.video.present(screen)
        pygame.display.flip()
        times.append(((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000))
        if i == 0:
            times.clear()  # the first frame fills the text and card caches
    return times


def report(name: str, times: Times) -> None:
    """Wall time is what the screen sees; CPU time is the frame's own cost when the machine is busy."""
    for label, values in (("wall", [w for w, _ in times]), ("cpu ", [c for _, c in times])):
        print(
            f"{name:<34} {label} median {statistics.median(values):6.2f} ms"
            f"   p99 {percentile(values, 0.99):6.2f} ms   max {max(values):6.2f} ms   ({len(values)} frames)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args()
    pygame.init()
    screen = pygame.display.set_mode((1920, 1080))
    with tempfile.TemporaryDirectory() as tmp:

        def fresh(name: str) -> Session:
            """A new cabinet, with the tree signed just now (the tree may change while this runs)."""
            config = dev_signed_config(Path(tmp) / name)
            return Session(config, Path(tmp) / name / "nvram", seed=11, game_ids=["dragon-poker"])

        print(
            f"pygame {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}, "
            f"driver {pygame.display.get_driver()}, 1920x1080"
        )
        s = fresh("designate")
        designate(s)
        report("designate (4 x 13 face down)", frame_times(s, screen, args.frames, animate=True))
        s.close()
        s = fresh("set")
        set_step(s)
        for i in (0, 3, 6):
            s.click(*pool_card_centre(i))
        report("set (13 cards, rows)", frame_times(s, screen, args.frames, animate=True))
        s.close()
        s = fresh("reveal")
        set_step(s)
        s.key("h")
        reveal: Times = []
        while len(reveal) < args.frames:  # replay the reveal animation again and again
            s.video.scene.reveal_start = s.clock.monotonic()
            reveal += frame_times(s, screen, int(PHASE_S * 6 * 60), animate=True)
        report("reveal (busiest: 39 cards, ledger)", reveal[: args.frames])
        s.wait(10)
        report("settled", frame_times(s, screen, args.frames, animate=True))
        s.close()

        latencies: dict[str, list[float]] = {
            "DEAL -> game started": [],
            "HOUSE WAY -> round settled": [],
            "tap card -> card placed": [],
        }
        for n in range(20):
            s = fresh(f"latency{n}")
            credit(s)
            start = time.perf_counter()
            s.key("space")
            latencies["DEAL -> game started"].append((time.perf_counter() - start) * 1000)
            assert s.state.startswith("game.")
            for key in ("1", "2", "3", "return"):
                s.key(key)
            start = time.perf_counter()
            s.click(*pool_card_centre(5))
            latencies["tap card -> card placed"].append((time.perf_counter() - start) * 1000)
            assert s.video.scene.placed
            start = time.perf_counter()
            s.key("h")
            latencies["HOUSE WAY -> round settled"].append((time.perf_counter() - start) * 1000)
            assert s.state == "attract"
            s.close()
        for name, values in latencies.items():
            print(
                f"latency {name:<28} median {statistics.median(values):6.2f} ms   max {max(values):6.2f} ms"
                f"   ({len(values)} inputs)"
            )
    pygame.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A headless cabinet with its display, driven by real pygame events on an injected clock.

`egm screenshot` and the tests use it: each input goes through `VideoController.process` exactly as
a key press, a click or a touch from SDL would, and the cabinet state that results is the real one.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from egm.audio.controller import AudioController
from egm.audio.speaker import SilentSpeaker
from egm.cabinet import Cabinet, build_cabinet
from egm.clock import FakeClock
from egm.config import PROJECT_ROOT, CabinetConfig, RomConfig, load_cabinet_config
from egm.rom.manifest import sign_manifest, write_manifest
from egm.video.controller import VideoController
from egm.video.layout import LOGICAL_SIZE
from egm.video.script import physical

DEV_PRIVATE_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.key"
DEV_PUBLIC_KEY = PROJECT_ROOT / "keys" / "dev-ed25519.pub"
FRAME_S = 1 / 60


def dev_signed_config(workdir: Path, config: CabinetConfig | None = None) -> CabinetConfig:
    """The cabinet config with its ROM manifest rebuilt from the current tree and signed with the
    development key in `workdir` (for screenshots of a tree under development; a kiosk refuses it)."""
    manifest = workdir / "rom" / "manifest.json"
    write_manifest(manifest, PROJECT_ROOT)
    sign_manifest(manifest, DEV_PRIVATE_KEY)
    base = config or load_cabinet_config()
    rom = RomConfig(manifest=str(manifest), trusted_keys=[str(DEV_PUBLIC_KEY)])
    return base.model_copy(update={"rom": rom})


class Session:
    """One cabinet and its display; inputs are pygame events, time moves only when told."""

    def __init__(
        self,
        config: CabinetConfig,
        nvram: Path,
        *,
        seed: int = 1,
        size: tuple[int, int] = LOGICAL_SIZE,
        game_ids: list[str] | None = None,
    ) -> None:
        if not pygame.get_init():
            pygame.init()
        self.clock = FakeClock()
        self.cabinet: Cabinet = build_cabinet(config, nvram, game_ids=game_ids, seed=seed, clock=self.clock)
        self.cabinet.boot()
        self.speaker = SilentSpeaker()
        self.power_cuts = 0
        self.video = VideoController(
            self.cabinet,
            self.cabinet.devices,
            config,
            self.clock,
            AudioController(self.speaker, config.audio),
            size=size,
            power_cut=self._power_cut,
        )
        self.video.update()

    def _power_cut(self) -> None:
        self.power_cuts += 1

    @property
    def state(self) -> str:
        return self.cabinet.state

    def post(self, *events: pygame.event.Event) -> None:
        for event in events:
            self.video.process(event)
        self.video.update()

    def key(self, name: str) -> None:
        code = pygame.key.key_code(name)
        self.post(
            pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0),
            pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0),
        )

    def click(self, x: int, y: int, *, drag_to: tuple[int, int] | None = None) -> None:
        """A mouse press at logical (x, y) and its release there, or at `drag_to` after moving."""
        down = physical(self.video.viewport, x, y)
        up = physical(self.video.viewport, *drag_to) if drag_to else down
        events = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=down, button=1, touch=False)]
        if drag_to:
            mid = ((down[0] + up[0]) // 2, (down[1] + up[1]) // 2)
            events += [
                pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0), touch=False)
                for p in (mid, up)
            ]
        events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=1, touch=False))
        self.post(*events)

    def touch(self, x: int, y: int, *, with_mouse_copy: bool = True, finger: int = 1) -> None:
        """A finger press and release at logical (x, y), with the mouse copies SDL synthesises."""
        px, py = physical(self.video.viewport, x, y)
        w, h = self.video.viewport.size
        attrs = {
            "x": px / w,
            "y": py / h,
            "dx": 0.0,
            "dy": 0.0,
            "finger_id": finger,
            "touch_id": 0,
            "pressure": 1.0,
        }
        events = [pygame.event.Event(pygame.FINGERDOWN, attrs)]
        if with_mouse_copy:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(px, py), button=1, touch=True))
        events.append(pygame.event.Event(pygame.FINGERUP, attrs))
        if with_mouse_copy:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(px, py), button=1, touch=True))
        self.post(*events)

    def wait(self, seconds: float) -> None:
        """Let time pass frame by frame, as the display loop would."""
        end = self.clock.monotonic() + seconds
        while self.clock.monotonic() < end:
            self.clock.advance(min(FRAME_S * 6, end - self.clock.monotonic()))
            self.video.update()

    def settle(self, limit_s: float = 60.0) -> None:
        """Let time pass until the table's animation (a reveal, the machine's move) is over."""
        end = self.clock.monotonic() + limit_s
        while self.video.scene.busy(self.video.frame) and self.clock.monotonic() < end:
            self.wait(FRAME_S * 6)

    def render(self) -> pygame.Surface:
        self.video.update()
        return self.video.render()

    def close(self) -> None:
        if self.cabinet.memory is not None:
            self.cabinet.memory.close()

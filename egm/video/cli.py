"""`egm emulate`, `egm kiosk` and `egm screenshot` (pygame is imported only inside the handlers)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    for name, helptext in (
        ("emulate", "run the cabinet in a window with emulated devices"),
        ("kiosk", "run the cabinet full screen on cabinet hardware (no quit key)"),
    ):
        cmd = subparsers.add_parser(name, help=helptext)
        cmd.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
        cmd.add_argument("--nvram", type=Path, default=Path("nvram"), help="wager memory directory")
        if name == "emulate":
            cmd.add_argument("--seed", type=int, help="deterministic RNG seed (demos, tests)")
            cmd.add_argument("--script", type=Path, help="replay scripted input from FILE, then exit")
        cmd.set_defaults(handler=_run_command, kiosk=name == "kiosk")
    shot = subparsers.add_parser("screenshot", help="render one scene headless to a PNG")
    shot.add_argument("--scene", required=True,
                      help="the scene: a cabinet scene (attract, game-select, ticket, hand-pay, operator, "
                           "operator-recall, tilt, help, devices), <game id>-played, or a game's own "
                           "(`egm screenshot --scene list` lists them)")
    shot.add_argument("--out", type=Path, help="PNG file to write (required unless --scene list)")
    shot.add_argument("--seed", type=int, default=1)
    shot.add_argument("--config", type=Path, help="cabinet config file (default config/cabinet.toml)")
    shot.set_defaults(handler=_screenshot_command)


NO_DISPLAY = ("egm emulate: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set); run it on "
              "a desktop, or headless with SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy egm emulate ...")


def _run_command(args: argparse.Namespace) -> int:
    import os

    if not args.kiosk and not any(map(os.environ.get, ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))):
        print(NO_DISPLAY, file=sys.stderr)  # a kiosk may draw with no window system (SDL's kmsdrm)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from egm.config import ConfigError, load_cabinet_config
    from egm.video.app import RunOptions, run
    from egm.video.script import Script, ScriptError

    try:
        config = load_cabinet_config(args.config)
        script = Script.load(args.script) if getattr(args, "script", None) else None
    except (ConfigError, ScriptError) as exc:
        print(exc, file=sys.stderr)
        return 2
    kiosk = args.kiosk or config.kiosk
    if kiosk and not config.kiosk:  # the cabinet applies kiosk rules too (it refuses the development key)
        config = config.model_copy(update={"kiosk": True})
    return run(RunOptions(config, args.nvram, kiosk, getattr(args, "seed", None), script))


def _screenshot_command(args: argparse.Namespace) -> int:
    import os
    import tempfile

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the output is the picture's name only
    import pygame

    from egm.config import ConfigError, load_cabinet_config
    from egm.video.screenshot import recipes
    from egm.video.session import Session, dev_signed_config

    known = recipes()
    if args.scene == "list":
        print("\n".join(known))
        return 0
    if args.out is None:
        print("egm screenshot: --out FILE.png is required", file=sys.stderr)
        return 2
    if args.scene not in known:
        print(f"egm screenshot: unknown scene '{args.scene}'; known scenes: {', '.join(known)}",
              file=sys.stderr)
        return 2
    if args.out is None:
        print("egm screenshot: --out FILE.png is required", file=sys.stderr)
        return 2

    try:
        base = load_cabinet_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="egm-shot-") as tmp:
        config = dev_signed_config(Path(tmp), base)
        session = Session(config, Path(tmp) / "nvram", seed=args.seed)
        try:
            known[args.scene](session)
            surface = session.render()
            args.out.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surface, str(args.out))
        finally:
            session.close()
    print(f"{args.out}: scene {args.scene} (state {session.state})")
    return 0

"""`egm rom`: the lab and maintenance tools for the program ROM and pay-table ROM.

Exit codes: 0 success; 1 the ROM failed a check, or a file, key or argument was unusable (the reason
is printed on stderr as a sentence naming the file).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from egm.config import PROJECT_ROOT

Handler = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction) -> None:
    rom = subparsers.add_parser("rom", help="build, sign and verify the program ROM; GAT HMAC; keys")
    commands = rom.add_subparsers(dest="rom_command", required=True, metavar="ROM_COMMAND")

    def add(name: str, help_text: str, handler: Handler) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=help_text, description=help_text)
        parser.set_defaults(handler=handler)
        parser.add_argument("--root", type=Path, default=PROJECT_ROOT,
                            help="project root holding egm/, hardware/, paytables/ (default: this tree)")
        parser.add_argument("--manifest", type=Path, default=None,
                            help="manifest path (default: [rom] manifest in the cabinet config)")
        parser.add_argument("--config", type=Path, default=None,
                            help="the cabinet config whose [rom] manifest and trusted_keys to use "
                                 "(default: config/cabinet.toml)")
        return parser

    def passphrase_options(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--passphrase-file", type=Path, metavar="FILE",
                            help="read the private key's passphrase from FILE's first line")
        parser.add_argument("--passphrase-env", metavar="VAR",
                            help="read the private key's passphrase from the environment variable VAR")

    build = add("build", "write the manifest (unsigned) of every firmware file, and compile the games' "
                "code for this CPU (unsigned until 'egm rom sign')", _build)
    build.add_argument("--no-compile", action="store_true",
                       help="the manifest only (the compiled code is a separate build per CPU type)")
    sign = add("sign", "sign the manifest, or one file with --detached, with an Ed25519 private key", _sign)
    sign.add_argument("--key", type=Path, required=True, help="private key file (PEM), e.g. PREFIX.key")
    sign.add_argument("--detached", type=Path, metavar="FILE",
                      help="sign FILE (e.g. a pay table from elsewhere) into FILE.sig instead")
    passphrase_options(sign)
    verify = add("verify", "check the manifest's signature, every listed file, and for unlisted files",
                 _verify)
    verify.add_argument("--trusted-key", type=Path, action="append", dest="trusted_keys",
                        help="trusted public key (repeatable; default: [rom] trusted_keys in the config)")
    mac = add("hmac", "print HMAC-SHA1 over the ROM image in manifest order (GAT-style check)", _hmac)
    mac.add_argument("--seed", required=True, help="HMAC key as hex digits, e.g. 00112233")
    keygen = commands.add_parser("keygen", help="write a new Ed25519 key pair PREFIX.key and PREFIX.pub")
    keygen.add_argument("--out", type=Path, required=True, metavar="PREFIX")
    keygen.add_argument("--passphrase", action="store_true",
                        help="encrypt the private key (a production key) with a passphrase asked twice")
    passphrase_options(keygen)
    keygen.set_defaults(handler=_keygen)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1


def _configured(args: argparse.Namespace) -> tuple[Path, list[Path]]:
    """The manifest and trusted keys of --config (default: the cabinet config), under --root."""
    from egm.config import load_cabinet_config
    from egm.rom.manifest import configured_paths

    return configured_paths(load_cabinet_config(args.config), root=args.root)


def _manifest_path(args: argparse.Namespace) -> Path:
    return args.manifest or _configured(args)[0]


def _passphrase(args: argparse.Namespace, *, new_key: bool = False) -> bytes | None:
    """The passphrase the options name; None: none given (a signing key asks when it is encrypted)."""
    from egm.rom.signing import passphrase_from

    given = args.passphrase_file is not None or args.passphrase_env is not None
    if not given and not (new_key and args.passphrase):
        return None
    return passphrase_from(args.passphrase_file, args.passphrase_env, prompt="Passphrase for the new key: ",
                           confirm=new_key)


def _compiled_root(args: argparse.Namespace) -> Path:
    from egm.config import load_cabinet_config
    from egm.rom.compiled import configured_compiled_root

    return configured_compiled_root(load_cabinet_config(args.config), args.root)


def _build(args: argparse.Namespace) -> int:
    from egm.rom.compiled import build_compiled_code
    from egm.rom.manifest import write_manifest
    from egm.rom.signing import RomError

    path = _manifest_path(args)
    try:
        manifest = write_manifest(path, args.root)
        print(f"{path}: {len(manifest.files)} files; unsigned until 'egm rom sign --key PATH'")
        if not args.no_compile:
            print("compiling the games' code for this CPU (minutes the first time)...", flush=True)
            from egm.config import DEFAULT_CABINET_CONFIG

            config = args.config or DEFAULT_CABINET_CONFIG
            directory = build_compiled_code(args.root, _compiled_root(args), config)
            print(f"{directory}: compiled code for this CPU; unsigned until 'egm rom sign --key PATH'")
    except RomError as exc:
        return _fail(str(exc))
    return 0


def _sign(args: argparse.Namespace) -> int:
    from egm.rom.manifest import sign_manifest
    from egm.rom.signing import RomError, sign_file

    try:
        passphrase = _passphrase(args)
        if args.detached is not None:
            sig_path, key_id = sign_file(args.detached, args.key, passphrase)
            print(f"{sig_path}: signed with key {key_id}")
        else:
            from egm.rom.compiled import sign_compiled

            path = _manifest_path(args)
            key_id = sign_manifest(path, args.key, passphrase)
            print(f"{path}: signed with key {key_id}")
            for build in sign_compiled(_compiled_root(args), args.key, passphrase):
                print(f"{build}: signed with key {key_id}")
    except RomError as exc:
        return _fail(str(exc))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from egm.config import ConfigError, load_cabinet_config
    from egm.rom.manifest import verify_rom

    try:
        manifest, trusted = _configured(args)
        kiosk = load_cabinet_config(args.config).kiosk
    except ConfigError as exc:
        return _fail(str(exc))
    check = verify_rom(args.root, args.trusted_keys or trusted, args.manifest or manifest)
    problems = [str(p) for p in check.problems]
    if check.ok:  # the compiled code is checked against the verified manifest's sources
        from egm.rom.compiled import check_compiled, firmware_of
        from egm.rom.manifest import read_manifest

        compiled = check_compiled(args.root, _compiled_root(args), args.trusted_keys or trusted,
                                  firmware_of(read_manifest(args.manifest or manifest)))
        problems.extend(str(p) for p in compiled.problems)
        print(compiled.sentence())
    if check.ok and kiosk and check.is_development_key:  # as the cabinet's own ROM check decides
        problems.append("kiosk mode refuses the development signing key; install a production-signed ROM")
    for problem in problems:
        print(problem)
    if problems:
        print(f"ROM FAILED: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    kind = " (DEVELOPMENT key: a kiosk refuses it)" if check.is_development_key else ""
    print(f"ROM OK: {check.file_count} files, signed with key {check.key_id}{kind}")
    return 0


def _hmac(args: argparse.Namespace) -> int:
    from egm.rom.gat import parse_seed, rom_hmac
    from egm.rom.manifest import read_manifest
    from egm.rom.signing import RomError

    try:
        seed = parse_seed(args.seed)
        print(rom_hmac(read_manifest(_manifest_path(args)), args.root, seed))
    except RomError as exc:
        return _fail(str(exc))
    return 0


def _keygen(args: argparse.Namespace) -> int:
    from egm.rom.signing import RomError, generate_key_pair

    try:
        passphrase = _passphrase(args, new_key=True)
        key_id = generate_key_pair(args.out, passphrase)
    except RomError as exc:
        return _fail(str(exc))
    kind = "private, NOT encrypted: for development"
    if passphrase:
        kind = "private, encrypted with the passphrase"
    print(f"{args.out}.key ({kind}; keep it off the cabinet) and {args.out}.pub written; key id {key_id}")
    return 0

"""Dependencies point one way: `egm` (the firmware) depends on `hardware` (the hardware abstraction
layer), and nothing under `hardware/` imports `egm`; the hardware layer's own core
(`hardware.core`: the clock and the device configuration types) is what both share."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from egm.config import PROJECT_ROOT

HARDWARE = PROJECT_ROOT / "hardware"


def is_egm(module: str) -> bool:
    return module == "egm" or module.startswith("egm.")


def egm_imports(path: Path, root: Path = PROJECT_ROOT) -> list[str]:
    """Every import of `egm` in one source file (plain, from-, and importlib by a literal name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        else:
            continue
        found += [f"{path.relative_to(root)}:{node.lineno} imports {n}" for n in names if is_egm(n)]
    return found


def test_no_module_under_hardware_imports_egm() -> None:
    sources = sorted(HARDWARE.rglob("*.py"))
    assert len(sources) > 20  # the whole hardware layer is read, not an empty glob
    assert [line for path in sources for line in egm_imports(path)] == []


def test_the_checker_sees_every_form_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "hardware" / "sample.py"
    sample.parent.mkdir()
    sample.write_text(
        "import egm.clock\nfrom egm import config\nimport importlib\n"
        "importlib.import_module('egm.events')\nfrom hardware.core import clock\nimport egmcore\n"
    )
    found = [line.split(" imports ")[1] for line in egm_imports(sample, tmp_path)]
    assert found == ["egm.clock", "egm", "egm.events"]


def test_importing_the_whole_hardware_layer_loads_no_egm_module() -> None:
    """At run time too: every hardware module imported in a fresh interpreter pulls in no egm code."""
    script = (
        "import pkgutil, sys, hardware\n"
        "for info in pkgutil.walk_packages(hardware.__path__, 'hardware.'):\n"
        "    __import__(info.name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'egm' or m.startswith('egm.'))\n"
        "print(len([m for m in sys.modules if m.startswith('hardware.')]), loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    count, loaded = done.stdout.split(" ", 1)
    assert int(count) > 20 and loaded.strip() == "[]"

"""Dependencies point one way: `egm` (the firmware) depends on `hardware` (the hardware abstraction
layer), and nothing under `hardware/` imports `egm`; the hardware layer's own core
(`hardware.core`: the clock and the device configuration types) is what both share.

Inside egm, the game server, the cabinet, the host link and the round engine are layers, in that
order from the top: each imports only what is below it, so no import circle passes through one."""

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


# --- inside egm: the layers import downwards only --------------------------------------------------
# From the top: the game server, the cabinet, the host link below it, the round engine at the bottom.
# Each may import what is below it, never what is above; and no circle of imports passes through one.
LAYERS = ("egm.server", "egm.cabinet", "egm.host", "egm.play")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path) -> set[str]:
    """The egm modules one file imports (at the top or inside a function, not for type checking only),
    each with the packages above it, which importing it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):  # what only a type checker reads is not an import at run time
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.level or node.module):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names = [module, *(f"{module}.{alias.name}" for alias in node.names)]  # a name may be a module
        else:
            continue
        for name in filter(is_egm, names):
            words = name.split(".")
            found |= {".".join(words[:n]) for n in range(1, len(words) + 1)}
    return found


def layer_graph(root: Path = PROJECT_ROOT) -> dict[str, set[str]]:
    """Who imports whom under egm/, each layer taken as one node and every other module as itself."""

    def node(module: str) -> str:
        return next((layer for layer in LAYERS if module == layer or module.startswith(f"{layer}.")), module)

    graph: dict[str, set[str]] = {}
    for path in sorted((root / "egm").rglob("*.py")):
        source = node(module_name(path, root))
        targets = graph.setdefault(source, set())
        targets |= {node(m) for m in imported_modules(path, root)} - {source}
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), set()) - seen:
            seen.add(target)
            todo.append(target)
    return seen


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each layer that reaches (directly or through other modules) itself or a layer above it."""
    problems = []
    for depth, layer in enumerate(LAYERS):
        above = set(LAYERS[: depth + 1])
        problems += [f"{layer} reaches {other}" for other in sorted(reachable(graph, layer) & above)]
    return problems


def test_the_layers_import_downwards_only() -> None:
    graph = layer_graph()
    assert {"egm.cabinet", "egm.host", "egm.play"} <= set(graph) and len(graph) > 100
    assert "egm.host" in graph["egm.cabinet"] and "egm.play" in graph["egm.cabinet"]  # the edges are seen
    assert upward_imports(graph) == []


def test_the_layer_check_finds_a_circle(tmp_path: Path) -> None:
    """Today's circle before the split: the cabinet's build imported the host link's SAS part, whose
    base imported the cabinet's core."""
    for name, text in {
        "egm/__init__.py": "",
        "egm/cabinet/__init__.py": "from .build import Cabinet\n",
        "egm/cabinet/build.py": "from egm.host.sas import HostPart\n",
        "egm/cabinet/core.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import egm.server\n",
        "egm/host/__init__.py": "",
        "egm/host/sas.py": "from egm.host.base import HostBase\n",
        "egm/host/base.py": "def part():\n    from egm.cabinet.core import CabinetPart\n",
        "egm/play/rounds.py": "from ..games import base\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = layer_graph(tmp_path)
    assert graph["egm.play"] == {"egm", "egm.games", "egm.games.base"}  # `from ..games import base`
    assert "egm.server" not in graph["egm.cabinet"]  # a type-checking import is not one at run time
    assert upward_imports(graph) == ["egm.cabinet reaches egm.cabinet", "egm.host reaches egm.cabinet",
                                     "egm.host reaches egm.host"]


def test_every_module_of_the_layers_imports_first() -> None:
    """At run time: each module of a layer imported first in a fresh interpreter (an import circle
    fails there with a partially initialised module, as `import egm.host.sas` did)."""
    modules = sorted(module_name(path, PROJECT_ROOT) for layer in LAYERS
                     for path in (PROJECT_ROOT / Path(*layer.split("."))).rglob("*.py"))
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    for loaded in [m for m in sys.modules if m == 'egm' or m.startswith('egm.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "print(len(sys.argv) - 1)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *modules], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(modules) >= 15

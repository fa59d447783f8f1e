"""The state diagram in docs is generated from the cabinet's own tables and must be current."""

from __future__ import annotations

from pathlib import Path

from egm.cabinet import diagram_document, state_diagram
from egm.config import PROJECT_ROOT, load_cabinet_config
from tests.cabinet_support import make_cabinet


def test_docs_state_diagram_is_current() -> None:
    expected = diagram_document(load_cabinet_config().games)
    actual = (PROJECT_ROOT / "docs" / "state-diagram.md").read_text(encoding="utf-8")
    assert actual == expected, "stale: run egm state-diagram --write docs/state-diagram.md"


def test_diagram_shows_every_transition_of_the_live_machine(tmp_path: Path) -> None:
    cabinet = make_cabinet(tmp_path)
    diagram = state_diagram({g: game.steps for g, game in cabinet.games.items()})

    def node(name: str) -> str:
        return name.replace(".", "__").replace("-", "_")

    edges = [
        f"{node(source)} --> {node(t.dest)}: {name}"
        for name, event in cabinet.machine.events.items()
        for source, transitions in event.transitions.items()
        for t in transitions
    ]
    assert len(edges) > 60
    assert all(edge in diagram for edge in edges)
    assert "game__test_draw__choose --> game__test_draw__confirm: advance" in edges

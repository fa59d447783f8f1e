"""The hypothesis budget of the money-path property tests (notes, tickets, credits, meters).

A money-path property test runs `money_path(n)` examples: n on a developer's machine, CI_FACTOR
times n in CI (`CI=true`), so that CI draws more of the rare sequences a fresh clone could meet.
Each such test also carries the `money_path` marker: `pytest -m money_path` runs exactly them.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

CI_FACTOR = 8
IN_CI = os.environ.get("CI", "").lower() == "true"


def money_path(examples: int, *health_checks: HealthCheck) -> settings:
    """Settings for a money-path property test of `examples` examples (times CI_FACTOR in CI)."""
    return settings(
        max_examples=examples * (CI_FACTOR if IN_CI else 1),
        deadline=None,
        suppress_health_check=list(health_checks),
    )


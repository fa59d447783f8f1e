"""Shared test set-up: headless SDL, and the --soak flag for long runs."""

from __future__ import annotations

import os

import pytest

# signed_tree; the game server (PostgreSQL, the app); real server processes and chromium; the web client
pytest_plugins = ["tests.rom_support", "tests.server_support", "tests.browser_support", "tests.web_support"]

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="run long soaks and long simulations")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="long run: enable with --soak")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)

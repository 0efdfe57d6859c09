"""Tests marked `slow` (the 100,000-position differential test) run only when asked: `pytest -m slow`."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long differential run: pytest -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

"""Tests marked `slow` (the 100,000-position differential tests, training runs, sense checks) run only when
asked, `pytest -m slow`, so that `make test` stays well inside CI's time; this hook sits at the root of the
tests so that it holds for every folder (it sat under games/geister, and the slow tests elsewhere ran in CI)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: pytest -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

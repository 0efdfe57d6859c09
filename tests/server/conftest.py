"""Fixtures for tests against a real server process (see harness.py for the pieces)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server per test module, on its own SQLite file and free port."""
    process = ServerProcess(tmp_path_factory.mktemp("server")).start()
    yield process
    process.stop()


@pytest.fixture()
def fresh_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, for tests that kill or restart it."""
    process = ServerProcess(tmp_path).start()
    yield process
    process.kill()

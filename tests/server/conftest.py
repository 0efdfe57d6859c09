"""Fixtures for tests against a real server process (see harness.py for the pieces)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.services import Postgres, ServiceUnavailable, ensure_installed
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


@pytest.fixture(scope="module")
def postgres_db() -> Iterator[Postgres]:
    """A PostgreSQL server of the module's own (installed from Debian when missing, as `make test` does);
    the test is skipped, saying why, where none can run."""
    try:
        ensure_installed()
        instance = Postgres().start()
    except (ServiceUnavailable, OSError) as err:
        pytest.skip(str(err))
    yield instance
    instance.stop()

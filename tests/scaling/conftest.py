"""Session-wide private PostgreSQL and Redis for the multi-worker tests (installed when missing, as root)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.infra.services import Postgres, Redis, ServiceUnavailable, ensure_installed


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    try:
        ensure_installed()
        instance = Postgres().start()
    except ServiceUnavailable as err:
        pytest.skip(str(err))
    yield instance
    instance.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    try:
        ensure_installed()
        instance = Redis().start()
    except ServiceUnavailable as err:
        pytest.skip(str(err))
    yield instance
    instance.stop()

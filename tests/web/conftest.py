"""Fixtures for the browser tests: a real server on a free loopback port with its own SQLite file (the
server suite's harness) and Debian's chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.harness import ServerProcess
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS

try:
    from playwright.sync_api import Browser, Playwright, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None  # type: ignore[assignment]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if sync_playwright is None:
        pytest.skip("playwright is not installed (pip install -e '.[dev]')")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh as root (make test does)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server per test module. A page change reconnects the socket, so the seat grace is generous."""
    process = ServerProcess(tmp_path_factory.mktemp("web-server"), env={"GHOSTGAMES_GRACE": "20"}).start()
    yield process
    process.stop()

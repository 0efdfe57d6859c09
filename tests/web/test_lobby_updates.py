"""The lobby page follows the server's gathered `lobby_update` diffs (issue 14, point 5): tables made
after the page loaded appear, change and go away without a reload; a refused creation says when to try
again (point 2)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.harness import ServerProcess
from tests.web.pages import enter_as_guest, open_advanced


@pytest.fixture()
def lobby_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path, env={
        "GHOSTGAMES_LOBBY_FLUSH": "0.5", "GHOSTGAMES_CREATE_PER_PERSON": "2", "GHOSTGAMES_GRACE": "20",
        "GHOSTGAMES_SWEEP_EVERY": "0.2", "GHOSTGAMES_IDLE_CLOSE": "2"}).start()
    yield process
    process.stop()


def test_review_5_the_lobby_page_applies_diffs(lobby_server: ServerProcess, browser: Browser) -> None:
    server = lobby_server
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Lena")
    # Lena's third table in a minute is refused (two a minute here), with the time to wait in words
    for _ in range(2):
        open_advanced(page, "thelast")
        page.locator("form.create-form[data-game=thelast] select[name=bots]").select_option("0")
        page.locator("form.create-form[data-game=thelast] button[type=submit]").click()
        page.wait_for_url("**/table/**")
        page.wait_for_selector(".seat.me")
        page.go_back()
        expect(page.locator(".game-tile[data-game=thelast]")).to_be_visible()
    open_advanced(page, "thelast")
    page.locator("form.create-form[data-game=thelast] select[name=bots]").select_option("0")
    page.locator("form.create-form[data-game=thelast] button[type=submit]").click()
    expect(page.locator(".error-banner")).to_contain_text("try again in")
    # while the page stays, tables made elsewhere appear, and go when the sweep closes them
    status, host = server.post("/api/guest", {"name": "Marek"})
    assert status == 200
    made = [server.post("/api/tables", {"game": game, "seats": 2}, token=host["token"])[1]["id"]
            for game in ("thelast", "geister")]
    for table_id in made:
        expect(page.locator(f".tables-open .table-row[data-table='{table_id}']")).to_be_visible()
    for table_id in made:  # nobody sat or watched: closed after 2 s, removed by a diff
        expect(page.locator(f".table-row[data-table='{table_id}']")).to_have_count(0, timeout=20_000)
    expect(page.locator(".tables-open .table-row")).to_have_count(2)  # Lena's own, held for her
    context.close()

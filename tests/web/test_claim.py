"""Issue 31, hole 5 in the browser: at a table without a clock, the player who waits sees "Claim the win"
once the player to move has been idle past the server's threshold (1 s here), and a click ends the game;
the idle player never sees the button."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.server.harness import ServerProcess
from tests.web.pages import create_table, enter_as_guest


@pytest.fixture(scope="module")
def claim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("web-claim"),
                            env={"GHOSTGAMES_GRACE": "20", "GHOSTGAMES_IDLE_CLAIM": "1"}).start()
    yield process
    process.stop()


def test_the_waiting_player_claims_the_win_with_a_button_when_the_other_stays_idle(
        claim_server: ServerProcess, browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    alice, bob = (context.new_page() for context in contexts)
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    enter_as_guest(alice, claim_server.http_url, "ClaimAlice")
    link = create_table(alice, "thelast", 2, bots=False, options={"clock": "no clock"})
    bob.goto(link)
    bob.fill(".identity-slot input[name=guest-name]", "ClaimBob")
    bob.click(".identity-slot button[type=submit]")
    expect(bob.locator("#whoami")).to_contain_text("ClaimBob")
    bob.click("button.do-join")
    expect(alice.locator(".seat[data-seat='1']")).to_contain_text("ClaimBob")
    alice.click("button.do-start")
    for page in (alice, bob):
        page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    alice.wait_for_selector(".turn-banner")
    idle, waiting = (alice, bob) if alice.locator(".turn-banner.my-turn").count() else (bob, alice)
    claim = waiting.locator("button.do-claim-win")
    expect(claim).to_be_visible(timeout=15_000)
    expect(waiting.locator("button.do-claim-draw")).to_be_visible()
    expect(idle.locator("button.do-claim-win")).to_have_count(0)  # the one to move is not offered a claim
    claim.click()
    for page in (alice, bob):
        page.wait_for_function("() => document.body.dataset.tableStatus === 'finished'")
    expect(idle.locator(".log")).to_contain_text("claimed the win")
    expect(waiting.locator(".end-reason")).to_contain_text("the other player stayed idle")
    assert errors == []
    for context in contexts:
        context.close()

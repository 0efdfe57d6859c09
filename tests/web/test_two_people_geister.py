"""Two people in two browser contexts set up Geister with /join, /option disclose and /start typed in the
chat, play it out by clicking and dragging, and both see the disclosed colours at the end."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.server.harness import ServerProcess
from tests.web.browser import screenshot_path
from tests.web.pages import create_table, enter_as_guest, geister_move, geister_setup, version, wait_for_change


def say(page: Page, text: str) -> None:
    """Type a line into the table chat and send it with Enter."""
    box = page.locator("input.chat-input")
    box.fill(text)
    box.press("Enter")


def test_two_people_set_up_geister_in_the_chat_and_both_see_the_disclosed_colours(
    server: ServerProcess, browser: Browser
) -> None:
    alice_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    bob_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    alice, bob = alice_context.new_page(), bob_context.new_page()
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))

    enter_as_guest(alice, server.http_url, "Alice")
    link = create_table(alice, "geister", 2, bots=False)
    expect(alice.locator(".seat.me")).to_contain_text("Alice")

    # Bob follows the invite link, picks a name on the table page and joins by typing, using completion.
    bob.goto(link)
    bob.fill(".identity-slot input[name=guest-name]", "Bob")
    bob.click(".identity-slot button[type=submit]")
    expect(bob.locator("#whoami")).to_contain_text("Bob")
    box = bob.locator("input.chat-input")
    box.fill("/jo")
    expect(bob.locator("#chat-completions li")).to_contain_text(["/join"])
    box.press("Tab")
    expect(box).to_have_value("/join ")
    box.press("Enter")
    expect(alice.locator(".seat[data-seat='1']")).to_contain_text("Bob")
    say(bob, "good luck!")
    expect(alice.locator(".chat-lines")).to_contain_text("good luck!")

    # Both vote for disclose in the chat; Alice starts the game the same way.
    say(alice, "/option disclose")
    expect(bob.locator(".pregame")).to_contain_text("1 of 2 players agrees")
    say(bob, "/option disclose")
    expect(alice.locator(".pregame")).to_contain_text("2 of 2 players agree")
    say(alice, "/start")
    expect(alice.locator(".setup-tray")).to_be_visible()
    expect(bob.locator(".setup-tray")).to_be_visible()

    # Alice places her ghosts by hand; Bob lets the page choose at random.
    geister_setup(alice, random.Random(3))
    bob.click("button.setup-random")
    expect(bob.locator(".square[data-start=mine] .ghost")).to_have_count(8)
    bob.click("button.setup-ready")
    bob.wait_for_selector(".setup-tray", state="detached")

    # Carol only watches, by the same link and without a name: she sees ghosts, never a hidden colour.
    carol_context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    carol = carol_context.new_page()
    carol.goto(link)
    expect(carol.locator(".board svg.ghost")).to_have_count(16)
    expect(carol.locator(".board svg.ghost.unknown")).to_have_count(16)
    expect(carol.locator(".setup-tray")).to_have_count(0)

    rng = random.Random(4)
    moves = 0
    while moves < 400:
        statuses = [page.evaluate("() => document.body.dataset.tableStatus") for page in (alice, bob)]
        if statuses == ["finished", "finished"]:
            break
        mover = next((page for page in (alice, bob) if page.locator(".turn-banner.my-turn").count()), None)
        if mover is None:
            alice.wait_for_timeout(30)
            continue
        geister_move(mover, rng, drag=moves % 2 == 0)
        moves += 1
        if moves == 6:
            alice.screenshot(path=screenshot_path("geister-two-people-alice"), full_page=True)
    else:
        raise AssertionError("the two-person Geister game did not end")

    for page, name in ((alice, "alice"), (bob, "bob")):
        expect(page.locator(".turn-banner.finished")).to_contain_text("Game over.")
        # disclose: every ghost still on the board shows its colour, the opponent's included.
        expect(page.locator(".board svg.ghost.unknown")).to_have_count(0)
        theirs = page.locator(".board svg.ghost:has(.ghost-body.theirs)")
        assert theirs.count() > 0
        assert theirs.count() == page.locator(".board svg.ghost.good:has(.ghost-body.theirs), "
                                              ".board svg.ghost.bad:has(.ghost-body.theirs)").count()
        page.screenshot(path=screenshot_path(f"geister-disclosed-{name}"), full_page=True)
    assert version(alice) == version(bob)
    carol.wait_for_function(f"() => Number(document.body.dataset.tableVersion) >= {version(alice)}")
    expect(carol.locator(".turn-banner.finished")).to_be_visible()
    expect(carol.locator(".board svg.ghost.unknown")).to_have_count(0)  # disclose shows them to watchers too
    carol_context.close()
    assert errors == []
    alice_context.close()
    bob_context.close()


def test_an_illegal_command_shows_a_translated_error_where_the_player_looks(
    server: ServerProcess, browser: Browser
) -> None:
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Dora")
    create_table(page, "thelast", 2, bots=False)
    before = version(page)
    say(page, "/start")  # a seat is still empty
    expect(page.locator(".error-banner")).to_contain_text("Es sind noch Plätze frei.")
    say(page, "/frobnicate")
    expect(page.locator(".error-banner")).to_contain_text("Unbekannter Befehl /frobnicate")
    assert version(page) == before
    page.click("button.do-bot-add")
    wait_for_change(page, before)
    context.close()


def test_a_server_update_landing_mid_click_does_not_swallow_the_click(server: ServerProcess, browser: Browser) -> None:
    """A click is a press and a release. Ann presses Ready; Ben's setup reaches her page before she lets
    go. Her page must not rebuild the button under her finger, so the release completes her click; and
    as the table moved on meanwhile (stale_version), the page sends her setup once more by itself."""
    ann_context = browser.new_context(locale="en-US")
    ben_context = browser.new_context(locale="en-US")
    ann, ben = ann_context.new_page(), ben_context.new_page()
    errors: list[str] = []
    frames: list[str] = []

    def record(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else ""))

    ann.on("websocket", record)
    for page in (ann, ben):
        page.on("pageerror", lambda error: errors.append(str(error)))

    enter_as_guest(ann, server.http_url, "Ann")
    link = create_table(ann, "geister", 2, bots=False)
    enter_as_guest(ben, server.http_url, "Ben")
    ben.goto(link)
    say(ben, "/join")
    expect(ann.locator(".seat[data-seat='1']")).to_contain_text("Ben")
    say(ann, "/start")
    expect(ben.locator(".setup-tray")).to_be_visible()
    ann.click("button.setup-random")
    expect(ann.locator("button.setup-ready")).to_be_enabled()

    seen = version(ann)
    ann.locator("button.setup-ready").scroll_into_view_if_needed()  # the mouse presses inside the window
    box = ann.locator("button.setup-ready").bounding_box()
    assert box is not None
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    ben.click("button.setup-random")
    ben.click("button.setup-ready")

    def newer_table_arrived() -> bool:
        for frame in frames:
            data = json.loads(frame) if frame.startswith(("{", "[")) else {}
            for message in data if isinstance(data, list) else [data]:  # the page asks for batch frames
                if message.get("type") == "table" and message["table"]["version"] > seen:
                    return True
        return False

    for _ in range(200):  # Ben's setup is pushed to Ann's page while her button is still held down
        if newer_table_arrived():
            break
        ann.wait_for_timeout(50)
    assert newer_table_arrived(), "Ben's setup never reached Ann's page"
    assert version(ann) == seen  # the page holds the update back until the release
    ann.mouse.up()

    ann.wait_for_selector(".setup-tray", state="detached")
    expect(ann.locator(".square .ghost.good")).to_have_count(4)  # her own four, now on the board
    # Her click was sent against the table she saw; the server said stale_version and the page resent
    # it quietly: no error line for a problem the page solved by itself.
    assert any('"stale_version"' in frame for frame in frames)
    expect(ann.locator(".chat-lines .chat-error")).to_have_count(0)
    expect(ann.locator(".error-banner")).to_be_hidden()
    assert ann.evaluate("() => document.body.dataset.tableStatus") == "started"
    assert version(ann) > seen
    assert errors == []
    ann_context.close()
    ben_context.close()

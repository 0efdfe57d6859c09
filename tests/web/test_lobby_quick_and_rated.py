"""One lobby (issues 15 and 16 together): each game tile offers "Play now against a bot" and "Find an
opponent"; while waiting, that tile says so, for how long, offers "Stop waiting" and, once the server
allows, a bot of my strength; there is no separate quick-play box, and "Stop waiting" shows only while
waiting. The "More options" form has a "Rated" box: checked for an account holder, disabled for a guest."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import ServerProcess
from tests.web.browser import screenshot_path
from tests.web.pages import enter_as_guest, open_advanced
from tests.web.test_players_home import register

GAMES = ("geister", "ghooost", "thelast")
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
WAITED = r"\((\d+) s\)"


@pytest.fixture
def pages(browser: Browser) -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def new_page(pages: list[Page], browser: Browser, width: int, height: int) -> Page:
    page = browser.new_context(locale="en-US", viewport={"width": width, "height": height}).new_page()
    pages.append(page)
    return page


def quick_state(page: Page) -> str:
    """What the server's queue says of this page's person (GET /api/quick with the page's own token)."""
    return str(page.evaluate("""async () => {
        const token = localStorage.getItem("ghostgames.token");
        const answer = await fetch('/api/quick', { headers: { Authorization: `Bearer ${token}` } });
        return (await answer.json()).status;
    }"""))


def settles_on(page: Page, status: str, tries: int = 50) -> bool:
    """True once the server's queue says `status` for this page's person (a click's request may be on
    its way)."""
    for _ in range(tries):
        if quick_state(page) == status:
            return True
        page.wait_for_timeout(100)
    return False


def waited(page: Page, game: str) -> int:
    text = page.locator(f".game-tile[data-game={game}] .quick-status").inner_text()
    found = re.search(WAITED, text)
    assert found is not None, text
    return int(found.group(1))


def test_a_tile_finds_an_opponent_shows_the_wait_stops_it_and_offers_a_bot_of_my_strength(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, 360, 800)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enter_as_guest(page, server.http_url, "Wanda")
    expect(page.locator(".quick-card")).to_have_count(0)  # no separate box at the bottom any more
    for game in GAMES:
        tile = page.locator(f".game-tile[data-game={game}]")
        expect(tile.locator("button.play-now")).to_have_text("Play now against a bot")
        expect(tile.locator("button.find-opponent")).to_have_text("Find an opponent")
    expect(page.locator("button.quick-cancel:visible")).to_have_count(0)  # nobody waits: no "Stop waiting"
    expect(page.locator("button.quick-bot:visible")).to_have_count(0)

    tile = page.locator(".game-tile[data-game=ghooost]")
    tile.locator("button.find-opponent").click()
    expect(tile.locator(".quick-status")).to_contain_text("Looking for an opponent for Ghooost!")
    expect(tile.locator("button.quick-cancel")).to_be_visible()
    expect(tile.locator("button.quick-cancel")).to_have_text("Stop waiting")
    expect(tile.locator("button.find-opponent")).to_be_disabled()
    expect(page.locator("button.quick-cancel:visible")).to_have_count(1)  # only the tile I wait in
    first = waited(page, "ghooost")
    expect(tile.locator(".quick-status")).not_to_contain_text(f"({first} s)")  # the seconds count on
    assert waited(page, "ghooost") > first
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert settles_on(page, "waiting")

    tile.locator("button.quick-cancel").click()
    expect(tile.locator("button.quick-cancel")).to_be_hidden()
    expect(tile.locator(".quick-status")).to_have_text("")
    expect(tile.locator("button.find-opponent")).to_be_enabled()
    assert settles_on(page, "idle")  # the page told the server, which forgot my wait

    # wait again in The Last until the server offers a bot of my strength (after its 15 s), and take it
    tile = page.locator(".game-tile[data-game=thelast]")
    tile.locator("button.find-opponent").click()
    expect(tile.locator("button.quick-cancel")).to_be_visible()
    expect(tile.locator("button.quick-bot")).to_be_hidden()
    offer = tile.locator("button.quick-bot")
    expect(offer).to_be_visible(timeout=30_000)
    expect(offer).to_have_text(re.compile(r"^Play a bot of my strength instead \((easy|medium|hard)\)$"))
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.screenshot(path=screenshot_path("lobby-waiting-360"), full_page=True)
    level = re.search(r"\((\w+)\)", offer.inner_text())
    assert level is not None
    offer.click()
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    expect(page.locator(".seat.kind-bot")).to_contain_text(level.group(1))
    expect(page.locator(".seat.me")).to_contain_text("Wanda")
    assert errors == []


def test_the_rated_box_is_checked_for_an_account_and_disabled_for_a_guest(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, 1280, 800)
    register(page, server.http_url, "Ravi", "ravi-password")
    page.screenshot(path=screenshot_path("lobby-1280"), full_page=True)
    open_advanced(page, "geister")
    box = page.locator("form.create-form[data-game=geister] input[name=rated]")
    expect(box).to_be_checked()
    expect(box).to_be_enabled()
    expect(page.locator("form.create-form[data-game=geister] label[for=rated-geister]")).to_have_text("Rated")
    page.screenshot(path=screenshot_path("lobby-1280-options"), full_page=True)
    box.uncheck()
    form = page.locator("form.create-form[data-game=geister]")
    form.locator("select[name=bots]").select_option("fill")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.locator(".table-head .chip.rated-off")).to_have_text("Unrated")  # the box reached the table
    expect(page.locator("input[name=setting-rated]")).not_to_be_checked()

    # left checked, the table is rated
    page.goto(server.http_url + "/")
    open_advanced(page, "thelast")
    expect(page.locator("form.create-form[data-game=thelast] input[name=rated]")).to_be_checked()
    page.locator("form.create-form[data-game=thelast] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.locator(".table-head .chip.rated-on")).to_have_text("Rated")

    guest = new_page(pages, browser, 390, 844)
    enter_as_guest(guest, server.http_url, "Gita")
    guest.screenshot(path=screenshot_path("lobby-390"), full_page=True)
    open_advanced(guest, "geister")
    box = guest.locator("form.create-form[data-game=geister] input[name=rated]")
    expect(box).to_be_disabled()
    expect(box).not_to_be_checked()
    expect(guest.locator("#rated-geister-help")).to_have_text("Guests play unrated: register an account to be rated.")
    assert guest.evaluate(NO_SIDEWAYS_SCROLL)
    guest.locator("form.create-form[data-game=geister] button[type=submit]").click()
    guest.wait_for_url(re.compile(r"/table/"))
    expect(guest.locator(".table-head .chip.rated-off")).to_have_text("Unrated")


def test_a_reload_keeps_the_wait_and_the_pair_is_still_found(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    """Reloading the lobby while waiting used to drop the wait from the page (the queue then forgot it);
    the tab now remembers it, goes on counting, and is seated when an opponent comes."""
    page = new_page(pages, browser, 1280, 800)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enter_as_guest(page, server.http_url, "Rosa")
    tile = page.locator(".game-tile[data-game=geister]")
    tile.locator("button.find-opponent").click()
    expect(tile.locator("button.quick-cancel")).to_be_visible()
    expect(tile.locator(".quick-status")).not_to_contain_text("(0 s)")
    before = waited(page, "geister")

    page.reload()
    tile = page.locator(".game-tile[data-game=geister]")
    expect(tile.locator(".quick-status")).to_contain_text("Looking for an opponent for Geister")
    expect(tile.locator("button.find-opponent")).to_be_disabled()
    assert waited(page, "geister") >= before  # the same wait, not a new one
    expect(tile.locator(".quick-status")).not_to_contain_text(f"({waited(page, 'geister')} s)")  # still asking
    assert quick_state(page) == "waiting"

    other = new_page(pages, browser, 1280, 800)
    enter_as_guest(other, server.http_url, "Sami")
    other.locator(".game-tile[data-game=geister] button.find-opponent").click()
    for seated in (page, other):
        seated.wait_for_url(re.compile(r"/table/"), timeout=15_000)
    assert page.url == other.url  # both at the one table the queue made

    page.goto(server.http_url + "/")  # back in the lobby after the pairing: nothing to resume
    expect(page.locator(".game-tile[data-game=geister] button.find-opponent")).to_be_enabled()
    expect(page.locator("button.quick-cancel:visible")).to_have_count(0)
    assert errors == []


def test_a_reload_after_stop_waiting_does_not_wait_again(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, 390, 844)
    enter_as_guest(page, server.http_url, "Theo")
    tile = page.locator(".game-tile[data-game=thelast]")
    tile.locator("button.find-opponent").click()
    expect(tile.locator("button.quick-cancel")).to_be_visible()
    tile.locator("button.quick-cancel").click()
    assert settles_on(page, "idle")
    page.reload()
    expect(page.locator(".game-tile[data-game=thelast] button.find-opponent")).to_be_enabled()
    expect(page.locator("button.quick-cancel:visible")).to_have_count(0)
    assert quick_state(page) == "idle"

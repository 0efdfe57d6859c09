"""A person with an account plays two rated Geister games against a bot in a real browser; their profile
then shows two games and a rating that moved, the leaderboard lists them, and a replay of a game steps
back and forth with the buttons, the slider and the arrow keys, and opens at a linked move."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import ServerProcess
from tests.web.browser import screenshot_path
from tests.web.pages import create_table, enter_as_guest, play_geister, start_with_bots


def register(page: Page, base_url: str, name: str, password: str) -> None:
    page.goto(base_url + "/")
    page.fill("input[name=account-name]", name)
    page.fill("input[name=password]", password)
    page.click(".login-form button[type=button]")  # Register
    expect(page.locator("#whoami")).to_contain_text(name)


def move(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.replayMove)"))


def test_two_rated_games_against_a_bot_show_on_the_profile_with_a_replay_that_steps(
    server: ServerProcess, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    register(page, server.http_url, "Rosa", "rosa-password")
    create_table(page, "geister", 2)
    expect(page.locator(".table-head .chip.rated-on")).to_have_text("Rated")  # on by default
    expect(page.locator("input[name=setting-rated]")).to_be_checked()
    start_with_bots(page)
    play_geister(page, random.Random(21))
    expect(page.locator(".turn-banner.finished")).to_be_visible()
    page.click("button.do-rematch")
    expect(page.locator(".setup-tray")).to_be_visible()  # the second game started
    play_geister(page, random.Random(22))
    expect(page.locator(".turn-banner.finished")).to_be_visible()

    page.click("#whoami a.my-profile")
    page.wait_for_url(re.compile(r"/player/Rosa$"))
    expect(page.locator(".profile-game")).to_have_count(2)
    expect(page.locator(".profile-game .rating-change")).to_have_count(2)
    card = page.locator(".rating-card[data-game=geister]")
    expect(card.locator(".rating-games")).to_contain_text("in 2 rated games")
    value = card.locator(".rating-value").inner_text()
    # the rating moved; after two games it is still provisional (issue 32, point 20): "927? (provisional)"
    assert re.fullmatch(r"\d+ ± \d+|\d+\? \(provisional\)", value) and not value.startswith("1000")
    expect(card.locator("svg.rating-chart polyline")).to_have_count(1)
    page.screenshot(path=screenshot_path("profile"), full_page=True)

    page.click("nav a[href='/ratings/geister']")
    expect(page.locator(".leaderboard tr[data-player=rosa]")).to_have_count(1)
    expect(page.locator(".leaderboard tr[data-player='bot:easy']")).to_have_count(1)

    page.goto(server.http_url + "/player/Rosa")
    page.locator(".profile-game").first.locator("a.replay-mine").click()
    page.wait_for_url(re.compile(r"/replay/\d+\?seat=0"))
    expect(page.locator(".replay-viewer")).to_contain_text("From seat 1 (Rosa)")
    expect(page.locator(".geister .board")).to_be_visible()
    last = int(page.evaluate("() => Number(document.body.dataset.replayLast)"))
    assert last > 4 and move(page) == 0
    page.click("button.replay-next")
    page.click("button.replay-next")
    assert move(page) == 2
    page.click("button.replay-prev")
    assert move(page) == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert move(page) == 3
    page.keyboard.press("ArrowLeft")
    assert move(page) == 2
    page.keyboard.press("End")
    assert move(page) == last
    expect(page.locator("button.replay-next")).to_be_disabled()
    page.click("button.replay-first")
    assert move(page) == 0
    page.locator(".replay-slider").fill("4")
    assert move(page) == 4
    assert re.search(r"[?&]move=4\b", page.url)  # the address is a link to this move
    page.screenshot(path=screenshot_path("replay"), full_page=True)

    page.goto(page.url.replace("move=4", "move=3"))
    expect(page.locator(".replay-position")).to_have_text(f"Move 3 of {last}")
    page.click("button.replay-play")
    page.wait_for_function("() => Number(document.body.dataset.replayMove) >= 5")
    page.click("button.replay-play")  # pause
    paused = move(page)
    page.wait_for_timeout(1500)
    assert move(page) == paused

    # a spectator's replay of the same game opens without a seat
    record = page.url.split("/replay/")[1].split("?")[0]
    page.goto(f"{server.http_url}/replay/{record}")
    expect(page.locator(".replay-viewer")).to_contain_text("As a spectator saw it")
    assert errors == []
    context.close()


def test_two_people_in_two_browsers_meet_through_quick_play(server: ServerProcess, browser: Browser) -> None:
    pages = []
    for name in ("Quincy", "Rhea"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        page = context.new_page()
        enter_as_guest(page, server.http_url, name)
        pages.append(page)
    pages[0].click(".game-tile[data-game=geister] button.find-opponent")
    expect(pages[0].locator(".game-tile[data-game=geister] .quick-status")).to_contain_text(
        "Looking for an opponent for Geister")
    pages[1].click(".game-tile[data-game=geister] button.find-opponent")
    for page in pages:
        page.wait_for_url(re.compile(r"/table/"))
        page.wait_for_selector(".seat.me")
    assert pages[0].url == pages[1].url
    expect(pages[0].locator(".setup-tray")).to_be_visible()  # the game started: set up the ghosts
    expect(pages[1].locator(".seat.me")).to_contain_text("Rhea")
    for page in pages:
        page.context.close()

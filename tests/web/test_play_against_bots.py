"""One person plays a complete game of each game against bots in a real browser, by clicking and dragging,
until the result shows. Screenshots of each game mid-play land in artifacts/screenshots/."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, expect

from tests.server.harness import ServerProcess
from tests.web.browser import screenshot_path
from tests.web.pages import (
    create_table,
    enter_as_guest,
    play_geister,
    play_ghooost,
    play_thelast,
    start_with_bots,
)


def _page(browser: Browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _assert_result_shown(page, errors: list[str]) -> None:  # type: ignore[no-untyped-def]
    banner = page.locator(".turn-banner.finished")
    expect(banner).to_contain_text("Game over.")
    expect(banner.locator(".ranking li")).not_to_have_count(0)
    assert errors == []


def test_one_person_plays_geister_against_a_bot_until_the_result_shows(server: ServerProcess, browser: Browser) -> None:
    context, page, errors = _page(browser)
    enter_as_guest(page, server.http_url, "Gina")
    create_table(page, "geister", 2)
    start_with_bots(page)
    play_geister(page, random.Random(6), screenshot=screenshot_path("geister-mid-play"))
    _assert_result_shown(page, errors)
    # Captured ghosts sit beside the board, each with its colour.
    captured = page.locator(".captured .captured-pics svg.ghost")
    coloured = page.locator(".captured .captured-pics svg.ghost.good, .captured .captured-pics svg.ghost.bad")
    assert captured.count() == coloured.count()
    # Nobody voted for disclose: the end reveals nothing; the bot's ghosts left on the board stay alike.
    expect(page.locator(".board svg.ghost.unknown")).not_to_have_count(0)
    page.screenshot(path=screenshot_path("geister-result"), full_page=True)
    # Play again: the same seats, a new game that starts at once with a fresh secret setup.
    page.click("button.do-rematch")
    expect(page.locator(".setup-tray")).to_be_visible()
    expect(page.locator(".square[data-start=mine] .ghost")).to_have_count(0)  # nothing kept from game 1
    expect(page.locator(".table-head")).to_contain_text("game 2")
    context.close()


def test_one_person_plays_ghooost_against_bots_until_the_result_shows(server: ServerProcess, browser: Browser) -> None:
    context, page, errors = _page(browser)
    enter_as_guest(page, server.http_url, "Gus")
    # One round (no match) with the table's turn limit at 200, so the test's length has a bound: a round
    # that reaches it ends as a draw, which is a result too (the ruling's max_turns).
    create_table(page, "ghooost", 3, options={"match": "off", "max_turns": "200"})
    start_with_bots(page)
    expect(page.locator(".ghooost .cemetery")).to_be_visible()
    expect(page.locator(".ghooost-seat")).to_have_count(3)
    play_ghooost(page, random.Random(7), screenshot=screenshot_path("ghooost-mid-play"))
    _assert_result_shown(page, errors)
    page.screenshot(path=screenshot_path("ghooost-result"), full_page=True)
    context.close()


def test_one_person_plays_the_last_against_bots_until_the_result_shows(server: ServerProcess, browser: Browser) -> None:
    context, page, errors = _page(browser)
    enter_as_guest(page, server.http_url, "Tess")
    create_table(page, "thelast", 2)
    start_with_bots(page)
    expect(page.locator(".thelast .participant[data-who=ghost]")).to_be_visible()  # the ghost's pile with 2 players
    play_thelast(page, random.Random(8), screenshot=screenshot_path("thelast-mid-play"))
    _assert_result_shown(page, errors)
    expect(page.locator(".thelast .scores .total")).to_be_visible()
    page.screenshot(path=screenshot_path("thelast-result"), full_page=True)
    context.close()

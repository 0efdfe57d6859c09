"""The French page shows French everywhere a string shows: a browser that prefers French gets the lobby,
the three game tables mid-play, a server error and the help page without an English word of ours left."""

from __future__ import annotations

import json
import random
import re

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import ServerProcess
from tests.web.browser import WEB, screenshot_path
from tests.web.pages import (
    create_table,
    enter_as_guest,
    geister_move,
    ghooost_turn,
    start_with_bots,
    thelast_turn,
    wait_turn_or_end,
)

# English that the server itself writes (log texts, bot labels): the client must never show it as is.
SERVER_ENGLISH = ["easy bot", "made their move", "sits in seat", "table created", "game over", "votes for"]
KEY_PATTERN = re.compile(r"\b(?:ui|nav|lobby|table|seat|status|geister|ghooost|thelast|log|error|cmd|choice|option|"
                         r"result|chat|reply|clock|identity|bot|takeover)\.[a-z_]+(?:\.[a-z_]+)*\b")
VISIBLE_TEXT = """() => {
  const parts = [document.body.innerText, document.title];
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (el.closest('[hidden]')) continue;
    for (const attr of ['placeholder', 'title', 'aria-label']) {
      if (el.getAttribute(attr)) parts.push(el.getAttribute(attr));
    }
  }
  for (const el of document.querySelectorAll('select option')) parts.push(el.textContent);
  return parts.join('\\n');
}"""


def english_fragments() -> list[str]:
    """Pieces of our English texts that a French page must not contain."""
    english = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    french = json.loads((WEB / "i18n" / "fr.json").read_text(encoding="utf-8"))
    french_text = "\n".join(french.values()).lower()
    fragments: set[str] = set()
    for key, text in english.items():
        if text == french[key]:
            continue
        for piece in re.split(r"\{\w+\}|[.,:;!?()…–]", text):
            piece = piece.strip().lower()
            if len(re.sub(r"[^a-z]", "", piece)) >= 5 and piece not in french_text:
                fragments.add(piece)
    return sorted(fragments)


FRAGMENTS = english_fragments()


def assert_french(page: Page, where: str) -> None:
    assert page.evaluate("() => document.documentElement.lang") == "fr", where
    # Slash commands are the one command language of every table, the same words in every language.
    text = re.sub(r"/\w+", "", page.evaluate(VISIBLE_TEXT))
    lowered = text.lower()
    left = [fragment for fragment in FRAGMENTS + SERVER_ENGLISH if fragment in lowered]
    context = [text[max(0, lowered.index(f) - 60):lowered.index(f) + 40] for f in left]
    assert left == [], f"English left on the {where}: {left} in {context}"
    assert KEY_PATTERN.findall(text) == [], f"untranslated keys on the {where}"


def french_page(browser: Browser) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def test_the_french_page_shows_french_everywhere_a_string_shows(server: ServerProcess, browser: Browser) -> None:
    assert len(FRAGMENTS) > 200
    page, errors = french_page(browser)
    page.goto(server.http_url + "/")
    expect(page.locator("h1")).to_have_text("Salon")
    assert_french(page, "lobby before choosing a name")
    enter_as_guest(page, server.http_url, "Françoise")
    assert_french(page, "lobby")
    rng = random.Random(11)

    # Geister: the setup tray, then the board mid-play.
    create_table(page, "geister", 2)
    assert_french(page, "open Geister table")
    start_with_bots(page)
    assert wait_turn_or_end(page)
    assert_french(page, "Geister setup")
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    for _ in range(3):
        if wait_turn_or_end(page):
            geister_move(page, rng, drag=False)
    page.locator("input.chat-input").fill("/")
    expect(page.locator("#chat-completions li").first).to_be_visible()
    assert_french(page, "Geister table with the command list open")
    page.locator("input.chat-input").fill("/frobnicate")
    page.locator("input.chat-input").press("Enter")
    expect(page.locator(".error-banner")).to_contain_text("Commande inconnue")
    page.locator("input.chat-input").fill("/who")
    page.locator("input.chat-input").press("Enter")
    expect(page.locator(".chat-reply").last).to_contain_text("À cette table")
    page.locator("input.chat-input").fill("/help")
    page.locator("input.chat-input").press("Enter")
    expect(page.locator(".chat-reply").last).to_contain_text("Commandes")
    assert_french(page, "Geister table mid-play")
    page.screenshot(path=screenshot_path("fr-geister-mid-play"), full_page=True)

    # The help page the table links to.
    with page.context.expect_page() as opened:
        page.click("a.help-link")
    help_page = opened.value
    help_page.wait_for_load_state()
    assert help_page.url.endswith("/help/fr/geister.html")
    assert_french(help_page, "Geister help page")
    help_page.close()

    # Ghooost! and The Last mid-play.
    for game, seats, turn in (("ghooost", 3, ghooost_turn), ("thelast", 3, thelast_turn)):
        page.goto(server.http_url + "/")
        create_table(page, game, seats)
        start_with_bots(page)
        for _ in range(3):
            if wait_turn_or_end(page):
                turn(page, rng, drag=False)
        assert_french(page, f"{game} table mid-play")
        page.screenshot(path=screenshot_path(f"fr-{game}-mid-play"), full_page=True)
    assert errors == []
    page.context.close()

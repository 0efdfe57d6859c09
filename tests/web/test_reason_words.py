"""Why a game ended, in the reader's words (web/words.js reasonWords, the one helper the table, its log and
the replay use): a reason code's arguments shown as people count, and outcomes without a code (records from
before reason codes, or a code the catalog has no text for) still read as before from the English reason."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import ServerProcess

HARNESS = """<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module">
import { setLanguage, t } from "/i18n.js";
import { reasonArgs, reasonWords } from "/words.js";
import { loadGameModule } from "/game_module.js";
const names = ["Ann", "Ben", "Cy"];
const ctx = { t, seatName: (seat) => names[seat] };
window.words = async (game, outcome) => reasonWords(outcome, await loadGameModule(game), ctx);
window.args = (args) => reasonArgs(args, ctx);
await setLanguage("en");
window.ready = true;
</script></body></html>"""


@pytest.fixture()
def page(server: ServerProcess, browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/reason-harness", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
    page.goto(server.http_url + "/reason-harness")
    page.wait_for_function("() => window.ready")
    yield page
    assert errors == []
    context.close()


def words(page: Page, game: str, outcome: dict[str, Any]) -> str:
    return str(page.evaluate("([game, outcome]) => window.words(game, outcome)", [game, outcome]))


def test_a_reason_codes_seats_are_shown_from_1_and_by_name(page: Page) -> None:
    shown = page.evaluate("(args) => window.args(args)", {"seat": 1, "winner_seat": 0, "cards": ["R4", "B2"], "n": 40})
    assert shown == {"seat": 2, "name": "Ben", "winner_seat": 1, "winner": "Ann", "cards": "R4, B2", "n": 40}
    # a name the server sent itself is kept
    assert page.evaluate("(args) => window.args(args)", {"seat": 0, "name": "Zoe"}) == {"seat": 1, "name": "Zoe"}


def test_outcomes_without_a_known_code_read_as_before(page: Page) -> None:
    # an old record: only the English reason, read by the table's patterns and the game's own
    assert words(page, "geister", {"reason": "seat 1 resigned"}) == "Ben resigned"
    assert words(page, "geister", {"reason": "a good ghost escaped"}) == "a good ghost escaped"
    limit = words(page, "geister", {"reason": "the 40-move limit was reached"})
    assert limit == "the 40-move limit was reached: a draw"
    assert words(page, "ghooost", {"reason": "seat 2 is the last holding cards"}) == "Cy was the last holding cards"
    # a code the catalog has no words for: the English reason still speaks
    coded = {"reason": "seat 0 resigned", "code": "not_in_any_catalog", "args": {"seat": 0}}
    assert words(page, "thelast", coded) == "Ann resigned"
    assert words(page, "thelast", {"reason": "something new"}) == ""

"""Issue 36, the tutorials in a real browser: every lesson of every game (whatever lesson files exist) is
played through with a correct action, after one wrong try whose explanation shows (the rule's words for a
refusal, the lesson's hint for a legal miss), at 1280x800 and 390x844; the page fits the phone's screen
and axe-core finds nothing; "Show me", the keyboard, the progress kept across a reload and in an
account, the ways in (the lobby tile, the table's head, the rules pages) and the end's "Play a real game against an easy
bot". Screenshots of each game's first and last lesson go to tests/web/screenshots/tutorial-<game>-first.png
and -last.png (gitignored) for a reviewer."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from ghostgames.tutorial import play
from ghostgames.tutorial.lessons import Lesson, next_lesson
from ghostgames.tutorial.validate import every_lesson
from tests.server.harness import ServerProcess
from tests.tutorial.tries import wrong_try

LESSONS = every_lesson()
GAMES = sorted({lesson.game for lesson in LESSONS})
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
EN: dict[str, str] = json.loads(
    (Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n" / "en.json").read_text("utf-8"))
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
SIZES = [(1280, 800), (390, 844)]


@pytest.fixture
def pages(browser: Browser) -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def new_page(pages: list[Page], browser: Browser, width: int = 1280, height: int = 800, locale: str = "en-US") -> Page:
    page = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                               reduced_motion="reduce").new_page()
    pages.append(page)
    return page


def english(key: str, args: dict[str, Any] | None = None) -> str:
    """The English text as the page makes it: placeholders filled, lists joined, the plural form by `n`."""
    args = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in (args or {}).items()}
    text = EN.get(key) or EN.get(f"{key}#{'one' if args.get('n') == 1 else 'other'}") or EN[f"{key}#other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(args.get(m.group(1), m.group(0))), text)


def explanation(lesson: Lesson, text: str) -> str:
    """What the page must say about a wrong try: the rule's words for a refusal, else the lesson's hint."""
    answer = play.try_action(lesson, text)
    assert answer["result"] in ("refused", "wrong")
    if answer["result"] == "refused":
        return english(f"rule.{answer['code']}", answer["args"])
    return english(answer["hint"])


def open_lesson(page: Page, base: str, lesson: Lesson) -> None:
    page.goto(f"{base}/learn/{lesson.game}/{lesson.id}")
    expect(page.locator(".lesson-title")).to_have_text(english(f"{lesson.text}.title"))
    expect(page.locator(".lesson-intro")).to_have_text(english(f"{lesson.text}.intro"))


def type_action(page: Page, text: str) -> None:
    page.fill(".tutorial-input", text)
    page.click(".tutorial-type button[type=submit]")


def play_on_the_board(page: Page, lesson: Lesson) -> bool:
    """Geister: click the lesson's own answer on the board (a ghost, then its square or the escape button);
    False for a game whose clicks this helper does not know (the answer is typed instead)."""
    if lesson.game != "geister":
        return False
    origin, direction = lesson.show.split()
    page.click(f".board .square[data-square={origin}]")
    files, row = "abcdef", int(origin[1])
    col = files.index(origin[0])
    step = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}[direction]
    col, row = col + step[0], row + step[1]
    if 0 <= col < 6 and 1 <= row <= 6:
        page.click(f".board .square[data-square={files[col]}{row}]")
    else:
        page.click("button.escape")
    return True


def violations(page: Page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v.get('impact')}): {v['help']} ({v['nodes'][0]['target']})"
            for v in results.response["violations"]]


def fits_the_screen(page: Page, lesson: Lesson, height: int) -> None:
    """The instruction and the game are on the screen without scrolling, and nothing scrolls sideways."""
    assert page.evaluate(NO_SIDEWAYS_SCROLL), f"{lesson.game}/{lesson.id} scrolls sideways"
    intro = page.locator(".lesson-intro").bounding_box()
    assert intro is not None and intro["y"] + intro["height"] <= height
    shown = page.locator(".board" if lesson.game == "geister" else ".tutorial-board").bounding_box()
    assert shown is not None and shown["y"] < height
    if lesson.game == "geister":
        assert shown["y"] + shown["height"] <= height, "the whole board is on the screen"


def test_there_are_lessons_for_every_game_that_has_files() -> None:
    assert "geister" in GAMES
    assert len([lesson for lesson in LESSONS if lesson.game == "geister"]) >= 6


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_lesson_is_played_through_after_a_wrong_try_that_is_explained(
        server: ServerProcess, browser: Browser, pages: list[Page], size: tuple[int, int]) -> None:
    width, height = size
    page = new_page(pages, browser, width, height)
    SCREENSHOTS.mkdir(exist_ok=True)
    for lesson in LESSONS:
        name = f"{lesson.game}/{lesson.id}"
        open_lesson(page, server.http_url, lesson)
        fits_the_screen(page, lesson, height)
        wrong = wrong_try(lesson)
        type_action(page, wrong)
        feedback = page.locator(".tutorial-feedback")
        expect(feedback).to_have_class(re.compile(r"feedback-(wrong|refused)"))
        expect(feedback).to_contain_text(explanation(lesson, wrong))
        if lesson.number == 1 or next_lesson(lesson) is None:  # axe on a page with its answer showing
            assert violations(page) == [], name
        if width == 1280 and (lesson.number == 1 or next_lesson(lesson) is None):
            which = "first" if lesson.number == 1 else "last"
            page.screenshot(path=str(SCREENSHOTS / f"tutorial-{lesson.game}-{which}.png"))
        if not (width == 1280 and play_on_the_board(page, lesson)):
            type_action(page, lesson.show)
        expect(feedback).to_have_class(re.compile("feedback-done"), timeout=15_000)
        expect(feedback).to_contain_text(english(f"{lesson.text}.done"))
        # the finished position is a picture: no try is taken any more
        expect(page.locator(".tutorial-input")).to_be_disabled()
        if next_lesson(lesson) is None:
            finished = english("tutorial.finished", {"game": EN[f"game.{lesson.game}"]})
            expect(page.locator(".tutorial-end")).to_contain_text(finished)
            expect(page.locator("button.play-easy")).to_be_focused()
            assert violations(page) == [], f"{name}, finished"
        else:
            expect(page.locator("button.next")).to_be_focused()
    # every lesson solved here is marked in the list, also after a reload
    page.reload()
    for game in GAMES:
        page.goto(f"{server.http_url}/learn/{game}")
        count = len([lesson for lesson in LESSONS if lesson.game == game])
        expect(page.locator(".tutorial-lessons .lesson-done")).to_have_count(count)
        expect(page.locator(".tutorial-count")).to_contain_text(f"{count}/{count}")


def test_show_me_plays_the_answer_and_next_lesson_goes_on(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, 390, 844)
    for game in GAMES:
        first = next(lesson for lesson in LESSONS if lesson.game == game)
        open_lesson(page, server.http_url, first)
        page.click("button.show-me")
        feedback = page.locator(".tutorial-feedback")
        expect(feedback).to_contain_text(EN["tutorial.shown"])
        expect(feedback).to_contain_text(english(f"{first.text}.done"))
        expect(page.locator(".tutorial-lessons .lesson-done")).to_have_count(0)  # shown is not solved
        following = next_lesson(first)
        if following:
            page.click("button.next")
            expect(page).to_have_url(re.compile(f"/learn/{game}/{following.id}$"))
            expect(page.locator(".tutorial-count")).to_contain_text("2")
            page.go_back()
            expect(page.locator(".lesson-title")).to_have_text(english(f"{first.text}.title"))


def test_a_lesson_by_keyboard(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    """Squares are buttons: Enter picks the ghost, Shift+Tab walks up the board (row 4 comes before row 3 in
    the page, six squares a row), Enter moves; then the focus is on Next lesson."""
    page = new_page(pages, browser)
    lesson = next(lesson for lesson in LESSONS if lesson.game == "geister" and lesson.id == "moving")
    open_lesson(page, server.http_url, lesson)
    page.focus(".board .square[data-square=c3]")
    page.keyboard.press("Enter")
    for _ in range(6):
        page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.dataset.square") == "c4"
    page.keyboard.press("Enter")
    expect(page.locator(".tutorial-feedback")).to_have_class(re.compile("feedback-done"))
    page.keyboard.press("Enter")  # the focus is on Next lesson
    expect(page).to_have_url(re.compile("/learn/geister/capturing$"))


def test_the_ways_in_and_the_real_game_at_the_end(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    page.goto(server.http_url + "/")
    for game in ("geister", "ghooost", "thelast"):
        expect(page.locator(f".game-tile[data-game={game}] a.learn-link")).to_have_attribute("href", f"/learn/{game}")
    for game in ("geister", "ghooost", "thelast"):  # each rules page, in every language, links its tutorial
        for lang in ("en", "fr", "de", "ko", "uk"):
            page.goto(f"{server.http_url}/help/{lang}/{game}.html")
            expect(page.locator(f".help-learn a[href='/learn/{game}']")).to_have_count(1)
    page.goto(server.http_url + "/")
    page.click(".game-tile[data-game=geister] a.learn-link")
    expect(page.locator(".lesson-title")).to_have_text(EN["tutorial.geister.moving.title"])
    last = [lesson for lesson in LESSONS if lesson.game == "geister"][-1]
    open_lesson(page, server.http_url, last)
    type_action(page, last.show)
    page.click("button.play-easy")  # no name yet: the page asks for one first
    page.fill(".tutorial-end input[name=guest-name]", "Learner")
    page.click(".tutorial-end .guest-form button[type=submit]")
    expect(page.locator(".tutorial-end input[name=guest-name]")).to_have_count(0)
    page.click("button.play-easy")
    page.wait_for_url(re.compile(r"/table/"))
    expect(page.locator(".seat", has_text="bot")).not_to_have_count(0, timeout=20_000)
    expect(page.locator(".table-head a.learn-link")).to_have_attribute("href", "/learn/geister")  # beside its help


def test_an_accounts_progress_is_kept_on_the_server(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    status, account = server.post("/api/register", {"name": "Scholar", "password": "long enough"})
    assert status == 200
    page = new_page(pages, browser)
    page.goto(server.http_url + "/")
    page.evaluate("([token, name]) => { localStorage.setItem('ghostgames.token', token);"
                  " localStorage.setItem('ghostgames.name', name); }", [account["token"], account["name"]])
    lesson = next(lesson for lesson in LESSONS if lesson.game == "geister" and lesson.id == "exit-reach")
    open_lesson(page, server.http_url, lesson)
    type_action(page, lesson.show)
    expect(page.locator(".tutorial-feedback")).to_have_class(re.compile("feedback-done"))
    page.wait_for_function("""async (token) => {
        const answer = await fetch('/api/tutorial/progress', {headers: {Authorization: 'Bearer ' + token}});
        return ((await answer.json()).progress.geister || []).includes('exit-reach'); }""", arg=account["token"])
    # a second browser of the same account knows it
    other = new_page(pages, browser)
    other.goto(server.http_url + "/")
    other.evaluate("([token, name]) => { localStorage.setItem('ghostgames.token', token);"
                   " localStorage.setItem('ghostgames.name', name); }", [account["token"], account["name"]])
    other.goto(f"{server.http_url}/learn/geister/moving")
    expect(other.locator(".tutorial-lessons .lesson-done")).to_have_count(1)


def test_a_lesson_in_french(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, 390, 844, locale="fr-FR")
    french = json.loads((Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n" / "fr.json")
                        .read_text("utf-8"))
    page.goto(f"{server.http_url}/learn/geister/exit-escape")
    expect(page.locator(".lesson-title")).to_have_text(french["tutorial.geister.exit-escape.title"])
    type_action(page, "a6 n")
    expect(page.locator(".tutorial-feedback")).to_contain_text(french["rule.geister.escape_good_only"])
    expect(page.locator(".tutorial-feedback")).to_contain_text(french["tutorial.geister.exit-escape.hint_escape_good_only"])

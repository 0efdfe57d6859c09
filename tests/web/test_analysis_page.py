"""Issue 35 point 3, in a real browser against a real server: a finished game's analysis on its replay
page. A person finishes a Geister game against a bot, presses "Analyse this game" in the end panel (by
the keyboard), sees the progress and then the graph, goes to the worst judged move by a point of the graph
(mouse and keyboard), and sees the better move drawn on the board and named under it; each judged move
has its verdict in the move list in words; axe-core finds nothing. The card games' analyses (a short
game each) outline the better card in the hand. Screenshots of each game's analysis go to
tests/web/screenshots/analysis-<game>.png (gitignored: look at them)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from ghostgames.bench.records import random_record
from ghostgames.storage.ratings import BOT_PREFIX, person_key
from ghostgames.storage.repository import open_repository
from tests.server.harness import ServerProcess
from tests.web.pages import (
    choose_instant_pace,
    enter_as_guest,
    geister_move,
    geister_setup,
    open_geister_against_a_bot,
    wait_turn_or_end,
)

SHOTS = Path(__file__).resolve().parent / "screenshots"
STEP = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """This module's server runs one analysis worker beside itself, at a small budget so that a game is
    analysed in seconds (the other test servers run none)."""
    env = {"GHOSTGAMES_GRACE": "20", "GHOSTGAMES_ANALYSIS_WORKERS": "1", "GHOSTGAMES_ANALYSIS_BUDGET": "200"}
    process = ServerProcess(tmp_path_factory.mktemp("analysis-server"), env=env).start(timeout=180)  # a busy machine
    yield process
    process.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []


def status(page: Page, record: str, reader: str) -> dict[str, Any]:
    """The analysis status document as the page's reader gets it (their token, as the page asks)."""
    found: dict[str, Any] = page.evaluate("""async ([record, reader]) => {
        const token = localStorage.getItem('ghostgames.token');
        const headers = token ? { Authorization: `Bearer ${token}` } : {};
        const answer = await fetch(`/api/records/${record}/analysis/${reader}`, { headers });
        return answer.json(); }""", [record, reader])
    return found


def wait_done(page: Page, record: str, reader: str, timeout: float = 240.0) -> dict[str, Any]:
    start = time.monotonic()
    while time.monotonic() < start + timeout:
        found = status(page, record, reader)
        # "none" only while the page's own request may still be on its way
        assert found["status"] in ("queued", "running", "done") or time.monotonic() < start + 10, found
        if found["status"] == "done":
            return found
        page.wait_for_timeout(500)
    raise AssertionError(f"the analysis of record {record} was not done in {timeout} s")


def worst(decisions: list[dict[str, Any]], keep: Any = lambda d: True) -> dict[str, Any]:
    """The judged decision that lost the most among those with another best move (the test's blunder)."""
    better = [d for d in decisions if d["best"] != d["played"] and d["label"] != "best" and keep(d)]
    assert better, "no judged decision had a better move"
    return max(better, key=lambda d: d["drop"])


def target(move: str) -> str | None:
    square, direction = move.split()
    col, row = "abcdef".index(square[0]) + STEP[direction][0], int(square[1]) - 1 + STEP[direction][1]
    return f"{'abcdef'[col]}{row + 1}" if 0 <= col < 6 and 0 <= row < 6 else None


def shown(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.replayMove)"))


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the keyboard reaches `selector` (it must be reachable without the mouse)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement?.matches(selector) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def no_axe_findings(page: Page) -> None:
    violations = Axe().run(page).response["violations"]
    assert [f"{v['id']} ({v.get('impact')}): {v['help']} {v['nodes'][0]['target']}" for v in violations] == []


def test_a_finished_geister_game_is_analysed_from_the_end_panel_and_its_worst_move_shows_the_better_one(
        server: ServerProcess, page: Page) -> None:
    rng = random.Random(35)
    open_geister_against_a_bot(page, server.http_url, "Analyst")
    choose_instant_pace(page)
    geister_setup(page, rng)
    for _ in range(8):
        if not wait_turn_or_end(page):
            break
        # never at a running table (it is our turn, so the game runs): the end panel and its button come
        # only with the result (checked before our move, which may itself end the game)
        expect(page.locator("button.end-analyse")).to_have_count(0)
        geister_move(page, rng, drag=False)
    if page.evaluate("() => document.body.dataset.tableStatus") != "finished":
        page.click("button.do-resign")
        page.click("button.do-resign-confirm")
    button = page.locator(".end-panel button.end-analyse")
    expect(button).to_be_visible()
    expect(button).to_have_text("Analyse this game")
    tab_to(page, ".end-panel button.end-analyse")
    page.keyboard.press("Enter")  # the replay from my seat, asking for the analysis

    page.wait_for_url(re.compile(r"/replay/\d+\?seat=\d+&analyse=1$"))
    seat = page.url.split("seat=")[1].split("&")[0]
    record = page.url.split("/replay/")[1].split("?")[0]
    expect(page.locator(".analysis-progress, .analysis-graph").first).to_be_visible()
    found = wait_done(page, record, seat)
    decisions = found["analysis"]["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {int(seat)}
    points = page.locator(".analysis-graph .analysis-point")
    expect(points).to_have_count(len(decisions))

    # the worst move among the ghosts' moves (a setup has no square to draw): its point, by the mouse
    bad = worst(decisions, lambda d: not d["best"].startswith("setup"))
    step = bad["ply"] + 1
    points.and_(page.locator(f"[data-step='{step}']")).click()
    assert shown(page) == step
    origin = bad["best"].split()[0]
    expect(page.locator(f".board .square.better-from[data-square={origin}]")).to_have_count(1)
    to = target(bad["best"])
    if to:
        expect(page.locator(f".board .square.better-to[data-square={to}]")).to_have_count(1)
    expect(page.locator(".analysis-current .analysis-better")).to_contain_text("Better:")
    expect(page.locator(f".analysis-current .verdict-{bad['label']}")).to_be_visible()
    # the move list says each judged move's verdict in words beside a symbol, not by a colour alone
    entry = page.locator(f".replay-moves button[data-step='{step}']")
    expect(entry.locator(f".verdict-{bad['label']}")).to_contain_text(bad["label"].replace("_", " "))
    verdicts = len(decisions) + sum(d["missed_win"] for d in decisions)
    expect(page.locator(".replay-moves .verdict")).to_have_count(verdicts)
    expect(page.locator(".analysis-summary li")).to_contain_text("accuracy")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "analysis-geister.png"))

    # by the keyboard: Tab reaches a point of the graph, the arrows walk along them, Enter goes there
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("Home")  # the replay's first step (the focus is on the page)
    assert shown(page) == 0
    tab_to(page, ".analysis-point")
    page.keyboard.press("End")
    last = decisions[-1]["ply"] + 1
    expect(page.locator(f".analysis-point[data-step='{last}']")).to_be_focused()
    page.keyboard.press("Enter")
    assert shown(page) == last
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    assert shown(page) == (decisions[-2]["ply"] + 1 if len(decisions) > 1 else last)
    no_axe_findings(page)
    # the page fits the screen: nothing scrolls
    assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")


@pytest.mark.parametrize(("game", "options"), [("thelast", None), ("ghooost", {"max_turns": 40})])
def test_a_card_games_analysis_outlines_the_better_card(server: ServerProcess, page: Page, game: str,
                                                         options: dict[str, Any] | None) -> None:
    """A short game each (the card games' searches are slower), stored as a table's record would be."""
    name = f"Cards{game[:4]}"
    enter_as_guest(page, server.http_url, name)
    page.wait_for_timeout(1100)  # the record comes after the name (the server's check is by the second)
    record, outcome = random_record(game, 2, 35, options)
    record_id = open_repository(server.db_url).save_record(record, "table", [name, "hard bot"], outcome.to_json(),
                                                           seat_keys=[person_key(name), BOT_PREFIX + "hard"])
    page.goto(f"{server.http_url}/replay/{record_id}?seat=0")
    start = page.locator("button.analysis-start")
    expect(start).to_be_visible()
    start.click()
    found = wait_done(page, str(record_id), "0")
    decisions = found["analysis"]["decisions"]
    expect(page.locator(".analysis-graph .analysis-point")).to_have_count(len(decisions))
    bad = worst(decisions, lambda d: d["best"].startswith("play "))
    page.locator(f".analysis-point[data-step='{bad['ply'] + 1}']").click()
    assert shown(page) == bad["ply"] + 1
    expect(page.locator(".analysis-current .analysis-better")).to_be_visible()
    cards = bad["best"].split()[1:]
    in_hand = page.eval_on_selector_all(".hand .card", "els => els.map((e) => e.dataset.card)")
    outlined = page.eval_on_selector_all(".hand .card.better", "els => els.map((e) => e.dataset.card)")
    # the better play's cards, as many as the hand shown still holds of each
    assert sorted(outlined) == sorted(c for c in set(cards) for _ in range(min(cards.count(c), in_hand.count(c))))
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{game}.png"))
    no_axe_findings(page)
    assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")

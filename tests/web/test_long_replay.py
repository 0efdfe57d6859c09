"""A long Ghooost! replay in the browser (issue 31, hole 6): the page fetches the replay in pages of
deltas only as the reader gets to them, and every step it shows, on either side of a page boundary,
forwards and backwards, is the view of that step."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Response, expect

from ghostgames.bench.records import random_record
from ghostgames.storage import save_record
from ghostgames.storage.replay import PAGE_STEPS
from tests.server.harness import ServerProcess


def move(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.replayMove)"))


def test_review_6_a_long_replay_is_fetched_a_page_at_a_time_and_shows_each_step(
    server: ServerProcess, browser: Browser
) -> None:
    record, _ = random_record("ghooost", 2, 0, {"max_turns": 5000, "max_rounds": 100})
    record_id = save_record(server.db_url, record, "table", ["Ann", "Ben"])
    states = list(record.states())
    last = len(states) - 1
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    fetched: list[tuple[int, int]] = []  # (from, bytes) of each replay page the browser asked for

    def seen(response: Response) -> None:
        found = re.search(r"/api/records/\d+/replay\?from=(\d+)", response.url)
        if found:
            fetched.append((int(found.group(1)), len(response.body())))

    page.on("response", seen)

    def shows(step: int) -> None:
        """The position, the mover and the board's turn counter and hand sizes are those of `step`."""
        expect(page.locator(".replay-position")).to_have_text(f"Move {step} of {last}" if step else
                                                              f"Start (of {last} moves)")
        view = states[step].view(None)
        expect(page.locator(".ghooost-banner .turns")).to_have_text(f"turn {view['turns'] + 1}")
        assert move(page) == step

    page.goto(f"{server.http_url}/replay/{record_id}?move=1300")
    shows(1300)
    assert sorted({start for start, _ in fetched}) == [0, 1000]  # the first page, and the one of move 1300
    page.click("button.replay-last")
    shows(last)
    page.locator(".replay-slider").fill(str(PAGE_STEPS))  # the first step of the second page
    shows(PAGE_STEPS)
    page.keyboard.press("ArrowLeft")  # back across the boundary, into the first page
    shows(PAGE_STEPS - 1)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows(PAGE_STEPS + 1)
    page.click("button.replay-first")
    shows(0)
    assert sorted({start for start, _ in fetched}) == [0, 500, 1000, 1500]
    assert len(fetched) == 4 and max(size for _, size in fetched) < 1_000_000  # each page once, each small
    assert errors == []
    context.close()

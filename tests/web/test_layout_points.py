"""Issue 32, the layout's numbered points other than the whole-screen fit (test_fit.py): the Geister setup
keeps the page where it was (3), a Ghooost! round summary shows over the table until the player goes on
(12), The Last's trick and points pile stay in their boxes on a 360 px phone (16), the last move's caption
is read whole on a phone (17), the lobby's options and quick-play wait (21), Ghooost! dims the cards that
cannot be played (22), and the small things of point 23 (the chat's placeholder, the login box's words,
the pace picker's label, no slide at the pace "instant")."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ghostgames.games import get_game
from ghostgames.rules.contract import State
from tests.server.harness import ServerProcess
from tests.web.pages import enter_as_guest, open_settings, wait_turn_or_end

# The renderer of one game on the server's origin, with the page's own stylesheets, kept across updates.
HARNESS = """<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/layout.css"></head>
<body><main id="page"></main><script type="module">
import { setLanguage, t } from "/i18n.js";
let renderer = null;
window.start = async (game) => {
  await setLanguage("en");
  const module = await import(`/games/${game}.js`);
  window.acted = [];
  const names = ["Ann", "Ben", "Cy", "Di", "Eve", "Flo"];
  renderer = module.createRenderer({ t, act: (text) => window.acted.push(text),
    seatName: (seat) => (seat === "ghost" ? t("thelast.ghost") : names[seat]), seat: () => 0 });
  document.getElementById("page").replaceChildren(renderer.element);
};
window.update = (view) => renderer.update(view);
window.ready = true;
</script></body></html>"""

Show = Callable[[dict[str, Any]], Page]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
INSIDE = """([inner, outer]) => {
  const a = document.querySelector(outer).getBoundingClientRect();
  return [...document.querySelectorAll(inner)].map((el) => {
    const b = el.getBoundingClientRect();
    return b.left >= a.left - 1 && b.right <= a.right + 1 && b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
  });
}"""


@pytest.fixture()
def renderer(server: ServerProcess, browser: Browser) -> Iterator[Callable[..., Show]]:
    pages: list[Page] = []
    errors: list[str] = []

    def make(game: str, width: int = 1280, height: int = 800, pace: str | None = None, clock: bool = False) -> Show:
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        if clock:
            page.clock.install()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.route("**/layout-harness", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
        page.goto(server.http_url + "/layout-harness")
        if pace:
            page.evaluate("(pace) => localStorage.setItem('ghostgames.pace', pace)", pace)
        page.wait_for_function("() => window.ready")
        page.evaluate("(game) => window.start(game)", game)
        pages.append(page)

        def show(view: dict[str, Any]) -> Page:
            page.evaluate("(view) => window.update(view)", json.loads(json.dumps(view)))
            return page

        return show

    yield make
    for page in pages:
        page.context.close()
    assert errors == []


def play_until(state: State[Any], rng: random.Random, done: Callable[[State[Any]], bool], limit: int = 30000) -> None:
    for _ in range(limit):
        if done(state):
            return
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no such position found")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    yield opened
    context.close()


def play_now(page: Page, game: str) -> None:
    page.click(f".game-tile[data-game={game}] button.play-now")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")


# --- 3: the Geister setup keeps the page where it was -------------------------------------------------
def test_32_3_placing_ghosts_keeps_the_page_scrolled_where_it_was(server: ServerProcess, page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 560})  # a short phone screen: the page scrolls
    enter_as_guest(page, server.http_url, "Scrolly")
    play_now(page, "geister")
    page.wait_for_selector(".setup-tray")
    page.wait_for_timeout(500)  # the bot's setup has landed
    assert page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight + 20")
    # scrolled down as far as the page goes while the tray is still on the screen
    page.evaluate("""() => { window.scrollTo(0, document.documentElement.scrollHeight);
        const top = document.querySelector('.setup-tray').getBoundingClientRect().top;
        if (top < 0) window.scrollBy(0, top - 10); }""")
    where = page.evaluate("() => window.scrollY")
    assert where > 0

    def centre(selector: str) -> tuple[float, float]:
        """The middle of `selector` on the screen, which must show it (the mouse never scrolls)."""
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 560, f"{selector} is off the screen"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    squares = page.eval_on_selector_all(".square[data-start=mine]", "els => els.map(e => e.dataset.square)")
    page.mouse.click(*centre(".tray-piece[data-colour=good]"))
    assert page.evaluate("() => window.scrollY") == where, "a click on the tray moved the page"
    page.mouse.click(*centre(f".square[data-square={squares[0]}]"))
    assert page.evaluate("() => window.scrollY") == where, "placing a ghost moved the page"
    page.mouse.move(*centre(".tray-piece[data-colour=bad]"))
    page.mouse.down()
    x, y = centre(f".square[data-square={squares[1]}]")
    page.mouse.move(x - 20, y - 20, steps=4)
    page.mouse.move(x, y, steps=4)
    page.mouse.up()
    assert page.evaluate("() => window.scrollY") == where, "dragging a ghost from the tray moved the page"
    expect(page.locator(".square[data-start=mine] .ghost")).to_have_count(2)


# --- 12: a Ghooost! round summary ----------------------------------------------------------------------
def test_32_12_a_ghooost_round_summary_shows_over_the_table_until_the_player_goes_on(
        renderer: Callable[..., Show]) -> None:
    state = get_game("ghooost").new(3, {"match": True}, 5)
    rng = random.Random(5)
    show = renderer("ghooost", 1280, 800, clock=True)
    show(state.view(0))
    play_until(state, rng, lambda s: bool(s.view(None)["rounds"]) and 0 in s.to_act())
    page = show(state.view(0))
    panel = page.locator(".round-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    hand = page.locator(".my-area").bounding_box()
    assert box is not None and hand is not None
    assert box["y"] + box["height"] <= hand["y"] + 1, "the round summary lies below the hand"
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, "the round summary is outside the screen"
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "round-panel-ghooost-1280x800.png"))
    page.clock.run_for(60_000)  # a minute later it is still there: it does not go by itself
    expect(panel).to_be_visible()
    # the player's first move of the next round is their "go on"
    action = state.view(0)["legal"][0]
    if action.startswith("play "):
        cards = action[5:].split()
        for value in set(cards):
            for i in range(cards.count(value)):
                page.locator(f".hand .card[data-card='{value}']").nth(i).click()
        page.click("button.do-play")
    else:
        page.click(f"button.do-{action}")
    expect(page.locator(".round-panel")).to_have_count(0)
    assert page.evaluate("() => window.acted.length") == 1


# --- 16: The Last on a 360 px phone -------------------------------------------------------------------
def test_32_16_the_last_trick_and_points_pile_stay_in_their_boxes_on_a_phone(renderer: Callable[..., Show]) -> None:
    state = get_game("thelast").new(5, {"rounds": 3}, 11)
    rng = random.Random(11)
    show = renderer("thelast", 360, 740)
    show(state.view(0))
    play_until(state, rng, lambda s: s.view(0)["points_left"] == 0 and len(s.view(0)["trick"]) == 4)
    page = show(state.view(0))
    page.wait_for_function("() => document.getAnimations().length === 0")  # the cards have landed
    expect(page.locator(".zone.trick > .trick-cards > .played")).to_have_count(4)
    cards = ".zone.trick > .trick-cards > .played"
    assert all(page.evaluate(INSIDE, [cards, ".zone.trick"])), "a trick card spills out"
    assert all(page.evaluate(INSIDE, [".points-zone .count", ".points-zone"])), "the points pile's words spill out"
    expect(page.locator(".points-zone .count")).to_contain_text("0 left")
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# --- 17: the last move's caption on a phone ------------------------------------------------------------
def test_32_17_the_last_moves_caption_is_read_whole_on_a_phone(server: ServerProcess, page: Page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    enter_as_guest(page, server.http_url, "Capta")
    play_now(page, "geister")
    page.wait_for_selector(".setup-tray")
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    assert wait_turn_or_end(page)
    page.wait_for_selector(".square.movable")
    page.click(".square.movable >> nth=0")
    page.click(".square.target >> nth=0")
    caption = page.locator(".step-caption:not(.idle)")
    expect(caption).to_contain_text("moves a ghost from", timeout=15_000)
    whole = page.evaluate("""() => { const el = document.querySelector('.step-caption');
        return el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1; }""")
    assert whole, "the caption is cut: " + caption.inner_text()
    box = caption.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360


# --- 21: the lobby --------------------------------------------------------------------------------------
def test_32_21_more_options_and_the_wait_do_not_stretch_the_row_and_the_wait_is_in_view(
        server: ServerProcess, page: Page) -> None:
    enter_as_guest(page, server.http_url, "Lobbo")
    tiles = """() => Object.fromEntries([...document.querySelectorAll('.game-tile')]
        .map((el) => [el.dataset.game, el.offsetHeight]))"""
    heights = lambda: page.evaluate(tiles)  # noqa: E731
    before = heights()
    page.locator(".game-tile[data-game=geister] details.advanced summary").click()
    after = heights()
    assert after["geister"] > before["geister"]
    assert (after["ghooost"], after["thelast"]) == (before["ghooost"], before["thelast"]), "the whole row stretched"
    page.locator(".game-tile[data-game=geister] details.advanced summary").click()
    # the "Find an opponent" button at the very bottom of the screen: the wait that appears under it is
    # brought into view
    find = page.locator(".game-tile[data-game=thelast] button.find-opponent")
    page.evaluate("""() => { const b = document.querySelector('.game-tile[data-game=thelast] button.find-opponent');
        const r = b.getBoundingClientRect(); window.scrollBy(0, r.bottom - window.innerHeight + 2); }""")
    find.click()
    line = page.locator(".game-tile[data-game=thelast] .quick-line.waiting")
    expect(line).to_contain_text("Looking for an opponent for The Last")
    page.wait_for_function("""() => {
        const r = document.querySelector('.game-tile[data-game=thelast] .quick-line').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight + 1; }""", timeout=5_000)
    page.locator(".game-tile[data-game=thelast] button.quick-cancel").click()


# --- 22: Ghooost! dims what cannot be played ------------------------------------------------------------
def test_32_22_ghooost_dims_the_cards_that_cannot_be_played(renderer: Callable[..., Show]) -> None:
    state = get_game("ghooost").new(3, {}, 2)
    rng = random.Random(2)
    show = renderer("ghooost")

    def some_unplayable(s: State[Any]) -> bool:
        view = s.view(0)
        if 0 not in s.to_act():
            return False
        played = {card for text in view["legal"] if text.startswith("play ") for card in text[5:].split()}
        return any(card not in played for card in view["hand"])

    play_until(state, rng, some_unplayable)
    view = state.view(0)
    page = show(view)
    played = {card for text in view["legal"] if text.startswith("play ") for card in text[5:].split()}
    cards = page.eval_on_selector_all(".hand .card", """els => els.map((el) => ({ card: el.dataset.card,
        dim: el.classList.contains('unplayable'), opacity: Number(getComputedStyle(el).opacity) }))""")
    assert cards
    for card in cards:
        assert card["dim"] == (card["card"] not in played), card
        assert (card["opacity"] < 0.8) == card["dim"], card


# --- 23: small things -----------------------------------------------------------------------------------
def test_32_23_the_login_box_the_chat_placeholder_the_pace_label_and_four_equal_seat_boxes(
        server: ServerProcess, page: Page, renderer: Callable[..., Show]) -> None:
    page.goto(server.http_url + "/")
    identity = page.locator(".identity").first
    expect(identity).to_contain_text("or")
    expect(identity).not_to_contain_text("Or with an account")
    expect(identity).to_contain_text("With an account:")
    open_settings(page)  # the pace picker lives in the settings menu, with a visible label
    label = page.locator("label[for='pace-picker']")
    expect(label).to_be_visible()
    expect(label).to_contain_text("Pace")
    enter_as_guest(page, server.http_url, "Placey")
    play_now(page, "thelast")
    for width, height in ((1280, 800), (1366, 768), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        whole = page.evaluate("""() => { const input = document.querySelector('.chat-input');
            const style = getComputedStyle(input);
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return ctx.measureText(input.placeholder).width <= room; }""")
        assert whole, f"the chat's placeholder is cut at {width}x{height}"
    # four players of The Last: four boxes of one height on one row
    state = get_game("thelast").new(4, {}, 4)
    boxes_page = renderer("thelast", 1280, 800)(state.view(0))
    boxes = boxes_page.eval_on_selector_all(".participant", "els => els.map((el) => el.getBoundingClientRect().toJSON())")  # noqa: E501
    assert len(boxes) == 4
    assert len({round(box["top"]) for box in boxes}) == 1, "the seat boxes wrap"
    assert len({round(box["height"]) for box in boxes}) == 1, "the seat boxes differ in height"


def test_32_23_nothing_slides_at_the_pace_instant(renderer: Callable[..., Show]) -> None:
    state = get_game("geister").new(2, {}, 1)
    rng = random.Random(1)
    play_until(state, rng, lambda s: s.view(0)["phase"] == "play")
    show = renderer("geister", pace="instant")
    show(state.view(0))
    state.apply(min(state.to_act()), rng.choice(state.legal_actions(min(state.to_act()))))
    page = show(state.view(0))
    assert page.evaluate("() => document.getAnimations().length") == 0

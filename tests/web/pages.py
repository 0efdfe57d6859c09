"""What a person does in the browser, step by step: choose a name, open a table, and play each game by
clicking and dragging on what the page shows (the helpers read only the page, never the server)."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Page, expect

TURN_OR_END = (
    "() => document.querySelector('.turn-banner.my-turn') || document.body.dataset.tableStatus === 'finished'"
)


def enter_as_guest(page: Page, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.fill("input[name=guest-name]", name)
    page.click(".guest-form button[type=submit]")
    expect(page.locator(".identity-card")).to_contain_text(name)


def open_advanced(page: Page, game: str) -> None:
    """Unfold the full table form of `game` in the lobby (folded away under "More options")."""
    details = page.locator(f".game-tile[data-game={game}] details.advanced")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def create_table(page: Page, game: str, seats: int, bots: bool = True, options: dict[str, str] | None = None) -> str:
    """Fill the lobby form of `game` and open the table; returns the table's address."""
    open_advanced(page, game)
    form = page.locator(f"form.create-form[data-game={game}]")
    form.locator("select[name=seats]").select_option(str(seats))
    form.locator("select[name=bots]").select_option("fill" if bots else "0")
    for name, value in (options or {}).items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_selector(".seat.me")  # the table is drawn and I sit in it
    return page.url.split("?")[0]


def version(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.tableVersion || -1)"))


def wait_for_change(page: Page, before: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.tableVersion) > {before}")


def open_settings(page: Page) -> None:
    """Unfold the top bar's settings menu (sound, notifications, pace, language, log out)."""
    menu = page.locator("details.settings-menu")
    # the page builds the menu after its language file has loaded, which can be after `goto` returns
    expect(menu).to_be_attached()
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    expect(menu.locator(".settings-panel")).to_be_visible()


def choose_language(page: Page, lang: str) -> None:
    open_settings(page)
    page.select_option("#language-picker", lang)


def choose_instant_pace(page: Page) -> None:
    """Whole games played by a test go at the pace "instant" (the top bar's choice, kept in the browser):
    the bots' moves are drawn at once instead of a step at a time, as for a player in a hurry."""
    open_settings(page)
    page.select_option("#pace-picker", "instant")
    page.keyboard.press("Escape")  # folded away again


def wait_turn_or_end(page: Page, timeout: float = 30_000) -> bool:
    """True when it is this page's turn, False when the game is over."""
    page.wait_for_function(TURN_OR_END, timeout=timeout)
    return page.evaluate("() => document.body.dataset.tableStatus") != "finished"


def start_with_bots(page: Page) -> None:
    """The lobby filled the other seats with bots: wait for them, then press Start."""
    page.wait_for_selector(".seat.kind-empty", state="detached")
    before = version(page)
    page.click("button.do-start")
    wait_for_change(page, before)


# --- Geister ------------------------------------------------------------------------------------------
def open_geister_against_a_bot(page: Page, base_url: str, name: str) -> None:
    """Enter as `name`, open a Geister table with a bot and start it; returns when the setup is ours to do."""
    enter_as_guest(page, base_url, name)
    create_table(page, "geister", 2)
    start_with_bots(page)
    assert wait_turn_or_end(page)


def geister_setup(page: Page, rng: random.Random) -> None:
    """Drag the four good ghosts from the tray onto start squares, then place the bad ones by clicking."""
    page.wait_for_selector(".setup-tray")
    squares = page.eval_on_selector_all(".square[data-start=mine]", "els => els.map(e => e.dataset.square)")
    assert len(squares) == 8
    rng.shuffle(squares)
    for square in squares[:4]:
        page.locator(".tray-piece[data-colour=good]").drag_to(page.locator(f".square[data-square={square}]"))
    for square in squares[4:]:
        page.click(".tray-piece[data-colour=bad]")
        page.click(f".square[data-square={square}]")
    expect(page.locator(".square[data-start=mine] .ghost")).to_have_count(8)
    expect(page.locator(".square[data-start=mine] .ghost.good")).to_have_count(4)
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")  # my setup is accepted (not just any change)


_CENTRES = """() => {
  const centre = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const exits = [...document.querySelectorAll('.square.exit-mine')].map(centre);
  const info = (el) => ({ square: el.dataset.square, good: !!el.querySelector('svg.ghost.good'), xy: centre(el) });
  return { exits, movable: [...document.querySelectorAll('.square.movable')].map(info),
           targets: [...document.querySelectorAll('.square.target')].map(info) };
}"""


def _distance(xy: list[float], exits: list[list[float]]) -> float:
    return min(abs(xy[0] - x) + abs(xy[1] - y) for x, y in exits)


def geister_move(page: Page, rng: random.Random, drag: bool) -> None:
    """One move: a good ghost towards the nearest of my exits when it can, by click-click or drag."""
    seen: dict[str, Any] = page.evaluate(_CENTRES)
    exits = seen["exits"]
    movable = seen["movable"]
    assert movable, "my turn but no ghost can move"
    good = [m for m in movable if m["good"]]
    candidates = sorted(good, key=lambda m: _distance(m["xy"], exits)) if good else movable
    if rng.random() < 0.2:
        candidates = [rng.choice(movable)]
    for origin in candidates[:3]:
        page.click(f".square[data-square={origin['square']}]")
        targets = page.evaluate(_CENTRES)["targets"]
        if not targets:
            continue
        target = min(targets, key=lambda t: _distance(t["xy"], exits) + rng.random())
        before = version(page)
        if drag:
            page.click(f".square[data-square={origin['square']}]")  # unselect, then drag instead
            page.locator(f".square[data-square={origin['square']}]").drag_to(
                page.locator(f".square[data-square={target['square']}]"))
        else:
            page.click(f".square[data-square={target['square']}]")
        wait_for_change(page, before)
        return
    raise AssertionError("no movable ghost had a target square")


def play_geister(page: Page, rng: random.Random, screenshot: str | None = None, limit: int = 400) -> None:
    """Set up, then move until the game is over."""
    choose_instant_pace(page)
    assert wait_turn_or_end(page)
    geister_setup(page, rng)
    for turn in range(limit):
        if not wait_turn_or_end(page):
            return
        geister_move(page, rng, drag=turn % 3 == 1)
        if screenshot and turn == 3:
            page.screenshot(path=screenshot, full_page=True)
    raise AssertionError("the Geister game did not end")


# --- Ghooost! -----------------------------------------------------------------------------------------
def ghooost_turn(page: Page, rng: random.Random, drag: bool) -> None:
    """Play the biggest group of playable identical ghosts; else end an optional extra turn, gamble, turn,
    take or pass."""
    before = version(page)
    cards: list[dict[str, Any]] = page.eval_on_selector_all(
        ".hand .card",
        "els => els.map((e, i) => ({ i, card: e.dataset.card, playable: e.classList.contains('playable') }))",
    )
    groups: dict[str, list[int]] = {}
    for card in cards:
        if card["playable"] and card["card"] != "X":
            groups.setdefault(card["card"], []).append(card["i"])
    order = sorted(groups.items(), key=lambda item: (-len(item[1]), rng.random()))
    hand = page.locator(".hand .card")
    for _value, indexes in order:
        for size in sorted({len(indexes), 1}, reverse=True):
            for i in indexes[:size]:
                hand.nth(i).click()
            if page.locator("button.do-play").is_enabled():
                if drag:
                    hand.nth(indexes[0]).drag_to(page.locator(".zone.cemetery"))
                else:
                    page.click("button.do-play")
                wait_for_change(page, before)
                return
            for i in indexes[:size]:
                hand.nth(i).click()  # unselect and try a smaller group
    for simple in ("done", "gamble", "turn", "take", "pass"):
        button = page.locator(f"button.do-{simple}")
        if button.count():
            button.click()
            wait_for_change(page, before)
            return
    raise AssertionError("my Ghooost! turn offered nothing to do")


def play_ghooost(page: Page, rng: random.Random, screenshot: str | None = None, limit: int = 600) -> None:
    choose_instant_pace(page)
    for turn in range(limit):
        if not wait_turn_or_end(page):
            return
        ghooost_turn(page, rng, drag=turn % 4 == 2)
        if screenshot and turn == 4:
            page.screenshot(path=screenshot, full_page=True)
    raise AssertionError("the Ghooost! game did not end")


# --- The Last -----------------------------------------------------------------------------------------
def thelast_turn(page: Page, rng: random.Random, drag: bool) -> None:
    before = version(page)
    if page.locator("button.do-keep").count():
        swappable = page.locator(".hand .card.swappable")
        if swappable.count() and rng.random() < 0.3:
            swappable.first.click()
        else:
            page.click("button.do-keep")
    else:
        playable = page.locator(".hand .card.playable")
        assert playable.count(), "my turn in The Last but no card is marked playable"
        card = playable.nth(rng.randrange(playable.count()))
        if drag:
            card.drag_to(page.locator(".zone.trick"))
        else:
            card.click()
    wait_for_change(page, before)


def play_thelast(page: Page, rng: random.Random, screenshot: str | None = None, limit: int = 200) -> None:
    choose_instant_pace(page)
    for turn in range(limit):
        if not wait_turn_or_end(page):
            return
        thelast_turn(page, rng, drag=turn % 3 == 1)
        if screenshot and turn == 3:
            page.screenshot(path=screenshot, full_page=True)
    raise AssertionError("The Last did not end")

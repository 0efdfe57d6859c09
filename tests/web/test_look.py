"""Issue 15, points 15-18 and its browser checks: the lobby of game tiles ("Play now against a bot", folded
options, my tables), turn signals outside the tab, a confirmed Resign, the clock's last seconds, seat plates
around the table, card stacks, larger cards, a Geister board whose good and bad ghosts differ in shape and
label, a spectator's neutral exits, refusals that say what would work; axe-core, a 360 px phone without
horizontal scrolling, and screenshots of every game (tests/web/screenshots/, not committed) to look at."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from ghostgames.games import get_game
from ghostgames.rules.contract import IllegalAction
from tests.server.harness import ServerProcess
from tests.web.pages import create_table, enter_as_guest, wait_turn_or_end

GAMES = ("geister", "ghooost", "thelast")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
I18N = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n"
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def pages(browser: Browser) -> Iterator[list[Page]]:
    """Pages opened by a test, closed after it however it ends."""
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def new_page(pages: list[Page], browser: Browser, width: int = 1280, height: int = 800, locale: str = "en-US") -> Page:
    page = browser.new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    pages.append(page)
    return page


def play_now(page: Page, game: str) -> str:
    """One click in the lobby: a running table of `game` against a bot; returns its address."""
    page.click(f".game-tile[data-game={game}] button.play-now")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    page.wait_for_selector(".seat.me")
    return page.url.split("?")[0]


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}x {v['nodes'][0]['target']})"
            for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


# --- 15: the lobby ---------------------------------------------------------------------------------------
def test_15_the_lobby_is_game_tiles_with_pictures_and_the_options_folded_away(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Tia")
    tiles = page.locator(".game-tile")
    expect(tiles).to_have_count(3)
    for game in GAMES:
        tile = page.locator(f".game-tile[data-game={game}]")
        expect(tile.locator("svg.game-picture")).to_have_count(1)
        expect(tile.locator("button.play-now")).to_have_text("Play now against a bot")
        expect(tile.locator("details.advanced")).not_to_have_attribute("open", "")
        expect(tile.locator("form.create-form")).to_be_hidden()  # advanced options folded away
    picture = page.locator(".game-tile[data-game=geister] svg.game-picture").bounding_box()
    assert picture is not None and picture["height"] > 60


@pytest.mark.parametrize("game", GAMES)
def test_15_play_now_is_one_click_to_a_running_game_against_a_bot(
        server: ServerProcess, browser: Browser, pages: list[Page], game: str) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, f"Now{game[:3]}")
    play_now(page, game)
    expect(page.locator(".seat.kind-bot")).to_have_count(1)
    expect(page.locator(".seat.kind-bot")).to_contain_text("medium")
    expect(page.locator(".seat.me")).to_contain_text(f"Now{game[:3]}")
    expect(page.locator(".table-head .chip.rated-off")).to_have_text("Unrated")  # a guest plays unrated


def test_15_my_tables_lists_the_tables_where_i_sit(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Mae")
    expect(page.locator(".my-tables")).to_contain_text("You sit at no table yet.")
    link = play_now(page, "thelast")
    page.goto(server.http_url + "/")
    mine = page.locator(".my-tables .table-row")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("The Last")
    mine.locator("a.back-to-table").click()
    page.wait_for_url(link)
    expect(page.locator(".seat.me")).to_contain_text("Mae")


def test_15_play_now_works_from_the_keyboard(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Kai")
    page.focus(".game-tile[data-game=geister] button.play-now")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    # the advanced form opens from the keyboard too
    page.goto(server.http_url + "/")
    page.focus(".game-tile[data-game=ghooost] details.advanced summary")
    page.keyboard.press("Enter")
    expect(page.locator("form.create-form[data-game=ghooost]")).to_be_visible()


def tab_to(page: Page, selector: str, limit: int = 150) -> None:
    """Press Tab until the focus is on an element matching `selector` (the keyboard's own way there)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("game", ["ghooost", "thelast"])
def test_15_a_card_game_started_by_keyboard_is_played_by_keyboard(
        server: ServerProcess, browser: Browser, pages: list[Page], game: str) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, f"Key{game[:3]}")
    tab_to(page, f".game-tile[data-game={game}] button.play-now")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    for _ in range(3):  # a few turns of mine, each with Tab and Enter only
        if not wait_turn_or_end(page):
            return
        before = int(page.evaluate("() => Number(document.body.dataset.tableVersion)"))
        page.locator("body").focus()
        if game == "thelast" and page.locator("button.do-keep").count():
            tab_to(page, "button.do-keep")
        elif game == "ghooost" and not page.locator(".hand .card.playable").count():
            tab_to(page, "button.do-gamble, button.do-take, button.do-turn, button.do-pass")
        else:
            tab_to(page, ".hand .card.playable")
            if game == "ghooost":  # a picked card, then the Play button
                page.keyboard.press("Enter")
                tab_to(page, "button.do-play:not([disabled])")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => Number(document.body.dataset.tableVersion) > {before}")


# --- 16: turn signals, a confirmed Resign, the clock ---------------------------------------------------
def test_16_the_title_and_the_favicon_say_when_it_is_my_turn(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Ted")
    play_now(page, "geister")  # the setup: both seats place their ghosts, so it is my turn at once
    assert wait_turn_or_end(page)
    expect(page).to_have_title("Your turn — ghostgames")
    icon = page.locator("link[rel=icon]")
    expect(icon).to_have_attribute("href", re.compile(r"^data:image/svg\+xml,"))
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    page.wait_for_function("() => document.body.dataset.myTurn === '0' || document.title.startsWith('Your turn')")
    if page.evaluate("() => document.body.dataset.myTurn") == "0":
        expect(page).to_have_title("Geister — ghostgames")
        expect(icon).to_have_attribute("href", "/favicon.svg")


def redraw_controls(page: Page) -> None:
    """Redraw every panel of the table page now, as any table update does (here through the language hook)."""
    page.evaluate("async () => { const i18n = await import('/i18n.js'); await i18n.setLanguage(i18n.language()); }")


def test_16_resign_asks_first_and_escape_keeps_playing(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Rex")
    play_now(page, "thelast")
    page.click("button.do-resign")
    confirm = page.locator(".controls .confirm[role=alertdialog]")
    expect(confirm).to_contain_text("cannot be undone")
    expect(page.locator("button.resign-cancel")).to_be_focused()
    redraw_controls(page)  # a table update while asking (a bot's move) keeps the focus on the answer
    expect(page.locator("button.resign-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(confirm).to_have_count(0)
    expect(page.locator("button.do-resign")).to_be_focused()
    redraw_controls(page)
    expect(page.locator("button.do-resign")).to_be_focused()
    assert page.evaluate("() => document.body.dataset.tableStatus") == "started"
    page.click("button.do-resign")
    page.click("button.do-resign-confirm")
    expect(page.locator("button.do-resign, .confirm")).to_have_count(0)  # resigned: over for me
    page.wait_for_function("() => document.body.dataset.tableStatus === 'finished'")  # two seats: the bot wins


def test_16_a_redraw_keeps_the_bot_level_picked_and_its_focus(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Nell")
    create_table(page, "geister", 2, bots=False)
    picker = page.locator(".controls select.bot-level")
    picker.select_option("medium")
    picker.focus()
    redraw_controls(page)  # as when someone joins or watches while the level is being picked
    expect(picker).to_have_value("medium")
    expect(picker).to_be_focused()


def test_16_the_clock_warns_in_its_last_ten_seconds_not_by_colour_alone(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Cleo")
    create_table(page, "geister", 2, options={"clock": "30 s per move"})
    page.wait_for_selector(".seat.kind-empty", state="detached")
    page.click("button.do-start")
    assert wait_turn_or_end(page)  # my setup, with 30 s on my clock
    clock = page.locator(".seat.me .clock")
    expect(clock).to_have_text(re.compile(r"^0:\d\d$"))
    expect(page.locator(".seat.me .clock-warning")).to_be_hidden()
    expect(clock).to_have_class(re.compile(r"\blow\b"), timeout=30_000)
    expect(page.locator(".seat.me .clock-warning")).to_have_text("hurry: time is running out")
    size = float(clock.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert size >= 24  # prominent: at least 1.5rem


# --- 17: seat plates, stacks, cards, the Geister board, a spectator's exits ----------------------------
def test_17_opponents_sit_on_plates_with_their_counts(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Pia")
    play_now(page, "geister")
    other = page.locator(".seats-others .seat.plate")
    expect(other).to_have_count(1)
    expect(other.locator(".count-ghosts")).to_have_text("8 ghosts on the board")
    expect(page.locator(".seats-mine .seat.plate.me")).to_be_visible()
    # the board sits between the other's plate and mine
    top = page.locator(".seats-others").bounding_box()
    game = page.locator(".board").bounding_box()
    bottom = page.locator(".seats-mine").bounding_box()
    assert top and game and bottom and top["y"] < game["y"] < bottom["y"]


def test_17_card_games_show_the_clock_on_their_own_seat_plates(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Pat")
    create_table(page, "ghooost", 2, options={"clock": "60 s per move"})
    page.wait_for_selector(".seat.kind-empty", state="detached")
    page.click("button.do-start")
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    plates = page.locator(".ghooost-seat.plate")
    expect(plates).to_have_count(2)
    expect(plates.locator(".clock")).to_have_text([re.compile(r"^[01]:\d\d$")] * 2)
    expect(page.locator(".ghooost-seat.plate .chip.you")).to_have_count(1)
    expect(page.locator(".seats-others .seat")).to_have_count(0)  # no second plate per seat


def test_17_the_mansion_crypt_and_discard_are_card_stacks_and_cards_are_large(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Sam")
    play_now(page, "ghooost")
    expect(page.locator(".ghooost-seat .mansion-stack .stack-card svg").first).to_be_visible()
    expect(page.locator(".crypt .crypt-stack .stack-card").first).to_be_visible()
    card = page.locator(".hand .card svg").first.bounding_box()
    assert card is not None and card["width"] >= 80  # 60 px before, on a 1280 screen


def test_17_geister_ghosts_differ_in_shape_and_label_not_colour_alone(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Gus")
    play_now(page, "geister")
    page.click("button.setup-random")
    board = page.locator(".board")
    expect(board.locator(".ghost.good .mark-halo")).to_have_count(4)
    expect(board.locator(".ghost.bad .mark-horns")).to_have_count(4)
    expect(board.locator(".ghost-tag.good")).to_have_text(["good"] * 4)
    expect(board.locator(".ghost-tag.bad")).to_have_text(["bad"] * 4)


def test_17_a_spectator_sees_both_sides_exits_neutrally(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    player = new_page(pages, browser)
    enter_as_guest(player, server.http_url, "Ola")
    link = play_now(player, "geister")
    expect(player.locator(".square.exit-mine")).to_have_count(2)
    watcher = new_page(pages, browser)
    watcher.goto(link)
    watcher.wait_for_selector(".board")
    expect(watcher.locator(".square.exit-mine")).to_have_count(0)
    expect(watcher.locator(".square.exit-theirs")).to_have_count(0)
    expect(watcher.locator(".square.exit-seat-0")).to_have_count(2)
    expect(watcher.locator(".square.exit-seat-1")).to_have_count(2)
    colours = watcher.eval_on_selector_all(
        ".square.exit .exit-arrow path", "els => [...new Set(els.map(e => getComputedStyle(e).fill))]")
    assert len(colours) == 1  # one neutral colour for both sides


# --- 18: refusals that say what would work ------------------------------------------------------------
def test_18_a_move_during_the_setup_says_place_your_ghosts_first(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    cases = (("en-US", "Eli", "place your ghosts first"), ("fr-FR", "Elo", "placez d'abord vos fantômes"))
    for locale, name, words in cases:
        page = new_page(pages, browser, locale=locale)
        enter_as_guest(page, server.http_url, name)
        play_now(page, "geister")
        box = page.locator("input.chat-input")
        box.fill("/b2 n")
        box.press("Enter")
        expect(page.locator(".error-banner")).to_contain_text(words)


def refusal(game: str, players: int, actions: list[tuple[int, str]], seed: int = 3) -> IllegalAction:
    """The IllegalAction the last of `actions` meets (the ones before it are legal)."""
    state = get_game(game).new(players, seed=seed)
    for seat, text in actions[:-1]:
        state.apply(seat, text)
    seat, text = actions[-1]
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, text)
    return caught.value


def test_18_the_commonest_refusals_name_their_rule_and_every_language_says_it() -> None:
    geister = get_game("geister").new(2, seed=3)
    setups = [next(t for t in geister.legal_texts(seat) if t.startswith("setup")) for seat in (0, 1)]
    geister.apply(0, setups[0])
    geister.apply(1, setups[1])
    mover = next(iter(geister.to_act()))
    cases = [
        refusal("geister", 2, [(0, "b2 n")]),
        refusal("geister", 2, [(0, setups[0]), (1, setups[1]), (mover, setups[mover])]),
    ]
    ghooost = get_game("ghooost").new(2, seed=3)
    first = next(iter(ghooost.to_act()))
    cases.append(refusal("ghooost", 2, [(first, "turn")]))
    thelast = get_game("thelast").new(2, seed=3)
    actor = next(iter(thelast.to_act()))
    held = {t.split()[-1] for t in thelast.legal_texts(actor) if t.startswith("play")}
    missing = next(f"play {c}{v}" for c in "RBGY" for v in range(1, 13) if f"{c}{v}" not in held
                   and f"{c}{v}" not in str(thelast.view(actor)))
    cases.append(refusal("thelast", 2, [(actor, missing)]))
    rules = [case.rule for case in cases]
    assert rules[:3] == ["geister.setup_first", "geister.setup_over", "ghooost.turn_after_midnight"]
    assert rules[3] in ("thelast.no_card", "thelast.decide_first")

    for lang in ("en", "fr", "de", "ko", "uk"):
        catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        for case in cases:
            assert f"rule.{case.rule}" in catalog, (lang, case.rule)
            for name in case.details:
                assert "{" + name + "}" in catalog[f"rule.{case.rule}"], (lang, case.rule, name)


# --- the browser checks: axe-core, a 360 px phone, screenshots -----------------------------------------
def test_axe_finds_nothing_serious_in_the_lobby(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Ada")
    page.locator(".game-tile[data-game=geister] details.advanced summary").click()
    assert serious(page) == []


@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_serious_at_a_running_table(
        server: ServerProcess, browser: Browser, pages: list[Page], game: str) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, f"Axe{game[:3]}")
    play_now(page, game)
    page.wait_for_selector(".game-area > *")
    assert serious(page) == []


def test_no_sideways_scrolling_on_a_360_px_phone(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, width=360, height=740)
    enter_as_guest(page, server.http_url, "Phil")
    assert page.evaluate(NO_SIDEWAYS_SCROLL), "the lobby scrolls sideways"
    for game in GAMES:
        page.goto(server.http_url + "/")
        play_now(page, game)
        page.wait_for_selector(".game-area > *")
        assert wait_turn_or_end(page)
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5).map(el => el.className || el.tagName)""")
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"{game} scrolls sideways: {wide}"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280x800", "390x844"])
def test_screenshots_of_every_game_for_a_reviewer(
        server: ServerProcess, browser: Browser, pages: list[Page], size: tuple[int, int]) -> None:
    """Writes tests/web/screenshots/{lobby,geister,ghooost,thelast}-WxH.png (gitignored) to look at."""
    width, height = size
    SCREENSHOTS.mkdir(exist_ok=True)
    page = new_page(pages, browser, width=width, height=height)
    enter_as_guest(page, server.http_url, f"Shot{width}")
    path = SCREENSHOTS / f"lobby-{width}x{height}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 0
    for game in GAMES:
        page.goto(server.http_url + "/")
        play_now(page, game)
        assert wait_turn_or_end(page)
        if game == "geister":
            page.click("button.setup-random")  # the board with my ghosts on it
        page.wait_for_function("() => document.getAnimations().length === 0")  # no card caught mid-flight
        path = SCREENSHOTS / f"{game}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 0

"""Issue 32, the points of trust (5-10, 13-15, 18-20, 24), one test or more each (`test_<N>_…`): bots of one
level told apart, a finished table's address that lasts, "Show more" only when there is more, the rating
change at the end, the name field after "Choose a name first", the bot level in the lobby, leaving a game
asks first, the settings menu with Log out, sound and notifications, no language leftovers, axe-core with
no finding of any impact, focus after Ready, no pile of "the table changed" lines, and a profile that
counts, marks a provisional rating and draws its chart with axes. Each failed before its change."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import ServerProcess
from tests.web.pages import (
    choose_instant_pace,
    choose_language,
    create_table,
    enter_as_guest,
    geister_move,
    geister_setup,
    open_settings,
    play_thelast,
    start_with_bots,
    wait_turn_or_end,
)

GAMES = ("geister", "ghooost", "thelast")
I18N = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Finished tables nobody watches close within a second or two, as they would after five minutes."""
    process = ServerProcess(tmp_path_factory.mktemp("trust-server"), env={
        "GHOSTGAMES_GRACE": "20", "GHOSTGAMES_IDLE_CLOSE": "1", "GHOSTGAMES_SWEEP_EVERY": "0.5"}).start()
    yield process
    process.stop()


@pytest.fixture
def pages(browser: Browser) -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def new_page(pages: list[Page], browser: Browser, width: int = 1280, height: int = 800, locale: str = "en-US") -> Page:
    page = browser.new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    pages.append(page)
    return page


def register(page: Page, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.fill("input[name=account-name]", name)
    page.fill("input[name=password]", "a-good-password")
    page.click(".login-form button[type=button]")  # Create an account
    expect(page.locator(".identity-card")).to_contain_text(name)


def play_now(page: Page, game: str) -> str:
    page.click(f".game-tile[data-game={game}] button.play-now")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
    page.wait_for_selector(".seat.me")
    return page.url.split("?")[0]


def resign_after_counting_moves(page: Page, seed: int = 8) -> None:
    """Set up and make two Geister moves (the bot as many), then resign: a game that counts for ratings
    (docs/server.md, "Fair play in ratings": each side needs three moves of its own)."""
    rng = random.Random(seed)
    assert wait_turn_or_end(page)
    geister_setup(page, rng)
    for _ in range(2):
        assert wait_turn_or_end(page)
        geister_move(page, rng, drag=False)
    assert wait_turn_or_end(page)
    resign(page)


def resign(page: Page) -> None:
    page.click("button.do-resign")
    page.click("button.do-resign-confirm")
    page.wait_for_function("() => document.body.dataset.tableStatus === 'finished'")


def all_violations(page: Page) -> list[str]:
    """Every axe-core finding, whatever its impact."""
    results = Axe().run(page)
    return [f"{v['id']} ({v.get('impact')}): {v['help']} ({len(v['nodes'])}x {v['nodes'][0]['target']})"
            for v in results.response["violations"]]


# --- 5: two bots of one level ----------------------------------------------------------------------------
def test_5_three_easy_bots_are_told_apart_and_the_log_names_the_winner_of_the_end_panel(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Quinn")
    options = {"bot-level": "easy"} if page.locator("select[name=bot-level]").count() else {}
    create_table(page, "thelast", 4, options=options)
    start_with_bots(page)
    play_thelast(page, __import__("random").Random(5))
    expect(page.locator(".end-panel")).to_be_visible()
    headline = page.locator(".end-panel .end-result").inner_text()
    finished = page.locator(".log-lines li.log-finished").last.inner_text()
    winners = re.findall(r"bot \d \(easy\)|Quinn", headline)
    assert winners, headline
    for winner in winners:
        assert winner in finished, (headline, finished)
    # every bot seat named by its number
    names = page.locator(".end-ranking strong").all_inner_texts()
    assert sorted(names) == sorted(["Quinn", "bot 2 (easy)", "bot 3 (easy)", "bot 4 (easy)"]), names


# --- 6: a finished table's address outlives the table ----------------------------------------------------
def _wait_closed(server: ServerProcess, table_id: str) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{server.http_url}/api/tables/{table_id}", timeout=5)
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return
        time.sleep(0.3)
    raise AssertionError("the finished table did not close")


def test_6_a_closed_tables_address_shows_the_result_the_position_and_the_replay(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Clea")
    address = play_now(page, "geister")
    table_id = address.rsplit("/", 1)[1]
    resign(page)
    page.goto(server.http_url + "/ratings/geister")  # nobody watches: the finished table closes
    _wait_closed(server, table_id)
    page.goto(address)
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible(timeout=15_000)
    expect(panel.locator(".end-result")).to_contain_text("bot 2 (medium)")
    expect(panel).to_contain_text("Clea resigned")
    expect(page.locator(".table-head h1")).to_have_text("Geister")
    expect(page.locator(".closed-note")).to_be_visible()
    expect(page.locator(".board")).to_be_visible()  # the final position
    replay = page.locator(".table-head a.replay-link")
    expect(replay).to_have_attribute("href", re.compile(r"^/replay/\d+$"))
    expect(page.locator(".table-head a.replay-mine")).to_have_attribute("href", re.compile(r"^/replay/\d+\?seat=0$"))
    expect(page.locator(".table-head .invite")).to_have_count(0)
    expect(page.locator("button.do-rematch")).to_have_count(0)
    assert page.evaluate("() => document.body.dataset.tableStatus") == "closed"
    # a spectator reads the spectator's view, and no "From my seat"
    other = new_page(pages, browser)
    other.goto(address)
    expect(other.locator(".end-panel")).to_be_visible(timeout=15_000)
    expect(other.locator(".table-head a.replay-link")).to_be_visible()
    expect(other.locator(".table-head a.replay-mine")).to_have_count(0)
    replay.click()
    page.wait_for_url(re.compile(r"/replay/\d+$"))


def test_6_no_such_table_is_said_in_the_readers_language_and_offers_the_lobby(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, locale="fr-FR")
    page.goto(server.http_url + "/table/nosuch")
    expect(page.locator(".table-head h1")).to_have_text("Table introuvable", timeout=15_000)
    expect(page.locator(".no-table")).to_contain_text("Il n'y a pas de table nosuch.")
    expect(page.locator("a.to-lobby")).to_have_attribute("href", "/")
    expect(page.locator(".invite")).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text("There is no table")


# --- 7: "Show more" only when there is more -------------------------------------------------------------
def test_7_show_more_hides_when_there_is_nothing_more_and_never_repeats_a_page(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/ratings/" in request.url else None)
    page.goto(server.http_url + "/ratings/geister")
    page.wait_for_selector(".ratings-page .ratings-more", state="attached")
    expect(page.locator(".ratings-more")).to_be_hidden()
    page.evaluate("() => document.querySelector('.ratings-more').click()")
    page.wait_for_timeout(300)
    assert not any("offset=null" in url for url in asked), asked
    register(page, server.http_url, "Moreno")
    play_now(page, "geister")
    resign(page)
    page.goto(server.http_url + "/player/Moreno")
    expect(page.locator(".profile-game")).to_have_count(1)
    expect(page.locator(".profile-more")).to_be_hidden()
    page.evaluate("() => document.querySelector('.profile-more').click()")
    page.wait_for_timeout(300)
    expect(page.locator(".profile-game")).to_have_count(1)


# --- 8: the rating change at the end ------------------------------------------------------------------------
def test_8_a_rated_games_end_panel_shows_each_rating_change(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    register(page, server.http_url, "Ratna")
    play_now(page, "geister")
    resign_after_counting_moves(page)
    mine = page.locator(".end-ranking li", has_text="Ratna")
    expect(mine.locator(".end-rating")).to_have_text(re.compile(r"rating 1000\?? → \d+\??"))
    expect(page.locator(".end-ranking li", has_text="bot 2").locator(".end-rating")).to_have_text(
        re.compile(r"rating \d+\?? → \d+\??"))


# --- 9: "Choose a name first" -------------------------------------------------------------------------------
def test_9_choose_a_name_first_focuses_the_name_field_and_goes_once_you_have_one(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser, height=500)
    page.goto(server.http_url + "/")
    page.wait_for_selector("input[name=guest-name]")
    page.click(".game-tile[data-game=thelast] button.play-now")
    banner = page.locator(".lobby .error-banner")
    expect(banner).to_have_text("Choose a name first.")
    assert page.evaluate("() => document.activeElement?.name") == "guest-name"
    page.keyboard.type("Nadia")
    page.keyboard.press("Enter")
    expect(page.locator(".identity-card")).to_contain_text("Nadia")
    expect(banner).to_be_hidden()


# --- 10: the bot level from the lobby --------------------------------------------------------------------------
def test_10_the_bot_level_is_chosen_in_the_lobby_for_play_now_and_the_full_form(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Lev")
    page.select_option(".game-tile[data-game=geister] .tile-level select", "hard")
    play_now(page, "geister")
    expect(page.locator(".seat.kind-bot .seat-name")).to_have_text("bot 2 (hard)")
    page.once("dialog", lambda dialog: dialog.accept())
    page.goto(server.http_url + "/")
    create_table(page, "ghooost", 3, options={"bot-level": "hard"})
    expect(page.locator(".seat.kind-bot .seat-name")).to_have_text(["bot 2 (hard)", "bot 3 (hard)"])


# --- 13: leaving a running game asks first ------------------------------------------------------------------------
def test_13_leaving_a_running_game_asks_first_and_says_what_follows(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    register(page, server.http_url, "Leona")
    address = play_now(page, "geister")
    page.click(".topbar nav a[href='/']")
    dialog = page.locator(".leave-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("a bot plays your seat to the end")
    expect(dialog).to_contain_text("counts as a loss")
    assert page.url.split("?")[0] == address
    assert page.evaluate("() => document.activeElement?.className").startswith("leave-cancel")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # closing or reloading the tab: the browser's own question
    asked: list[str] = []

    def answer(prompt):  # type: ignore[no-untyped-def]
        asked.append(prompt.type)
        prompt.dismiss()

    page.on("dialog", answer)
    page.click(".help-link")  # a click (the browser asks only after the page was used)
    page.evaluate("() => { location.href = '/'; }")
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"] and page.url.split("?")[0] == address
    page.remove_listener("dialog", answer)
    page.click(".topbar nav a[href='/']")
    page.click(".leave-confirm a.do-leave-page")
    page.wait_for_url(server.http_url + "/")


def test_13_nothing_is_asked_when_the_game_is_over(server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Otto")
    play_now(page, "geister")
    resign(page)
    page.click(".topbar nav a[href='/']")
    page.wait_for_url(server.http_url + "/")


# --- 14 and 24: the settings menu, Log out, a sound and a notification on your turn -------------------------------
def test_14_the_settings_menu_holds_sound_notifications_pace_language_and_log_out(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    logouts: list[str | None] = []

    def no_logout_yet(route):  # type: ignore[no-untyped-def]
        logouts.append(route.request.headers.get("authorization"))
        route.fulfill(status=404, content_type="application/json", body=json.dumps({"detail": "Not Found"}))

    page.route("**/api/logout", no_logout_yet)
    register(page, server.http_url, "Sully")
    expect(page.locator("#pace-picker")).to_be_hidden()  # folded away in the menu
    open_settings(page)
    menu = page.locator(".settings-menu")
    for control in ("#setting-sound", "#setting-notify", "#pace-picker", "#language-picker"):
        expect(menu.locator(control)).to_be_visible()
        label = page.locator(f"label[for={control[1:]}]")
        expect(label).to_be_visible()
    expect(menu.locator("#setting-sound")).to_be_checked()
    expect(menu.locator("#setting-notify")).not_to_be_checked()  # off by default
    token = page.evaluate("() => localStorage.getItem('ghostgames.token')")
    menu.locator("button.do-logout").click()
    expect(page.locator("input[name=guest-name]")).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('ghostgames.token')") is None
    assert logouts == [f"Bearer {token}"]
    open_settings(page)
    expect(page.locator("button.do-logout")).to_be_hidden()  # nobody to log out


def test_24_a_sound_when_it_becomes_your_turn_and_a_notification_only_when_asked_for(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    pages.append(context.new_page())
    page = pages[-1]
    page.add_init_script("""
      window.__notes = [];
      window.Notification = class { constructor(title) { window.__notes.push(title); }
        static get permission() { return window.__permission || 'default'; }
        static requestPermission() {
          window.__asked = true; window.__permission = 'granted'; return Promise.resolve('granted'); } };
    """)
    enter_as_guest(page, server.http_url, "Sonja")
    assert page.evaluate("() => window.__asked || false") is False  # never asked unless turned on
    play_now(page, "geister")
    page.wait_for_function("() => Number(document.body.dataset.turnSounds || 0) >= 1")
    open_settings(page)
    page.check("#setting-notify")
    page.wait_for_function("() => window.__asked === true")
    assert page.evaluate("() => localStorage.getItem('ghostgames.notify')") == "on"
    page.uncheck("#setting-sound")
    before = page.evaluate("() => Number(document.body.dataset.turnSounds || 0)")
    assert page.evaluate("() => localStorage.getItem('ghostgames.sound')") == "off"
    assert page.evaluate("() => Number(document.body.dataset.turnSounds || 0)") == before


# --- 15: no language leftovers -------------------------------------------------------------------------------
def test_15_show_more_replay_controls_and_bot_names_follow_the_language(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    register(page, server.http_url, "Linguist")
    play_now(page, "geister")
    resign(page)
    page.goto(server.http_url + "/player/Linguist")
    expect(page.locator(".opponents")).to_contain_text("medium bot")
    choose_language(page, "fr")
    expect(page.locator(".opponents")).to_contain_text("robot moyen")
    french = json.loads((I18N / "fr.json").read_text(encoding="utf-8"))
    expect(page.locator(".profile-more")).to_have_text(french["profile.more"])
    page.goto(server.http_url + "/ratings/geister")
    expect(page.locator(".ratings-more")).to_have_text(french["profile.more"])
    record = page.evaluate("async () => (await (await fetch('/api/players/Linguist/games')).json()).items[0].id")
    page.goto(f"{server.http_url}/replay/{record}")
    expect(page.locator(".replay-players")).to_contain_text("robot moyen")  # not "medium bot"
    choose_language(page, "de")
    german = json.loads((I18N / "de.json").read_text(encoding="utf-8"))
    expect(page.locator("button.replay-next")).to_have_text(german["replay.next"])
    expect(page.locator("button.replay-first")).to_have_text(german["replay.first"])


def test_15_french_says_robot_everywhere() -> None:
    french = json.loads((I18N / "fr.json").read_text(encoding="utf-8"))
    mixed = {key: text for key, text in french.items() if re.search(r"(?<![/{])\bbots?\b(?!})", text)}
    assert mixed == {}


# --- 18: axe-core finds nothing of any impact; focus after Ready ------------------------------------------------
def test_18_axe_finds_nothing_in_the_lobby_the_profile_and_the_leaderboard(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    register(page, server.http_url, "Axel")
    page.locator(".game-tile[data-game=geister] details.advanced summary").click()
    assert all_violations(page) == []
    play_now(page, "geister")
    resign(page)
    page.goto(server.http_url + "/player/Axel")
    page.wait_for_selector(".profile-game")
    assert all_violations(page) == []
    page.goto(server.http_url + "/ratings/geister")
    # A resignation before any move counts for no rating (fair play), so the board has rows only when other
    # tests of this server played rated games first: either page must be clean.
    page.wait_for_selector(".leaderboard, .ratings-page .empty")
    assert all_violations(page) == []


@pytest.mark.parametrize("game", GAMES)
def test_18_axe_finds_nothing_at_a_running_table(
        server: ServerProcess, browser: Browser, pages: list[Page], game: str) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, f"Ax{game[:4]}")
    play_now(page, game)
    page.wait_for_selector(".game-area > *")
    assert all_violations(page) == []


def test_18_focus_after_ready_by_keyboard_lands_on_the_board(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Kira")
    play_now(page, "geister")
    choose_instant_pace(page)
    assert wait_turn_or_end(page)
    page.focus("button.setup-random")
    page.keyboard.press("Enter")
    page.wait_for_selector("button.setup-ready:not([disabled])")
    page.focus("button.setup-ready")
    page.keyboard.press("Enter")
    page.wait_for_selector(".setup-tray", state="detached")
    page.wait_for_timeout(200)
    focused = page.evaluate(
        "() => document.activeElement?.closest('.board') ? 'board' : document.activeElement?.tagName")
    assert focused == "board"


# --- 19: "The table changed meanwhile" does not pile up in the chat --------------------------------------------
def test_19_stale_version_notices_do_not_pile_up_in_the_chat(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    enter_as_guest(page, server.http_url, "Stella")
    play_now(page, "thelast")
    for _ in range(3):
        page.evaluate("""() => window.ghostgames.connection.take({ type: 'error', code: 'stale_version',
          message: 'stale', args: {} })""")
    expect(page.locator(".error-banner")).to_contain_text("The table changed meanwhile")
    expect(page.locator(".chat-lines")).not_to_contain_text("The table changed meanwhile")


# --- 20: the profile counts, marks a provisional rating, and draws axes ------------------------------------------
def test_20_a_new_rating_is_provisional_counted_in_words_and_charted_with_axes(
        server: ServerProcess, browser: Browser, pages: list[Page]) -> None:
    page = new_page(pages, browser)
    register(page, server.http_url, "Provo")
    play_now(page, "geister")
    resign_after_counting_moves(page)
    page.goto(server.http_url + "/player/Provo")
    card = page.locator(".rating-card[data-game=geister]")
    expect(card.locator(".rating-value")).to_have_text(re.compile(r"^\d+\? \(provisional\)$"))
    expect(card.locator(".rating-games")).to_have_text("0 wins in 1 rated game")
    page.goto(server.http_url + "/")
    play_now(page, "geister")
    resign_after_counting_moves(page, seed=9)
    page.goto(server.http_url + "/player/Provo")
    expect(card.locator(".rating-games")).to_have_text("0 wins in 2 rated games")
    chart = card.locator("svg.rating-chart")
    expect(chart.locator(".chart-axis")).to_have_count(1)
    expect(chart.locator(".chart-label")).to_have_count(4)
    expect(chart.locator(".chart-first")).to_have_text("game 1")
    expect(chart.locator(".chart-last")).to_have_text("game 2")
    expect(page.locator(".profile-game .rating-change").first).to_have_text(re.compile(r"rating \d+\? → \d+\?"))

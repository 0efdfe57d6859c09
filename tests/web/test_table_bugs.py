"""Issue 15's bugs as a new player met them, each in a real browser: seats counted from 1 everywhere, a log
that keeps its names, the server's own word for a short password, a Geister board that fits a phone,
dragging that shows what is dragged, one escape button, no Resign after leaving, bots counted as yes and
colours disclosed after a resignation, a rematch the others accept, plurals per language, a favicon on
every page. Each test failed before its fix."""

from __future__ import annotations

import copy
import re
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from ghostgames.games import get_game
from tests.server.harness import ServerProcess
from tests.web.browser import WEB, screenshot_path
from tests.web.pages import (
    choose_language,
    create_table,
    enter_as_guest,
    open_advanced,
    start_with_bots,
    version,
    wait_for_change,
    wait_turn_or_end,
)
from tests.web.test_renderers import harness  # noqa: F401  (the renderer page, a fixture)


def say(page: Page, text: str) -> None:
    box = page.locator("input.chat-input")
    box.fill(text)
    box.press("Enter")


def new_page(browser: Browser, **context: Any) -> Page:
    return browser.new_context(locale="en-US", **context).new_page()


def test_bug_1_seats_count_from_one_in_commands(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Una")
    first = page.locator("form.create-form[data-game=geister] select[name=first] option")
    expect(first).to_have_text(["random", "1", "2"])  # the lobby form counts seats from 1
    create_table(page, "geister", 2, bots=False)
    say(page, "/leave")
    expect(page.locator(".seat.me")).to_have_count(0)
    say(page, "/join 2")  # the second seat, as the screen numbers it
    expect(page.locator(".seat[data-seat='1']")).to_have_class(re.compile(r"\bme\b"))
    expect(page.locator(".seat[data-seat='1'] .seat-no")).to_have_text("2")
    say(page, "/bot add hard")
    expect(page.locator(".seat[data-seat='0']")).to_contain_text("bot 1 (hard)")
    say(page, "/bot remove 2")  # I sit there, no bot
    expect(page.locator(".error-banner")).to_contain_text("Seat 2 is not a bot.")
    say(page, "/bot remove 1")
    expect(page.locator(".seat[data-seat='0']")).to_have_class(re.compile(r"\bkind-empty\b"))
    say(page, "/option first 3")
    expect(page.locator(".error-banner")).to_contain_text("first takes a seat from 1 to 2, or none for random")
    say(page, "/option first 1")
    expect(page.locator(".pregame select[name=setting-first] option:checked")).to_have_text("1")
    expect(page.locator(".log-lines")).to_contain_text("Who moves first is now 1.")
    page.select_option(".pregame select[name=setting-first]", label="2")
    expect(page.locator(".log-lines")).to_contain_text("Who moves first is now 2.")
    say(page, "/option first none")
    expect(page.locator(".log-lines")).to_contain_text("Who moves first is now random.")
    expect(page.locator(".pregame select[name=setting-first] option:checked")).to_have_text("random")
    say(page, "/who")
    expect(page.locator(".who-reply")).to_contain_text("2: Una")
    page.context.close()


def test_bug_1_the_lobby_form_sends_the_first_seat_as_seat_1(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Vic")
    open_advanced(page, "ghooost")
    form = page.locator("form.create-form[data-game=ghooost]")
    form.locator("select[name=first]").select_option(label="3")
    create_table(page, "ghooost", 3, bots=False)
    expect(page.locator(".pregame select[name=setting-first] option:checked")).to_have_text("3")
    page.context.close()


def test_bug_2_the_log_keeps_the_names_it_was_written_with(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Alice")
    link = create_table(page, "geister", 2, bots=False)
    say(page, "/leave")
    expect(page.locator(".seat.me")).to_have_count(0)
    say(page, "/bot add hard")  # the creator may seat bots: it takes seat 1, where Alice sat
    expect(page.locator(".seat[data-seat='0']")).to_contain_text("bot 1 (hard)")
    log = page.locator(".log-lines li")
    expect(log.filter(has_text="sits in seat 1")).to_have_text(
        ["Alice sits in seat 1.", "A bot (hard) sits in seat 1."])
    expect(log.filter(has_text="left seat 1")).to_have_text(["Alice left seat 1."])
    other = page.context.new_page()  # a second tab: the history sent afresh reads the same
    other.goto(link)
    expect(other.locator(".log-lines li").filter(has_text="left seat 1")).to_have_text(["Alice left seat 1."])
    page.context.close()


def test_bug_3_a_short_password_shows_the_servers_reason(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server.http_url + "/")
    page.fill("input[name=account-name]", "Shorty")
    page.fill("input[name=password]", "abc")
    page.click(".login-form button[type=button]")  # create the account
    alert = page.locator(".identity-card [role=alert]")
    expect(alert).to_have_text("A password needs at least 6 characters.")
    expect(alert).not_to_contain_text("Usage")
    page.context.close()


def _geister_table(browser: Browser, server: ServerProcess, name: str, width: int, height: int) -> Page:
    page = new_page(browser, viewport={"width": width, "height": height})
    enter_as_guest(page, server.http_url, name)
    create_table(page, "geister", 2)
    start_with_bots(page)
    page.wait_for_selector(".board")
    return page


def test_bug_4_the_geister_board_fits_a_phone(server: ServerProcess, browser: Browser) -> None:
    for width, height in ((390, 844), (360, 740)):
        page = _geister_table(browser, server, f"Phone{width}", width, height)
        page.screenshot(path=screenshot_path(f"bug4-geister-{width}"), full_page=True)
        seen = page.evaluate("""() => {
          const right = (sel) => Math.max(
            ...[...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().right));
          return { board: right('.board'), exits: right('.square[data-square^=f]'), width: window.innerWidth,
                   scroll: document.documentElement.scrollWidth };
        }""")
        assert seen["board"] <= seen["width"], seen  # column f with its exits is on the screen
        assert seen["exits"] <= seen["width"], seen
        assert seen["scroll"] <= seen["width"], seen  # and nothing scrolls sideways
        page.context.close()


FLOAT_STATE = """([x, y]) => {
  const float = document.querySelector('body > .drag-float');
  const under = document.elementFromPoint(x, y);
  return { float: float && [float.style.left, float.style.top], viewport: [innerWidth, innerHeight],
           scrollY, under: under && under.outerHTML.slice(0, 80), status: document.body.dataset.tableStatus };
}"""


def _float_while_dragging(page: Page, source: str, picture: str) -> dict[str, Any]:
    for attempt in range(3):
        # Pointer events go only to points inside the window: centre the piece first, so that neither the
        # piece nor the point dragged to falls below the fold when a longer log or a banner pushes it down.
        page.locator(source).first.evaluate("(el) => el.scrollIntoView({ block: 'center', inline: 'center' })")
        box = page.locator(source).first.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 40, y + 30, steps=6)
        # Chrome hands pointer moves to the page at its next frame, which a busy machine delays: wait until
        # the page has taken the last one (the float is placed at the pointer), then measure. A re-render
        # under the pointer (a clock tick, a bot's move) can end the drag before that: then drag again.
        try:
            page.wait_for_function("""(left) => {
              const float = document.querySelector('body > .drag-float');
              return float !== null && Math.abs(parseFloat(float.style.left) - left) < 1;
            }""", arg=x + 40, timeout=5_000)
            break
        except PlaywrightTimeoutError:
            state = page.evaluate(FLOAT_STATE, [x + 40, y + 30])
            page.mouse.move(x, y, steps=3)  # home before letting go, so that nothing is played
            page.mouse.up()
            assert attempt < 2, f"the dragged piece never reached the pointer at {x + 40}, {y + 30}: {state}"
    seen: dict[str, Any] = page.evaluate("""() => {
      const float = document.querySelector('body > .drag-float');
      if (!float) return null;
      const r = float.getBoundingClientRect();
      const svg = float.querySelector('svg').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, width: r.width, svg: svg.width,
               position: getComputedStyle(float).position };
    }""")
    page.screenshot(path=screenshot_path(picture))
    page.mouse.move(x, y, steps=3)  # back home: dropped on itself, nothing is sent
    page.mouse.up()
    assert seen is not None, "no dragged piece"
    seen.update(px=x + 40, py=y + 30, source=box["width"])
    return seen


def test_bug_5_a_dragged_ghost_and_a_dragged_card_follow_the_pointer(server: ServerProcess, browser: Browser) -> None:
    page = _geister_table(browser, server, "Drag", 1280, 800)
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    assert wait_turn_or_end(page)
    ghost = _float_while_dragging(page, ".square.movable", "bug5-drag-ghost")
    assert ghost["position"] == "fixed"
    assert abs(ghost["x"] - ghost["px"]) < 6 and abs(ghost["y"] - ghost["py"]) < 6, ghost  # under the pointer
    assert ghost["svg"] >= 30, ghost
    page.context.close()

    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Cards")
    create_table(page, "thelast", 2)
    start_with_bots(page)
    assert wait_turn_or_end(page)
    card = _float_while_dragging(page, ".hand .card.playable", "bug5-drag-card")
    assert abs(card["x"] - card["px"]) < 6 and abs(card["y"] - card["py"]) < 6, card
    assert card["svg"] >= card["source"] * 0.9, card  # the card keeps its size, not a shrunken white box
    page.context.close()


def test_bug_6_a_corner_escape_has_one_button(harness: Any) -> None:  # noqa: F811
    state = get_game("geister").new(2, {"exit": "escape"}, 4)
    state.apply(0, "setup b1 c1 d1 e1")
    state.apply(1, "setup b6 c6 d6 e6")
    view = copy.deepcopy(state.view(0))
    ghost = next(g for g in view["ghosts"] if g["owner"] == 0 and g["colour"] == "good")
    ghost["square"] = "a6"  # a good ghost on seat 1's corner exit, seat 1 to move
    view["ghosts"] = [g for g in view["ghosts"] if g["square"] != "a6" or g is ghost]
    view["turn"], view["to_act"], view["phase"] = 0, [0], "play"
    view["legal"] = ["a6 n", "a6 w", "a6 e"]
    page = harness("geister", view)
    page.click(".square[data-square=a6]")
    expect(page.locator("button.escape")).to_have_count(1)
    expect(page.locator("button.escape")).to_have_text("Leave the board from a6")
    page.click("button.escape")
    assert page.evaluate("() => window.acted")[-1] in ("a6 n", "a6 w")


def test_bug_7_no_resign_and_no_you_after_leaving_a_running_game(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Leia")
    create_table(page, "thelast", 3, options={"rounds": "5"})
    start_with_bots(page)
    expect(page.locator("button.do-resign")).to_be_visible()
    expect(page.locator(".seat.me .chip.you")).to_be_visible()
    say(page, "/leave")
    # after /leave the bots play on quickly; their moves are played out at the table's pace before it
    expect(page.locator(".seat.me .seat-state")).to_contain_text("left", timeout=20_000)
    expect(page.locator("button.do-resign")).to_have_count(0)
    expect(page.locator(".seat.me .chip.you")).to_have_count(0)
    say(page, "/resign")
    # refused as not seated, or, if the bots have finished the game meanwhile, as over: never as if seated
    expect(page.locator(".error-banner")).to_contain_text(
        re.compile(r"You need a seat at this table for that\.|the table is finished"), timeout=15_000)
    page.context.close()


def test_bug_8_bots_count_as_yes_and_a_resignation_discloses_the_colours(server: ServerProcess,
                                                                          browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Dina")
    create_table(page, "geister", 2)
    page.wait_for_selector(".seat.kind-empty", state="detached")
    expect(page.locator(".pregame .vote-count")).to_contain_text("1 of 2 players agrees")  # the bot
    page.check(".pregame input[name=vote-disclose]")
    expect(page.locator(".pregame .vote-count")).to_contain_text("2 of 2 players agree")
    before = version(page)
    page.click("button.do-start")
    wait_for_change(page, before)
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    theirs = page.locator(".board svg.ghost:has(.ghost-body.theirs)")
    expect(theirs).to_have_count(8)
    expect(page.locator(".board svg.ghost.unknown:has(.ghost-body.theirs)")).to_have_count(8)
    # the bot's ghosts are placed too (on a loaded machine it may still be choosing): colours to disclose
    expect(page.locator(".log-lines")).to_contain_text("Both sides are ready", timeout=30_000)
    page.click("button.do-resign")
    page.click("button.do-resign-confirm")  # Resign asks first
    expect(page.locator(".turn-banner.finished")).to_be_visible()
    expect(page.locator(".board svg.ghost.unknown")).to_have_count(0)  # shown when the game ends
    expect(page.locator(".board svg.ghost.good:has(.ghost-body.theirs)")).to_have_count(4)
    page.context.close()


def test_bug_9_a_rematch_is_proposed_and_accepted(server: ServerProcess, browser: Browser) -> None:
    alice, bob = new_page(browser), new_page(browser)
    enter_as_guest(alice, server.http_url, "Ann9")
    link = create_table(alice, "geister", 2, bots=False)
    enter_as_guest(bob, server.http_url, "Ben9")
    bob.goto(link)
    say(bob, "/join")
    expect(alice.locator(".seat[data-seat='1']")).to_contain_text("Ben9")
    alice.click("button.do-start")
    expect(bob.locator("button.do-resign")).to_be_visible()
    bob.click("button.do-resign")
    bob.click("button.do-resign-confirm")  # Resign asks first
    for page in (alice, bob):
        expect(page.locator(".turn-banner.finished")).to_be_visible()
    expect(alice.locator("button.do-rematch")).to_have_text("Play again")
    alice.click("button.do-rematch")
    # Nothing starts yet: Ben is asked, Ann waits.
    expect(bob.locator(".turn-banner .rematch-asked")).to_contain_text("Rematch proposed by Ann9")
    expect(bob.locator("button.do-rematch")).to_have_text("Accept the rematch")
    expect(alice.locator("button.do-rematch")).to_have_count(0)
    expect(alice.locator(".log-lines")).to_contain_text("Ann9 asks for a rematch; waiting for Ben9.")
    bob.screenshot(path=screenshot_path("bug9-rematch-asked"), full_page=True)
    assert alice.evaluate("() => document.body.dataset.tableStatus") == "finished"
    bob.click("button.do-rematch")
    for page in (alice, bob):
        page.wait_for_function("() => document.body.dataset.tableStatus === 'started'")
        expect(page.locator(".setup-tray")).to_be_visible()
    alice.context.close()
    bob.context.close()


PLURALS = """async ([lang, key, args]) => {
  const i18n = await import('/i18n.js');
  await i18n.setLanguage(lang);
  return i18n.t(key, args);
}"""


def test_bug_10_plurals_follow_each_language(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    enter_as_guest(page, server.http_url, "Plu")
    expect(page.locator(".game-card, .games").first).to_contain_text("2 players")
    expect(page.locator("body")).not_to_contain_text("2–2 players")

    def t(lang: str, key: str, **args: Any) -> str:
        return str(page.evaluate(PLURALS, [lang, key, args]))

    assert t("en", "ghooost.log.take", name="Bo", n=1) == "Bo takes the cemetery (1 card)."
    assert t("en", "ghooost.log.take", name="Bo", n=3) == "Bo takes the cemetery (3 cards)."
    assert t("en", "ghooost.points", n=1) == "1 point"
    assert t("en", "table.waiting_players", n=1) == "Waiting for players: 1 seat is empty."
    assert t("en", "ghooost.log.out", name="Bot 4 (easy)", place=3) == "Bot 4 (easy) is out of cards: place 3."
    assert t("fr", "geister.captured_good", n=0) == "0 gentil"  # French: 0 and 1 are singular
    assert t("fr", "geister.captured_bad", n=2) == "2 méchants"
    assert t("uk", "ghooost.points", n=1) == "1 очко"
    assert t("uk", "ghooost.points", n=3) == "3 очки"
    assert t("uk", "ghooost.points", n=5) == "5 очок"
    assert t("uk", "ghooost.points", n=21) == "21 очко"
    assert t("ko", "ghooost.crypt_count", n=1) == "1장"
    assert t("de", "ghooost.log.draw", name="Bo", n=1) == "Bo zieht 1 Karte."
    t("en", "table.votes", n=0, total=2)  # back to English for the page

    create_table(page, "thelast", 3, bots=False)
    expect(page.locator(".turn-banner")).to_have_text("Waiting for players: 2 seats are empty.")
    say(page, "/bot add")
    expect(page.locator(".turn-banner")).to_have_text("Waiting for players: 1 seat is empty.")
    choose_language(page, "fr")
    expect(page.locator(".turn-banner")).to_have_text("En attente de joueurs : 1 place libre.")
    page.context.close()


def test_bug_11_every_page_names_an_icon_that_exists(server: ServerProcess, browser: Browser) -> None:
    page = new_page(browser)
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
    for help_page in sorted((WEB / "help").glob("*/*.html")):
        page.goto(f"{server.http_url}/help/{help_page.parent.name}/{help_page.name}")
        icon = page.locator("link[rel=icon]")
        expect(icon).to_have_attribute("href", "/favicon.svg")
    page.goto(server.http_url + "/")
    assert missing == []
    for path in ("/favicon.svg", "/favicon.ico"):  # browsers that ask for the old name get the icon too
        with urllib.request.urlopen(server.http_url + path) as answer:
            assert answer.status == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    page.context.close()


def test_bug_11_the_database_files_a_server_leaves_are_ignored_by_git() -> None:
    ignore = (WEB.parents[2] / ".gitignore").read_text(encoding="utf-8").split()
    for pattern in ("*.db", "*.db-wal", "*.db-shm"):
        assert pattern in ignore

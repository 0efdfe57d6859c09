"""Features of the pages around the games: the page reconnects by itself and the player plays on (a lobby
form half filled in survives it, a command typed meanwhile is sent when it is back); the game works from
the keyboard alone; clocks tick; accounts; the language picker; joining from the lobby."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.security.tokens import me
from tests.server.harness import ServerProcess
from tests.web.pages import (
    choose_language,
    create_table,
    enter_as_guest,
    geister_move,
    open_advanced,
    open_geister_against_a_bot,
    start_with_bots,
    version,
    wait_turn_or_end,
)


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "30"}).start()
    yield process
    process.stop()


def test_the_page_reconnects_by_itself_when_the_server_comes_back(own_server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    open_geister_against_a_bot(page, own_server.http_url, "Rita")
    page.click("button.setup-random")
    page.click("button.setup-ready")
    page.wait_for_selector(".setup-tray", state="detached")
    rng = random.Random(5)
    assert wait_turn_or_end(page)
    geister_move(page, rng, drag=False)
    seen = version(page)

    own_server.kill()  # SIGKILL, as in a crash
    expect(page.locator("#connection")).to_have_attribute("data-status", "reconnecting")
    own_server.start()
    expect(page.locator("#connection")).to_have_attribute("data-status", "online", timeout=30_000)
    page.wait_for_function(f"() => Number(document.body.dataset.tableVersion) >= {seen}")
    expect(page.locator(".seat.me")).to_contain_text("Rita")  # the token still owns the seat

    for _ in range(2):  # and the game goes on from the same page
        if wait_turn_or_end(page):
            geister_move(page, rng, drag=True)
    assert version(page) > seen
    context.close()



def test_a_lobby_form_being_filled_in_survives_a_reconnect(own_server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, own_server.http_url, "Lou")
    open_advanced(page, "thelast")
    seats = page.locator("form.create-form[data-game=thelast] select[name=seats]")
    seats.select_option("4")
    own_server.kill()
    expect(page.locator("#connection")).to_have_attribute("data-status", "reconnecting")
    own_server.start()
    expect(page.locator("#connection")).to_have_attribute("data-status", "online", timeout=30_000)
    expect(page.locator(".identity-card")).to_contain_text("Lou")  # the lobby was sent afresh
    expect(seats).to_have_value("4")  # and the half-filled form was kept, not drawn anew
    context.close()


def test_a_command_typed_while_the_page_is_offline_is_sent_when_it_is_back(own_server: ServerProcess,
                                                                           browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, own_server.http_url, "Otto")
    create_table(page, "thelast", 2, bots=False)
    own_server.kill()
    expect(page.locator("#connection")).to_have_attribute("data-status", "reconnecting")
    box = page.locator("input.chat-input")
    box.fill("/bot add")
    box.press("Enter")
    own_server.start()
    expect(page.locator("#connection")).to_have_attribute("data-status", "online", timeout=30_000)
    expect(page.locator(".seat[data-seat='1']")).to_have_class(re.compile(r"\bkind-bot\b"))
    context.close()

def test_geister_setup_and_a_move_work_with_the_keyboard_alone(server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    open_geister_against_a_bot(page, server.http_url, "Kim")

    # Focus the tray piece, Enter; focus a start square, Enter: one ghost placed each time.
    squares = page.eval_on_selector_all(".square[data-start=mine]", "els => els.map(e => e.dataset.square)")
    for index, square in enumerate(squares):
        colour = "good" if index % 2 else "bad"
        page.focus(f".tray-piece[data-colour={colour}]")
        page.keyboard.press("Enter")
        # The redraw after each key press (or a server update) keeps the keyboard player's place.
        expect(page.locator(f".tray-piece[data-colour={colour}]")).to_be_focused()
        page.focus(f".square[data-square={square}]")
        page.keyboard.press("Enter")
        expect(page.locator(f".square[data-square={square}]")).to_be_focused()
    expect(page.locator(".square[data-start=mine] .ghost.good")).to_have_count(4)
    page.focus("button.setup-ready")
    page.keyboard.press("Enter")
    page.wait_for_selector(".setup-tray", state="detached")

    assert wait_turn_or_end(page)
    before = version(page)
    page.focus(".square.movable")
    page.keyboard.press("Enter")
    target = page.locator(".square.target").first
    expect(target).to_have_attribute("aria-label", re.compile(r"^[a-f][1-6], .*move here$"))
    target.focus()
    page.keyboard.press(" ")
    page.wait_for_function(f"() => Number(document.body.dataset.tableVersion) > {before}")
    context.close()


def test_a_table_clock_counts_down_beside_the_seat_to_play(server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Cleo")
    create_table(page, "thelast", 2, options={"clock": "60 s per move"})
    expect(page.locator(".pregame select[name=setting-clock]")).to_have_value("60")
    start_with_bots(page)
    clock = page.locator(".seat.to-act .clock")
    expect(clock).to_have_text(re.compile(r"^[01]:\d\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=5_000)  # it ticks
    context.close()


def test_an_account_keeps_its_name_across_log_out_and_log_in(server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.http_url + "/")
    page.fill("input[name=account-name]", "Ada")
    page.fill("input[name=password]", "lovelace1815")
    page.click(".login-form button[type=button]")  # create the account
    expect(page.locator(".identity-card")).to_contain_text("Playing as Ada")
    token = page.evaluate("localStorage.getItem('ghostgames.token')")
    page.click(".identity-card button.link")  # change name: log out
    expect(page.locator(".identity-card")).to_contain_text("Choose a name")
    status, body = me(server, token)  # the server ended that session, not only the page forgot it
    assert status == 401 and body["args"]["reason"] == "logged_out"
    page.fill("input[name=guest-name]", "Ada")
    page.click(".guest-form button[type=submit]")
    expect(page.locator(".identity-card [role=alert]")).to_contain_text("The name Ada is already taken.")
    page.fill("input[name=account-name]", "Ada")
    page.fill("input[name=password]", "wrong-password")
    page.click(".login-form button[type=submit]")
    expect(page.locator(".identity-card [role=alert]")).to_contain_text("Wrong name or password.")
    page.fill("input[name=password]", "lovelace1815")
    page.click(".login-form button[type=submit]")
    expect(page.locator(".identity-card")).to_contain_text("Playing as Ada")
    context.close()


def test_a_page_whose_session_is_logged_out_elsewhere_shows_it_is_signed_out(server: ServerProcess,
                                                                               browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.http_url + "/")
    page.fill("input[name=account-name]", "Grace")
    page.fill("input[name=password]", "hopper1906")
    page.click(".login-form button[type=button]")  # create the account
    expect(page.locator(".identity-card")).to_contain_text("Playing as Grace")
    token = page.evaluate("localStorage.getItem('ghostgames.token')")
    assert server.post("/api/logout", {}, token=token)[0] == 200  # logged out from another device
    expect(page.locator(".identity-card")).to_contain_text("Choose a name")
    assert page.evaluate("localStorage.getItem('ghostgames.token')") is None
    context.close()


def test_the_language_picker_switches_every_text_and_is_remembered(server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    enter_as_guest(page, server.http_url, "Lena")
    choose_language(page, "de")
    expect(page.locator(".games h2")).to_have_text("Spiele")
    create_table(page, "geister", 2)
    expect(page.locator(".log-title")).to_have_text("Spielverlauf")
    choose_language(page, "uk")
    expect(page.locator(".log-title")).to_have_text("Хід гри")
    expect(page.locator("input.chat-input")).to_have_attribute("placeholder", "Напишіть щось або / для команди")
    expect(page.locator(".table-head h1")).to_have_text("Гайстер")
    page.reload()
    expect(page.locator(".table-head h1")).to_have_text("Гайстер")
    assert page.evaluate("() => document.documentElement.lang") == "uk"
    context.close()


def test_join_from_the_lobby_list_takes_the_empty_seat(server: ServerProcess, browser: Browser) -> None:
    host_context, guest_context = browser.new_context(locale="en-US"), browser.new_context(locale="en-US")
    host, guest = host_context.new_page(), guest_context.new_page()
    enter_as_guest(host, server.http_url, "Hana")
    create_table(host, "thelast", 3, bots=False)
    table_id = host.url.rsplit("/", 1)[-1]
    enter_as_guest(guest, server.http_url, "Ivo")
    row = guest.locator(f".tables-open .table-row[data-table='{table_id}']")
    expect(row).to_contain_text("Hana")
    row.locator("a.join").click()
    expect(guest.locator(".seat.me")).to_contain_text("Ivo")
    expect(host.locator(".seat[data-seat='1']")).to_contain_text("Ivo")
    host_context.close()
    guest_context.close()

"""Issue 15, points 12-14, in a real browser: pieces and cards move (and do not under reduced motion), a
bot's moves play out one update at a time with each step named, the end-of-game panel says who won, why
and how the score came about, with what became public, a Ghooost! or The Last round ends with a panel
before the next deal, and The Last's trick stays on the table while its winner keeps or swaps."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ghostgames.games import get_game
from ghostgames.rules.contract import State
from tests.server.harness import ServerProcess
from tests.web.browser import screenshot_path
from tests.web.pages import (
    choose_language,
    create_table,
    enter_as_guest,
    geister_setup,
    open_settings,
    play_geister,
    play_ghooost,
    play_thelast,
    start_with_bots,
    thelast_turn,
    wait_turn_or_end,
)

# One renderer kept across updates, as the table page keeps it (test_renderers draws a fresh one each time).
HARNESS = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/style.css"></head>
<body><main id="page"></main><script type="module">
import { setLanguage, t } from "/i18n.js";
let renderer = null;
window.start = async (game) => {
  await setLanguage("en");
  const module = await import(`/games/${game}.js`);
  window.acted = [];
  const names = ["Ann", "Ben", "Cy", "Di"];
  renderer = module.createRenderer({ t, act: (text) => window.acted.push(text),
    seatName: (seat) => (seat === "ghost" ? t("thelast.ghost") : names[seat]), seat: () => null });
  document.getElementById("page").replaceChildren(renderer.element);
};
window.update = (view) => renderer.update(view);
window.endDetails = () => document.getElementById("page").append(renderer.endDetails());
window.ready = true;
</script></body></html>"""

Show = Callable[[dict[str, Any]], Page]


def open_harness(browser: Browser, server: ServerProcess, game: str, motion: str) -> Page:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, reduced_motion=motion)  # type: ignore[arg-type]
    page = context.new_page()
    page.route("**/life-harness", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
    page.goto(server.http_url + "/life-harness")
    page.wait_for_function("() => window.ready")
    page.evaluate("(game) => window.start(game)", game)
    return page


@pytest.fixture()
def renderer_page(server: ServerProcess, browser: Browser) -> Iterator[Callable[[str, str], Show]]:
    pages: list[Page] = []
    errors: list[str] = []

    def make(game: str, motion: str = "no-preference") -> Show:
        page = open_harness(browser, server, game, motion)
        page.on("pageerror", lambda error: errors.append(str(error)))
        pages.append(page)

        def show(view: dict[str, Any]) -> Page:
            page.evaluate("(view) => window.update(view)", json.loads(json.dumps(view)))
            return page

        return show

    yield make
    for page in pages:
        page.context.close()
    assert errors == []


def moving(page: Page, selector: str) -> int:
    """How many running animations move an element matching `selector`."""
    return int(page.evaluate(
        "(selector) => document.getAnimations().filter((a) => a.effect?.target?.matches(selector)).length", selector))


def play_until(state: State[Any], rng: random.Random, done: Callable[[State[Any]], bool], limit: int = 3000) -> None:
    for _ in range(limit):
        if done(state):
            return
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no such position found")


# --- 12: motion ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_geister_move_slides_the_ghost_and_stands_still_under_reduced_motion(renderer_page: Any, motion: str) -> None:
    state = get_game("geister").new(2, None, 4)
    state.apply(0, "setup b1 c1 d2 e2")
    state.apply(1, "setup b5 c5 d6 e6")
    show = renderer_page("geister", motion)
    page = show(state.view(0))
    assert moving(page, ".piece") == 0  # the first drawing moves nothing
    state.apply(0, "b2 n")
    page = show(state.view(0))
    if motion == "reduce":
        assert moving(page, ".piece") == 0
    else:
        assert moving(page, ".square[data-square=b3] .piece") == 1
        assert moving(page, ".square:not([data-square=b3]) .piece") == 0
        # the slide starts from b2: the piece is drawn offset towards it while the animation runs
        transform = page.evaluate("() => document.getAnimations()[0].effect.getKeyframes()[0].transform")
        assert re.match(r"translate\(-?\d+(\.\d+)?px, \d+(\.\d+)?px\)", transform), transform
    state.apply(1, "b5 s")  # the opponent's ghost comes down to b4
    page = show(state.view(0))
    assert moving(page, ".square[data-square=b4] .piece") == (0 if motion == "reduce" else 1)
    page.wait_for_function("() => document.getAnimations().length === 0")
    # a redraw without a new move (picking a ghost) moves nothing again
    page.locator(".square[data-square=b3]").click()
    expect(page.locator(".square[data-square=b3]")).to_have_class(re.compile(r"\bselected\b"))
    assert moving(page, ".piece") == 0


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_last_cards_fly_into_the_trick_from_hand_and_seat(renderer_page: Any, motion: str) -> None:
    state = get_game("thelast").new(3, None, 5)
    show = renderer_page("thelast", motion)
    leader = min(state.to_act())
    me = leader
    page = show(state.view(me))
    card = state.legal_texts(me)[0].split()[1]
    state.apply(me, f"play {card}")
    page = show(state.view(me))
    expected = 0 if motion == "reduce" else 1
    assert moving(page, f".trick .played[data-anim='card:{card}']") == expected  # from my hand
    other = min(state.to_act())
    theirs = state.legal_texts(other)[0].split()[1]
    state.apply(other, f"play {theirs}")
    page = show(state.view(me))
    assert moving(page, f".trick .played[data-anim='card:{theirs}']") == expected  # from their seat


def test_ghooost_cards_land_on_the_cemetery_from_the_player_who_played_them(renderer_page: Any) -> None:
    state = get_game("ghooost").new(3, None, 2)
    show = renderer_page("ghooost")
    rng = random.Random(2)
    page = show(state.view(0))
    for _ in range(40):
        seat = min(state.to_act())
        plays = [a for a in state.legal_texts(seat) if a.startswith("play ")]
        before = len(state.view(0)["cemetery"])
        state.apply(seat, rng.choice(plays) if plays else rng.choice(state.legal_texts(seat)))
        page = show(state.view(0))
        grown = len(state.view(0)["cemetery"]) - before
        if plays and grown > 0:
            assert moving(page, ".cemetery .stack-card[data-anim-from]") == min(grown, 5)
            origin = "hand" if seat == 0 else f"seat:{seat}"
            assert page.locator(f".cemetery .stack-card[data-anim-from='{origin}']").count() == min(grown, 5)
            return
    raise AssertionError("no card was played in 40 turns")


# --- 14: The Last's trick ------------------------------------------------------------------------------
def test_the_last_trick_stays_while_its_winner_keeps_or_swaps_and_can_be_seen_again(renderer_page: Any) -> None:
    state = get_game("thelast").new(3, None, 11)
    play_until(state, random.Random(11), lambda s: s.view(None)["phase"] == "decide")
    winner = min(state.to_act())
    finished = state.view(None)["tricks"][-1]
    show = renderer_page("thelast")
    page = show(state.view(winner))
    expect(page.locator("button.do-keep")).to_be_visible()
    trick = page.locator(".trick.trick-done")
    expect(trick.locator(".zone-title")).to_have_text(f"Trick won by {['Ann', 'Ben', 'Cy'][winner]}")
    expect(trick.locator(".played")).to_have_count(len(finished["plays"]))
    for play in finished["plays"]:
        expect(trick).to_contain_text(str(play["card"])[1:])
    expect(trick.locator(".played.winning")).to_have_count(1)
    page.screenshot(path=screenshot_path("life-thelast-trick-kept"))
    state.apply(winner, "keep")
    state.apply(winner, state.legal_texts(winner)[0])  # the next trick begins
    page = show(state.view(winner))
    expect(page.locator(".trick.trick-done")).to_have_count(0)
    expect(page.locator(".trick > .trick-cards .played")).to_have_count(1)
    last = page.locator(".trick details.last-trick")
    expect(last.locator("summary")).to_have_text(f"Last trick (won by {['Ann', 'Ben', 'Cy'][winner]})")
    last.locator("summary").click()
    expect(last.locator(".played")).to_have_count(len(finished["plays"]))
    page.screenshot(path=screenshot_path("life-thelast-last-trick"))


# --- 13: round panels ----------------------------------------------------------------------------------
def test_the_last_round_end_shows_everyones_face_down_cards_before_the_next_round(renderer_page: Any) -> None:
    state = get_game("thelast").new(3, {"rounds": 2}, 3)
    rng = random.Random(3)
    show = renderer_page("thelast")
    page = show(state.view(0))
    expect(page.locator(".round-panel")).to_have_count(0)
    play_until(state, rng, lambda s: bool(s.view(None)["round_penalties"]))
    view = state.view(0)
    page = show(view)
    panel = page.locator(".round-panel")
    expect(panel.locator("h2")).to_have_text("Round 1 is over")
    for seat, name in enumerate(["Ann", "Ben", "Cy"]):
        row = panel.locator(f".round-piles li[data-seat='{seat}']")
        expect(row).to_contain_text(name)
        expect(row.locator(".mini-card")).to_have_count(len(view["round_piles"][seat]))
        penalty = view["round_penalties"][0][seat]
        expect(row).to_contain_text(f"{penalty} penalty point")
    page.screenshot(path=screenshot_path("life-thelast-round-panel"))
    panel.locator("button.round-close").click()
    expect(page.locator(".round-panel")).to_have_count(0)


def test_a_ghooost_round_ends_with_a_panel_of_bouh_and_points_before_the_next_deal(renderer_page: Any) -> None:
    state = get_game("ghooost").new(3, {"match": True}, 5)
    rng = random.Random(5)
    show = renderer_page("ghooost")
    page = show(state.view(0))
    play_until(state, rng, lambda s: bool(s.view(None)["rounds"]), limit=30000)
    view = state.view(0)
    assert view["outcome"] is None  # the match goes on: round 2 is dealt
    page = show(view)
    panel = page.locator(".round-panel")
    expect(panel.locator("h2")).to_have_text("Round 1 is over")
    round_ = view["rounds"][0]
    names = ["Ann", "Ben", "Cy"]
    if round_["loser"] is not None:
        expect(panel).to_contain_text(f"{names[round_['loser']]} was the last holding cards and gets a Bouh! token.")
    for seat in range(3):
        if seat != round_["loser"]:
            gained = round_["points"][seat]
            expect(panel.locator(f".round-points li[data-seat='{seat}']")).to_contain_text(
                f"+{gained} point" + ("" if gained == 1 else "s"))
    expect(panel).to_contain_text("the first out 1 more, the last out 2 more")
    page.screenshot(path=screenshot_path("life-ghooost-round-panel"))


# --- 12 and 13 at a real table -------------------------------------------------------------------------
WATCH = """() => {
  window.painted = [];
  const look = () => {
    const caption = document.querySelector('.step-caption');
    const shown = caption && !caption.classList.contains('idle') ? caption.textContent : '';
    window.painted.push([Number(document.body.dataset.tableVersion), shown]);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def test_bots_moves_play_out_one_update_at_a_time_each_step_named(server: ServerProcess, browser: Browser) -> None:
    """Three-player The Last with two bots: after my card the bots finish the trick, the winner leads the
    next: several updates in a burst (bot delay 0 here). The page paints every one of them in turn, with
    each step named in the caption, and then it is my turn with nothing lost."""
    page = browser.new_context(locale="en-US").new_page()
    enter_as_guest(page, server.http_url, "Pia")
    create_table(page, "thelast", 3)
    start_with_bots(page)
    page.evaluate(WATCH)
    rng = random.Random(8)
    turns = 0
    while wait_turn_or_end(page) and turns < 5:
        turns += 1
        thelast_turn(page, rng, drag=False)
    painted: list[list[Any]] = page.evaluate("() => window.painted")
    versions = sorted({v for v, _ in painted})
    first, last = versions[0], versions[-1]
    assert last - first >= 8  # bots moved several times
    assert versions == list(range(first, last + 1)), "an update was drawn and replaced before it could be seen"
    captions = [c for _, c in painted if c]
    assert any(re.search(r"^Bot \d \(\w+\) plays", c) for c in captions), captions[:20]
    # a move of several steps (a card that ends the trick, then who wins it) names them one after the other
    steps_per_version: dict[int, list[str]] = {}
    for painted_version, caption in painted:
        shown = steps_per_version.setdefault(painted_version, [])
        if caption and caption not in shown:
            shown.append(caption)
    named = steps_per_version.values()
    assert any(len(shown) >= 2 and "wins the trick" in shown[1] for shown in named), steps_per_version
    page.context.close()


def test_geister_end_panel_names_who_resigned_and_shows_what_became_public(server: ServerProcess,
                                                                          browser: Browser) -> None:
    page = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800}).new_page()
    enter_as_guest(page, server.http_url, "Rhea")
    create_table(page, "geister", 2)
    start_with_bots(page)
    assert wait_turn_or_end(page)
    geister_setup(page, random.Random(1))
    assert wait_turn_or_end(page)
    page.once("dialog", lambda dialog: dialog.accept())
    input_box = page.locator("input.chat-input")
    input_box.fill("/resign")
    input_box.press("Enter")
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("The game is over")
    expect(panel.locator(".end-result")).to_have_text(re.compile(r"bot 2 \(\w+\) wins\."))
    expect(panel.locator(".end-reason")).to_have_text("How it ended: Rhea resigned.")
    expect(panel.locator(".end-ranking li")).to_have_count(2)
    expect(panel.locator(".end-ranking li").first).not_to_contain_text("(1)")  # no unexplained number
    expect(panel.locator(".end-captured li")).to_have_count(2)
    expect(panel.locator(".end-colours")).to_contain_text("stay secret")
    expect(page.locator(".turn-banner.finished")).not_to_contain_text("seat 0")
    page.screenshot(path=screenshot_path("life-geister-end-panel"))
    page.set_viewport_size({"width": 390, "height": 844})
    assert panel.evaluate("(el) => el.scrollWidth <= el.clientWidth")  # the panel's words wrap on a phone
    panel.screenshot(path=screenshot_path("life-geister-end-panel-390"))
    panel.locator("button.end-close").click()
    expect(panel).to_be_hidden()
    page.context.close()


def test_the_last_end_panel_explains_penalties_and_turns_up_the_face_down_cards(server: ServerProcess,
                                                                                browser: Browser) -> None:
    page = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800}).new_page()
    enter_as_guest(page, server.http_url, "Sol")
    create_table(page, "thelast", 2)
    start_with_bots(page)
    play_thelast(page, random.Random(4))
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_contain_text(re.compile(r"How it ended: (lowest penalty|everybody tied)"))
    expect(panel.locator(".end-ranking li").first).to_contain_text(re.compile(r"penalty points? in all"))
    expect(panel).to_contain_text("Every face-down card counts its value as a penalty")
    rows = panel.locator(".round-piles li")
    expect(rows).to_have_count(2)
    # both players' face-down cards are shown, and each row's cards sum to the penalty it states
    total_cards = 0
    for i in range(2):
        text = rows.nth(i).inner_text()
        penalty = int(re.search(r"(\d+) penalty point", text).group(1))  # type: ignore[union-attr]
        values = [int(re.sub(r"\D", "", v)) for v in rows.nth(i).locator(".mini-card").all_inner_texts()]
        assert sum(values) == penalty, text
        total_cards += len(values)
    assert total_cards > 0
    page.screenshot(path=screenshot_path("life-thelast-end-panel"))
    page.context.close()


def test_geister_end_panel_after_a_played_out_game_says_why(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800}).new_page()
    enter_as_guest(page, server.http_url, "Tam")
    create_table(page, "geister", 2)
    start_with_bots(page)
    play_geister(page, random.Random(6))
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_have_text(re.compile(
        r"How it ended: (all four (good|bad) ghosts were captured|a good ghost (escaped|reached an exit))\."))
    page.context.close()


def test_ghooost_end_panel_says_who_held_the_last_cards(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800}).new_page()
    enter_as_guest(page, server.http_url, "Uli")
    create_table(page, "ghooost", 2, options={"max_turns": "150"})  # a random 2-player round may last 1000 turns
    start_with_bots(page)
    play_ghooost(page, random.Random(9))
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".end-reason")).to_have_text(re.compile(
        r"How it ended: ((Uli|bot 2 \(\w+\)) was the last holding cards|the round reached its turn limit)\."))
    expect(panel.locator(".end-ranking li")).to_have_count(2)
    expect(panel.locator(".end-ranking li").first).not_to_contain_text("point")  # one round: no points to explain
    page.screenshot(path=screenshot_path("life-ghooost-end-panel"))
    page.context.close()


def test_ghooost_match_end_details_explain_points_and_bouh_round_by_round(renderer_page: Any) -> None:
    state = get_game("ghooost").new(3, {"match": True}, 12)
    play_until(state, random.Random(12), lambda s: not s.to_act(), limit=200_000)
    view = state.view(0)
    assert view["outcome"] is not None and len(view["rounds"]) >= 2
    page = renderer_page("ghooost")(view)
    page.evaluate("() => window.endDetails()")
    details = page.locator(".end-details")
    expect(details).to_contain_text("the first out 1 more, the last out 2 more")
    expect(details.locator("table.scores tbody tr")).to_have_count(len(view["rounds"]) + 1)  # + the total row
    names = ["Ann", "Ben", "Cy"]
    last = view["rounds"][-1]
    if last["loser"] is not None:
        expect(details.locator(".round-summary")).to_contain_text(f"{names[last['loser']]} was the last holding cards")
    for info in view["seats"]:
        expect(details.locator(f".round-points li[data-seat='{info['seat']}']")).to_contain_text(
            f"{info['bouh']} Bouh! token")


def test_a_click_during_a_card_flight_is_not_lost(renderer_page: Any) -> None:
    state = get_game("thelast").new(3, None, 5)
    leader = min(state.to_act())
    me = state.next_of[leader]  # I follow the leader: their card flies in, then I play at once
    show = renderer_page("thelast")
    show(state.view(me))
    state.apply(leader, state.legal_texts(leader)[0])
    page = show(state.view(me))
    assert moving(page, ".trick .played") == 1  # the leader's card is still in flight
    mine = page.locator(".hand .card.playable").first
    card = mine.get_attribute("data-card")
    mine.click()
    assert page.evaluate("() => window.acted") == [f"play {card}"]


def test_geister_end_panel_explains_a_draw_by_the_move_limit(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_context(locale="en-US").new_page()
    enter_as_guest(page, server.http_url, "Vic")
    create_table(page, "geister", 2, options={"max_plies": "2"})
    start_with_bots(page)
    play_geister(page, random.Random(2))
    panel = page.locator(".end-panel")
    expect(panel.locator(".end-result")).to_have_text("A draw.")
    expect(panel.locator(".end-reason")).to_have_text("How it ended: the 2-move limit was reached: a draw.")
    page.context.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_ghooost_a_taken_cemetery_flies_to_who_took_it(renderer_page: Any, motion: str) -> None:
    state = get_game("ghooost").new(3, None, 4)
    rng = random.Random(4)
    show = renderer_page("ghooost", motion)
    for _ in range(300):
        seat = min(state.to_act())
        legal = state.legal_texts(seat)
        if "take" in legal and len(state.view(0)["cemetery"]) >= 2:
            page = show(state.view(0))
            shown = page.locator(".cemetery .stack-card").count()
            state.apply(seat, "take")
            page = show(state.view(0))
            flying = page.locator(".flying-card")
            if motion == "reduce":
                assert flying.count() == 0
            else:
                assert flying.count() == shown
                assert moving(page, ".flying-card") == shown
                expect(flying).to_have_count(0)  # gone once they landed
            return
        plays = [a for a in legal if a.startswith("play ")]
        state.apply(seat, rng.choice(plays or legal))
    raise AssertionError("nobody took the cemetery in 300 turns")


def test_the_pace_of_moves_is_a_choice_kept_in_the_browser(server: ServerProcess, browser: Browser) -> None:
    """The top bar's pace sets how long each step stays on screen (normal 650 ms, fast about a third,
    instant none), survives a reload, and speaks the page's language."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.http_url + "/")
    open_settings(page)
    picker = page.locator("#pace-picker")
    expect(picker).to_have_value("normal")
    expect(picker.locator("option")).to_have_text(["Normal pace", "Fast", "Instant"])
    step = "async () => (await import('/animate.js')).stepTime(1)"
    assert page.evaluate(step) == 650
    picker.select_option("fast")
    assert 200 < page.evaluate(step) < 250
    picker.select_option("instant")
    assert page.evaluate(step) == 0
    page.reload()
    open_settings(page)
    expect(page.locator("#pace-picker")).to_have_value("instant")
    choose_language(page, "fr")
    expect(page.locator("#pace-picker option")).to_have_text(["Rythme normal", "Rapide", "Instantané"])
    context.close()

"""Each game's renderer, fed the real game's view(seat) and clicked in a real browser: the pieces a rule
sentence names are on the page, and a click sends exactly the action text the rules list as legal."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ghostgames.games import get_game
from ghostgames.rules.contract import State
from tests.server.harness import ServerProcess

HARNESS = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/style.css"></head>
<body><main id="page"></main><script type="module">
import { setLanguage, t } from "/i18n.js";
window.show = async (game, view) => {
  await setLanguage("en");
  const module = await import(`/games/${game}.js`);
  window.acted = [];
  const names = ["Ann", "Ben", "Cy", "Di"];
  const renderer = module.createRenderer({ t, act: (text) => window.acted.push(text),
    seatName: (seat) => (seat === "ghost" ? t("thelast.ghost") : names[seat]), seat: () => view.seat });
  document.getElementById("page").replaceChildren(renderer.element);
  renderer.update(view);
};
window.ready = true;
</script></body></html>"""


@pytest.fixture()
def harness(server: ServerProcess, browser: Browser) -> Iterator[Callable[[str, dict[str, Any]], Page]]:
    """A page on the server's origin that draws one view with one game's renderer and records its actions."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/renderer-harness", lambda route: route.fulfill(body=HARNESS, content_type="text/html"))
    page.goto(server.http_url + "/renderer-harness")
    page.wait_for_function("() => window.ready")

    def show(game: str, view: dict[str, Any]) -> Page:
        page.evaluate("([game, view]) => window.show(game, view)", [game, json.loads(json.dumps(view))])
        return page

    yield show
    assert errors == []
    context.close()


def acted(page: Page) -> list[str]:
    return list(page.evaluate("() => window.acted"))


def play_until(state: State[Any], rng: random.Random, done: Callable[[State[Any]], bool], limit: int = 3000) -> None:
    for _ in range(limit):
        if done(state):
            return
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no such position found")


def test_geister_enemy_ghosts_all_look_alike_and_exits_are_marked_per_side(harness: Any) -> None:
    game = get_game("geister")
    state = game.new(2, None, 4)
    state.apply(0, "setup b1 c1 d2 e2")
    state.apply(1, "setup b5 c5 d6 e6")
    page = harness("geister", state.view(0))
    expect(page.locator(".board svg.ghost:has(.ghost-body.theirs)")).to_have_count(8)
    expect(page.locator(".board svg.ghost.unknown:has(.ghost-body.theirs)")).to_have_count(8)
    expect(page.locator(".board svg.ghost.good:has(.ghost-body.mine)")).to_have_count(4)
    expect(page.locator(".square.exit-mine")).to_have_count(2)
    expect(page.locator(".square.exit-theirs")).to_have_count(2)
    # Seat 0 plays up the board: its exits a6 and f6 are in the top row.
    expect(page.locator(".square").first).to_have_attribute("data-square", "a6")
    exits = page.eval_on_selector_all(".square.exit-mine", "els => els.map(e => e.dataset.square)")
    assert sorted(exits) == ["a6", "f6"]


def test_geister_a_good_ghost_on_an_exit_can_leave_the_board_under_the_escape_rule(harness: Any) -> None:
    game = get_game("geister")
    state = game.new(2, {"exit": "escape", "first": 0}, 4)
    state.apply(0, "setup b1 c1 d2 e2")
    state.apply(1, "setup b5 c5 d6 e6")
    data = state.to_json()
    data["pos"][4] = 30  # ghost 4 starts on b1 (good); put it on the a6 exit corner
    state = game.load(data)
    view = state.view(0)
    assert "a6 n" in view["legal"]
    page = harness("geister", view)
    page.click(".square[data-square=a6]")
    escape = page.locator("button.escape")
    assert len([m for m in view["legal"] if m.startswith("a6 ") and m.split()[1] in "nw"]) == 2
    expect(escape).to_have_count(1)  # two ways off the corner, one escape: one button
    escape.first.click()
    assert acted(page)[0] in ("a6 n", "a6 w")


def test_ghooost_miss_copy_joins_identical_ghosts_and_kitty_is_played_alone(harness: Any) -> None:
    game = get_game("ghooost")
    rng = random.Random(2)

    def wanted(state: State[Any]) -> bool:
        if state.outcome() is not None:
            return False
        seat = min(state.to_act())
        legal = state.view(seat)["legal"]
        return any(text.startswith("play ") and " X" in text for text in legal) and "play K" in legal

    found = None
    for seed in range(200):
        state = game.new(2, {"deck": "original"}, seed)
        try:
            play_until(state, rng, wanted, limit=400)
        except AssertionError:
            continue
        found = state
        break
    assert found is not None
    seat = min(found.to_act())
    view = found.view(seat)
    page = harness("ghooost", view)
    play_with_copy = next(text for text in view["legal"] if text.startswith("play ") and " X" in text)
    value = play_with_copy.split()[1]
    page.locator(f".hand .card[data-card='{value}']").first.click()
    page.locator(".hand .card[data-card=X]").first.click()
    page.locator(".hand .card[data-card=K]").first.click()  # Kitty drops the ghost and Miss Copy
    expect(page.locator(".hand .card.picked")).to_have_count(1)
    expect(page.locator("button.do-play")).to_have_text("Play K")
    page.click("button.do-play")
    assert acted(page) == ["play K"]
    expect(page.locator(".zone.cemetery .top-value")).to_contain_text(f"top value {view['top']}")
    expect(page.locator(".ghooost-seat")).to_have_count(2)


@pytest.mark.parametrize("replay", ["may", "must"])
def test_review_9_ghooost_offers_end_turn_exactly_when_done_is_legal(harness: Any, replay: str) -> None:
    from tests.games.ghooost.positions import build

    state = build(["9 9 5 13", "6 6 6 2"], cemetery="7", crypt="3 3 4 4 10 14 14", options={"replay": replay})
    state.apply(0, "play 9 9")
    view = state.view(0)
    page = harness("ghooost", view)
    done = page.locator("button.do-done")
    if replay == "must":
        expect(done).to_have_count(0)
        expect(page.locator(".ghooost-banner .optional-replay")).to_have_count(0)
        return
    expect(done).to_have_text("End turn")
    expect(page.locator(".ghooost-banner .optional-replay")).to_contain_text("play again or end it")
    expect(page.locator("button.do-take")).to_be_visible()  # the other choices stay on offer
    done.click()
    assert acted(page) == ["done"]


def test_the_last_marks_playable_cards_and_a_won_trick_offers_keep_or_swap(harness: Any) -> None:
    game = get_game("thelast")
    state = game.new(2, None, 9)
    rng = random.Random(3)
    play_until(state, rng, lambda s: s.view(0)["phase"] == "play" and 0 in s.to_act())
    view = state.view(0)
    page = harness("thelast", view)
    playable = sorted(text[5:] for text in view["legal"])
    marked = sorted(page.eval_on_selector_all(".hand .card.playable", "els => els.map(e => e.dataset.card)"))
    assert marked == playable
    expect(page.locator(".participant[data-who=ghost]")).to_be_visible()  # the ghost's pile with 2 players

    play_until(state, rng, lambda s: s.view(0)["phase"] == "decide" and 0 in s.to_act())
    view = state.view(0)
    page = harness("thelast", view)
    expect(page.locator("button.do-keep")).to_be_visible()
    card = page.locator(".hand .card.swappable").first
    name = card.get_attribute("data-card")
    card.click()
    assert acted(page) == [f"swap {name}"]
